"""The fresh35 set, written by helpers in the s35 round from handbook pages drawn at random, without reading any
other golden file or the product's code: f35-a01-f35-a20 (values), f35-u01-f35-u20 (close-but-unanswerable) and
f35-y01-f35-y10 (yes/no, 5 whose answer is yes, 5 no) from 25 pages (``random.Random(3535)`` over the current pages),
asked first with the round's starting code and a development set after that; f35-h01-f35-h25 (10 values, 10 near
misses, 5 yes/no) from 16 more pages (``random.Random(3536)`` over the pages the first draw did not take), asked only
with the round's starting code and its final code.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh35")``,
every expected span on its page, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows
from tests.evaluation.test_golden_fresh33 import assert_answerable_on_their_pages


def test_fresh35_holds_30_values_30_near_misses_and_15_yes_no_questions_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh35.jsonl")
    assert [r["id"] for r in records] == [f"f35-{k}{i:02d}" for k, n in (("a", 20), ("u", 20), ("y", 10))
                                          for i in range(1, n + 1)] + [f"f35-h{i:02d}" for i in range(1, 26)]
    assert {r["split"] for r in records} == {"fresh35"}
    assert Counter(r["kind"] for r in records) == {"value": 30, "unanswerable": 30, "yesno": 15}
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == {"yes": 8, "no": 7}
    assert_answerable_on_their_pages(records)


def test_fresh35_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh35.jsonl", needs_domain=False, split="fresh35")) == 75
