"""grounding.fronted_topic: a message naming its topic first and asking about it with a pronoun."""

from __future__ import annotations

from grounding.fronted_topic import with_fronted_topic


def test_the_topic_takes_the_pronouns_place():
    assert with_fronted_topic("what about floating holidays, do those carry over?") == \
        "Do floating holidays carry over?"
    assert with_fronted_topic("What about sick days - do they carry over?") == "Do sick days carry over?"
    assert with_fronted_topic("And how about the laptop: can I keep it?") == "Can I keep the laptop?"


def test_other_messages_are_unchanged():
    for question in ("What about floating holidays?", "what about floating holidays, how many do I get?",
                     "Do they carry over?", "What is the hotel limit, and does it include taxes?"):
        assert with_fronted_topic(question) == question
