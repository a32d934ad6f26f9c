"""The fresh yes/no sets, each 30 (fresh6: 24) yes/no questions asked to measure how often the offline answerer opens
with the wrong Yes or No on questions no rule was written from (see docs/evaluation.md):

- evaluation/golden/18f_fresh.jsonl (split "fresh"): written in the s11 round from 18F pages that no calibration or
  development question uses (6 of 30 wrong at the s11 round's code);
- evaluation/golden/18f_fresh2.jsonl (split "fresh2"): written in the s12 round, before any rule change of that
  round, from 18F pages that no question of 18f.jsonl, 18f_dev.jsonl or 18f_fresh.jsonl uses; asked once before and
  once after the round's yes/no rules;
- evaluation/golden/18f_fresh3.jsonl (split "fresh3"): written in the s14 round, before any rule change of that
  round, from 18F pages that no other set uses; asked once before and once after the round's yes/no rules;
- evaluation/golden/18f_fresh5.jsonl (split "fresh5"): written in the s15 round, before any rule change of that
  round, from 11 18F pages that no other set uses; asked once before and once after the round's yes/no rules;
- evaluation/golden/18f_fresh6.jsonl (split "fresh6"): 24 questions written in the s15 round's second yes/no pass,
  before its rule changes, from 12 18F pages that no other golden file uses; asked once before and once after;
- evaluation/golden/18f_fresh8.jsonl (split "fresh8"): 30 questions (13 yes, 17 no) written in the s16 round's yes/no
  pass, before its rule changes, from 10 18F pages that no other golden file uses; asked once before and once after.
- evaluation/golden/18f_fresh13.jsonl (split "fresh13"): 20 questions (10 yes, 10 no) written in the s18 round's
  yes/no pass, before its rule changes, from 7 18F pages that no calibration, development or fresh question uses
  (the test half's pages were not looked at, so the page check below does not cover it); asked once before and once
  after.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split=...)`` and by no other split,
every expected span on one of its pages, and fresh2, fresh3, fresh5, fresh6 and fresh8 sharing no page with the other 18F sets.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"
#: file, split, id prefix, how many questions, how many are worded away from their page (paraphrased), a split it is
#: not in, how many have the polarity yes
SETS = [("18f_fresh.jsonl", "fresh", "f0", 30, 15, "dev", 15), ("18f_fresh2.jsonl", "fresh2", "f2", 30, 16, "fresh", 15),
        ("18f_fresh3.jsonl", "fresh3", "f3", 30, 16, "fresh2", 15),
        ("18f_fresh5.jsonl", "fresh5", "y5-", 30, 28, "fresh3", 15),
        ("18f_fresh6.jsonl", "fresh6", "y6-", 24, 24, "fresh5", 12),
        ("18f_fresh8.jsonl", "fresh8", "y8-", 30, 14, "fresh6", 13),
        ("18f_fresh13.jsonl", "fresh13", "f13-", 20, 11, "fresh8", 10)]


def read(name: str) -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return [json.loads(line) for line in (GOLDEN / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name,split,prefix,count,paraphrased,other,yes", SETS)
def test_yes_no_questions_of_both_polarities(name, split, prefix, count, paraphrased, other, yes):
    records = read(name)
    assert len(records) == len({r["id"] for r in records}) == count
    assert all(r["id"].startswith(prefix) for r in records)
    assert {(r["split"], r["kind"]) for r in records} == {(split, "yesno")}
    assert Counter(r["polarity"] for r in records) == {"yes": yes, "no": count - yes}
    assert +Counter(r["paraphrased"] for r in records) == +Counter({True: paraphrased, False: count - paraphrased})


@pytest.mark.parametrize("name,split,prefix,count,paraphrased,other,yes", SETS)
def test_load_golden_reads_its_split_and_no_other(name, split, prefix, count, paraphrased, other, yes):
    records = read(name)
    assert [i.id for i in load_golden(GOLDEN / name, needs_domain=False, split=split)] == [r["id"] for r in records]
    assert load_golden(GOLDEN / name, needs_domain=False, split=other) == []


@pytest.mark.parametrize("name", [s[0] for s in SETS])
def test_every_expected_span_is_on_one_of_its_pages(name):
    assert [(r["id"], e) for r in read(name) for e in r["expect"] if not found(e, r["pages"])] == []


@pytest.mark.parametrize("name,others", [
    ("18f_fresh2.jsonl", ("18f.jsonl", "18f_dev.jsonl", "18f_fresh.jsonl")),
    ("18f_fresh3.jsonl", ("18f.jsonl", "18f_dev.jsonl", "18f_fresh.jsonl", "18f_fresh2.jsonl", "18f_versions.jsonl")),
    ("18f_fresh5.jsonl", ("18f.jsonl", "18f_dev.jsonl", "18f_fresh.jsonl", "18f_fresh2.jsonl", "18f_fresh3.jsonl",
                          "18f_versions.jsonl")),
    # fresh12 (s17 table lookups), written later, asks a table cell of the shared-resources page fresh6 asks prose of;
    # fresh31 (s31), fresh33 (s33), fresh34 (s34), fresh35 (s35), fresh36 (s36), fresh37 (s37), fresh38 (s38),
    # fresh39 (s39), fresh40 (s40) and fresh41 (s41), written later from pages drawn at random among all of them, are
    # not kept apart from earlier sets
    ("18f_fresh6.jsonl", tuple(p.name for p in sorted(GOLDEN.glob("*.jsonl"))
                               if p.name not in ("18f_fresh6.jsonl", "18f_fresh12.jsonl", "18f_fresh31.jsonl",
                                                 "18f_fresh33.jsonl", "18f_fresh34.jsonl",
                                                 "18f_fresh35.jsonl", "18f_fresh36.jsonl", "18f_fresh37.jsonl",
                                                 "18f_fresh38.jsonl", "18f_fresh39.jsonl", "18f_fresh40.jsonl",
                                                 "18f_fresh41.jsonl"))),
    # fresh7, fresh8 and fresh9 were written at the same time, each before its own round of rules, by writers who did
    # not see the others (fresh8 and fresh9 share a page): each is kept apart from every set written before it
    ("18f_fresh8.jsonl", tuple(p.name for p in sorted(GOLDEN.glob("*.jsonl"))
                               if p.name not in ("18f_fresh7.jsonl", "18f_fresh8.jsonl", "18f_fresh9.jsonl",
                                                 "18f_fresh31.jsonl", "18f_fresh33.jsonl", "18f_fresh34.jsonl",
                                                 "18f_fresh35.jsonl", "18f_fresh36.jsonl", "18f_fresh37.jsonl",
                                                 "18f_fresh38.jsonl", "18f_fresh39.jsonl", "18f_fresh40.jsonl",
                                                 "18f_fresh41.jsonl"))),
])
def test_no_page_of_a_fresh_set_is_used_by_another_18f_set(name, others):
    used = set()
    for other in others:
        for r in read(other):
            used.update(r.get("pages", []))
            used.update(p for t in r.get("turns", []) for p in t.get("pages", []))
            used.update(s["page"] for s in r.get("sections", []))
    assert sorted({p for r in read(name) for p in r["pages"]} & used) == []
