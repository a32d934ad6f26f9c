"""The fresh comparison set evaluation/golden/18f_fresh4.jsonl (split "fresh4"): 24 comparison questions written in
the s15 round, before any comparison rule of that round, from 18F pages that no calibration, development or other
fresh question uses; asked once before and once after the round's comparison rules (docs/evaluation.md).

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh4")`` and by no other
split, every side's value (and every expected span) on one of its pages, and no page shared with the development
set, the calibration half or the other fresh sets.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"
FILE = GOLDEN / "18f_fresh4.jsonl"


def read(path) -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_comparisons_with_two_sides_each():
    records = read(FILE)
    assert len(records) == len({r["id"] for r in records}) == 24
    assert all(r["id"].startswith("c3-") for r in records)
    assert {(r["split"], r["kind"]) for r in records} == {("fresh4", "comparison")}
    assert all(len(r["values"]) == 2 and list(r["values"].values()) == r["expect"] for r in records)


def test_load_golden_reads_its_split_and_no_other():
    ids = [r["id"] for r in read(FILE)]
    assert [i.id for i in load_golden(FILE, needs_domain=False, split="fresh4")] == ids
    assert load_golden(FILE, needs_domain=False, split="fresh3") == []


def test_every_value_is_on_one_of_its_pages():
    assert [(r["id"], v) for r in read(FILE) for v in r["values"].values() if not found(v, r["pages"])] == []


def test_no_page_shared_with_the_sets_rules_are_tuned_on():
    used = set()
    for name in ("18f_dev.jsonl", "18f_fresh.jsonl", "18f_fresh2.jsonl", "18f_fresh3.jsonl", "18f_versions.jsonl",
                 "18f.jsonl"):
        for r in read(GOLDEN / name):
            if r.get("split") == "test":  # the test half is never read, not even for its pages
                continue
            used.update(r.get("pages", []))
            used.update(p for t in r.get("turns", []) for p in t.get("pages", []))
            used.update(s["page"] for s in r.get("sections", []))
    assert sorted({p for r in read(FILE) for p in r["pages"]} & used) == []
