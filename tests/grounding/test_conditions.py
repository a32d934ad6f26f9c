"""Quantity conditions (grounding.conditions): the tier of a rule a question's own quantity falls in."""

from __future__ import annotations

import pytest

from grounding.conditions import asked_quantity, case_fit

SHORT = "Requests of three days or fewer need at least 5 business days' notice."
LONG = "Requests longer than three days need at least 4 weeks' notice."


@pytest.mark.parametrize("question, expected", [
    ("How much notice do I need for a 5-day vacation?", (5.0, "day")),
    ("How much notice for a two-week trip?", (2.0, "week")),
    ("What if I take 10 business days off?", (10.0, "day")),
    ("How much notice do I need for time off?", None),
    ("Do I need 5 business days' notice for a 3-day trip?", None),  # two quantities: which is the case is not read
])
def test_the_quantity_a_question_states_as_its_case(question, expected):
    assert asked_quantity(question) == expected


def test_a_tier_admits_or_excludes_the_asked_quantity():
    assert case_fit(LONG, 5, "day") is True and case_fit(SHORT, 5, "day") is False
    assert case_fit(SHORT, 2, "day") is True and case_fit(LONG, 2, "day") is False
    assert case_fit(SHORT, 3, "day") is True and case_fit(LONG, 3, "day") is False  # the bound itself
    assert case_fit("Trips of 6 nights or more need a director's approval.", 7, "night") is True
    assert case_fit("Employees with fewer than 2 years of service accrue 4 hours.", 5, "year") is False


def test_other_units_are_compared_only_when_business_and_calendar_days_agree():
    assert case_fit(LONG, 2, "week") is True and case_fit(SHORT, 2, "week") is False
    # one week is 5 business days (not more than six) or 7 calendar days (more): not decided
    assert case_fit("Trips longer than six days need approval.", 1, "week") is None
    assert case_fit(LONG, 2, "hour") is None  # hours and days: no reading


def test_a_cap_or_a_requirement_is_not_a_case_bound():
    assert case_fit("Up to 5 unused PTO days carry over to the next year.", 8, "day") is None
    assert case_fit("Submit the form at least 10 days before you leave.", 3, "day") is None
    assert case_fit("Submit your report within 30 days of your return.", 40, "day") is None


def test_a_question_asking_past_or_below_a_bound_is_read_just_past_it_and_a_limit_is_no_case():
    """Development set d076: "Which Tock line do I use if I'm out for more than three weeks?" is the case of "Out of
    Office for 3 weeks or longer"; "beyond its first 120 days" is past a 30 - 120 day range."""
    value, unit = asked_quantity("Which Tock line do I use if I'm out for more than three weeks?")
    assert unit == "week" and 3 < value < 3.01
    assert case_fit("Extended Out of Office: for 3 weeks or longer continuously.", value, unit) is True
    assert case_fit("Details are from 30 - 120 days.", *asked_quantity("Is it extended beyond 120 days?")) is False
    assert case_fit("Between 3 and 15 years: 6 hours per pay period", 10, "year") is True
    assert case_fit("15+ years: 8 hours per pay period", 10, "year") is False
    assert asked_quantity("Can I carry over up to 10 days?") is None
