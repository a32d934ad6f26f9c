"""A question's word misspelled by a letter is read as the documents' word (grounding.subject_check,
grounding.sentence_rank): the s45 new-user run's "whats the milage rate ..." was refused."""

from __future__ import annotations

from grounding.sentence_rank import _respelled, _spelled


def test_a_subject_misspelled_by_a_letter_is_named():
    """grounding.subject_check: "milage" is named by a page saying "mileage"; "marriage" is not by "carriage"."""
    from grounding.lexical import content_terms
    from grounding.subject_check import _holds_one

    said = content_terms("Tallgrass reimburses mileage at $0.70 per mile. Carriage returns are free.")
    assert _holds_one(content_terms("milage"), said)
    assert not _holds_one(content_terms("marriage"), said)
    assert not _holds_one(content_terms("rate"), said)  # short words are not read as misspelled


def test_a_question_stem_no_sentence_holds_is_spelled_as_the_one_near_word():
    said = {"mileag": 2, "mile": 3, "reimburs": 1, "rate": 1}
    assert _spelled("milag", said) == "mileag"
    assert _spelled("mileag", said) == "mileag"
    assert _spelled("rat", said) == "rat"  # short: left as it is
    assert _spelled("parking", said) == "parking"  # nothing near


def test_a_word_the_models_vocabulary_holds_whole_is_never_respelled():
    """"Roughly how long does that one take to come through?" read "through" as "thorough" and quoted "Phase 3 should
    take two weeks, assuming the previous Phases were done thoroughly" (fresh38's f38-v04, a development set)."""
    from grounding.lexical import content_terms

    class Counting:  # the MiniLM tokenizer's counts for these words
        def count_tokens(self, words):
            return [{"through": 1, "milage": 2}[w] for w in words]

    said = {"thorough": 1, "mileag": 2, "phase": 1}
    assert _respelled("come through?", content_terms("come through"), said, Counting()) == content_terms("come through")
    assert _respelled("the milage rate", content_terms("milage rate"), said, Counting()) == {"mileag", "rate"}
    assert _respelled("the milage rate", content_terms("milage rate"), said, object()) == content_terms("milage rate")
