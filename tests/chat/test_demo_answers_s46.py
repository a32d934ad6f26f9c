"""The s46 new-user trial and breaker on the demo handbook (`manage.py ask ... --domain handbook --json`): what the
asker sees, checked against the handbook's own sentences."""

from __future__ import annotations

import json

from django.core.management import call_command


def _ask(capsys, *questions):
    call_command("ask", *questions, "--domain", "handbook", "--json")
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_a_holiday_not_in_the_closed_list_is_answered_no_with_the_list(demo_domain, capsys):
    """"Is Veterans Day a company holiday?" quoted the rule for working on a holiday, no opener; the handbook lists
    "the following 11 paid company holidays" in a table without it. A listed one still opens "Yes." with its row."""
    asked = ("Is Veterans Day a company holiday?", "Is Veterans Day a paid holiday?",
             "Is Juneteenth a company holiday?")
    veterans, paid, juneteenth = (_ask(capsys, q)[0] for q in asked)  # each a conversation of its own
    for answer in (veterans, paid):
        assert answer["answer"].startswith("No. Tallgrass observes the following 11 paid company holidays [S1].")
        assert "- Holiday: Christmas Day; Date observed in 2025: Thursday, December 25 [S1]." in answer["answer"]
        assert not answer["abstained"]
    assert juneteenth["answer"].startswith("Yes. Holiday: Juneteenth; Date observed in 2025: Thursday, June 19")


def test_the_meal_allowance_on_the_last_day_is_the_share_of_the_daily_allowance(demo_domain, capsys):
    """Refused ("they do not state the amount for last"): "On the first and last day of a trip you receive 75% of the
    daily allowance" goes on about "The daily meal allowance is $65 per day of travel" two sentences before it."""
    (answer,) = _ask(capsys, "What is the daily meal allowance on the last day?")
    assert not answer["abstained"]
    assert answer["answer"].startswith("The daily meal allowance is $65 per day of travel [S1]. On the first and last "
                                       "day of a trip you receive 75% of the daily allowance [S1].")


def test_how_much_pto_is_answered_with_the_days_accrued(demo_domain, capsys):
    """"How much PTO do I get?" was read as asking a quantity, and quoted three sentences naming PTO without the 18
    days ("Part-time employees accrue PTO pro rata ...")."""
    (answer,) = _ask(capsys, "How much PTO do I get?")
    assert "Employees accrue 1.5 days of paid time off per month, which adds up to 18 days per calendar year [S1]." \
        in answer["answer"]


def test_a_country_the_documents_do_not_name_gets_the_rule_for_another_country(demo_domain, capsys):
    """"Can I work from Spain for a week?" was refused ("they do not say anything about Spain"), and "Can I work
    remotely from the UK?" refused too, while the remote-work policy says "Working from another country, even for one
    day, requires approval from People Operations at least 3 weeks in advance". A city the documents do not name is
    no country: "Can I work from Omaha for a week?" gets no such opener."""
    asked = ("Can I work from Spain for a week?", "Can I work remotely from the UK?",
             "Can I work from Omaha for a week?")
    spain, uk, omaha = (_ask(capsys, q)[0] for q in asked)  # each a conversation of its own
    for answer, name in ((spain, "Spain"), (uk, "the UK")):
        assert answer["answer"].startswith(f"The documents say nothing specific about {name}; in general:")
        assert "Working from another country, even for one day, requires approval from People Operations at least " \
               "3 weeks in advance" in answer["answer"]
        assert not answer["abstained"]
    assert "say nothing specific about Omaha" not in omaha["answer"]


def test_a_word_only_the_documents_keywords_hold_finds_that_document(demo_domain, capsys):
    """"How much vacation do I get?" opened with the travel policy's "On the first and last day of a trip you receive
    75% of the daily allowance": no sentence says "vacation", which the paid-time-off policy lists among its
    keywords."""
    (answer,) = _ask(capsys, "How much vacation do I get?")
    assert answer["answer"].startswith("Employees accrue 1.5 days of paid time off per month, which adds up to 18 "
                                       "days per calendar year")


def test_a_topic_named_first_and_asked_about_with_a_pronoun_is_a_yes_no_question(demo_domain, capsys):
    """"what about floating holidays, do those carry over?" got "each employee gets 2 floating holidays per calendar
    year" and no "No.": the message opened with "what"."""
    (answer,) = _ask(capsys, "what about floating holidays, do those carry over?")
    assert answer["answer"].startswith("No. Floating holidays must be requested in Meadow like PTO, do not carry over")


def test_the_sentence_naming_the_asked_thing_word_for_word_decides(demo_domain, capsys):
    """"Can I use my personal laptop for work?" quoted "Limited personal use, such as checking personal email ...,
    is allowed, but company laptops are company property" first (read as a yes, the s44 and s46 trials); "Personal
    laptops and tablets may never be used to access Tallgrass systems" names the personal laptop asked about."""
    (answer,) = _ask(capsys, "Can I use my personal laptop for work?")
    assert answer["answer"].startswith("No. Personal laptops and tablets may never be used to access Tallgrass "
                                       "systems [S")
