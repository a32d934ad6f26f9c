"""Sentences that hold a yes/no question's words but do not fit what it asks closely enough to open "Yes." or "No."
the way a plain reading of their negation would (grounding.yesno_fit): a rule for a capacity the question does not
name, a minimum count the asked count falls short of, "some of" for a question about all, a question about anything
but what the sentence names, another act ordered by "before", a definition, a negated requirement of another act,
a closing ", not as ..." phrase, and a sentence about another kind of the asked thing. Made-up policies written after
the wrong openers of development data (dev d095, fresh5 y5-001, y5-005, y5-015, fresh6 y6-009, y6-014, y6-016,
dev_s15 ds15-015, the demo handbook's password and laptop questions); none is from the 18F golden test half."""

from __future__ import annotations

import pytest

from grounding.yesno import opener
from grounding.yesno_fit import (below_minimum, capacity_unstated, defines_only, listed_as_kind, names_excluded,
                                 orders_asked_act, other_act_ordered, other_owner, requirement_flip_fits, some_for_all,
                                 unasked_contrast, unneeded_other_act)


@pytest.mark.parametrize("question,sentence,unstated", [
    ("A partner invited me to its chat workspace for our project. Should I join with my home email?",
     "If you are invited to chat workspaces in your personal capacity, you must join them with your home email", True),
    ("I was invited in my personal capacity. Should I join with my home email?",
     "If you are invited to chat workspaces in your personal capacity, you must join them with your home email", False),
    ("Should I join with my home email?", "You must join chat workspaces with your work email", False),
])
def test_a_rule_for_a_capacity_the_question_does_not_name_is_unstated(question, sentence, unstated):
    assert capacity_unstated(question, sentence) is unstated


def test_a_rule_for_another_capacity_opens_nothing():
    assert opener("A partner invited me to its chat workspace for our project. Should I join with my home email?",
                  "If you are invited to chat workspaces in your personal capacity, you must join them with your "
                  "home email") == ""


@pytest.mark.parametrize("question,sentence,below", [
    ("Is one safety drill a year enough for warehouse staff?",
     "Warehouse staff should take part in at least two safety drills each year", True),
    ("Are three safety drills a year enough?", "Staff should take part in at least two safety drills each year", False),
    ("Is one badge photo enough?", "Staff should take part in at least two safety drills each year", False),
])
def test_a_count_under_a_stated_minimum_is_read(question, sentence, below):
    assert below_minimum(question, sentence) is below


def test_a_count_under_a_stated_minimum_opens_no():
    assert opener("Is one safety drill a year enough for warehouse staff?",
                  "Warehouse staff should take part in at least two safety drills each year") == "No."


@pytest.mark.parametrize("question,sentence,some", [
    ("Is all of the coaching new staff get mandatory?",
     "New staff get various coaching sessions, some of which are mandatory", True),
    ("Is the coaching new staff get mandatory?", "New staff get various coaching sessions, some of which are "
                                                 "mandatory", False),
    ("Are all the coaching sessions mandatory?", "All coaching sessions are mandatory", False),
])
def test_some_of_a_thing_answers_a_question_about_all_of_it(question, sentence, some):
    assert some_for_all(question, sentence) is some


def test_some_of_a_thing_opens_no_to_all():
    assert opener("Is all of the coaching new staff get mandatory?",
                  "New staff get various coaching sessions, some of which are mandatory") == "No."


@pytest.mark.parametrize("question,sentence,excluded", [
    ("Are the yearly safety courses held somewhere other than the Learning Portal?",
     "Safety courses are held through the Learning Portal", True),
    ("Are the yearly safety courses held somewhere other than the Learning Portal?",
     "Safety courses are not held through the Learning Portal", False),
    ("Are the yearly safety courses held through the Learning Portal?",
     "Safety courses are held through the Learning Portal", False),
])
def test_a_question_about_anything_but_what_the_sentence_names(question, sentence, excluded):
    assert names_excluded(question, sentence) is excluded


def test_naming_what_the_question_excludes_opens_no():
    assert opener("Are the yearly safety courses held somewhere other than the Learning Portal?",
                  "Safety courses are held through the Learning Portal") == "No."


