"""`evaluate --suite golden` on a labelled set (the format of evaluation/golden/18f.jsonl), on the demo handbook:
one split asked, the corpus and a dated revision ingested once for the run, a conversation's turns asked in one
conversation, figures per kind with the labelled targets.

Facts checked against demo/corpus: parental leave is 16 weeks and must be taken within 12 months
(parental-leave.md); the handbook says nothing about stock options. The revision file written below says 10
characters where security-passwords.md says 14.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.evaluation.helpers import by, evaluate

CORPUS = Path(__file__).resolve().parents[2] / "demo" / "corpus"
ROWS = [
    {"id": "q001", "kind": "value", "split": "calibration", "pages": ["parental-leave.md"],
     "question": "How many weeks of paid parental leave do employees get?", "expect": [["16 weeks", "sixteen weeks"]]},
    {"id": "q002", "kind": "unanswerable", "split": "calibration", "pages": ["code-of-conduct.md"],
     "question": "Does Tallgrass offer stock options and what is the vesting schedule?", "expect": "abstain",
     "covers": "conduct rules, not compensation"},
    {"id": "q003", "kind": "conversation", "split": "calibration", "refers": True, "turns": [
        {"question": "How many weeks of paid parental leave do employees get?", "expect": ["16 weeks"],
         "pages": ["parental-leave.md"]},
        {"question": "Within how many months of the birth must it be taken?", "expect": ["12 months"],
         "pages": ["parental-leave.md"]}]},
    {"id": "q004", "kind": "superseded", "split": "calibration", "pages": ["security-passwords.md"],
     "question": "What minimum password length did the 2020 policy require?", "expect": ["10 characters"],
     "versions": [{"file": "versions/security-passwords/2020-01-15_old.md", "date": "2020-01-15"}],
     "old_value": "10 characters", "new_value": "14 characters", "asks": "old"},
    {"id": "q005", "kind": "value", "split": "test", "pages": ["travel-expenses.md"],
     "question": "What is the daily meal allowance?", "expect": ["$65"]},
]


@pytest.fixture(scope="module")
def run(django_db_setup, django_db_blocker, embedder, tmp_path_factory):
    root = tmp_path_factory.mktemp("labelled")
    revision = root / "versions" / "security-passwords" / "2020-01-15_old.md"
    revision.parent.mkdir(parents=True)
    revision.write_text("---\ntitle: Password policy\n---\n# Password policy\n\nEvery password must be at least "
                        "10 characters long.\n", encoding="utf-8")
    golden = root / "set.jsonl"
    golden.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    with django_db_blocker.unblock():
        return evaluate(root / "out", "--suite", "golden", "--file", str(golden), "--corpus", str(CORPUS),
                        "--versions", str(root))


def test_only_the_chosen_split_is_asked_and_reported_per_kind(run):
    suite = run.suite("golden")
    assert [r["id"] for r in suite["records"]] == ["q001", "q002", "q003", "q004"]  # q005 is in the test split
    assert suite["info"]["split"] == "calibration"
    refusal = run.metric("golden", "refusal_right")
    assert (refusal["n"], refusal["target"], refusal["op"]) == (1, 0.9, ">=")
    assert by(refusal) == {"unanswerable": (refusal["value"], 1)}
    right = run.metric("golden", "answer_right")
    assert right["n"] == 3 and set(by(right)) == {"value", "conversation", "superseded"}
    assert run.metric("golden", "false_refusal")["n"] == 4  # q001, both turns of q003, q004
    assert run.metric("golden", "pass_rate")["target"] is None  # a labelled set is held to the targets
    assert "golden per kind (calibration split)" in run.stdout


def test_the_value_question_is_right_with_its_page_cited(run):
    record = next(r for r in run.suite("golden")["records"] if r["id"] == "q001")
    assert record["ok"] and "16 weeks" in record["answer"] and record["verdict"]["page_cited"]


def test_a_conversation_asks_its_second_turn_in_the_first_ones_conversation(run):
    record = next(r for r in run.suite("golden")["records"] if r["id"] == "q003")
    first, second = record["turns"]
    assert first["ok"] and "16 weeks" in first["answer"]
    assert record["refers"] is True and record["ok"] == (first["ok"] and second["ok"])
    assert "12 months" in second["answer"], second  # asked as a follow-up of the parental leave question


def test_a_revision_is_ingested_once_as_a_superseded_version_of_its_page(run):
    assert run.suite("golden")["info"]["revisions"] == [
        {"file": "2020-01-15_old.md", "key": "security-passwords", "date": "2020-01-15", "status": "superseded"}]
