"""Event conditions (grounding.event_cases): a question asking what a rule says when something happens to the asker,
and the sentence stating the rule for that event."""

from __future__ import annotations

import pytest

from grounding.event_cases import asked_event, states_event, without_event
from tests.grounding.helpers import make_page, offline_answer

PAYOUT = ("Up to 5 unused PTO days carry over into the next calendar year; any balance above 5 days is forfeited on "
          "January 1. Carried-over days must be used by March 31 or they expire.\n\n"
          "When you leave Tallgrass, any accrued and unused PTO is paid out in your final paycheck at your base rate, "
          "unless local law requires otherwise.\n\n"
          "Sick leave is separate from PTO. Every employee receives 10 paid sick days per calendar year.")


@pytest.mark.parametrize("question, expected", [
    ("What happens to unused PTO when I leave?", ("leav", "when I leave", False)),
    ("What should I do if I lose my badge?", ("lose", "if I lose", False)),
    # resigning is the event of leaving (s22): "When you leave Tallgrass, ..." states it
    ("What happens to my benefits after I resign?", ("leav", "after I resign", False)),
    ("Do I get paid if I'm late?", ("late", "if I'm late", False)),
    ("What happens if I don't return my laptop?", ("return", "if I don't return", True)),
    ("When do I get my laptop?", None),  # the question's own "When" asks for a time: no condition clause
    ("How many days of leave do I get?", None),
])
def test_the_event_a_question_states_as_its_case(question, expected):
    assert asked_event(question) == expected


def test_a_clause_stating_the_event_and_words_that_only_share_its_verb():
    assert states_event("When you leave Tallgrass, any accrued PTO is paid out.", "leav")
    assert states_event("Upon leaving, return your badge.", "leav")
    assert states_event("If an employee leaves, HR closes their accounts.", "leav")
    assert states_event("Leaving TTS > When it's time to leave TTS > 3. Review your benefits", "leav")  # a heading
    assert not states_event("Sick leave is separate from PTO.", "leav")  # the noun, in no clause
    assert not states_event("If you are on leave, call People Operations.", "leav")  # the noun after "on"
    # calibration q116: "after-hours" is a compound, not a clause opening on "after"
    assert not states_event("If you require approval after business hours, see the guide for after-hours and "
                            "emergency travel here.", "travel")


def test_an_event_that_does_not_happen_is_stated_by_the_verbs_negative():
    """"What happens if I don't return my laptop?": the rule for returning it ("When you leave Tallgrass, return
    your laptop") is not the case asked about; "Unreturned equipment may be deducted" is."""
    assert states_event("Unreturned equipment may be deducted from your final pay.", "return", True)
    assert states_event("Failure to return a badge is reported to Security.", "return", True)
    assert not states_event("When you leave Tallgrass, return your laptop within 10 business days.", "return", True)
    assert states_event("If you do not return your laptop, its cost is deducted from your final pay.", "return",
                        True)
    assert states_event("If you return your laptop late, its cost is deducted.", "return")


def test_the_clause_when_is_not_a_question_about_a_time():
    assert without_event("What happens to unused PTO when I leave?") == "What happens to unused PTO?"
    assert without_event("When do I get my laptop?") == "When do I get my laptop?"


def test_unused_pto_when_i_leave_is_answered_by_the_payout_rule(embedder):
    """The demo handbook, s14 new-user run: the carry-over rule (its dates given a bonus by the clause's "when") and
    "Sick leave is separate from PTO" ("leave" the noun) were quoted before the payout sentence; the answer is now
    the payout rule alone."""
    answer = offline_answer(embedder, "What happens to unused PTO when I leave?",
                            make_page(1, "Paid Time Off and Holidays", "Carryover and payout", PAYOUT))
    assert answer.startswith("When you leave Tallgrass, any accrued and unused PTO is paid out in your final paycheck")
    assert "carry over" not in answer and "Sick leave" not in answer


def test_quitting_and_resigning_are_the_event_of_leaving(embedder):
    """The s22 new-user run: "What happens to my unused PTO if I quit?" quoted the carry-over rule and "Sick leave is
    separate from PTO" after the payout rule, which states the event as "When you leave Tallgrass"."""
    assert asked_event("What happens to my unused PTO if I quit?").stem == "leav"
    assert asked_event("Do I keep my badge if I resign?").stem == "leav"
    assert states_event("When you leave Tallgrass, return your laptop.", "leav")
    assert states_event("If you quit, return your laptop.", "leav") and states_event("If you resign, ...", "leav")
    answer = offline_answer(embedder, "What happens to my unused PTO if I quit?",
                            make_page(1, "Paid Time Off and Holidays", "Carryover and payout", PAYOUT))
    assert answer.startswith("When you leave Tallgrass, any accrued and unused PTO is paid out in your final paycheck")
    assert "carry over" not in answer and "Sick leave" not in answer


def test_the_events_participle_naming_what_it_happened_to_states_it():
    """The s22 new-user run: "What should I do if I lose my laptop?" quoted the laptop refresh rules; the handbook says
    "A lost or stolen laptop is a security incident. Report it in #sec-incidents within 1 hour, ..."."""
    assert states_event("A lost or stolen laptop is a security incident.", "lose")
    assert states_event("A lost or stolen laptop is a security incident.", "steal")  # "stolen" read as its verb
    assert states_event("Any damaged equipment goes back to the IT Help Desk.", "damag")
    assert not states_event("Lost baggage is not reimbursed.", "lose")  # no determiner: a compound noun's use
    assert not states_event("Report it within 1 hour.", "lose")


def test_the_sentence_pointing_back_to_one_stating_the_event_states_it_too():
    from grounding.event_cases import stating_rows

    event = asked_event("What should I do if I lose my laptop?")
    rows = [("S1", 4, "A lost or stolen laptop is a security incident."),
            ("S1", 5, "Report it in #sec-incidents within 1 hour, then file a police report."),
            ("S1", 6, "IT provides a loaner laptop within 1 business day."),
            ("S2", 5, "Report it to your manager.")]  # another source's sentence 5: not after S1's 4
    assert stating_rows(rows, event) == {("S1", 4), ("S1", 5)}


def test_an_event_that_does_not_happen_is_stated_by_no_before_the_verbs_noun():
    """The s45 new-user run on the demo handbook: "What happens if my manager doesn't respond?" was refused; the
    handbook says "if there is no response after 3 business days, escalate in the #ask-people-ops Slack channel"."""
    assert states_event("Your manager approves or declines a request within 3 business days; if there is no response "
                        "after 3 business days, escalate in the #ask-people-ops Slack channel.", "respond", True)
    assert states_event("Purchases made without approval are not reimbursed.", "approv", True)
    assert not states_event("People Operations responds within 10 business days.", "respond", True)
    assert not states_event("There is no limit on responses to the survey.", "respond", True)
