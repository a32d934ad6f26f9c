"""The fresh16 conversation set: 16 two-turn conversations (10 whose second turn refers back to the first, 6 whose
second turn switches topic) written in the s18 round, before any rule change of that round, from fourteen 18F pages
drawn at random among the pages no earlier set used; asked once before and once after the round's follow-up rules.

Fast checks only (no embedding, no database): well formed in the conversation record format, read by
``load_golden(split="fresh16")``, and every expected span on its turn's page.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_fresh16_holds_16_conversations_10_referring_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh16.jsonl")
    assert [r["id"] for r in records] == [f"f16-c{i:02d}" for i in range(1, 17)]
    assert sum(r["refers"] for r in records) == 10
    for r in records:
        assert r["kind"] == "conversation" and r["split"] == "fresh16" and len(r["turns"]) == 2
        assert not {"question", "expect", "pages"} & set(r)
        for turn in r["turns"]:
            assert turn["question"] and turn["pages"]
            assert all(found(item, turn["pages"]) for item in turn["expect"]), r["id"]
        if not r["refers"]:
            assert r["turns"][0]["pages"] != r["turns"][1]["pages"], r["id"]


def test_fresh16_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh16.jsonl", needs_domain=False, split="fresh16")) == 16
