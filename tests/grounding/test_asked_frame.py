"""A value stated over another period than the rate a question asks is about a neighbouring thing (s20 near-miss
pass): "How many credit hours can I earn in a single pay period?" is not answered by a cap "at any given time"."""

from __future__ import annotations

from grounding.asked_frame import clashing_frame
from grounding.periods import asked_period, stated_periods


def test_a_question_asking_a_rate_names_its_period():
    assert asked_period("How many credit hours can I earn in a single pay period?") == "pay period"
    assert asked_period("How much annual leave do I build up every pay period?") == "pay period"
    assert asked_period("How many days of military leave do reservists get each year?") == "year"
    assert asked_period("How much administrative leave can I use in a calendar year?") == "year"
    assert asked_period("What does parking cost per hour?") == "hour"
    # a question asking no rate
    assert asked_period("How many credit hours can I have accrued at any one time?") is None
    assert asked_period("How long does a new Top Secret clearance take?") is None


def test_a_sentence_states_the_periods_its_values_hold_over():
    assert stated_periods("Between 3 and 15 years: 6 hours per pay period") == {"pay period"}
    assert stated_periods("You can have up to 24 credit hours accrued, at any given time.") == {"any"}
    assert stated_periods("You can receive 15 Military Leave days each year.") == {"year"}
    assert stated_periods("Employees are paid biweekly.") == {"pay period"}
    assert stated_periods("You can work up to 10 hours a day, 8 hours annually.") == {"day", "year"}
    assert stated_periods("Up to 7 days of leave.") == set()


def test_a_value_over_another_frame_than_the_asked_rate_clashes():
    question = "How many credit hours can I earn in a single pay period?"
    assert clashing_frame(question, ["You can have up to 24 credit hours accrued, at any given time."]) == "pay period"
    # a sentence about another thing stating the asked period does not rescue it
    assert clashing_frame(question, ["You can have up to 24 credit hours accrued, at any given time.",
                                     "Between 3 and 15 years: 6 hours per pay period"]) == "pay period"
    # one about the asked thing does
    assert clashing_frame(question, ["You can have up to 24 credit hours accrued, at any given time.",
                                     "You can earn up to 8 credit hours per pay period."]) is None


def test_a_value_over_the_asked_period_or_over_no_stated_period_does_not_clash():
    question = "How many days of military leave do reservists get each year?"
    assert clashing_frame(question, ["You can receive 15 Military Leave days each year for active duty."]) is None
    assert clashing_frame("How much administrative leave can I use in a calendar year?",
                          ["You can access up to 7 days of Administrative Leave during a calendar year."]) is None
    assert clashing_frame(question, ["Reservists get 15 days of military leave."]) is None  # no frame stated
    assert clashing_frame("How long does a new Top Secret clearance take?", ["6-8 months, at any given time"]) is None
    assert clashing_frame(question, []) is None
