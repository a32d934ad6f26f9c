"""The fresh12 table set: 15 ``table`` questions written in the s17 round, before that round's table-lookup rules,
from reading the tables of eleven 18F pages (most used by no other table question); asked once before and once after
those rules (docs/evaluation.md).

Fast checks only (no embedding, no database): well formed in the table record format of 18f_dev.jsonl, read by
``load_golden(split="fresh12")``, and every expected string in the named row and column of a table on its page.
"""

from __future__ import annotations

import json

from evaluation.golden import load_golden
from tests.evaluation.test_golden_18f_data import HANDBOOK, ROOT, found, normalise, tables

GOLDEN = ROOT / "evaluation" / "golden"


def rows() -> list[dict]:
    text = (GOLDEN / "18f_fresh12.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_fresh12_holds_15_table_questions_whose_expected_strings_are_on_their_pages():
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    records = rows()
    assert [r["id"] for r in records] == [f"f12-t{i:02d}" for i in range(1, 16)]
    for r in records:
        assert r["kind"] == "table" and r["split"] == "fresh12"
        assert set(r) == {"id", "kind", "split", "question", "expect", "pages", "row", "column"}
        assert all(found(item, r["pages"]) for item in r["expect"]), r["id"]


def test_fresh12_expected_strings_stand_in_the_named_row_and_column():
    for r in rows():
        row, column = normalise(r["row"]), normalise(r["column"])
        cells = [line[table[0].index(column)] for page in r["pages"] for table in tables(page) if column in table[0]
                 for line in table[1:] if len(line) > table[0].index(column)
                 and (line[0] == row or line[0].startswith(row + " "))]
        assert any(normalise(item) in cell for cell in cells for item in r["expect"]), r["id"]


def test_fresh12_is_read_by_its_split():
    assert len(load_golden(GOLDEN / "18f_fresh12.jsonl", needs_domain=False, split="fresh12")) == 15
