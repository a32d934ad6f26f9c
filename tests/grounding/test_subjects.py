"""Subjects of claims (grounding.subjects): two sentences contradict only when they speak about the same subject."""

from __future__ import annotations

import pytest

from grounding.clash import clash
from grounding.subjects import names, subject_difference


@pytest.mark.parametrize("a,b,values,subjects", [
    ("The meal allowance in Boston is $75.", "The meal allowance in Denver is $60.", ("$75", "$60"),
     ("Boston", "Denver")),
    ("Full-time employees get 25 vacation days.", "Part-time employees get 12 vacation days.", ("25", "12"),
     ("Full-time", "Part-time")),
    ("The nightly hotel limit is $225 per night before taxes in most cities.",
     "In high-cost cities (New York, Boston and Seattle) the limit is $300 per night.", ("$225", "$300"),
     ("most", "high-cost")),
    ("Our hotel limit is $225 a night in Chicago.", "Hotels cost at most $300 a night for staff in Denver.",
     ("$225", "$300"), ("chicago", "denver")),
    ("The Basic plan costs $10 a month.", "The Premium plan costs $25 a month.", ("$10", "$25"),
     ("Basic", "Premium")),
    ("This Agreement will remain in effect for 12 months.", "This Agreement will remain in effect for 30 days.",
     ("12 months", "30 days"), ("This Agreement", "This Agreement")),
    ("In 2023 the meal allowance was $50.", "In 2024 the meal allowance is $65.", ("$50", "$65"),
     ("(2023, 0, 0)", "(2024, 0, 0)")),
])
def test_different_subjects_are_told_apart(a, b, values, subjects):
    assert subject_difference(a, b, values=values) == subjects
    assert clash(a, b) is None


def test_a_polarity_clash_reads_the_subject_before_the_negation_only():
    assert subject_difference("Contractors may use the lounge.", "Employees may not use the lounge.",
                              polarity=True) == ("Contractors", "Employees")
    # the words swapped after the cue are the predicate: one subject, two verdicts
    assert subject_difference("Antarctica is not a suitable place for it.", "Antarctica is a good place for it.",
                              polarity=True) is None


@pytest.mark.parametrize("a,b", [
    ("The daily meal allowance is $65 per day of travel.", "The meal allowance is $50 per day."),
    ("Submit expense reports in Ledgerly within 30 days of the end of your trip.",
     "Submit expense reports in Ledgerly within 45 days of the end of your trip."),
    ("The meal allowance in Boston is $75.", "The meal allowance in Boston is $60."),
])
def test_the_same_subject_worded_alike_or_not(a, b):
    finding = clash(a, b)
    assert finding.kind == "value_mismatch"
    assert subject_difference(a, b, values=finding.values) is None


def test_a_revision_updates_its_as_of_date_and_speaks_of_itself():
    """Between two versions of one document, "as of 2024" travels with the value it updates, and "this agreement"
    is the document both versions are."""
    new, old = "The maximum salary is $191,900 in 2024.", "The maximum salary is $183,500 in 2023."
    assert subject_difference(new, old, values=("$191,900", "$183,500")) is not None
    assert subject_difference(new, old, values=("$191,900", "$183,500"), versions=True) is None
    assert clash(new, old, versions=True).values == ("$191,900", "$183,500")
    a, b = "This Agreement lasts 12 months.", "This Agreement lasts 30 days."
    assert clash(a, b) is None and clash(a, b, versions=True).values == ("12 months", "30 days")


def test_names_are_capitalised_words_after_the_first_and_acronyms():
    assert names("In Boston, the IT team and GSA pay $75 on Monday in March.") == {"boston", "gsa"}
    assert names("Employees may use the lounge.") == frozenset()
