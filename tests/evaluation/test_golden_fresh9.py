"""The fresh9 value set: 30 answerable questions (values, durations, counts, contacts, "what happens if") written in the
s16 round, before any rule change of that round, from 14 18F pages that no calibration, test or development question
uses; asked once before and once after the round's sentence-choice rules (see docs/evaluation.md).

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh9")``, every expected
span on one of its pages, and no page shared with 18f.jsonl or the development sets.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh9_holds_30_value_questions_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh9.jsonl")
    assert len(records) == 30 and len({r["id"] for r in records}) == 30
    for r in records:
        assert r["kind"] == "value" and r["split"] == "fresh9" and r["id"].startswith("v9-")
        assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh9_is_read_by_its_split_and_shares_no_page_with_the_development_and_golden_sets():
    assert len(load_golden(GOLDEN / "18f_fresh9.jsonl", needs_domain=False, split="fresh9")) == 30
    pages = {p for r in rows("18f_fresh9.jsonl") for p in r["pages"]}
    other = {p for name in ("18f.jsonl", "18f_dev.jsonl", "18f_dev_s15.jsonl", "18f_dev_comparisons.jsonl")
             for r in rows(name) for p in r.get("pages", [])}
    assert not pages & other
