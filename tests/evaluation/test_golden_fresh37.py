"""The fresh37 set, written by helpers in the s37 round from handbook pages drawn at random, without reading any
other golden file or the product's code (``random.Random(3737)`` over the sorted current pages): f37-l01-f37-l12
(lists), f37-y01-f37-y12 (yes/no, six each way), f37-m01-f37-m10 (two sections), f37-t01-f37-t06 (table lookups),
f37-v01-f37-v10 (two-turn conversations, 6 referring back), f37-a01-f37-a05 (values) and f37-u01-f37-u15
(close-but-unanswerable) from the first 45 pages of the draw, asked first with the round's starting code and a
development set after that; f37-h01-f37-h30 (5 lists, 5 yes/no, 4 two-section, 3 table, 5 conversations, 3 values, 5
near misses) from the 40 pages after those, asked only with the round's starting code and its final code.

Fast checks only (no embedding, no database): the kinds and their counts, read by ``load_golden(split="fresh37")``,
every expected span on its page (a two-section item's in its section), every yes/no item's polarity, and every near
miss saying what its page covers instead.
"""

from __future__ import annotations

from collections import Counter

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, assert_on_their_pages, normalise
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows


def test_fresh37_holds_its_kinds_with_every_expected_span_on_its_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows("18f_fresh37.jsonl")
    assert [r["id"] for r in records] == [f"f37-{k}{i:02d}" for k, n in (("l", 12), ("y", 12), ("m", 10), ("t", 6),
                                                                          ("v", 10), ("a", 5), ("u", 15), ("h", 30))
                                          for i in range(1, n + 1)]
    assert {r["split"] for r in records} == {"fresh37"}
    assert Counter(r["kind"] for r in records) == {"list": 17, "yesno": 17, "multi_section": 14, "table": 9,
                                                   "conversation": 15, "value": 8, "unanswerable": 20}
    assert_on_their_pages(records)
    assert all(r["polarity"] in ("yes", "no") for r in records if r["kind"] == "yesno")
    assert all(len(r["expect"]) >= 3 for r in records if r["kind"] == "list")
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == {"yes": 9, "no": 8}
    assert sum(r["refers"] for r in records if r["kind"] == "conversation") == 9
    assert all(normalise(r["question"]) for r in records if "question" in r)


def test_fresh37_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh37.jsonl", needs_domain=False, split="fresh37")) == 100
