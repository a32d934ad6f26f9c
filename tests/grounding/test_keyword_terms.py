"""grounding.keyword_terms: a question word no sentence holds, read as held by the sentences of documents listing it
among their keywords."""

from __future__ import annotations

from dataclasses import replace

from grounding.keyword_terms import with_keyword_terms
from grounding.lexical import content_terms
from grounding.types import Source

PTO = Source(label="S1", chunk_ids=(1,), document_id=1, title="Paid time off", section="Accrual", version="v1",
             date="", text="Employees accrue 18 days of paid time off per year.", score=0.5, tokens=20,
             keywords=("PTO", "vacation"))
TRAVEL = replace(PTO, label="S2", chunk_ids=(2,), document_id=2, title="Travel", keywords=("travel", "per diem"))


def test_a_word_no_sentence_holds_is_held_by_the_sentences_of_documents_listing_it():
    q = content_terms("How much vacation do I get?")
    terms = [content_terms(PTO.text), content_terms(TRAVEL.text)]
    said = set().union(*terms)
    out = with_keyword_terms(q, said, [PTO, TRAVEL], terms)
    assert content_terms("vacation") <= out[0] and not content_terms("vacation") & out[1]


def test_a_word_a_sentence_holds_is_left_to_the_sentences():
    q = content_terms("How many days of paid time off do I get?")
    terms = [content_terms(PTO.text), content_terms(TRAVEL.text)]
    assert with_keyword_terms(q, set().union(*terms), [PTO, TRAVEL], terms) == terms
