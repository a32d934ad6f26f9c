"""Yes/no questions asking whether something is a value ("Is the daily meal allowance $50?"), from the s12 new-user
run on the demo handbook: "Is the daily meal allowance $50?" opened "Yes." over "The daily meal allowance is $65",
and "Is the PTO carry-over limit 10 days?" was decided by a sentence stating no number of days."""

from __future__ import annotations

import pytest

from grounding.extractive import ExtractiveAnswerer
from grounding.yesno import opener
from grounding.yesno_count import states_asked_unit, value_differs
from tests.grounding.test_answer_forms import _page, _plan


def test_another_value_of_the_asked_unit_answers_no_and_the_same_value_does_not():
    sentence = "The daily lunch allowance is $40 per day of travel."
    assert value_differs("Is the daily lunch allowance $30?", sentence)
    assert opener("Is the daily lunch allowance $30?", sentence) == "No."
    assert not value_differs("Is the daily lunch allowance $40?", sentence)
    assert opener("Is the daily lunch allowance $40?", sentence) == "Yes."
    # another unit, or a question not asking whether something is a value, is not decided so
    assert not value_differs("Is the lunch break 30 minutes?", sentence)
    assert not value_differs("Can I expense a $30 lunch?", sentence)


def test_a_value_question_is_decided_by_the_sentence_stating_its_unit():
    assert states_asked_unit("Is the leave carry-over limit 10 days?", "Up to 4 unused leave days carry over.")
    assert not states_asked_unit("Is the leave carry-over limit 10 days?", "Carried-over days must be used by May 1.")
    question = "Is the leave carry-over limit 10 days?"
    page = _page(1, "Leave", "Carry-over", "Carried-over leave days must be used by May 1 or they expire. Up to 4 "
                                           "unused leave days carry over into the next calendar year.")
    text = ExtractiveAnswerer().compose(question, _plan(question, page))
    assert text.startswith("No. Up to 4 unused leave days carry over"), text


def test_one_reading_of_stated_numbers_serves_limits_and_value_questions():
    from grounding.yesno_limits import over_limit
    from grounding.yesno_count import stated_numbers

    said = "Up to two weeks, then 5 unused days, several years, $1,200 and a 15% tip."
    assert stated_numbers(said) == {"week": {2.0}, "day": {5.0}, "year": {2.0}, "$": {1200.0}, "%": {15.0}}
    assert stated_numbers(said, kinds=("amount",)) == {"$": {1200.0}}
    # a number written as a word is the same value as its digits: "two weeks" is not another value than 2 weeks
    assert not value_differs("Is the bereavement leave limit 2 weeks?", "Bereavement leave is up to two weeks.")
    assert value_differs("Is the bereavement leave limit 3 weeks?", "Bereavement leave is up to two weeks.")
    # limits read the largest number per unit of the same reading
    assert over_limit("Can I carry over 10 unused days?", "Up to 5 unused days carry over (4 days part-time).")
    assert not over_limit("Can I carry over 5 unused days?", "Up to 5 unused days carry over (4 days part-time).")


@pytest.mark.parametrize("question,expected", [
    ("Is it the same on the first day?", "No."),
    ("Is the allowance different on the first day?", "Yes."),
    ("Is it the same for contractors?", ""),  # the sentence does not name the asked case
])
def test_a_share_of_the_whole_answers_whether_a_case_is_the_same(question, expected):
    """s14 new user on the demo handbook: "What is the meal allowance?" then "Is it the same on the first day?" opened
    "Yes." over "On the first and last day of a trip you receive 75% of the daily allowance"."""

    sentence = "On the first and last day of a trip you receive 75% of the daily allowance."
    assert opener(question, sentence) == expected


def test_a_question_whether_someone_gets_a_value_answers_no_over_another_value():
    """The s44 breaker on the demo handbook: "Do hybrid employees get a $750 stipend?" opened "Yes." over "Hybrid
    employees receive a one-time stipend of $400". Asking whether someone gets a number of something asks for that
    value, as "Is the stipend $750?" does; an instance under a cap or a comparison is not such a question."""
    sentence = "Hybrid employees receive a one-time stipend of $400."
    assert opener("Do hybrid employees get a $750 stipend?", sentence) == "No."
    assert opener("Do hybrid employees get a $400 stipend?", sentence) == "Yes."
    assert value_differs("Do I get 20 days of paid time off?", "You get 18 days of paid time off per year.")
    assert not value_differs("Do I get 18 days of paid time off?", "You get 18 days of paid time off per year.")
    assert not value_differs("Can I expense a $300 stipend?", sentence)
    assert not value_differs("Do hybrid employees get more than $300?", sentence)
