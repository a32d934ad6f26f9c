"""A follow-up's pronoun and what it stands for: a sentence about another kind of it settles no yes/no question
(grounding.yesno_kind.other_kind_of_referent), and a share of what the previous question asked for states that value
for the follow-up's case (grounding.yesno_count.share_of_asked)."""

from __future__ import annotations

from grounding.yesno_count import share_of_asked
from grounding.yesno_kind import other_kind_of_referent

CARRIED = "days paid time off"  # what "Do they carry over?" carries from "How many days of paid time off do I get?"


def test_another_kind_of_the_carried_noun_is_another_kind():
    assert other_kind_of_referent("Do they carry over?", CARRIED, "Sick days do not carry over.")
    assert other_kind_of_referent("Do they carry over?", CARRIED, "If you leave, your sick days are not paid out.")


def test_the_same_kind_named_by_its_abbreviation_or_unqualified_is_not():
    assert not other_kind_of_referent("Do they carry over?", CARRIED, "Up to 5 unused PTO days carry over.")
    assert not other_kind_of_referent("Do they carry over?", CARRIED, "Your PTO days carry over.")
    assert not other_kind_of_referent("Do they carry over?", CARRIED, "Carried-over days must be used by March 31.")
    # a sentence whose subject is another noun is left to the other subject rules
    assert not other_kind_of_referent("Do they carry over?", CARRIED, "Floating holidays do not carry over.")


def test_only_a_pronoun_subject_with_carried_words_is_read():
    assert not other_kind_of_referent("Do PTO days carry over?", CARRIED, "Sick days do not carry over.")
    assert not other_kind_of_referent("Do they carry over?", "", "Sick days do not carry over.")
    assert not other_kind_of_referent("Is it OK to carry days over?", CARRIED, "Sick days do not carry over.")


def test_a_share_of_the_value_asked_before():
    previous = "What is the daily meal allowance?"
    assert share_of_asked(previous, "On the first and last day of a trip you receive 75% of the daily allowance.")
    assert share_of_asked(previous, "You receive half of the meal allowance.")
    # a share of something else, the whole, or no share
    assert not share_of_asked(previous, "Tips up to 20% of the bill are reimbursed.")
    assert not share_of_asked(previous, "You receive 100% of the daily allowance.")
    assert not share_of_asked(previous, "The daily meal allowance is $65 per day of travel.")


def test_a_share_of_the_daily_allowance_is_one_of_the_meal_allowance():
    """The demo's "What is the meal allowance?" names no period: "75% of the daily allowance" is a share of it (the
    s48 conversation got "nothing specific about the last day of the trip"); a period the question names must match."""
    assert share_of_asked("What is the meal allowance?",
                          "On the first and last day of a trip you receive 75% of the daily allowance.")
    assert not share_of_asked("What is the hourly rate?", "Overtime pays 50% of the daily rate on top.")
    assert not share_of_asked("What is the hotel limit?", "You receive 75% of the daily allowance.")
    assert not share_of_asked("What is the meal allowance?", "You receive 75% of the daily rate.")


def test_f23c_20_a_verb_of_the_question_is_no_carried_noun():
    """fresh23c's f23c-20 (a development set): "Does that apply to direct messages too?" lost its "Yes." when "This
    policy applies ..." was read as a kind of policy the question's "apply" names."""
    assert not other_kind_of_referent("Does that apply to direct messages too?", "Slack policy messages",
                                      "This policy applies to all types of Slack communications.")


def test_an_adverb_before_the_carried_noun_names_no_other_kind():
    """The demo's "Do they get internet reimbursed?" after "and for remote employees?": "Fully remote employees" are
    the remote employees."""
    assert not other_kind_of_referent("Do they get internet reimbursed?", "home office stipend remote employees",
                                      "Fully remote employees are reimbursed up to $50 per month for home internet.")

