"""Values written the British way, refused by the answer-type check on the s47 breaker's pages ("... but they do not
state the date or deadline" / "the amount" / "the phone number") while the sentence held them."""

from __future__ import annotations

import pytest

from grounding.asked_forms import states_form
from grounding.typed_values import states
from tests.grounding.helpers import make_page, offline_answer


@pytest.mark.parametrize("answer_type, sentence", [
    ("date", "Canteen price changes take effect on 1 February."),
    ("date", "The enrolment window runs from 3 November to 28 November."),
    ("date", "Bin collections are made on Mondays and Thursdays."),
    ("amount", "Tea costs 80p a cup."),
    ("amount", "Staff who use their own car are reimbursed 45p per mile."),
    ("amount", "Junior analysts may claim overtime at 1.5 times their hourly rate."),
    ("amount", "Hourly-paid staff are paid time and a half for hours worked beyond 40 in a week."),
    ("amount", "The Basic plan includes 10 GB of storage."),
])
def test_a_sentence_stating_the_value_the_british_way_answers(answer_type, sentence):
    assert states(answer_type, sentence)


@pytest.mark.parametrize("answer_type, sentence", [
    ("amount", "Meeting rooms have screens that show 1080p video."),
    ("date", "We have 3 Mayors on the board."),
    ("amount", "Overtime must be approved in advance by the shift supervisor."),
])
def test_what_only_looks_like_one_does_not(answer_type, sentence):
    assert not states(answer_type, sentence)


def test_an_extension_or_a_uk_number_is_a_phone_number():
    assert states_form("phone number", "If self-service fails, call the IT service desk on extension 4400.")
    assert states_form("phone number", "Call the depot on 0113 496 0000 before 9am.")
    assert not states_form("phone number", "Line #1145 is closed for repairs.")


def test_the_canteen_page_answers_when_and_how_much(embedder):
    text = ("Canteen price changes take effect on 1 February. Bin collections are made on Mondays and Thursdays. Tea "
            "costs 80p a cup.")
    page = make_page(1, "Canteen Rules", "", text)
    assert offline_answer(embedder, "When do canteen price changes take effect?", page).startswith(
        "Canteen price changes take effect on 1 February [S1].")
    assert offline_answer(embedder, "How much does tea cost?", page).startswith("Tea costs 80p a cup [S1].")
