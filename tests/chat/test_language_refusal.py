"""A question in another language than the documents' is refused with the reason (s6 new user): the documents are
in English, ask in English. English questions, answered or refused, are unchanged."""

import json

import pytest
from django.core.management import call_command

from grounding.answer import ABSTAIN_MESSAGE
from grounding.language import asked_in, vocabulary_share

pytestmark = pytest.mark.django_db


def ask(capsys, question):
    call_command("ask", question, "--domain", "handbook", "--json")
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("question,language", [
    ("Quel est le montant de l'indemnité journalière pour les repas ?", "French"),
    ("Combien de jours de congés payés ai-je par an ?", "French"),
    ("Wie viele Urlaubstage bekomme ich im Jahr?", "German"),
    ("Darf ich meinen Hund mit ins Büro bringen?", "German"),
])
def test_a_question_in_another_language_is_refused_saying_to_ask_in_english(demo_domain, capsys, question,
                                                                            language):
    out = ask(capsys, question)
    assert out["abstained"] is True and out["citations"] == []
    assert out["answer"].startswith(ABSTAIN_MESSAGE)
    assert out["answer"].endswith(f"Your question looks written in {language}, and the documents are in English: "
                                  "please ask it in English.")


@pytest.mark.parametrize("question", [
    "Does Tallgrass offer stock options and what is the vesting schedule?",
    "Can I bring my dog to the office?",
])
def test_an_english_question_that_is_refused_does_not_mention_the_language(demo_domain, capsys, question):
    out = ask(capsys, question)
    assert out["abstained"] is True
    assert "English" not in out["answer"] and "language" not in out["answer"]


def test_an_english_question_with_foreign_words_is_answered_as_before(demo_domain, capsys):
    out = ask(capsys, "What is the daily meal allowance, the per diem?")
    assert out["abstained"] is False and "$65" in out["answer"] and "English" not in out["answer"]


def test_the_vocabulary_signal_keeps_a_question_in_the_documents_words_from_the_note():
    vocabulary = {t: i for i, t in enumerate(["tripdesk", "ledger", "mileag", "allow", "meal", "daili"])}
    # a question the identifier cannot place with confidence, or whose words the documents use, gets no note
    assert vocabulary_share("TripDesk Ledgerly mileage", vocabulary) == 1.0
    assert asked_in("TripDesk Ledgerly mileage", 1.0) == ""
    assert asked_in("Wie viele Urlaubstage bekomme ich im Jahr?", vocabulary_share(
        "Wie viele Urlaubstage bekomme ich im Jahr?", vocabulary)) == "German"
    assert asked_in("Wie viele Urlaubstage bekomme ich im Jahr?", 0.8) == ""
