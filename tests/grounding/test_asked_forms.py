"""The quoted sentence must state the asked end of an excluding pair (final, not first; maximum, not minimum) and,
for a phone number or an e-mail address, hold one (grounding.asked_forms; fresh7 near misses: "How many days after
my last day will I receive my final paycheck?" quoted the first paycheck; "What is the phone number of the GSA
Incident Response team?" quoted a sentence pointing to a guide's numbers)."""

from __future__ import annotations

from grounding.asked_forms import (asked_form, asked_thing, asks_what_it_is, contrasted, contrasted_phrase,
                                   measures_other, points_elsewhere, states_form)
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

FINAL = "How many days after my last day will I receive my final paycheck?"


def _plan(question: str, text: str, title: str):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section="", version="v1", date="", text=text,
                           tokens=40, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_a_sentence_about_the_other_end_of_an_excluding_pair_is_contrasted():
    first = "You'll receive your first paycheck about three weeks after your start date."
    assert contrasted_phrase(FINAL, first) == "final paycheck"
    assert contrasted("What is the maximum amount I can claim?", "The minimum claim is $25.") == "maximum"
    assert contrasted("How many hours do part-time employees accrue?", "Full time employees accrue 4 hours.")


def test_a_sentence_naming_the_asked_end_or_no_end_is_not_contrasted():
    assert contrasted("When will I get my first paycheck?", "You'll receive your first paycheck in three weeks.") \
        is None
    # the sentence names both ends, or neither
    assert contrasted(FINAL, "Your first and final paychecks arrive two weeks after the pay period.") is None
    assert contrasted(FINAL, "Paychecks arrive every two weeks.") is None
    # the question names both ends
    assert contrasted("What are the first and last days of the pay period?", "The first day is a Sunday.") is None


def test_a_question_naming_both_ends_in_any_inflection_is_not_contrasted():
    """"... before a term appointment ends does PeopleOps start reaching out ...?" names both ends ("ends", "start"):
    the sentence saying "whose terms are about to end" answers it (tests/chat/test_acceptance_18f found it refused)."""
    assert contrasted("How many months before a term appointment ends does TTS PeopleOps start reaching out?",
                      "6-7 months before an employee's term ends, TTS PeopleOps will reach out with a list of staff "
                      "whose terms are about to end.") is None


def test_the_offline_answer_refuses_a_question_about_the_other_end(embedder):
    text = ("You'll receive your first paycheck about three weeks after your start date.\n"
            "Make sure your direct deposit details are correct in Employee Express.")
    answer = ExtractiveAnswerer(embedder).compose(FINAL, _plan(FINAL, text, "Pay"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "final paycheck" in answer, answer
    question = "How long after my start date will I receive my first paycheck?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Pay"))
    assert "three weeks" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_a_phone_number_question_needs_a_sentence_holding_a_phone_number():
    assert asked_form("What is the phone number of the GSA Incident Response team?") == "phone number"
    assert asked_form("Which email address do I send the form to?") == "e-mail address"
    assert asked_form("Can I call the help desk phone number after hours?") is None  # a yes/no question
    assert asked_form("How long is the probationary period?") is None
    assert states_form("phone number", "Call the IT Service Desk at 866-450-5250.")
    assert states_form("phone number", "Call (202) 501-1234 any time.")
    assert not states_form("phone number", "You can phone the IR team via the numbers listed in Section 3.1.1.")
    assert states_form("e-mail address", "Send it to gsa-ir@gsa.gov.")


def test_the_offline_answer_refuses_a_phone_number_it_cannot_quote(embedder):
    question = "What is the phone number of the GSA Incident Response team?"
    text = ("If you do not receive a timely acknowledgement of your report, you can phone the IR team via the "
            "numbers listed in Section 3.1.1 of the GSA IT Security Procedural Guide.\n"
            "Report incidents to the GSA Incident Response team by email.")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Security incidents"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "phone number" in answer, answer
    numbered = text + "\nYou can phone the GSA Incident Response team at 866-450-5250."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, numbered, "Security incidents"))
    assert "866-450-5250" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_a_sentence_saying_where_a_thing_is_found_does_not_state_it():
    assert asks_what_it_is("What is the registration code for the EAP website?")
    assert not asks_what_it_is("Where can I find the registration code for the EAP website?")
    assert asked_thing("What is the registration code for the EAP website?") == "registration code"
    assert points_elsewhere("The registration code can be found on the GSA InSight page.")
    assert points_elsewhere("The numbers are listed in Section 3.1.1 of the guide.")
    # a sentence that states a value is no mere pointer
    assert not points_elsewhere("Rates are listed in the table: $50 a day.")
    assert not points_elsewhere("The registration code is GSA.")


def test_the_offline_answer_refuses_what_it_can_only_say_where_to_find(embedder):
    question = "What is the registration code for the EAP website?"
    text = ("You can view EAP materials on the EAP website.\n"
            "Log in or register if it's your first time (the registration code can be found on the GSA InSight "
            "page).")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Employee Assistance Program"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "registration code" in answer, answer
    stated = text + "\nThe registration code for the EAP website is GSA."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, stated, "Employee Assistance Program"))
    assert "code for the EAP website is GSA" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_the_hours_of_another_thing_do_not_answer_how_many_hours_of_the_asked_one():
    question = "How many hours of comp time can I carry over to the next pay period?"
    assert measures_other(question, "You may carry up to 24 credit hours into the next pay period.")
    # the asked thing named, or no other thing counted, or a plain kind of time ("business days")
    assert not measures_other(question, "You can carry over up to 24 hours of comp time.")
    assert not measures_other(question, "Comp time must be used within 26 pay periods.")
    assert not measures_other("How many days of leave do I need to give notice?", "Give 3 business days notice.")
    assert not measures_other("How long is the probationary period?", "It lasts 12 calendar months.")


def test_a_sentence_saying_a_thing_is_pinned_somewhere_only_says_where_it_is():
    """fresh19r's "What is the keycode for the TTS Chicago office?" was answered "The keycode is pinned in #chitown"."""
    assert points_elsewhere("The keycode is pinned in #chitown.")
    assert not points_elsewhere("The keycode is 4521.")


def test_the_asked_thing_ends_where_an_article_opens_a_clause_about_it():
    question = "What is the largest honorarium a GSA employee may accept for speaking at a conference?"
    assert asked_thing(question) == "largest honorarium"
    assert asked_thing("What is the registration code for the EAP website?") == "registration code"