@pytest.mark.parametrize("question,sentence,other", [
    ("Does the studio start filming before the contract is signed?",
     "Before we draft and sign a contract with a client, the studio usually spends a few hours meeting them", True),
    ("Do the other reviewers approve it before I do?",
     "We suggest sending the draft to your editor for review before routing it for approvals", True),
    ("Does the studio start filming before the contract is signed?",
     "The studio never starts filming before the contract is signed", False),
    ("Does the studio start filming?", "Before we sign a contract, the studio spends a few hours meeting them", False),
])
def test_another_act_ordered_by_before_is_read(question, sentence, other):
    assert other_act_ordered(question, sentence) is other


def test_another_act_ordered_by_before_opens_nothing():
    assert opener("Does the studio start filming before the contract is signed?",
                  "Before we draft and sign a contract with a client, the studio usually spends a few hours meeting "
                  "the client to see whether the studio is a good fit") == ""


@pytest.mark.parametrize("question,sentence,definition", [
    ("Can any employee join every reading circle?",
     "Reading circles are spaces where employees with shared interests can talk freely", True),
    ("Can any employee join every reading circle?", "Any employee can join a reading circle", False),
    ("Can any employee join every reading circle?",
     "Reading circles are groups that any employee can join", False),
])
def test_a_definition_not_stating_the_asked_act_is_read(question, sentence, definition):
    assert defines_only(question, sentence) is definition


def test_a_definition_opens_nothing():
    assert opener("Can any employee join every reading circle?",
                  "Reading circles are spaces where employees with shared interests can talk freely") == ""


@pytest.mark.parametrize("question,sentence,unneeded", [
    ("Can I write my locker code down?", "You do not need to change your locker code every month", True),
    ("Can I write my locker code down?", "You don't have to change your locker code, and never write it down", False),
    ("Can I write my locker code down?", "You do not need to write your locker code down", False),
    ("Must I change my locker code?", "You do not need to change your locker code every month", False),
    # the act not required is the question's own ("by staying late")
    ("Can I earn overtime by staying late?", "You are not required to stay late, but you can ask about overtime",
     False),
])
def test_a_negated_requirement_of_another_act_is_read(question, sentence, unneeded):
    assert unneeded_other_act(question, sentence) is unneeded


def test_a_negated_requirement_of_another_act_opens_no_no():
    assert opener("Can I write my locker code down?", "You do not need to change your locker code every month") != "No."


@pytest.mark.parametrize("question,kept", [
    ("Can any studio member create a project in the studio account?", False),
    ("Should I create the project under my own account?", True),     # "yourself" is the asker
    ("Can projects be created as yourself?", True),                  # named in the question
])
def test_a_closing_not_phrase_is_kept_only_when_the_question_names_it(question, kept):
    text = "Anyone can create projects in the studio account, as the studio, not as yourself"
    assert (unasked_contrast(question, text) == text) is kept


def test_a_closing_not_phrase_the_question_names_still_says_no():
    assert opener("Should I create the project under my own account?",
                  "Anyone can create projects in the studio account, and you should create them as the studio, not "
                  "as yourself") == "No."


def test_a_closing_not_phrase_with_a_preposition_negates_nothing():
    assert opener("Can any studio member create a project in the studio account?",
                  "Any studio member can create projects in the studio account, as the studio, not as yourself") \
        != "No."


def test_a_prohibition_about_another_kind_of_the_asked_thing_opens_no_no():
    assert opener("Can I use my personal tablet for work?",
                  "Do not let family members or housemates use your company tablet") == ""


@pytest.mark.parametrize("question,sentence,other", [
    ("Can I use my personal tablet for work?", "Do not let family members or housemates use your company tablet", True),
    ("Can I use my company tablet at home?", "Personal tablets may never be used for company work", True),
    ("Can I use my personal tablet for work?", "Personal tablets may never be used for company work", False),
    ("Can I use my tablet for work?", "Do not let family members use your company tablet", False),
])
def test_a_rule_about_the_employers_thing_is_about_another_than_the_askers(question, sentence, other):
    assert other_owner(question, sentence) is other


