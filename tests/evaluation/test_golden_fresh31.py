"""The fresh31 set: 50 questions of every kind (10 values, 12 yes/no, 4 comparisons, 3 answers over two sections,
3 table lookups, 3 lists, 8 close-but-unanswerable questions, 7 two-turn conversations) written by a helper at the
start of the s31 round from 31 handbook pages drawn at random (``random.Random(31)``), without reading any other
golden file; asked first with the round's starting code, as a check of how the offline answerer does on questions
no rule was written from.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh31")``,
and every expected span on one of its pages.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, found
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows

KINDS = {"value": 10, "yesno": 12, "comparison": 4, "multi_section": 3, "table": 3, "list": 3, "unanswerable": 8,
         "conversation": 7}


def test_fresh31_holds_50_questions_of_every_kind_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh31.jsonl")
    assert [r["id"] for r in records] == [f"f31-{i:02d}" for i in range(1, 51)]
    assert {r["split"] for r in records} == {"fresh31"}
    assert Counter(r["kind"] for r in records) == KINDS
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == {"yes": 6, "no": 6}
    assert sum(r["refers"] for r in records if r["kind"] == "conversation") == 5
    for r in records:
        for turn in r.get("turns") or [r]:
            assert turn["question"] and turn["pages"], r["id"]
            if turn["expect"] == "abstain":
                continue
            assert all(found(item, turn["pages"]) for item in turn["expect"]), r["id"]


def test_fresh31_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh31.jsonl", needs_domain=False, split="fresh31")) == 50
