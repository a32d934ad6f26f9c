"""The s48 round's conversations on the demo handbook (`manage.py ask "Q1" "Q2" ... --domain handbook --json`, one
conversation): what the asker sees at each turn, checked against the handbook's own sentences."""

from __future__ import annotations

import json

from django.core.management import call_command


def _ask(capsys, *questions):
    call_command("ask", *questions, "--domain", "handbook", "--json")
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_the_last_day_after_the_meal_allowance_gets_its_share(demo_domain, capsys):
    """"And on the last day of the trip?" after "What is the meal allowance?" got "The documents say nothing specific
    about the last day of the trip; in general: The daily meal allowance is $65"; the policy says "On the first and
    last day of a trip you receive 75% of the daily allowance" (a share of "the daily allowance", asked as "the meal
    allowance"). Then "Is alcohol covered?" opened "Yes. The allowance covers breakfast, lunch, dinner and snacks"
    (the previous answer's word "covers"); the policy says alcohol is not reimbursed."""
    _, last_day, alcohol = _ask(capsys, "What is the meal allowance?", "And on the last day of the trip?",
                                "Is alcohol covered?")
    assert last_day["answer"].startswith("On the first and last day of a trip you receive 75% of the daily allowance "
                                         "[S1]. The daily meal allowance is $65 per day of travel [S1].")
    assert "nothing specific" not in last_day["answer"]
    assert alcohol["answer"].startswith("No. Alcohol is not reimbursed unless it is part of an approved customer "
                                        "entertainment event [S1].")


def test_after_five_years_is_the_tenure_increase(demo_domain, capsys):
    """"and after 5 years?" after "How many PTO days do I get?" got "Up to 5 unused PTO days carry over ..." (the same
    number, said of days); the handbook writes the case in words: "After five full years of service, the accrual rate
    rises to 2 days per month (24 days per year)"."""
    _, tenure = _ask(capsys, "How many PTO days do I get?", "and after 5 years?")
    assert tenure["answer"].startswith("After five full years of service, the accrual rate rises to 2 days per month "
                                       "(24 days per year) [S1].")


def test_what_was_it_before_is_the_superseded_value(demo_domain, capsys):
    """"what was it before?" after "What is the mileage rate?" was refused ("I could not find the answer ..."); the
    2024 policy's $0.67 held before the current $0.70."""
    current, before = _ask(capsys, "What is the mileage rate?", "what was it before?")
    assert "$0.70 per mile [S1]" in current["answer"]
    assert not before["abstained"]
    assert before["answer"].startswith("When you drive your personal car for business, Tallgrass reimburses mileage "
                                       "at $0.67 per mile [S"), before["answer"]
    # "what was it before?" after the meal allowance led with "The allowance covers breakfast, lunch, ..." (the
    # current version's sentence, no amount): it asks the amount again, of the version before
    _, meal = _ask(capsys, "What is the meal allowance?", "what was it before?")
    assert meal["answer"].startswith("The daily meal allowance is $50 per day of travel [S"), meal["answer"]


def test_whats_the_number_refers_back(demo_domain, capsys):
    """"what's the number?" after "How do I report harassment?" was refused: "what's" counted as a word of its own
    the harassment passage lacks, so the question was retrieved alone. With what it refers to, it is answered from
    the Code of Conduct's reporting channels."""
    _, number = _ask(capsys, "How do I report harassment?", "what's the number?")
    assert not number["abstained"]
    assert number["spans"] and all(s["source_label"] == "Code of Conduct and Harassment Reporting"
                                   for s in number["spans"])


def test_a_rule_of_another_kind_of_day_does_not_answer_no(demo_domain, capsys):
    """"Can I carry over unused vacation days?" opened "No. Sick days do not carry over ..." (the s48 new-user run);
    the PTO policy lets up to 5 unused PTO days carry over. Sick days are another kind of day: their rule settles
    nothing about vacation days, and the answer quotes the carry-over rule."""
    answer = _ask(capsys, "Can I carry over unused vacation days?")[0]["answer"]
    assert not answer.startswith("No."), answer
    assert "Up to 5 unused PTO days carry over into the next calendar year" in answer


def test_a_rule_for_all_employees_wherever_they_work_covers_remote_staff(demo_domain, capsys):
    """"Do they apply to remote staff too?" after "What are the core hours?" opened "The documents say nothing specific
    about remote staff; in general:" over "All employees, wherever they work, must be available during core hours";
    for contractors, whom "All employees" does not name, the opener stays."""
    _, remote = _ask(capsys, "What are the core hours?", "Do they apply to remote staff too?")
    assert "nothing specific" not in remote["answer"]
    assert "All employees, wherever they work, must be available during core hours" in remote["answer"]
    _, contractors = _ask(capsys, "What are the core hours?", "and for contractors?")
    assert contractors["answer"].startswith("The documents say nothing specific about contractors; in general:")
