"""The s47 new-user trial and breaker on the demo handbook (`manage.py ask ... --domain handbook --json`): what the
asker sees, checked against the handbook's own sentences."""

from __future__ import annotations

import json

from django.core.management import call_command


def _ask(capsys, *questions):
    call_command("ask", *questions, "--domain", "handbook", "--json")
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_a_word_misspelled_by_a_letter_finds_the_documents_passage(demo_domain, capsys):
    """"how many vacaton days do i get" was refused with "they do not say anything about vacaton", and "what is the
    minimum pasword length" with "I could not find the answer"; spelled right, both were answered."""
    vacation, password = (_ask(capsys, q)[0] for q in ("how many vacaton days do i get",
                                                       "what is the minimum pasword length"))
    assert vacation["answer"].startswith("Employees accrue 1.5 days of paid time off per month, which adds up to 18 "
                                         "days per calendar year [S1].")
    assert password["answer"].startswith("All Tallgrass passwords must be at least 14 characters long [S1].")
    assert not vacation["abstained"] and not password["abstained"]
    assert "vacaton" not in vacation["answer"] and "pasword" not in password["answer"]


def test_an_item_under_a_heading_excluding_it_answers_no(demo_domain, capsys):
    """"Are parking fines reimbursed?" opened "Yes. Parking and tolls are reimbursed with receipts"; the travel policy
    lists "Traffic or parking fines" under "Non-reimbursable expenses". Parking itself is still reimbursed."""
    fines, parking = (_ask(capsys, q)[0] for q in ("Are parking fines reimbursed?", "Is parking reimbursed?"))
    assert fines["answer"].startswith("No. Non-reimbursable expenses: Traffic or parking fines [S1].")
    assert parking["answer"].startswith("Yes. Parking and tolls are reimbursed with receipts [S1].")


def test_a_rate_before_a_date_is_the_earlier_versions(demo_domain, capsys):
    """"What was the mileage rate before March 2025?" got the current $0.70 (the version dated March 2025, read as the
    period asked about); the 2024 policy's $0.67 held before it. "... in 2024?" still asks for the 2024 version."""
    asked = ("What was the mileage rate before March 2025?", "What was the mileage rate in 2024?")
    before, in_2024 = (_ask(capsys, q)[0] for q in asked)
    for answer in (before, in_2024):
        assert answer["answer"].startswith("When you drive your personal car for business, Tallgrass reimburses "
                                           "mileage at $0.67 per mile [S"), answer["answer"]
