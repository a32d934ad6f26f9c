"""The development set (evaluation/golden/18f_dev.jsonl): a second, independent set of questions on the 18F handbook,
written from reading the pages after the calibration half proved too small to tune the answer forms on. Rules are
tuned on it and on the calibration half; the README keeps reporting the test half of 18f.jsonl.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="dev")``, and every expected
item stands on one of its pages as ingestion parses them.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from evaluation.common import EvaluationError
from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

DEV = ROOT / "evaluation" / "golden" / "18f_dev.jsonl"
#: What the set was written to hold (the brief of the s5 answers round).
MINIMUM = {"yesno": 20, "comparison": 12, "multi_section": 12, "list": 12, "table": 10, "conversation": 10,
           "unanswerable": 10}


@pytest.fixture(scope="module")
def dev() -> list[dict]:
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    return [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_item_is_in_the_dev_split_with_a_unique_id_and_the_kinds_it_was_written_for(dev):
    assert {r["split"] for r in dev} == {"dev"}
    assert len({r["id"] for r in dev}) == len(dev) >= 80
    counts = Counter(r["kind"] for r in dev)
    assert all(counts[k] >= n for k, n in MINIMUM.items()), counts
    polarity = Counter(r["polarity"] for r in dev if r["kind"] == "yesno")
    assert abs(polarity["yes"] - polarity["no"]) <= 2, polarity
    refers = Counter(r["refers"] for r in dev if r["kind"] == "conversation")
    assert refers[True] >= 5 and refers[False] >= 5, refers


def test_load_golden_reads_the_dev_split_and_no_other(dev):
    items = load_golden(DEV, needs_domain=False, split="dev")
    assert [i.id for i in items] == [r["id"] for r in dev]
    assert load_golden(DEV, needs_domain=False, split="calibration") == []
    with pytest.raises(EvaluationError, match="unknown split 'later'"):
        load_golden(DEV, needs_domain=False, split="later")


def test_every_expected_item_is_on_one_of_its_pages(dev):
    missing = []
    for r in dev:
        for n, t in enumerate(r.get("turns") or [r], 1):
            if t["expect"] != "abstain":
                missing += [(r["id"], n, e) for e in t["expect"] if not found(e, t["pages"])]
    assert missing == []


def test_comparisons_name_each_value_and_unanswerables_say_what_the_pages_cover(dev):
    for r in dev:
        if r["kind"] == "comparison":
            assert len(r["values"]) == 2 and sorted(r["values"].values()) == sorted(r["expect"]), r["id"]
        if r["kind"] == "unanswerable":
            assert r["expect"] == "abstain" and len(r["covers"].split()) >= 3, r["id"]


#: Extra development yes/no questions of the s15 round (evaluation/golden/18f_dev_s15.jsonl), written after the
#: round's first rules to check them on pages no other set uses; none on a page of the held-out fresh5 set.
DEV_S15 = ROOT / "evaluation" / "golden" / "18f_dev_s15.jsonl"


def test_the_s15_development_questions_are_dev_yes_no_items_on_their_pages_away_from_fresh5():
    records = [json.loads(line) for line in DEV_S15.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(records) == len({r["id"] for r in records}) == 35
    assert {(r["split"], r["kind"]) for r in records} == {("dev", "yesno")}
    assert {r["polarity"] for r in records} == {"yes", "no"}
    assert [i.id for i in load_golden(DEV_S15, needs_domain=False, split="dev")] == [r["id"] for r in records]
    assert [(r["id"], e) for r in records for e in r["expect"] if not found(e, r["pages"])] == []
    fresh5 = (ROOT / "evaluation" / "golden" / "18f_fresh5.jsonl").read_text(encoding="utf-8").splitlines()
    held_out = {p for line in fresh5 if line.strip() for p in json.loads(line)["pages"]}
    assert {p for r in records for p in r["pages"]} & held_out == set()
