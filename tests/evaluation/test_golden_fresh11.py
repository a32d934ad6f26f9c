"""The fresh11 conversation set: 16 two-turn conversations (9 whose second turn refers back to the first, 7 whose
second turn switches topic) written in the s17 round, before any rule change of that round, from seven 18F pages that
no other set in this folder uses; asked once before and once after the round's follow-up rules (docs/evaluation.md).

Fast checks only (no embedding, no database): well formed in the conversation record format of 18f_dev.jsonl, read by
``load_golden(split="fresh11")``, every expected span on its turn's page, and no page shared with the sets written before it.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh11_holds_16_conversations_9_referring_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh11.jsonl")
    assert [r["id"] for r in records] == [f"f11-c{i:02d}" for i in range(1, 17)]
    assert sum(r["refers"] for r in records) == 9
    for r in records:
        assert r["kind"] == "conversation" and r["split"] == "fresh11" and len(r["turns"]) == 2
        assert not {"question", "expect", "pages"} & set(r)
        for turn in r["turns"]:
            assert turn["question"] and turn["pages"]
            assert all(found(item, turn["pages"]) for item in turn["expect"]), r["id"]


def test_fresh11_is_read_by_its_split_and_shares_no_page_with_the_other_sets():
    assert len(load_golden(GOLDEN / "18f_fresh11.jsonl", needs_domain=False, split="fresh11")) == 16
    pages = {p for r in rows("18f_fresh11.jsonl") for t in r["turns"] for p in t["pages"]}
    # fresh10 was written at the same time, by another pass of the s17 round, and shares one page (delivery assurance);
    # fresh33 (s33), fresh34 (s34), fresh35 (s35), fresh36 (s36), fresh37 (s37), fresh38 (s38), fresh39 (s39),
    # fresh40 (s40) and fresh41 (s41), written later from pages drawn at random among all of them, are not kept apart
    other = {p for path in GOLDEN.glob("*.jsonl")
             if path.name not in ("18f_fresh11.jsonl", "18f_fresh10.jsonl", "18f_fresh33.jsonl", "18f_fresh34.jsonl",
                                  "18f_fresh35.jsonl", "18f_fresh36.jsonl", "18f_fresh37.jsonl", "18f_fresh38.jsonl",
                                  "18f_fresh39.jsonl", "18f_fresh40.jsonl", "18f_fresh41.jsonl")
             for r in rows(path.name)
             for p in [*r.get("pages", []), *(q for t in r.get("turns", []) for q in t["pages"])]}
    assert not pages & other
