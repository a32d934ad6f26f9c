"""The fresh10 two-section set: 15 multi_section questions (where / who / which / how long / what, each part from
another section of one page) written in the s17 round, before any rule change of that round, from 12 18F pages none of
the development failures it was written for uses; asked once before and once after the round's two-part answer rules.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh10")``, every expected
span on its page, and no page shared with the multi_section questions of 18f.jsonl and 18f_dev.jsonl.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh10_holds_15_two_part_questions_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh10.jsonl")
    assert [r["id"] for r in records] == [f"f10-m{i:02d}" for i in range(1, 16)]
    for r in records:
        assert r["kind"] == "multi_section" and r["split"] == "fresh10" and len(r["expect"]) == 2
        assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh10_is_read_by_its_split_and_shares_no_page_with_the_other_two_section_questions():
    assert len(load_golden(GOLDEN / "18f_fresh10.jsonl", needs_domain=False, split="fresh10")) == 15
    assert load_golden(GOLDEN / "18f_fresh10.jsonl", needs_domain=False, split="dev") == []
    pages = {p for r in rows("18f_fresh10.jsonl") for p in r["pages"]}
    other = {p for name in ("18f.jsonl", "18f_dev.jsonl") for r in rows(name) if r["kind"] == "multi_section"
             for p in r.get("pages", [])}
    assert not pages & other
