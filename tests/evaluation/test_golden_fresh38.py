"""The fresh38 set, written by helpers in the s38 round from handbook pages drawn at random, without reading any
other golden file or the product's code (``random.Random(3838)`` over the sorted current pages): f38-m01-f38-m12
(two sections), f38-v01-f38-v12 (two-turn conversations, 7 referring back), f38-t01-f38-t08 (table lookups),
f38-l01-f38-l06 (lists), f38-y01-f38-y06 (yes/no, three each way), f38-a01-f38-a05 (values) and f38-u01-f38-u12
(close-but-unanswerable) from the first 45 pages of the draw, asked first with the round's starting code and a
development set after that; f38-h01-f38-h30 (6 two-section, 6 conversations of which 4 refer back, 4 tables, 3 lists,
3 yes/no, 3 values, 5 near misses) from the 40 pages after those, asked only with the round's starting code and its
final code.

Fast checks only (no embedding, no database: tests.evaluation.fresh_sets): the kinds and their counts, read by
``load_golden(split="fresh38")``, every expected span on its page (a two-section item's in its section), every yes/no
item's polarity, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from tests.evaluation.fresh_sets import assert_fresh_set


def test_fresh38_holds_its_kinds_with_every_expected_span_on_its_pages_and_is_read_by_its_split():
    assert_fresh_set(38, (("m", 12), ("v", 12), ("t", 8), ("l", 6), ("y", 6), ("a", 5), ("u", 12), ("h", 30)),
                     {"multi_section": 18, "conversation": 18, "table": 12, "list": 9, "yesno": 9, "value": 8,
                      "unanswerable": 17},
                     polarity={"yes": 5, "no": 4}, refers=11)
