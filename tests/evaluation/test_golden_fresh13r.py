"""The fresh13r near-miss set: 20 close-but-unanswerable questions and 10 answerable value controls, written in the
s18 refusal pass, before any rule change of that pass, from 17 18F pages drawn at random among those no other set in
evaluation/golden uses (plus the engineering chapter and SOL history pages, which cover two of the asked topics).

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh13r")``, every expected
span of a control on one of its pages, every page of a near miss in the handbook, and no page shared with 18f.jsonl.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh13r_holds_20_near_misses_and_10_controls_whose_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh13r.jsonl")
    assert len(records) == 30 and len({r["id"] for r in records}) == 30
    near = [r for r in records if r["kind"] == "unanswerable"]
    assert len(near) == 20 and all(r["expect"] == "abstain" and r["covers"] and r["id"].startswith("f13r-u")
                                   for r in near)
    controls = [r for r in records if r["kind"] == "value"]
    assert len(controls) == 10
    for r in records:
        assert r["split"] == "fresh13r" and all((HANDBOOK / "current" / "pages" / p).is_file() for p in r["pages"])
    for r in controls:
        assert r["id"].startswith("f13r-v") and all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh13r_is_read_by_its_split_and_shares_no_page_with_the_golden_set():
    assert len(load_golden(GOLDEN / "18f_fresh13r.jsonl", needs_domain=False, split="fresh13r")) == 30
    pages = {p for r in rows("18f_fresh13r.jsonl") for p in r["pages"]}
    assert not pages & {p for r in rows("18f.jsonl") for p in r.get("pages", [])}
