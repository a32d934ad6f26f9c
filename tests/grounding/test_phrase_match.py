"""grounding.phrase_match: a sentence holding a two-word phrase of the question, word for word, first."""

from __future__ import annotations

from grounding.phrase_match import phrase_first, phrases
from grounding.scored_sentences import ScoredSentence

USE = ScoredSentence("Limited personal use is allowed, but company laptops are company property.", "S1", 0.775)
NEVER = ScoredSentence("Personal laptops and tablets may never be used to access Tallgrass systems.", "S3", 0.545)
CAR = ScoredSentence("Never leave a laptop unattended in a car.", "S1", 0.647)


def test_phrases_are_adjacent_content_words_stemmed():
    assert ("person", "laptop") in phrases("Personal laptops and tablets")
    assert ("person", "laptop") not in phrases("personal use of company laptops")


def test_a_sentence_holding_the_questions_phrase_comes_first_within_reach():
    out = phrase_first([USE, CAR, NEVER], "Can I use my personal laptop for work?")
    assert out[0].text == NEVER.text and out[0].score == USE.score and [s.text for s in out[1:]] == [USE.text, CAR.text]


def test_ranking_is_kept_when_the_best_holds_a_phrase_or_none_is_within_reach():
    best = ScoredSentence("Personal laptops need approval.", "S1", 0.8)
    assert phrase_first([best, NEVER], "Can I use my personal laptop for work?") == [best, NEVER]
    far = ScoredSentence(NEVER.text, "S3", 0.5)
    assert phrase_first([USE, far], "Can I use my personal laptop for work?") == [USE, far]


def test_a_best_sentence_without_the_phrases_words_keeps_its_place():
    """fresh2's f2001 (a development set): "Close boards rather than deleting them" answers "Should I delete our
    Trello board ...?"; "Trello boards can be private or public" holds the phrase but the best holds none of it apart
    (no "Trello"), so its "No." stays first."""
    close = ScoredSentence("Close boards rather than deleting them.", "S1", 0.7)
    trello = ScoredSentence("Trello boards can be private or public.", "S2", 0.6)
    assert phrase_first([close, trello], "Should I delete our Trello board when the project wraps up?") == \
        [close, trello]
