"""The fresh33 set: 20 value questions and 20 close-but-unanswerable ones written by a helper at the end of the s33
round from 24 handbook pages drawn at random (``random.Random(3333)``), without reading any other golden file; asked
with the round's starting code and with its rules then (the same 40 answers: 14 of 20 answerable right, 15 of 20
refused), as a check of the round's rules on questions none of them was written from; a development set after that.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh33")``,
every expected span on one of its pages, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, found
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows


def test_fresh33_holds_20_values_and_20_near_misses_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh33.jsonl")
    assert [r["id"] for r in records] == [f"f33-a{i:02d}" for i in range(1, 21)] + \
        [f"f33-u{i:02d}" for i in range(1, 21)]
    assert {r["split"] for r in records} == {"fresh33"}
    assert Counter(r["kind"] for r in records) == {"value": 20, "unanswerable": 20}
    assert_answerable_on_their_pages(records)


def assert_answerable_on_their_pages(records: list[dict]) -> None:
    """Every record has a question and pages; a near miss says what its page covers instead, and every expected span
    of another kind is on one of its pages."""
    for r in records:
        assert r["question"] and r["pages"], r["id"]
        if r["kind"] == "unanswerable":
            assert r["expect"] == "abstain" and r["covers"], r["id"]
        else:
            assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh33_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh33.jsonl", needs_domain=False, split="fresh33")) == 40
