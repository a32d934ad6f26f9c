"""The fresh20r near-miss set: 16 close-but-unanswerable questions (a value about a neighbouring thing, another
role's approver, a count the page does not give) and 10 answerable value controls phrased the same way, written in
the s20 near-miss pass before any rule change of that pass, from 18F pages no dev or calibration record uses.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh20r")``, every expected
span of a control on one of its pages, every page in the handbook.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"
NAME = "18f_fresh20_nearmiss.jsonl"


def rows() -> list[dict]:
    """The set's records, one per non-empty line."""
    return [json.loads(line) for line in (GOLDEN / NAME).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh20r_holds_16_near_misses_and_10_controls_whose_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows()
    assert len(records) == 26 and len({r["id"] for r in records}) == 26
    near = [r for r in records if r["kind"] == "unanswerable"]
    assert len(near) == 16 and all(r["expect"] == "abstain" and r["covers"] and r["id"].startswith("f20r-u")
                                   for r in near)
    controls = [r for r in records if r["kind"] == "value"]
    assert len(controls) == 10
    for r in records:
        assert r["split"] == "fresh20r" and all((HANDBOOK / "current" / "pages" / p).is_file() for p in r["pages"])
    for r in controls:
        assert r["id"].startswith("f20r-v") and all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh20r_is_read_by_its_split():
    assert len(load_golden(GOLDEN / NAME, needs_domain=False, split="fresh20r")) == 26
