"""Whose action and which goal a sentence speaks of (grounding.yesno_roles), and a denied cost read as "free"
(grounding.yesno_predicate.cost_read_as_free). The cases are made-up policies written after the s11 fresh yes/no
set's and the development set's wrong openers (f008, f021, f007, d001, d111); none is from the 18F golden test half."""

from __future__ import annotations

import pytest

from grounding.yesno import opener
from grounding.yesno_predicate import cost_read_as_free
from grounding.yesno_roles import negated_only_in_purpose, purpose_elsewhere, purpose_goal, subject_only_acted_on

HOST_STEP = ("The easiest way to add a visitor to all of your team's boards is to create a folder for the team, "
             "and then put every board in that folder.")


def test_a_third_party_only_acted_on_gets_no_yes():
    """f008 opened "Yes." for "Can a guest in Mural create rooms?" from a host's step ("add a guest ... is to create a
    room"): the party asked about is what the host adds, not who creates."""
    question = "Can a visitor on the board create folders?"
    assert subject_only_acted_on(question, HOST_STEP)
    assert opener(question, HOST_STEP) == ""
    assert opener(question, "Visitors can create folders in any team space.") == "Yes."
    assert opener(question, "Visitors cannot create folders or publish templates.") == "No."


@pytest.mark.parametrize("sentence,acted_on", [
    ("Partners can be invited as visitors to the board.", True),     # after "as"
    ("You may allow a visitor to edit the board.", False),           # a verb granting permission
    ("A visitor can edit boards shared with them.", False),          # opens the clause, then a modal
    ("Only an active visitor sees the board.", False),               # an adjective right before it qualifies it
    ("Boards are shared with staff.", False),                        # the party is not named
])
def test_the_role_of_the_named_party_is_read_by_position(sentence, acted_on):
    assert subject_only_acted_on("Can a visitor edit the board?", sentence) is acted_on


def test_a_pronoun_subject_is_no_third_party():
    assert not subject_only_acted_on("Can I create folders?", HOST_STEP)
    assert not subject_only_acted_on("Is a visitor able to create folders?", HOST_STEP)


def test_a_requirement_of_another_goal_than_the_askers_gets_no_yes():
    """d001 opened "Yes." for "Do I need someone to sign off before I make a new public repository?" from "In order to
    verify your signed commits, you must associate the public key with your GitHub account": a requirement of
    another task."""
    sentence = "In order to verify your signed invoices, you must register the key with your new vendor account."
    question = "Do I need someone to sign off before I set up a new vendor account?"
    assert purpose_goal(sentence) == "verify your signed invoices"
    assert purpose_elsewhere(question, sentence)
    assert opener(question, sentence) == ""
    own = "To set up a new vendor account, you need a sign-off from your director."
    assert not purpose_elsewhere(question, own)
    assert opener(question, own) == "Yes."


def test_a_negated_question_is_not_answered_no_by_how_to_get_what_it_goes_without():
    """f021 opened "No." for "Is there a way to get Word without waiting for a license?" from "To get a license on your
    machine, you will need to put in a request": how to get the licence, not whether one can do without it."""
    question = "I need the drawing tool for two days. Is there a way to use it without waiting for a license?"
    sentence = "To get a license on your laptop, you will need to file a request."
    assert negated_only_in_purpose("Is there a way to use it without waiting for a license?", sentence)
    assert opener(question, sentence) == ""
    assert opener("Can I travel without a travel card?", "To travel, you need a travel card.") == "No."
    assert opener("Can I use the tool without a license?", "A license is required to use the tool.") == "No."


def test_a_denied_cost_answers_is_it_free_yes():
    """f007: "Is it free to add our agency partners to our Mural workspace?" / "Guests do not cost any money to add"
    opened "No." (the negation) where the sentence says free in other words."""
    question = "Is it free to add our partners to the whiteboard?"
    sentence = "Visitors do not cost any money to add, so add your partners!"
    assert cost_read_as_free(question, sentence) == "Visitors free to add, so add your partners!"
    assert opener(question, sentence) == "Yes."
    assert opener("Is the training free?", "The training is offered at no cost to staff.") == "Yes."
    assert opener("Is the training free?", "The training is not free.") == "No."
    # only a question asking "free" is read so: a denied cost stays a negation for any other
    assert cost_read_as_free("Can I add partners?", sentence) == sentence


def test_a_participle_before_the_asked_noun_qualifies_it_and_states_no_predicate():
    """d111 opened "Yes." for "Is the interagency agreement for my detail signed between me and the receiving agency?"
    from "We must have a signed interagency agreement": "signed" there names which agreement, it says nothing of who
    signs it."""
    question = "Is the vendor contract signed by both parties?"
    assert opener(question, "You must keep a signed vendor contract on file.") == ""
    assert opener(question, "The vendor contract is signed by both parties.") == "Yes."
    assert opener(question, "The vendor contract is not signed by the vendor.") == "No."


def test_f13_y01_a_predicate_before_a_preposition_of_the_subject_is_stated():
    """fresh13's f13-y01 (s32): "Do details and reassignments within TTS have to be openly competed?" got no opener
    from "All opportunities within TTS, including details and reassignments, should be openly shared and competed
    within the organization": "competed within" was read as "competed" qualifying a word of the question's subject,
    "within" (a preposition, which qualifies nothing). A participle before a noun of the subject still states
    nothing."""
    question = "Do transfers within the office have to be publicly announced?"
    assert opener(question, "All moves within the office, transfers included, should be publicly announced within "
                            "the team.") == "Yes."
    assert opener("Are transfers within the office announced?", "We keep announced transfers on file.") == ""
