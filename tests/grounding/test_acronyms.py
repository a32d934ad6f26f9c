"""Acronyms the documents define (grounding.acronyms): a question saying "PTO" matches "paid time off"."""

from __future__ import annotations

from grounding.acronyms import definitions, with_expansions
from grounding.lexical import content_terms


def test_definitions_written_either_way_are_read_and_nothing_is_guessed():
    found = definitions([
        "This policy explains how employees earn, request and use paid time off (PTO), sick days and holidays.",
        "The Family and Medical Leave Act (FMLA) gives you 12 unpaid weeks.",
        "Bring your PIV (Personal Identity Verification) card.",
        "Ask the IT Help Desk (ITHD) or your manager.",  # "IT Help Desk": initials I, H, D do not spell ITHD
        "Use GSA systems only.",  # no definition
    ])
    assert found == {"pto": content_terms("paid time off"), "fmla": content_terms("Family Medical Leave Act"),
                     "piv": content_terms("Personal Identity Verification")}


def test_an_acronym_defined_two_ways_is_left_out():
    assert definitions(["paid time off (PTO)", "Portland Transit Office (PTO)"]) == {}


def test_a_sentence_saying_the_words_holds_the_acronym():
    aliases = {"pto": content_terms("paid time off")}
    accrual = content_terms("Employees accrue 1.5 days of paid time off per month")
    assert "pto" in with_expansions(accrual, aliases)
    assert with_expansions(content_terms("Time off is approved by your manager"), aliases) == \
        content_terms("Time off is approved by your manager")
