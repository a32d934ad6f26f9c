"""grounding.yesno_schedule: a yes/no question asking a rate or a range of hours that the sentence states otherwise."""

from __future__ import annotations

import pytest

from grounding.yesno_schedule import hours_differ, rate_differs, stated_rates

QUARTERLY = "Fully remote employees are expected to visit a Tallgrass office at least once per quarter."
CORE = "All employees must be available during core hours of 10:00 a.m. to 3:00 p.m. Central Time."


def test_rates_are_read_in_times_per_day():
    assert stated_rates("once per quarter") == {round(1 / 91, 6)}
    assert stated_rates("twice a year") == {round(2 / 365, 6)}
    three = {round(3 / 7, 6), round(1 / 14, 6), round(1 / 30, 6)}
    assert stated_rates("3 times a week, every 2 weeks, monthly") == three
    assert stated_rates("every other month") == {round(1 / 60, 6)}
    assert stated_rates("Once the form is approved, you may travel.") == set()


@pytest.mark.parametrize("question, differs", [
    ("Do fully remote employees visit an office once per month?", True),
    ("Do fully remote employees visit an office quarterly?", False),
    ("Do fully remote employees visit an office once a quarter?", False),
    ("Do fully remote employees visit an office twice a year?", True),
    ("If I visit twice a year, who pays for the travel?", False),  # the rate is the case, not what is asked
])
def test_a_question_ending_on_another_rate_is_a_no(question, differs):
    assert rate_differs(question, QUARTERLY) is differs


@pytest.mark.parametrize("question, differs", [
    ("Are core hours 9 to 5?", True),
    ("Are core hours 9 a.m. to 5 p.m. Central?", True),
    ("Are core hours 10 to 3?", False),
    ("Are core hours 10am-3pm?", False),
    ("Is the carry-over 5 to 10 days?", False),  # not hours
])
def test_a_question_asking_other_hours_is_a_no(question, differs):
    assert hours_differ(question, CORE) is differs


def test_a_range_the_sentence_states_must_be_one_of_hours():
    assert not hours_differ("Are core hours 9 to 5?", "Requests take 2 to 4 business days.")


def test_a_number_of_another_unit_is_not_the_asked_one():
    """grounding.yesno_count.other_unit: "after 5 years" is not stated by "5 unused PTO days"."""
    from grounding.yesno_count import other_unit, stated_numbers

    asked = stated_numbers("How many PTO days do I get after 5 years?")
    assert other_unit(asked, "Up to 5 unused PTO days carry over into the next calendar year.")
    assert not other_unit(asked, "After five full years of service, the accrual rate rises to 2 days per month.")
    assert not other_unit({}, "Up to 5 unused PTO days carry over.")


def test_the_clause_doing_the_asked_action_decides():
    """grounding.yesno_answering.answering_clause: "Do I need to repay ...?" is answered by the clause saying "repay",
    not by the "Never use ..." clause sharing more of its nouns."""
    from grounding.yesno_answering import answering_clause

    sentence = ("Never use the corporate card for personal purchases; if this happens by mistake, report it to "
                "Finance within 5 business days and repay the amount.")
    assert answering_clause("Do I need to repay personal purchases on the corporate card?", sentence).strip() \
        .startswith("if this happens by mistake")
    assert answering_clause("Can I use the corporate card for personal purchases?", sentence) \
        .startswith("Never use the corporate card")


def test_other_days_of_the_week_than_the_asked_one_say_no():
    """The s46 breaker: "Are dogs allowed in the office on Mondays?" opened "Yes. Dogs are allowed in the office on
    Fridays ..."; a day within a stated run ("Monday to Friday") or a rule on other words is no such No."""
    from grounding.yesno import opener
    from grounding.yesno_schedule import weekday_differs

    dogs = "Dogs are allowed in the office on Fridays if they are house-trained."
    assert opener("Are dogs allowed in the office on Mondays?", dogs).startswith("No")
    assert not opener("Are dogs allowed in the office on Fridays?", dogs).startswith("No")
    open_days = "The office is open Mon-Fri, 8 a.m. to 6 p.m."
    assert weekday_differs("Is the office open on Saturday?", open_days)
    assert not weekday_differs("Is the office open on Wednesday?", open_days)
    # the sentence's day is said of other words ("in the office", not "from home"), or of every day
    assert not weekday_differs("Can I work from home on Fridays?",
                               "Hybrid employees work in the office on Tuesdays and Wednesdays.")
    assert not weekday_differs("Is the gym open on Sunday?", "The gym is open daily; classes run on Mondays.")
