"""Development comparisons evaluation/golden/18f_dev_comparisons.jsonl (split "dev"): 19 comparison questions written
in the s15 round to develop the comparison rules on (leave, FMLA, Tock, travel and moving pages), beside the
development set's 12. Fast checks only: well formed, read by ``load_golden(split="dev")``, every side's value on one
of its pages."""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

FILE = ROOT / "evaluation" / "golden" / "18f_dev_comparisons.jsonl"


def read() -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return [json.loads(line) for line in FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_development_comparisons_are_well_formed_and_on_their_pages():
    records = read()
    assert len(records) == len({r["id"] for r in records}) == 19
    assert {(r["split"], r["kind"]) for r in records} == {("dev", "comparison")}
    assert all(len(r["values"]) == 2 and list(r["values"].values()) == r["expect"] for r in records)
    assert [(r["id"], v) for r in records for v in r["values"].values() if not found(v, r["pages"])] == []
    assert [i.id for i in load_golden(FILE, needs_domain=False, split="dev")] == [r["id"] for r in records]
