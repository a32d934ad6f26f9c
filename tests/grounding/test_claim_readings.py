"""What the contradiction rules read of a sentence, stored at ingestion and read back at ask time (issue 20 point 3):
the stored reading equals the one made from the text, the rules find the same on it, and an ask with every reading
stored reads no sentence again."""

from __future__ import annotations

import itertools
import json

import pytest

import grounding.sentence_alignment as sentence_alignment
from grounding.claim_readings import from_row, reading, reading_row, readings_of_rows
from grounding.clash import clash, clash_read
from grounding.contradictions import detect_conflicts
from tests.grounding.test_contradictions import src

SENTENCES = [
    "The daily meal allowance is $65 per day.",
    "The daily meal allowance is $50 per day.",
    "Contractors may not use the lounge.",
    "Contractors may use the lounge.",
    "Pets are allowed in the office.",
    "Pets are prohibited in the office.",
    "The company was acquired by Facebook on January 5, 2020.",
    "The company was acquired by Apple on January 5, 2020.",
    "Le café de Bayamón ouvre à 9 h, about 3,600 visitors a year.",
    "Ｔｈｅ ｆｅｅ ｉｓ ＄５０ (FY2025), isn’t it?",
    "Submit GS-15 forms within two weeks; don't forget to sign them.",
    "No. 12 Squadron never flew after 1945 without a permit.",
    "",
]


def _stored(sentence: str):
    return from_row(sentence, json.loads(json.dumps(reading_row(sentence))))


@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_stored_reading_equals_the_one_made_from_the_text(sentence):
    made, stored = reading(sentence), _stored(sentence)
    assert stored.text == made.text
    assert (stored.tokens, stored.words, stored.terms, stored.values, stored.cues) == \
        (made.tokens, made.words, made.terms, made.values, made.cues)
    assert (stored.token_set, stored.counts, stored.value_keys) == (made.token_set, made.counts, made.value_keys)
    p, q = stored.polarity, made.polarity
    assert (p.words, dict(p.negated), p.plain, p.word_set, p.opposed) == \
        (q.words, dict(q.negated), q.plain, q.word_set, q.opposed)


def test_the_rules_find_the_same_on_stored_readings_as_on_the_texts():
    found = 0
    for a, b in itertools.permutations(SENTENCES[:-1], 2):
        for strong, versions in itertools.product((True, False), repeat=2):
            expected = clash(a, b, strong=strong, versions=versions)
            assert clash_read(_stored(a), _stored(b), strong=strong, versions=versions) == expected
            found += expected is not None
    assert found  # the pairs above include clashes of every rule kind


def test_readings_of_one_text_are_equal_whichever_way_read():
    assert _stored(SENTENCES[0]) == reading(SENTENCES[0]) and hash(_stored(SENTENCES[0])) == hash(SENTENCES[0])
    assert _stored(SENTENCES[0]) != reading(SENTENCES[1])


def test_readings_of_rows_pairs_sentences_with_their_rows_and_rejects_a_mismatch():
    rows = [reading_row(s) for s in SENTENCES[:2]]
    got = readings_of_rows(SENTENCES[:2], rows)
    assert list(got) == SENTENCES[:2] and got[SENTENCES[1]].values == reading(SENTENCES[1]).values
    assert readings_of_rows(SENTENCES[:3], rows) == {}
    assert readings_of_rows(SENTENCES[:2], None) == {}


def _sources():
    return [src("S1", "Meals while travelling. The daily meal allowance is $65.", doc=1),
            src("S2", "Meals while travelling. The daily meal allowance is $50.", doc=2)]


def test_detect_conflicts_reads_stored_readings_instead_of_the_text(embedder, monkeypatch):
    sources = _sources()
    plain = detect_conflicts(sources, embedder)
    assert plain and plain[0].values == ("$65", "$50")
    texts = ["Meals while travelling.", "The daily meal allowance is $65.", "The daily meal allowance is $50."]
    stored = {t: _stored(t) for t in texts}

    def unread(sentence):
        raise AssertionError(f"read from its text at ask time: {sentence!r}")

    monkeypatch.setattr(sentence_alignment, "reading", unread)
    assert detect_conflicts(sources, embedder, readings=stored) == plain


def test_detect_conflicts_uses_what_the_stored_reading_says(embedder):
    # the $50 sentence's stored reading says $65: read, not recomputed, so no value differs. The rules' findings are
    # cached per text (readings of one text are equal): this test's texts are its own, and the cache is cleared
    # before and after, so that no other test meets the lie
    honest, lie = "The stored daily meal allowance is $50.", "The stored daily meal allowance is $65."
    sources = [src("S1", lie, doc=1), src("S2", honest, doc=2)]
    clash_read.cache_clear()
    try:
        assert detect_conflicts(sources, embedder)  # read from the texts: $65 / $50
        clash_read.cache_clear()
        assert detect_conflicts(sources, embedder, readings={honest: from_row(honest, reading_row(lie))}) == []
    finally:
        clash_read.cache_clear()


def test_the_subject_rule_reads_the_values_it_is_given(monkeypatch):
    import grounding.subjects as subjects

    a, b = "The meal allowance in Boston is $75 per day.", "The meal allowance in Denver is $60 per day."
    expected = subjects.subject_difference(a, b, values=("$75", "$60"))
    assert expected == ("Boston", "Denver")
    known = {a: reading(a).values, b: reading(b).values}
    monkeypatch.setattr(subjects, "typed_values", lambda text: pytest.fail(f"values read again: {text!r}"))
    assert subjects.subject_difference(a, b, values=("$75", "$60"), known=known) == expected
