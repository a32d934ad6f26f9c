"""The fresh41 set, written by helpers in the s41 round from handbook pages drawn at random, without reading any
other golden file or the product's code (``random.Random(4141)`` over the sorted current pages): f41-m01-f41-m12
(two sections), f41-v01-f41-v12 (two-turn conversations, 7 referring back), f41-t01-f41-t08 (table lookups),
f41-l01-f41-l06 (lists), f41-y01-f41-y06 (yes/no, three each way), f41-a01-f41-a05 (values) and f41-u01-f41-u12
(close-but-unanswerable) from the first 45 pages of the draw, asked first with the round's starting code and a
development set after that; f41-h01-f41-h30 (6 two-section, 6 conversations of which 4 refer back, 4 tables, 3 lists,
3 yes/no, 2 values, 6 near misses) from the 40 pages after those, asked only with the round's starting code and its
final code.

Fast checks only (no embedding, no database: tests.evaluation.fresh_sets): the kinds and their counts, read by
``load_golden(split="fresh41")``, every expected span on its page (a two-section item's in its section), every yes/no
item's polarity, and every near miss saying what its page covers instead.
"""

from __future__ import annotations

from tests.evaluation.fresh_sets import assert_fresh_set


def test_fresh41_holds_its_kinds_with_every_expected_span_on_its_pages_and_is_read_by_its_split():
    assert_fresh_set(41, (("m", 12), ("v", 12), ("t", 8), ("l", 6), ("y", 6), ("a", 5), ("u", 12), ("h", 30)),
                     {"multi_section": 18, "conversation": 18, "table": 12, "list": 9, "yesno": 9, "value": 7,
                      "unanswerable": 18},
                     polarity={"yes": 4, "no": 5}, refers=11)
