"""The fresh36 set, written by helpers in the s36 round from handbook pages drawn at random, without reading any
other golden file or the product's code (``random.Random(3636)`` over the sorted current pages): f36-a01-f36-a15
(values), f36-m01-f36-m10 (two sections), f36-t01-f36-t06 (table lookups), f36-c01-f36-c08 (comparisons),
f36-v01-f36-v10 (two-turn conversations, 6 referring back) and f36-u01-f36-u17 (close-but-unanswerable) from the
first 45 pages of the draw, asked first with the round's starting code and a development set after that;
f36-h01-f36-h30 (7 values, 4 two-section, 3 table, 3 comparisons, 5 conversations, 8 near misses) from the pages after
those, asked only with the round's starting code and its final code.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh36")``,
every expected span on its page (a two-section item's in its section), and every near miss saying what its page
covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, assert_on_their_pages, normalise
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows


def test_fresh36_holds_its_kinds_with_every_expected_span_on_its_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh36.jsonl")
    assert [r["id"] for r in records] == [f"f36-{k}{i:02d}" for k, n in (("a", 15), ("m", 10), ("t", 6), ("c", 8),
                                                                          ("v", 10), ("u", 17), ("h", 30))
                                          for i in range(1, n + 1)]
    assert {r["split"] for r in records} == {"fresh36"}
    assert Counter(r["kind"] for r in records) == {"value": 22, "multi_section": 14, "table": 9, "comparison": 11,
                                                   "conversation": 15, "unanswerable": 25}
    assert_on_their_pages(records)
    assert sum(r["refers"] for r in records if r["kind"] == "conversation") == 9
    assert all(normalise(r["question"]) for r in records if "question" in r)


def test_fresh36_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh36.jsonl", needs_domain=False, split="fresh36")) == 96
