"""Which sentences of a source the offline answerer may quote (grounding.sentence_rank.quotable)."""

from __future__ import annotations

from grounding.sentence_rank import quotable


def test_a_sentence_about_the_document_itself_is_not_quotable():
    # "How do I cancel the transit benefit?" was answered "This page outlines how to sign up for and how to cancel
    # the transit benefit." (the development set): where the answer is, not what it is
    assert not quotable("This page outlines how to sign up for and how to cancel the transit benefit.", "sentence")
    assert not quotable("This guide explains how and why we use chat at work.", "sentence")
    assert quotable("This benefit is cancelled by clicking Withdraw from the program.", "sentence")
    assert quotable("This page's owner is the travel team, reachable at travel@example.org.", "sentence")
