"""The fresh37 set, written by helpers in the s37 round from handbook pages drawn at random, without reading any
other golden file or the product's code (``random.Random(3737)`` over the sorted current pages): f37-l01-f37-l12
(lists), f37-y01-f37-y12 (yes/no, six each way), f37-m01-f37-m10 (two sections), f37-t01-f37-t06 (table lookups),
f37-v01-f37-v10 (two-turn conversations, 6 referring back), f37-a01-f37-a05 (values) and f37-u01-f37-u15
(close-but-unanswerable) from the first 45 pages of the draw, asked first with the round's starting code and a
development set after that; f37-h01-f37-h30 (5 lists, 5 yes/no, 4 two-section, 3 table, 5 conversations, 3 values, 5
near misses) from the 40 pages after those, asked only with the round's starting code and its final code.

Fast checks only (no embedding, no database: tests.evaluation.fresh_sets): the kinds and their counts, read by
``load_golden(split="fresh37")``, every expected span on its page (a two-section item's in its section), every yes/no
item's polarity, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from tests.evaluation.fresh_sets import assert_fresh_set


def test_fresh37_holds_its_kinds_with_every_expected_span_on_its_pages_and_is_read_by_its_split():
    assert_fresh_set(37, (("l", 12), ("y", 12), ("m", 10), ("t", 6), ("v", 10), ("a", 5), ("u", 15), ("h", 30)),
                     {"list": 17, "yesno": 17, "multi_section": 14, "table": 9, "conversation": 15, "value": 8,
                      "unanswerable": 20},
                     polarity={"yes": 9, "no": 8}, refers=9)
