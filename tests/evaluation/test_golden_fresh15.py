"""The fresh15 set: 10 multi_section and 6 list questions written in the s18 round, before any rule change of that
round, from 10 randomly drawn 18F pages no other set in evaluation/golden uses; asked once before and once after the
round's two-part and list answer rules.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh15")``, every expected
span on its page, each multi_section item in the section named for it, and no page shared with the other sets.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found, normalise, parsed

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh15_holds_10_two_section_and_6_list_questions_whose_expected_spans_are_in_place():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh15.jsonl")
    assert [r["id"] for r in records] == [f"f15-m{i:02d}" for i in range(1, 11)] + [f"f15-l{i:02d}" for i in
                                                                                      range(1, 7)]
    for r in records:
        assert r["split"] == "fresh15" and r["kind"] in ("multi_section", "list"), r["id"]
        assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]
        if r["kind"] == "multi_section":
            assert len(r["sections"]) == len(r["expect"]) == 2, r["id"]
            for item, place in zip(r["expect"], r["sections"]):
                blocks = [b for b in parsed(place["page"]).blocks if " > ".join(b.section) == place["section"]]
                assert any(normalise(item) in normalise(b.text) for b in blocks), (r["id"], item)
            assert len({(p["page"], p["section"]) for p in r["sections"]}) == 2, r["id"]


def test_fresh15_is_read_by_its_split_and_shares_no_page_with_the_sets_written_before_it():
    assert len(load_golden(GOLDEN / "18f_fresh15.jsonl", needs_domain=False, split="fresh15")) == 16
    pages = {p for r in rows("18f_fresh15.jsonl") for p in r["pages"]}
    # the sets written beside it in the s18 round (fresh13, fresh13r, fresh16, the development conversations) drew
    # from the same unused pages at the same time; fresh31 (s31), fresh35 (s35), fresh36 (s36), fresh37 (s37),
    # fresh38 (s38), fresh39 (s39), fresh40 (s40) and fresh41 (s41), written after it, drew from all pages at random
    beside = {"18f_fresh15.jsonl", "18f_fresh13.jsonl", "18f_fresh13r.jsonl", "18f_fresh16.jsonl", "18f_dev_conv.jsonl",
              "18f_fresh31.jsonl", "18f_fresh35.jsonl", "18f_fresh36.jsonl",
              "18f_fresh37.jsonl", "18f_fresh38.jsonl", "18f_fresh39.jsonl", "18f_fresh40.jsonl",
              "18f_fresh41.jsonl"}
    other = {p for f in GOLDEN.glob("*.jsonl") if f.name not in beside for r in rows(f.name)
             for p in [*r.get("pages", []), *(q for t in r.get("turns", []) for q in t.get("pages", []))]}
    assert not pages & other
