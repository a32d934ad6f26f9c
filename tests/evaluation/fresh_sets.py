"""The data checks every helper-written fresh set of the 18F golden set passes (fresh37 onwards): its ids in order,
its split, its kinds, every expected span on its page (a two-section item's in its section), yes/no polarities, list
items, referring conversations, and the count its split reads. Fast: no embedding, no database."""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, assert_on_their_pages, normalise
from tests.evaluation.test_golden_fresh16 import GOLDEN, rows


def assert_fresh_set(round_: int, blocks: Sequence[tuple[str, int]], kinds: Mapping[str, int],
                     polarity: Mapping[str, int], refers: int) -> None:
    """Check ``18f_fresh<round_>.jsonl``: ids ``f<round_>-<letter><nn>`` in the order of ``blocks`` ((letter,
    count) pairs), split ``fresh<round_>`` on every record and read whole by it, ``kinds`` (kind -> count), every
    expected span on its page, ``polarity`` (yes/no counts), every list asking three items or more, ``refers``
    conversations referring back, and every question non-empty once normalised.

    Raises:
        AssertionError: the first check that fails.
    """
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    name, split = f"18f_fresh{round_}.jsonl", f"fresh{round_}"
    records = rows(name)
    assert [r["id"] for r in records] == [f"f{round_}-{k}{i:02d}" for k, n in blocks for i in range(1, n + 1)]
    assert {r["split"] for r in records} == {split}
    assert Counter(r["kind"] for r in records) == dict(kinds)
    assert_on_their_pages(records)
    assert all(r["polarity"] in ("yes", "no") for r in records if r["kind"] == "yesno")
    assert all(len(r["expect"]) >= 3 for r in records if r["kind"] == "list")
    assert Counter(r["polarity"] for r in records if r["kind"] == "yesno") == dict(polarity)
    assert sum(r["refers"] for r in records if r["kind"] == "conversation") == refers
    assert all(normalise(r["question"]) for r in records if "question" in r)
    assert len(load_golden(GOLDEN / name, needs_domain=False, split=split)) == len(records)
