"""The fresh34 set: 27 yes/no questions (12 whose answer is yes, 15 no) and 20 close-but-unanswerable ones written by
helpers in the s34 round from handbook pages drawn at random (``random.Random(3434)`` over every page, then
``random.Random(3435)`` over the current pages no earlier draw used), without reading any other golden file.
f34-y01-f34-y19 and f34-u01-f34-u20 were asked with the round's starting code and are a development set after that;
f34-y21-f34-y34 were asked only with the round's starting code and its final code, as a check of its rules on
questions none of them was written from.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh34")``,
every expected span on its page, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows
from tests.evaluation.test_golden_fresh33 import assert_answerable_on_their_pages


def test_fresh34_holds_27_yes_no_questions_and_20_near_misses_whose_expected_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh34.jsonl")
    # seven yes/no questions of the first draw were dropped: their sentence is on an old version of a page only
    kept = [1, 2, 3, 4, 6, 7, 8, 9, 11, 13, 16, 18, 19, *range(21, 35)]
    assert [r["id"] for r in records] == [f"f34-y{i:02d}" for i in kept[:13]] + \
        [f"f34-u{i:02d}" for i in range(1, 21)] + [f"f34-y{i:02d}" for i in kept[13:]]
    assert {r["split"] for r in records} == {"fresh34"}
    assert Counter(r["kind"] for r in records) == {"yesno": 27, "unanswerable": 20}
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == {"yes": 12, "no": 15}
    assert_answerable_on_their_pages(records)


def test_fresh34_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh34.jsonl", needs_domain=False, split="fresh34")) == 47
