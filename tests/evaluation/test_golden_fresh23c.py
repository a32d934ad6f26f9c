"""The fresh23c conversation set: 32 two-turn conversations (22 whose second turn refers back to the first, 3 of
them close but unanswerable; 10 whose second turn switches topic) written by a helper in the s23 round from the 18F
pages alone, without reading any other golden file; asked first after the round's first follow-up change.

Fast checks only (no embedding, no database): well formed in the conversation record format, read by
``load_golden(split="fresh23c")``, and every expected span on its turn's pages.
"""

from __future__ import annotations

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, found
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows


def test_fresh23c_holds_32_conversations_22_referring_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh23_conv.jsonl")
    assert [r["id"] for r in records] == [f"f23c-{i:02d}" for i in range(1, 33)]
    assert sum(r["refers"] for r in records) == 22
    assert sum(t["expect"] == "abstain" for r in records for t in r["turns"]) == 3
    for r in records:
        assert r["kind"] == "conversation" and r["split"] == "fresh23c" and len(r["turns"]) == 2
        for turn in r["turns"]:
            assert turn["question"] and turn["pages"]
            if turn["expect"] != "abstain":
                assert all(found(item, turn["pages"]) for item in turn["expect"]), r["id"]
        if not r["refers"]:
            assert r["turns"][0]["pages"] != r["turns"][1]["pages"], r["id"]


def test_fresh23c_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh23_conv.jsonl", needs_domain=False, split="fresh23c")) == 32
