"""The fresh yes/no set (evaluation/golden/18f_fresh.jsonl): 30 yes/no questions written in the s11 round from 18F
pages that no calibration or development question uses, asked once to measure how often the offline answerer opens
with the wrong Yes or No on questions no rule was written from (6 of 30 at the s11 round's code; see
docs/evaluation.md).

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh")``, every expected span
on one of its pages.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

FRESH = ROOT / "evaluation" / "golden" / "18f_fresh.jsonl"


@pytest.fixture(scope="module")
def fresh() -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return [json.loads(line) for line in FRESH.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_thirty_yes_no_questions_half_yes_half_paraphrased(fresh):
    assert len(fresh) == len({r["id"] for r in fresh}) == 30
    assert {(r["split"], r["kind"]) for r in fresh} == {("fresh", "yesno")}
    assert Counter(r["polarity"] for r in fresh) == {"yes": 15, "no": 15}
    assert Counter(r["paraphrased"] for r in fresh) == {True: 15, False: 15}


def test_load_golden_reads_the_fresh_split_and_no_other(fresh):
    assert [i.id for i in load_golden(FRESH, needs_domain=False, split="fresh")] == [r["id"] for r in fresh]
    assert load_golden(FRESH, needs_domain=False, split="dev") == []


def test_every_expected_span_is_on_one_of_its_pages(fresh):
    assert [(r["id"], e) for r in fresh for e in r["expect"] if not found(e, r["pages"])] == []
