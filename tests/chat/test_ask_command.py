"""`manage.py ask --json`: the contract other checks rely on."""

import json

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def ask(capsys, *args):
    call_command("ask", *args)
    return capsys.readouterr().out


def test_ask_json_contract(demo_domain, capsys):
    out = json.loads(ask(capsys, "What is the daily meal allowance?", "--domain", "handbook", "--json"))
    assert set(out) >= {"answer", "abstained", "citations", "invalid_citations", "sources", "notes", "budget",
                        "dropped"}
    assert out["abstained"] is False and "$65" in out["answer"]
    cited = {c["label"]: c for c in out["citations"]}
    by_label = {s["label"]: s for s in out["sources"]}
    meal = next(c for c in out["citations"] if "$65" in c["cited_text"])
    assert meal["title"] == "Travel and Expenses Policy" and meal["version"] == "2025-03"
    assert meal["date"] == "2025-03-01" and meal["section"] == "Meals"
    assert meal["chunk_id"] == by_label[meal["label"]]["chunk_id"]
    assert set(cited) <= set(by_label) and out["invalid_citations"] == []
    assert set(by_label[meal["label"]]) == {"label", "chunk_id", "title", "section", "version", "date", "score",
                                            "tokens", "location", "source_label"}
    # a Markdown page has no pages: its place is its title alone
    assert (meal["location"], meal["source_label"]) == ({}, "Travel and Expenses Policy")
    assert out["budget"]["total"] <= out["budget"]["limit"]
    # the support check: every quoted sentence is found in its cited source, and every factual sentence is cited
    assert out["support"]["coverage"] == 1.0
    assert [s["status"] for s in out["support"]["sentences"]] == ["supported"] * len(out["support"]["sentences"])
    assert sum(s["tokens"] for s in out["sources"]) == out["budget"]["sources"]
    assert all(d["reason"] in {"below_threshold", "duplicate_of", "over_budget", "superseded"} for d in out["dropped"])


def test_ask_abstains_when_the_documents_do_not_hold_the_answer(demo_domain, capsys):
    out = json.loads(ask(capsys, "Does Tallgrass offer stock options and what is the vesting schedule?",
                         "--domain", "handbook", "--json"))
    assert out["abstained"] is True and out["citations"] == []
    assert out["answer"].startswith("I could not find the answer to this question in the documents.")


def test_ask_plain_output_lists_citations(demo_domain, capsys):
    out = ask(capsys, "How often are laptops replaced?", "--domain", "handbook")
    assert "36-month refresh cycle" in out
    assert "Equipment and Laptop Policy" in out


@pytest.mark.parametrize("question,domain,message", [
    ("", "handbook", "The message is empty"),
    ("   ", "handbook", "The message is empty"),
    ("What is PTO?", "nope", r"Unknown domain 'nope'\. Known domains: (.*, )?handbook"),
    ("x" * 5000, "handbook", "the limit is 4,000 characters"),
])
def test_ask_bad_input_exits_non_zero_with_a_clear_message(demo_domain, question, domain, message):
    with pytest.raises(CommandError, match=message):
        call_command("ask", question, "--domain", domain, "--json")


def test_b04_ask_json_budget_says_how_tokens_were_counted(demo_domain, capsys):
    out = json.loads(ask(capsys, "What is the daily meal allowance?", "--domain", "handbook", "--json"))
    assert out["budget"]["counting"] == "exact" and out["budget"]["factor"] == 1.0  # the offline answerer: no model


def test_several_questions_are_one_conversation_one_json_object_per_line(demo_domain, capsys):
    from chat.models import Conversation

    lines = ask(capsys, "What is the nightly hotel limit?", "How long is paid parental leave?", "--domain",
                "handbook", "--json").splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["conversation"] == second["conversation"]
    assert Conversation.objects.get(pk=first["conversation"]).messages.count() == 4
    assert "$225" in first["answer"] and "16 weeks" in second["answer"]
    # each line names its question (the s43 new user could match lines to questions only by their order)
    assert (first["question"], second["question"]) == ("What is the nightly hotel limit?",
                                                       "How long is paid parental leave?")


def test_ask_says_on_stderr_that_it_loads_the_model_and_keeps_stdout_for_answers(demo_domain, capsys, monkeypatch):
    from grounding import embeddings

    class Unloaded:
        loaded = False

        def __init__(self, inner):
            self.inner, self.loads = inner, 0

        def load(self):
            self.loads += 1

        def __getattr__(self, name):
            return getattr(self.inner, name)

    unloaded = Unloaded(embeddings.default_embedder())
    monkeypatch.setattr(embeddings, "default_embedder", lambda: unloaded)
    call_command("ask", "What is the daily meal allowance?", "--domain", demo_domain.slug, "--json")
    out, err = capsys.readouterr()
    assert "Loading the embedding model" in err and unloaded.loads == 1
    assert len(out.strip().splitlines()) == 1 and json.loads(out)["answer"]  # stdout: the JSON line only


def test_a_question_the_chat_would_refuse_is_refused_before_the_model_loads(demo_domain, capsys, monkeypatch):
    # s9 new user: a question over the limit waited about 10 s for the model, then was refused
    from grounding import embeddings

    class Unloaded:
        loaded = False
        loads = 0

        def load(self):
            self.loads += 1

    unloaded = Unloaded()
    monkeypatch.setattr(embeddings, "default_embedder", lambda: unloaded)
    with pytest.raises(CommandError, match="the limit is 4,000 characters"):
        call_command("ask", "What is PTO?", "x" * 5000, "--domain", demo_domain.slug)
    assert unloaded.loads == 0 and "Loading the embedding model" not in capsys.readouterr().err


def test_a_client_id_too_long_for_the_follow_ups_is_refused_before_anything_is_asked(demo_domain, capsys):
    """The s22 break run: with a 63-character --client-id, the first question was answered and stored, then the
    second failed on its derived id "<id>:1" (65 characters), blaming the user's id; the derived ids are checked
    first, and the message says how long the id may be."""
    from chat.models import Message

    before = Message.objects.count()
    with pytest.raises(CommandError, match=r"With 2 questions, --client-id may have at most 62 characters"):
        call_command("ask", "What is the meal allowance?", "And for customers?", "--domain", demo_domain.slug,
                     "--json", "--client-id", "c" * 63)
    assert Message.objects.count() == before and capsys.readouterr().out == ""
    out = ask(capsys, "What is the meal allowance?", "And for customers?", "--domain", demo_domain.slug, "--json",
              "--client-id", "c" * 62)
    assert len(out.strip().splitlines()) == 2
