""""it" as the object of a short question's verb refers to what was asked before, however confidently the question
alone retrieves (grounding.followup_signals.OBJECT_IT): the s30 round's new user on the demo handbook asked "Do I have
to change it every 90 days?" after the password's length and got no "No."."""

from __future__ import annotations

from grounding.followup import follow_up, probe_queries

PREVIOUS = "How long does my password need to be?"


def _always_confident(query: str) -> float:
    return 0.9


def test_an_object_it_refers_back_without_a_probe():
    decided = follow_up("Do I have to change it every 90 days?", [PREVIOUS], confidence=_always_confident)
    assert decided.refers and decided.signal == "referring"
    assert "password" in decided.query
    assert probe_queries("Do I have to change it every 90 days?", [PREVIOUS]) == ()


def test_other_its_are_left_to_the_other_signals():
    # a subject "it" of an expletive, the name "GSA IT", and an "it" after a noun phrase the question names itself
    for question in ("Is it OK to work from a cafe?", "Will GSA IT send me a mouse?",
                     "Can I delete a message once I've posted it?"):
        assert follow_up(question, [PREVIOUS], confidence=_always_confident).signal != "referring", question
