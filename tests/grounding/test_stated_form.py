"""An answer to "Which email address ...?" holds one when the plan does (grounding.extractive_specifics.
with_stated_form): the s31 round's fresh31 set, written by a helper from 31 handbook pages, had two such questions
refused as "they do not state the e-mail address" though the address was planned (f31-44: the best sentence points
back at the address the one before it gives, "Also use this email if ..."; f31-50: the address stands in a sentence
ranked a little below the best one). Texts are made up for the tests."""

from __future__ import annotations

from grounding.extractive import ExtractiveAnswerer
from grounding.extractive_specifics import with_stated_form
from grounding.sentence_rank import ScoredSentence, with_sentences
from tests.grounding.test_asked_forms import _plan

CONTACT = ("## How to get in touch\n\n- Slack: #recruiting\n- Email:\n\n"
           "  - join@agency.example.gov - for applicants and other interested parties to contact the Recruiting "
           "Team. Also use this email if you'd like to send a job posting for review and for all hiring and "
           "onboarding related questions.\n")


def test_f31_44_a_sentence_pointing_back_at_this_email_is_quoted_with_the_one_that_gives_it(embedder):
    question = "Which email address should I use to reach the Recruiting team with hiring or onboarding questions?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, CONTACT, "Recruiting"))
    assert not answer.startswith("INSUFFICIENT_EVIDENCE"), answer
    assert answer.startswith("join@agency.example.gov - for applicants") and "Also use this email" in answer, answer


def test_f31_50_the_closest_sentence_holding_an_address_leads_when_no_chosen_one_holds_one(embedder):
    question = "Which email address takes questions about vendor agreements?"
    text = ("The Agreements Team coordinates vendor agreements for every office.\n"
            "Questions on agreements can be posted to #agreements in Slack or sent to agreements@agency.example.gov.\n"
            "Vendor agreements are renewed each year.")
    plan = with_sentences(_plan(question, text, "Agreements"), embedder)
    best = ScoredSentence("The Agreements Team coordinates vendor agreements for every office.", "S1", 0.8)
    renewed = ScoredSentence("Vendor agreements are renewed each year.", "S1", 0.75, position=2)
    stating = ScoredSentence("Questions on agreements can be posted to #agreements in Slack or sent to "
                             "agreements@agency.example.gov.", "S1", 0.65, position=1)
    ranked = [best, renewed, stating]
    assert with_stated_form(question, [best, renewed], ranked, plan, floor=0.6, limit=2) == [stating, best]
    # below the floor: nothing close holds an address, the chosen stay (and the answer then abstains)
    assert with_stated_form(question, [best, renewed], ranked, plan, floor=0.7, limit=2) == [best, renewed]
    # a question asking for no address: unchanged
    assert with_stated_form("Who coordinates vendor agreements?", [best], ranked, plan, floor=0.6, limit=2) == [best]


def test_f31_44_without_an_address_in_the_plan_the_answer_still_says_it_is_not_stated(embedder):
    question = "Which email address should I use to reach the Recruiting team with hiring or onboarding questions?"
    text = CONTACT.replace("join@agency.example.gov - for", "Use the form - for")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Recruiting"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "e-mail address" in answer, answer
