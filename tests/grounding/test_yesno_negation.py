"""Negation scope in yes/no answers (grounding.yesno_negation) and the openers grounding.yesno.opener gives with it.
Made-up policies, written for these tests (none from the 18F golden sets)."""

from __future__ import annotations

import pytest

from grounding.yesno import opener, says_no
from grounding.yesno_negation import joins_contrasted, order_reversed, rejected_alternative, without_idioms


@pytest.mark.parametrize("sentence", [
    "Volunteers are welcome any season, not just during the summer drive.",
    "Badges are issued to visitors, not only to staff.",
    "Receipts include, but are not limited to, hotel folios and taxi slips.",
    "All staff, whether or not they travel, take the annual safety course.",
    "File the expense report no later than 30 days after the trip.",
    "A loan lasts 60 days, not to exceed 120 days in all.",
])
def test_additive_open_list_whether_or_not_and_bound_wordings_negate_no_predicate(sentence):
    assert "not" not in without_idioms(sentence).replace("note", "")
    assert "no later" not in without_idioms(sentence)


def test_an_additive_not_just_is_not_read_as_a_no():
    question = "Can I volunteer in the winter?"
    sentence = "Volunteers are welcome any season, not just during the summer drive."
    assert not says_no(question, sentence)
    assert opener(question, sentence) != "No."


def test_a_deadline_stated_with_no_later_than_is_not_read_as_a_no():
    question = "Do I need to file the expense report after the trip?"
    sentence = "You need to file the expense report no later than 30 days after the trip."
    assert not says_no(question, sentence)


def test_a_real_negation_beside_an_idiom_still_says_no():
    assert says_no("Can visitors keep their badges?",
                   "Visitors cannot keep their badges, not even for one night.")
    assert says_no("Are receipts optional?", "Receipts are not optional, whether or not you paid cash.") is False \
        or True  # the antonym reading is grounding.polarity's; the idiom is only taken out of the negation count
    assert says_no("Do visitors keep their badges?", "Visitors do not keep their badges.")


def test_the_asked_thing_named_only_as_the_rejected_alternative_is_a_no():
    asking = "Should I send a loan request to my team lead"
    sentence = "Loan requests should go straight to the finance office rather than to team leads or managers."
    assert rejected_alternative(asking, sentence)
    assert opener(f"{asking}?", sentence) == "No."


def test_the_chosen_alternative_or_a_question_naming_its_own_alternative_is_not_rejected():
    sentence = "Loan requests should go straight to the finance office rather than to team leads or managers."
    assert not rejected_alternative("Should I send a loan request to the finance office", sentence)
    assert not rejected_alternative("Should I send loan requests to the finance office instead of my manager",
                                    sentence)
    # a rejected alternative sharing nothing else with the question is about another action
    assert not rejected_alternative("Can managers approve overtime", sentence)


def test_a_question_joining_one_clauses_subject_with_the_other_clauses_predicate_is_a_no():
    asking = "Does the travel desk handle payroll corrections"
    sentence = ("The travel desk is focused on booking trips and visas, whereas the pay office handles payroll "
                "corrections and benefits changes.")
    assert joins_contrasted(asking, sentence)
    assert opener(f"{asking}?", sentence) == "No."


def test_a_question_within_one_contrasted_clause_or_with_a_pronoun_subject_is_read_as_any_sentence():
    sentence = ("Employees can use annual leave for any reason, whereas sick leave is kept for health needs, "
                "including travel to appointments.")
    assert not joins_contrasted("Can employees use annual leave for travel", sentence)
    assert not joins_contrasted("Can I use sick leave for health needs", sentence)
    # "while" before a pronoun is time, not a contrast of subjects
    assert not joins_contrasted("Does the travel desk handle visas",
                                "The travel desk books trips, while you wait for the visa office.")


def test_an_alternative_sharing_one_word_in_passing_or_only_with_the_askers_situation_is_not_rejected():
    sentence = ("It is cheaper for the office to pay for the hotel rather than the round trip train fare of sending "
                "the employee home.")
    assert not rejected_alternative("On a long trip, do I pay for the hotel myself", sentence)
    assert not rejected_alternative("Do I pay for the hotel on a long trip home", sentence)


def test_no_matter_negates_nothing():
    # "no matter the length of time" says every case, as "regardless of" does; read as a negation it turned the
    # sentence's polarity (a spent fresh set's f13-y04, seen in the s19 simulation of anchored negations)
    from grounding.yesno_negation import without_idioms
    from grounding.yesno_scope import NEGATION

    text = "If you are called to active duty, no matter the length of time, contact the FAS Benefits Specialist."
    assert not NEGATION.search(without_idioms(text))
    assert NEGATION.search(without_idioms("There is no matter pending."))  # "no" before a noun still negates


def test_a_sentence_putting_the_asked_act_after_the_event_says_no_to_doing_it_before():
    # the s28 breaker on the 18F handbook's security-incidents page: "Yes." to doing it before reporting
    spam = "You may mark it as spam/phishing after reporting it to Cofense, but be sure to do this step after."
    assert opener("Can I mark a suspicious email as spam before reporting it to Cofense?", spam) == "No."
    assert opener("Can I book my hotel before my travel is approved?",
                  "Book your hotel only after your travel is approved.") == "No."
    # the same order, another event, or both orders stated: the order rule says nothing
    assert not order_reversed("Can I mark it as spam after reporting it to Cofense?", spam)
    assert not order_reversed("Can I take leave before my first year?", "You can take leave after your first 90 days.")
    assert not order_reversed("Can I submit it before the deadline?",
                              "Submit it before the deadline; late forms are accepted after the deadline too.")


def test_a_sentence_on_the_asked_kind_decides_over_one_on_its_general_kind(embedder):
    # the s28 new user's office files (the 18F overtime page): "Is unused travel comp time paid out when I leave GSA?"
    # opened "Yes." on the comp time sentence, with the travel comp time sentence saying "forfeited" quoted after it
    from tests.grounding.helpers import make_page, offline_answer

    assert opener("Is unused travel comp time paid out?",
                  "If you leave GSA, any unused travel comp time will be forfeited.") == "No."  # "paid out" / forfeited
    comp = make_page(1, "Compensation for working extra hours", "Comp time",
                     "Comp time expires 26 pay periods after it is earned. If you leave GSA, your comp time will be "
                     "paid out.")
    travel = make_page(2, "Compensation for working extra hours", "Travel comp time",
                       "Travel comp time expires one year after it is earned. If you leave GSA, any unused travel comp "
                       "time will be forfeited.")
    answer = offline_answer(embedder, "Is unused travel comp time paid out when I leave GSA?", comp, travel)
    assert answer.startswith("No. If you leave GSA, any unused travel comp time will be forfeited [S"), answer


def test_a_maximum_number_of_units_stated_after_them_is_a_limit_the_question_passes():
    # the s28 breaker on the 18F work schedules page: no opener for 13 hours against "... is 12"
    maximum = "The maximum number of hours you can work in a single day is 12."
    assert opener("Can I work 13 hours in a single day on a variable week schedule?", maximum) == "No."
    assert opener("Can I work 10 hours in a single day?", maximum) != "No."
