"""How a yes/no answer opens (grounding.yesno.opener): "No.", "Yes." or no opener when the deciding sentence does not
settle the question. The cases are a breaker's and a new user's on made-up policies and the demo handbook (none from
the 18F golden set's test half)."""

from __future__ import annotations

import pytest

from grounding.yesno import opener


@pytest.mark.parametrize("question,sentence,expected", [
    # a rule on one side of a quantity of the asker's unit says nothing of the asker's case...
    ("Can I book premium economy for a 4 hour flight?",
     "Flights longer than 6 hours of continuous flying time may be booked in premium economy.", ""),
    ("Can I accept a gift worth $50 from a supplier?", "Do not accept gifts or hospitality worth more than $75.", ""),
    ("Do I need a receipt for a $10 expense?", "An itemised receipt is required for any expense of $25 or more.", ""),
    # ... unless the question passes a limit, or lacks a required time
    ("Can I carry over 10 unused PTO days into next year?", "Up to 5 unused PTO days carry over into the next year.",
     "No."),
    ("I joined six months ago. Can I use parental leave?", "You need at least 12 months of service to use it.",
     "No."),
    # an antonym of the asked word turns the answer when the sentence names the rest of what is asked
    ("Is the office open on Sundays?", "The office is closed on Sundays.", "No."),
    ("Is smoking allowed inside the building?", "Smoking is forbidden inside the building.", "No."),
    ("Is personal use of the company laptop forbidden?", "Limited personal use of company laptops is allowed.", "No."),
    ("Is smoking allowed outside?", "Smoking is forbidden inside the building.", ""),
    # plain cases
    ("Is annual leave paid out when I leave?", "Your annual leave will be paid out.", "Yes."),
    ("Is award leave paid out when I leave?", "If you leave, award leave is not paid out.", "No."),
    ("Can I book business class on a 4-hour flight?", "Book economy class for all flights.", ""),
])
def test_a_yes_no_answer_opens_only_with_what_its_sentence_settles(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # a vague plural ("several", "a few") passes a limit of one (the s5 development set's finding)
    ("Does a cloud permit stay valid for several years?", "When a cloud permit is granted, it is limited to one "
     "year only.", "No."),
    ("Can I take a few days of jury leave?", "Jury leave is limited to one day only.", "No."),
    # ... and a quantity before the noun is another amount of the same thing, not another kind of it
    ("Is a cloud permit valid for one year?", "When a cloud permit is granted, it is valid for one year.", "Yes."),
])
def test_a_vague_plural_passes_a_limit_of_one_and_a_quantity_is_not_another_kind(question, sentence, expected):
    assert opener(question, sentence) == expected


def test_the_section_heading_counts_toward_what_the_sentence_names():
    # "You do not need a membership to access these" names too little of the asking clause on its own; under the
    # heading "Gym > Showers and lockers" it is about what is asked
    question = "Can I use the showers and lockers without paying for the gym?"
    sentence = "You do not need a membership to access these."
    assert opener(question, sentence) == ""
    assert opener(question, sentence, context="Gym > Showers and lockers") == "Yes."
    assert opener(question, sentence, context="Parking > Permits") == ""


@pytest.mark.parametrize("question,sentence,expected", [
    # a negation in the sentence's closing condition is the case it holds in, not its answer (as the question's
    # closing condition is dropped from its asking clause)
    ("Can I join a guild's chat channel even if I'm not a member of the guild?",
     "Feel free to join any guild chat channel, even if you are not a member of the guild.", "Yes."),
    ("Is award leave paid out when I leave?", "Award leave is not paid out if you leave the agency.", "No."),
    ("Can I telework from abroad?", "You may not telework from abroad unless your director approves it.", "No."),
])
def test_a_negated_closing_condition_of_the_sentence_does_not_turn_the_answer(question, sentence, expected):
    assert opener(question, sentence) == expected


@pytest.mark.parametrize("question,sentence,expected", [
    # the new user's doctor's note: the note is asked for only past 3 days; a bare "Yes." dropped the condition
    ("Do I need a doctor's note for sick leave?",
     "If you are sick for more than 3 consecutive working days, People Operations may ask for a doctor's note.",
     "In some cases."),
    # the asker's own quantity decides as before (a requirement past their 2 days settles nothing)
    ("Do I need a doctor's note if I'm sick for 2 days?",
     "If you are sick for more than 3 consecutive working days, People Operations may ask for a doctor's note.", ""),
    # a condition the question states, or one without a threshold, keeps the plain answer
    ("If I leave GSA, will my comp time be paid out?", "If you leave GSA, your comp time will be paid out.", "Yes."),
])
def test_a_yes_that_holds_only_past_an_unstated_threshold_says_in_some_cases(question, sentence, expected):
    assert opener(question, sentence) == expected
