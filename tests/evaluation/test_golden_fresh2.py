"""The second fresh yes/no set (evaluation/golden/18f_fresh2.jsonl): 30 yes/no questions written in the s12 round,
before any rule change of that round, from 18F pages that no question of 18f.jsonl, 18f_dev.jsonl or 18f_fresh.jsonl
uses; asked once before and once after the round's yes/no rules to measure how often the offline answerer opens with
the wrong Yes or No on questions no rule was written from (see docs/evaluation.md).

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh2")``, every expected
span on one of its pages, and no page shared with the other 18F sets.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"
FRESH2 = GOLDEN / "18f_fresh2.jsonl"


def read(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def fresh2() -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return read(FRESH2)


def test_thirty_yes_no_questions_half_yes(fresh2):
    assert len(fresh2) == len({r["id"] for r in fresh2}) == 30
    assert all(r["id"].startswith("f2") for r in fresh2)
    assert {(r["split"], r["kind"]) for r in fresh2} == {("fresh2", "yesno")}
    assert Counter(r["polarity"] for r in fresh2) == {"yes": 15, "no": 15}
    assert Counter(r["paraphrased"] for r in fresh2) == {True: 16, False: 14}


def test_load_golden_reads_the_fresh2_split_and_no_other(fresh2):
    assert [i.id for i in load_golden(FRESH2, needs_domain=False, split="fresh2")] == [r["id"] for r in fresh2]
    assert load_golden(FRESH2, needs_domain=False, split="fresh") == []


def test_every_expected_span_is_on_one_of_its_pages(fresh2):
    assert [(r["id"], e) for r in fresh2 for e in r["expect"] if not found(e, r["pages"])] == []


def test_no_page_is_used_by_another_18f_set(fresh2):
    used = set()
    for name in ("18f.jsonl", "18f_dev.jsonl", "18f_fresh.jsonl"):
        for r in read(GOLDEN / name):
            used.update(r.get("pages", []))
            used.update(p for t in r.get("turns", []) for p in t.get("pages", []))
            used.update(s["page"] for s in r.get("sections", []))
    assert sorted({p for r in fresh2 for p in r["pages"]} & used) == []
