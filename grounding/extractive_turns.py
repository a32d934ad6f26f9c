"""The extractive answerer's reading of a question in its conversation (grounding.extractive): the sentences ranked
for it with what it refers to, and when the previous topic must not answer it.

- An elliptical follow-up ("and for contractors?", "And what about sick days?") asks for what the question before it
  asked for (a length, how much one gets), not for whatever sentence is closest: it is ranked with that question.
- One naming another case instead of one of the previous question's ("What about travel comp time?" after "Is comp
  time paid out if I leave GSA?", "What about the public one?") is answered by a sentence holding that case
  (grounding.followup_reading.new_case), when one matches well enough.
- Any follow-up is answered, among sentences that match about equally, from the page the previous answer rested on,
  and not by repeating what it already quoted (grounding.followup_anchor).
- One adding a case ("And in high-cost cities?" after "What is the meal allowance?") keeps the subject asked before:
  the sentences holding it (grounding.followup_reading.previous_subject).
- A question retrieved with the previous question's words whose best sentence names none of its own was taken over
  by the previous topic ("How much is the mileage rate?" after a hotel question got the hotel limit): when its own
  words alone find a sentence, the answer rests on them; "Do they expire?" has no words of its own and keeps the
  conversation's, as does "Is there a maximum value?", which names only an attribute (grounding.followup.ATTRIBUTES);
  when they find none and nothing in it refers back ("Can I date a coworker?" after the gift limit: "No. Do not
  accept gifts ..."), it is refused.

No Django imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from grounding.followup_anchor import anchored, lifted_on_cited_page
from grounding.followup import ATTRIBUTES, GENERIC, elliptical, own_terms, refers_back
from grounding.followup_reading import asks_its_own, case_head, modifies_previous, names_head, new_case, \
    predicated_subject, previous_subject
from grounding.otherwise_case import otherwise_first
from grounding.lexical import asks_about_past, content_terms, without_period
from grounding.sentence_cues import numbers
from grounding.sentence_rank import ScoredSentence, rank_sentences
from grounding.types import ContextPlan
from grounding.typed_values import proportional_only

if TYPE_CHECKING:
    from grounding.extractive import ExtractiveAnswerer

__all__ = ["Turn", "in_conversation", "own_subject"]


class Turn(NamedTuple):
    """A question's ranking in its conversation.

    Attributes:
        ranked: the quotable sentences, best first (grounding.sentence_rank.rank_sentences).
        query: what they were matched against (the retrieval query, or the question alone when its own words
            answer it).
        previous: the conversation's previous question, "" when none was read.
        continues: True for an elliptical follow-up.
        topic: the previous question's subject terms a follow-up adding a case keeps (empty otherwise).
    """

    ranked: list[ScoredSentence]
    query: str
    previous: str
    continues: bool
    topic: frozenset[str]


def in_conversation(answerer: "ExtractiveAnswerer", question: str, asked: str, context: str, plan: ContextPlan,
                    vector: np.ndarray) -> Turn | None:
    """The ranking of ``asked`` (what is asked; ``question`` is the retrieval query, ``context`` the previous
    question's words it carries, ``vector`` its unit vector) in the conversation of ``plan`` (its history), or None
    when it is to be refused (see the module docstring). CPU-bound."""
    continues, topic, head = elliptical(asked), frozenset(), ""
    previous = next((t.text for t in reversed(plan.history) if t.role == "user"), "") if context or continues else ""
    ranked = rank_sentences(question, plan, answerer.embedder, overlap_weight=answerer.overlap_weight,
                            quantity_bonus=answerer.quantity_bonus, query_vector=vector,
                            asked=f"{previous} {asked}".strip() if continues or modifies_previous(asked) else asked)
    if previous and (topic := previous_subject(asked, previous)):
        kept = [s for s in ranked if topic & content_terms(s.text)]
        ranked, topic = (kept, topic) if kept and kept[0].score >= answerer.threshold else (ranked, frozenset())
    if continues and not topic and not asks_its_own(asked) and (case := new_case(asked, previous)):
        # "What about travel comp time?" after "Is comp time paid out if I leave GSA?": the answer is said of the
        # case named ("any unused travel comp time will be forfeited"), not the previous answer again
        kept = [s for s in ranked if case & (content_terms(s.text) | numbers(s.text))]  # "5": "five full years"
        if kept and (head := case_head(asked, case)) and not names_head(head, kept[0].text) and \
                (heads := [s for s in ranked if names_head(head, s.text)]) and heads[0].score >= answerer.threshold:
            # "What about my personal phone?" after a question on plugging one's own laptop in: "Personal laptops
            # cannot be connected ..." names the case's "personal" but of the laptop; "only approved smartphones and
            # tablets can be connected" names the phone (fresh23c's f23c-19)
            kept = heads + [s for s in kept if not names_head(head, s.text)]
        if kept and kept[0].score >= answerer.threshold and not proportional_only(kept[0].text):
            ranked = kept
        # ... but a case said only as a share ("Part-time employees accrue PTO pro rata ...", after "How many
        # vacation days do I get per year?") is quoted with the value it is a share of: the ranking stays whole
    mine = own_subject(asked)
    if context and ranked and not topic and len(mine) >= answerer.own_terms and not mine <= ATTRIBUTES \
            and not (predicated_subject(asked) or mine) & content_terms(ranked[0].text) \
            and not (head and names_head(head, ranked[0].text)):
        own = rank_sentences(asked, plan, answerer.embedder, overlap_weight=answerer.overlap_weight,
                             quantity_bonus=answerer.quantity_bonus)
        if own and own[0].score >= answerer.threshold:
            ranked, question = own, asked
        elif not refers_back(asked):
            return None
    if context or continues:  # the previous answer's page first, what it already said last (near ties only)
        # (of a case with a head noun, the head: "Personal laptops ..." quoted before is a repeat for "my personal
        # phone")
        named = (content_terms(head) if head else new_case(asked, previous)) if continues else frozenset()
        ranked = anchored(ranked, plan, answerer.threshold, case=named, goes_on=not continues)
        # "What if the plugin connects to Google Drive?": "Otherwise, ..." after "... as long as they don't
        # integrate with other SaaS products (e.g. Google Drive)" (grounding.otherwise_case)
        ranked = list(otherwise_first(ranked, plan, own_terms(asked), answerer.threshold))
        if context:  # "who approves it?": its own word on the page the conversation is about
            ranked = lifted_on_cited_page(ranked, plan, own_terms(asked), answerer.threshold)
    return Turn(ranked, question, previous, continues, topic)


#: Words by which a question asking about the past names the version rather than a subject ("What was it before the
#: current policy?", "under the old rules").
VERSION_WORDS = content_terms("current policy policies version versions handbook document documents rule rules "
                              "guideline guidelines page")


def own_subject(asked: str) -> frozenset[str]:
    """The content terms of what ``asked`` names of its own, less GENERIC ones; for a question asking about the past
    (grounding.lexical.asks_about_past), less the words naming the period or the version too ("What was it before the
    current policy?" names nothing of its own: it asks the previous question's subject's earlier value, and its own
    words alone matched "It replaces the January 2024 version of this policy", the s19 demo run)."""
    if not asks_about_past(asked):
        return content_terms(asked) - GENERIC
    return content_terms(without_period(asked)) - GENERIC - VERSION_WORDS

