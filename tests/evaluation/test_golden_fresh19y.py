"""The fresh19y yes/no set: 17 yes/no questions (8 yes, 9 no) and 3 yes/no questions the pages do not settle, written
in the s19 round from nine 18F pages that earlier sets used little, before any change to the yes/no opener; asked once
before and once after that round's changes.

Fast checks only (no embedding, no database): well formed, read by ``load_golden(split="fresh19y")``, and every
expected span on its page.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found

GOLDEN = ROOT / "evaluation" / "golden"


def rows() -> list[dict]:
    text = (GOLDEN / "fresh19_yesno.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_fresh19y_holds_17_settled_yesno_questions_and_3_unsettled_ones_whose_spans_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows()
    yesno = [r for r in records if r["kind"] == "yesno"]
    assert len(yesno) == 17 and sum(r["polarity"] == "yes" for r in yesno) == 8
    assert [r["kind"] for r in records].count("unanswerable") == 3
    for r in records:
        assert r["split"] == "fresh19y" and r["question"].endswith("?") and r["pages"]
        if r["kind"] == "yesno":
            assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]
        else:
            assert r["expect"] == "abstain" and r["covers"]


def test_fresh19y_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "fresh19_yesno.jsonl", needs_domain=False, split="fresh19y")) == 20
