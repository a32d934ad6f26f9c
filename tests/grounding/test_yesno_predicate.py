"""What a yes/no question asks of its subject (grounding.yesno_predicate): the adjective of an expletive question, a
restriction ("only") and a requirement asked with "have to" (grounding.yesno_scope.as_must). Made-up policies
written after wrong openers of the s15 round's extra development questions (evaluation/golden/18f_dev_s15.jsonl,
ds15-005, ds15-018, ds15-021); none is from the 18F golden test half."""

from __future__ import annotations

import pytest

from grounding.yesno import opener
from grounding.yesno_predicate import cost_denied, predicate_words, restriction_unstated
from grounding.yesno_scope import as_must


@pytest.mark.parametrize("clause,words", [
    ("Is it simple to edit several files in one request?", ["simple"]),   # any adjective before "to"
    ("Is it free to add partners?", ["free"]),
    ("Is it okay to ignore the backchannel?", []),                         # a modality, read by grounding.yesno_scope
    ("Is it necessary to sign the form?", []),
])
def test_the_adjective_of_an_expletive_question_is_its_predicate(clause, words):
    assert predicate_words(clause) == words


def test_a_sentence_not_stating_the_asked_adjective_gets_no_yes():
    question = "Is it simple to edit several files in one request?"
    assert opener(question, "You can continue to edit files from your branch and they are added to the request.") \
        == ""
    assert opener(question, "Editing several files in one request is simple.") == "Yes."


@pytest.mark.parametrize("sentence,unstated", [
    ("We charge our clients for our time and material costs, plus a fixed overhead.", True),
    ("We charge our clients only for our time.", False),
    ("Charges are limited to the time we spend.", False),
])
def test_a_restriction_asked_is_settled_only_by_a_sentence_stating_one(sentence, unstated):
    assert restriction_unstated("Do we bill client agencies only for our time?", sentence) is unstated


def test_a_question_asking_a_restriction_gets_no_yes_from_a_sentence_stating_none():
    assert opener("Do we bill client agencies only for our time?",
                  "We bill client agencies for our time and material costs, plus a fixed overhead.") == ""
    assert not restriction_unstated("Should I request the suite just in case?", "You may request the suite.")


def test_a_requirement_asked_with_have_to_is_the_opposite_of_optional():
    assert as_must("Do I have to attach documents?") == "Do I must attach documents?"
    question = "Do I have to attach supporting documents to my review?"
    assert opener(question, "Attaching supporting documents to your review is optional.") == "No."
    assert opener(question, "You must attach supporting documents to your review.") == "Yes."
    # the asked verb unnamed ("attach") but every word of the thing named: optional is said of that thing, "No."
    # (s16: grounding.yesno_fit.requirement_flip_fits; dev_s15's ds15-021 had no opener); a word of the thing unnamed
    # ("outside") still leaves no opener
    assert opener(question, "Supporting documentation is optional for the review process.") == "No."
    assert opener("Do I have to wear a helmet outside?", "Helmets are optional inside.") == ""


@pytest.mark.parametrize("clause,words", [
    ("Do I get paid for working on a holiday?", ["paid"]),      # a "get" passive: its participle is asked
    ("Will I get reimbursed for the taxi?", ["reimbursed"]),
    ("Do I get a laptop?", []),                                 # "get" with an object asks no predicate
])
def test_the_participle_of_a_get_passive_is_the_predicate(clause, words):
    assert predicate_words(clause) == words


def test_a_sentence_granting_something_else_than_the_asked_participle_opens_no_yes():
    # the demo handbook's "Yes." to holiday pay from a substitute day off
    sentence = "If your manager asks you to work on a holiday, you receive a substitute day off within 60 days"
    assert opener("Do I get paid for working on a holiday?", sentence) == ""
    assert opener("Do I get paid for working on a holiday?",
                  "If you work on a holiday, you get paid double for the hours you work") == "Yes."


@pytest.mark.parametrize("clause,sentence,denied", [
    ("Do I have to pay to take the safety course?", "You can take the safety course at no cost.", True),
    ("Will I need to pay for the parking pass?", "Parking passes are issued free of charge.", True),
    ("Do I have to pay to take the safety course?", "The safety course costs $40.", False),
    ("Do I have to take the safety course?", "You can take the safety course at no cost.", False),  # no payment asked
])
def test_a_cost_denied_answers_whether_one_must_pay(clause, sentence, denied):
    assert cost_denied(clause, sentence) is denied


def test_a_cost_denied_opens_no():
    # fresh2's f2008 had no opener (made-up words)
    assert opener("Do I have to pay to take the safety course?",
                  "If you are asked to take the safety course, you can take it at no cost here.") == "No."
    assert opener("Do I have to pay to take the safety course?", "The safety course costs $40.") == ""
