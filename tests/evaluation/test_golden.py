"""`evaluate --suite golden`: a project's own questions (tests/evaluation/golden_demo.jsonl, on the demo handbook).

The five questions, checked against demo/corpus: the daily meal allowance is $65 (travel-expenses.md, "Travel and
Expenses Policy"), laptops are replaced on a 36-month cycle (equipment-laptop.md), parental leave is 16 weeks,
passwords are at least 14 characters (security-passwords.md), and the handbook says nothing about stock options
(abstain). All five pass; a sixth item expecting "$99" for the meal allowance fails, and a seventh, over the
length limit, is refused by the pipeline (counted as failed and reported as an error).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError

from evaluation.suites import METRICS
from tests.evaluation.helpers import by, evaluate

GOLDEN = Path(__file__).with_name("golden_demo.jsonl")
CORPUS = Path(__file__).resolve().parents[2] / "demo" / "corpus"


@pytest.fixture(scope="module")
def on_corpus(django_db_setup, django_db_blocker, embedder, tmp_path_factory):
    with django_db_blocker.unblock():
        return evaluate(tmp_path_factory.mktemp("golden"), "--suite", "golden", "--file", str(GOLDEN),
                        "--corpus", str(CORPUS))


def test_golden_questions_on_a_folder_ingested_for_the_run(on_corpus):
    assert [m["name"] for m in on_corpus.suite("golden")["metrics"]] == list(METRICS["golden"])
    passed = on_corpus.metric("golden", "pass_rate")
    assert (passed["value"], passed["n"], passed["target"], passed["met"]) == (1.0, 5, 1.0, True)
    assert by(passed) == {"answer": (1.0, 4), "abstain": (1.0, 1)}
    assert (on_corpus.metric("golden", "document_match")["value"], on_corpus.metric("golden", "document_match")["n"]) \
        == (1.0, 3)
    assert on_corpus.metric("golden", "abstention_match")["n"] == 1
    records = on_corpus.suite("golden")["records"]
    assert [r["ok"] for r in records] == [True] * 5
    assert records[0]["cited"][0] == "Travel and Expenses Policy" and "$65" in records[0]["answer"]
    assert records[4]["abstained"] is True


def test_golden_questions_on_an_existing_domain_leave_it_untouched(demo_session, db, tmp_path):
    from knowledge.models import Chunk, Domain

    before = (Domain.objects.count(), Chunk.objects.filter(version__document__domain__slug="handbook").count())
    failing = tmp_path / "golden.jsonl"
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    lines.append(json.dumps({"question": "What is the daily meal allowance?", "domain": "handbook",
                             "expect": ["$99"]}))
    lines.append(json.dumps({"question": "x" * 5000, "domain": "handbook", "expect": ["y"]}))  # refused: too long
    failing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as err:
        evaluate(tmp_path / "out", "--suite", "golden", "--file", str(failing), "--check")
    assert err.value.returncode == 1
    assert str(err.value) == ("check failed: golden.pass_rate 0.714 (target >= 1); golden: 1 item(s) failed in the "
                              "pipeline")
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    golden = data["suites"][0]
    assert [r["ok"] for r in golden["records"]] == [True] * 5 + [False, False]
    assert golden["records"][5]["problem"] == "missing ['$99']"
    assert golden["records"][6]["error"] == "message_too_long" and golden["info"]["errors"] == 1
    assert (Domain.objects.count(), Chunk.objects.filter(version__document__domain__slug="handbook").count()) == before


@pytest.mark.parametrize("line,message", [
    ('{"question": "", "domain": "handbook", "expect": ["x"]}', "item 1: 'question' must be a non-empty string"),
    ('{"question": "q", "expect": ["x"]}', "item 1: 'domain' must name a domain"),
    ('{"question": "q", "domain": "handbook", "expect": [1]}', "'expect' must be a list of substrings or"),
    ('{"question": "q", "domain": "handbook"}', "give 'expect'"),
    ('not json', "line 1 is not JSON"),
])
def test_a_malformed_golden_file_is_refused_with_its_line(tmp_path, line, message):
    path = tmp_path / "golden.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        evaluate(tmp_path / "out", "--suite", "golden", "--file", str(path))


def test_an_unknown_domain_is_named(db, embedder, tmp_path):
    path = tmp_path / "golden.jsonl"
    path.write_text('{"question": "q?", "domain": "nope", "expect": ["x"]}\n', encoding="utf-8")
    with pytest.raises(CommandError, match=r"item 1: Unknown domain 'nope'"):
        evaluate(tmp_path / "out", "--suite", "golden", "--file", str(path))


def test_golden_needs_a_file(tmp_path):
    with pytest.raises(CommandError, match="--suite golden needs --file"):
        evaluate(tmp_path, "--suite", "golden")
    assert not (tmp_path / "results.json").exists()
