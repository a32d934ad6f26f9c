"""The fresh35 set: 20 value questions, 20 close-but-unanswerable ones and 10 yes/no questions (5 whose answer is
yes, 5 no) written by a helper in the s35 round from 25 handbook pages drawn at random (``random.Random(3535)`` over
the current pages), without reading any other golden file or the product's code. Asked first with the round's
starting code; a development set after that.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh35")``,
every expected span on its page, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows
from tests.evaluation.test_golden_fresh33 import assert_answerable_on_their_pages


def test_fresh35_holds_20_values_20_near_misses_and_10_yes_no_questions_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh35.jsonl")
    assert [r["id"] for r in records] == [f"f35-{k}{i:02d}" for k, n in (("a", 20), ("u", 20), ("y", 10))
                                          for i in range(1, n + 1)]
    assert {r["split"] for r in records} == {"fresh35"}
    assert Counter(r["kind"] for r in records) == {"value": 20, "unanswerable": 20, "yesno": 10}
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == {"yes": 5, "no": 5}
    assert_answerable_on_their_pages(records)


def test_fresh35_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh35.jsonl", needs_domain=False, split="fresh35")) == 50
