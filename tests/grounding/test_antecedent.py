"""A quoted sentence opening with a participle of the sentence before it ("Carried-over days must be used by March
31") is quoted with that sentence ("Up to 5 unused PTO days carry over ..."): the s24 round's demo run answered "Can
I carry them over?" after vacation days with the expiry alone (grounding.quoting.with_antecedent)."""

from __future__ import annotations

from grounding.quoting import names_again
from tests.grounding.helpers import make_page, offline_answer

CARRYOVER = ("Up to 5 unused PTO days carry over into the next calendar year; any balance above 5 days is forfeited "
             "on January 1. Carried-over days must be used by March 31 or they expire.\n\nWhen you leave Tallgrass, "
             "any accrued and unused PTO is paid out in your final paycheck.")


def test_a_participle_of_the_sentence_befores_verb_names_its_subject_again():
    first = "Up to 5 unused PTO days carry over into the next calendar year."
    assert names_again("Carried-over days must be used by March 31 or they expire.", first)
    assert names_again("Approved requests appear in Meadow.", "Your manager approves the request.")
    assert not names_again("Sick days do not carry over.", first)  # no participle opening
    assert not names_again("Unused days are paid out.", "Your manager approves the request.")  # another verb


def test_the_sentence_a_quoted_participle_stems_from_is_quoted_before_it(embedder):
    page = make_page(1, "Paid Time Off and Holidays", "Carryover and payout", CARRYOVER)
    answer = offline_answer(embedder, "When do carried-over days expire?", page)
    assert answer.startswith("Up to 5 unused PTO days carry over into the next calendar year"), answer
    assert "Carried-over days must be used by March 31 or they expire [S1]" in answer
    assert "final paycheck" not in answer  # another paragraph is not an antecedent


def test_a_sentence_in_another_paragraph_is_not_taken_as_the_antecedent(embedder):
    page = make_page(1, "Paid Time Off and Holidays", "Carryover and payout",
                     "Up to 5 unused PTO days carry over into the next calendar year.\n\nCarried-over days must be "
                     "used by March 31 or they expire.")
    answer = offline_answer(embedder, "When do carried-over days expire?", page)
    assert answer.startswith("Carried-over days must be used by March 31"), answer


def test_a_sentence_naming_what_the_one_before_says_is_quoted_with_it(embedder):
    # the s28 new user's office files (the 18F promotions page): "What is the time-in-grade requirement?" quoted
    # "This is called the “time-in-grade” requirement, ..." without the rule it names
    rule = ("For all Merit Promotion roles: employees must be at their current GS level for one year in order to "
            "apply for a position at the next highest GS level.")
    named = ("This is called the “time-in-grade” requirement, and an applicant must meet time-in-grade within 30 days "
             "of an application’s closing date.")
    assert names_again(named, rule) and names_again("It is also known as the TIG rule.", rule)
    assert not names_again("This is the last step.", rule)
    page = make_page(1, "Promotions", "Merit promotion", f"Merit promotion is for internal competition. {rule} {named}")
    answer = offline_answer(embedder, "What is the time-in-grade requirement for a merit promotion?", page)
    assert answer.startswith(rule[:-1] + " [S1]. This is called the “time-in-grade” requirement"), answer