@pytest.mark.parametrize("question,sentence", [
    ("Do I have to take the safety badge training again every year?", "Both training must be retaken every year"),
    ("Can any studio member create a project in the studio account?",
     "Anybody can create projects in the studio account and you should always create them as the studio"),
])
def test_a_determiner_of_number_or_an_adverb_names_no_other_kind(question, sentence):
    from grounding.yesno import substituted
    assert not substituted(question, sentence)


def test_an_economy_class_rule_still_names_another_kind_than_business_class():
    from grounding.yesno import substituted
    assert substituted("Can I fly business class?", "Book economy class for all flights")


@pytest.mark.parametrize("question,sentence,listed", [
    ("Can receipts count as proof of purchase for my claim?",
     "Examples of proof of purchase include receipts, bank statements and invoices", True),
    ("Can receipts count as proof of purchase for my claim?",
     "Examples of proof of purchase include bank statements and invoices", False),
    ("Can I send receipts for my claim?", "Examples of proof of purchase include receipts", False),
])
def test_a_thing_listed_among_what_a_kind_includes_counts_as_it(question, sentence, listed):
    assert listed_as_kind(question, sentence) is listed


def test_a_thing_listed_among_what_a_kind_includes_opens_yes():
    assert opener("Can receipts count as proof of purchase for my claim?",
                  "Examples of proof of purchase include receipts, bank statements and invoices") == "Yes."


@pytest.mark.parametrize("question,sentence,orders", [
    ("Should I still add the badge to my locker profile?", "Add your badge to your locker profile", True),
    ("Can I add the badge to my locker profile?", "Add your badge to your locker profile", False),   # permission
    ("Should I still add the badge to my locker profile?", "Don't add your badge to your locker profile", False),
    ("Should I still add the badge to my locker profile?", "Remove your badge from your locker profile", False),
    # a light verb with a word of its object named; after a leading condition (fresh2's f2005)
    ("Should I make the sign-language interpreters panelists?", "Make interpreters panelists of the webinar.", True),
    ("Should I file the form?", "If you travel abroad, file the form with your manager.", True),
    ("Do I have to make a reservation?", "Make sure you bring a badge.", False),   # nothing of the object named
])
def test_an_imperative_of_the_asked_act_states_its_requirement(question, sentence, orders):
    assert orders_asked_act(question, sentence) is orders


def test_an_imperative_of_the_asked_act_opens_yes():
    assert opener("I lost my old badge. Should I still add the new badge to my locker profile?",
                  "Add your badge to your locker profile") == "Yes."


@pytest.mark.parametrize("question,asked,sentence,fits", [
    ("Do I have to attach receipts to my expense claim?", "must",
     "Receipts that match your travel plan are optional for the expense claim process", True),
    ("Am I required to create a shared calendar event saying where I'm working from?", "required",
     "[Optional] Some folks also create a shared event on their calendars", True),
    ("Do I have to wear a helmet outside?", "must", "Helmets are optional inside", False),   # "outside" unnamed
    ("Is smoking allowed outside?", "allowed", "Smoking is forbidden inside", False),        # a permission
])
def test_an_optional_thing_answers_a_requirement_without_the_asked_verb(question, asked, sentence, fits):
    assert requirement_flip_fits(question, asked, sentence) is fits


def test_an_optional_thing_opens_no_to_a_requirement():
    assert opener("Do I have to attach receipts to my expense claim?",
                  "Receipts that match your travel plan are optional for the expense claim process") == "No."


def test_an_imperative_after_an_emphatic_frame_orders_the_asked_act():
    # fresh13's f13-y10 (a development set): "be sure to balance ..." orders what "should I balance ...?" asks,
    # after a phrase before the question or not
    sentence = "If there is a crunch, be sure to balance it with taking time off"
    assert orders_asked_act("Should I balance it with time off?", sentence)
    assert orders_asked_act("As a supervisor, should I balance it with time off?", sentence)
    assert opener("As a supervisor, should I balance it with time off?", sentence) == "Yes."
    assert not orders_asked_act("Should I balance it with time off?", "Be sure to plan the time off early")
