"""The follow-up probe (chat.followup_query): how confidently a short question retrieves alone and with the previous
question's terms, on the demo handbook's index."""

from __future__ import annotations

from chat.followup_query import followup_probe
from grounding.followup import GAIN, follow_up, probe_queries
from knowledge.selectors import domain_token


def _decide(domain, embedder, question: str, previous: str):
    probes = probe_queries(question, [previous])
    confidences = followup_probe(domain=domain.pk, token=domain_token(domain=domain), queries=probes,
                                 vectors=embedder.embed(list(probes)))
    return follow_up(question, [previous], confidence=confidences.__getitem__), confidences, probes


def test_a_new_short_question_does_not_borrow_the_previous_topics_confidence(demo_domain, embedder):
    """The s15 new-user run: "Can I date a coworker?" after "What's the gift limit?" was retrieved with "gift limit":
    those words found the gift rule again, a gain the question's own words had no part in. Only what holds a word the
    question names of its own counts for the question with the previous terms."""
    decision, confidences, probes = _decide(demo_domain, embedder, "Can I date a coworker?", "What's the gift limit?")
    assert len(probes) == 2 and confidences[probes[1]] - confidences[probes[0]] < GAIN
    assert not decision.refers and decision.query == "Can I date a coworker?"


def test_a_short_follow_up_whose_words_the_previous_topic_holds_still_refers_back(demo_domain, embedder):
    """"Who is eligible?" after parental leave (s13: a gain of 0.33) is retrieved with "parental leave": the
    passage saying who is eligible for it holds the question's word."""
    decision, _, _ = _decide(demo_domain, embedder, "Who is eligible?", "How long is parental leave?")
    assert decision.refers and "parental" in decision.query
