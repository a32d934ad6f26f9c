"""The 18F golden question set (evaluation/golden/18f.jsonl) is well formed and its labels hold against the corpus.

Fast checks only: no embedding, no database. Page text is what ingestion reads: the page parsed by
``grounding.parsing.parse_document`` (front matter dropped, Liquid tags removed, Markdown rendered to text, table
rows as "a | b | c"), the title and section headings included, whitespace collapsed, lower-cased. An expected item
is a string the answer must contain, or a list of spellings of one fact of which at least one must be on the page.
The corpus is read from ../shared (the parent of the repository root), never copied into the project.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from grounding.parsing import parse_document

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "evaluation" / "golden" / "18f.jsonl"
HANDBOOK = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "18f-handbook"
PAGES = HANDBOOK / "current" / "pages"

SEED = 20261130
MINIMUM = {"value": 35, "yesno": 20, "comparison": 12, "multi_section": 12, "table": 10, "list": 8,
           "superseded": 10, "unanswerable": 32, "conversation": 20}
COMMON = {"id", "kind", "split"}
FIELDS = {  # required fields beyond id, kind and split
    "value": {"question", "expect", "pages"},
    "yesno": {"question", "expect", "pages", "polarity", "paraphrased"},
    "comparison": {"question", "expect", "pages", "values"},
    "multi_section": {"question", "expect", "pages", "sections"},
    "table": {"question", "expect", "pages", "row", "column"},
    "list": {"question", "expect", "pages"},
    "superseded": {"question", "expect", "pages", "versions", "old_value", "new_value", "asks"},
    "unanswerable": {"question", "expect", "pages", "covers"},
    "conversation": {"refers", "turns"},
}
MAX_REVISION_FILES = 12


def normalise(text: str) -> str:
    """Collapse whitespace (including no-break spaces) and lower-case, as the answer check does."""
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip().lower()


@lru_cache(maxsize=None)
def parsed(path: str):
    """A page (relative to current/pages) or a revision ("versions/<doc>/<file>.md") parsed as ingestion parses it."""
    file = HANDBOOK / path if path.startswith("versions/") else PAGES / path
    return parse_document(file.read_bytes(), file.name)


@lru_cache(maxsize=None)
def page_text(path: str) -> str:
    """The page's title, section headings and block text, normalised (what an expected item is searched in)."""
    doc = parsed(path)
    parts = [doc.title] + [" > ".join(b.section) + "\n" + b.text for b in doc.blocks]
    return normalise("\n".join(parts))


def found(item: str | list[str], paths: list[str]) -> bool:
    """An expected item (or one of its spellings) occurs in the text of one of ``paths``."""
    spellings = item if isinstance(item, list) else [item]
    return any(normalise(s) in page_text(p) for s in spellings for p in paths)


def assert_on_their_pages(records: list[dict]) -> None:
    """Assert of a fresh set's records (one dict per line) what holds for every kind: a conversation's two turns each
    with its expected spans on its pages, a near miss with the pages and what they cover, any other item with its
    expected spans on its pages; a two-section item's two sections are headings of its pages, a comparison has two
    values. Raises AssertionError naming the record's id."""
    for r in records:
        if r["kind"] == "conversation":
            assert len(r["turns"]) == 2 and not {"question", "expect", "pages"} & set(r), r["id"]
            assert all(t["question"] and all(found(e, t["pages"]) for e in t["expect"]) for t in r["turns"]), r["id"]
        elif r["kind"] == "unanswerable":
            assert r["question"] and r["pages"] and r["expect"] == "abstain" and r["covers"], r["id"]
        else:
            assert r["question"] and all(found(e, r["pages"]) for e in r["expect"]), r["id"]
        if r["kind"] == "multi_section":
            assert len({(p["page"], p["section"]) for p in r["sections"]}) == 2, r["id"]
            for place in r["sections"]:
                assert any(" > ".join(b.section) == place["section"] for b in parsed(place["page"]).blocks), r["id"]
        if r["kind"] == "comparison":
            assert len(r["values"]) == 2 and len(r["expect"]) == 2, r["id"]


def tables(path: str) -> list[list[list[str]]]:
    """The page's tables as rows of cells, header row first (table blocks are lines of " | "-separated cells)."""
    out = []
    for block in parsed(path).blocks:
        lines = block.text.split("\n")
        if len(lines) > 1 and all(" | " in line for line in lines):
            out.append([[normalise(c) for c in line.split(" | ")] for line in lines])
    return out


@pytest.fixture(scope="module")
def golden() -> list[dict]:
    """The lines of 18f.jsonl as objects."""
    assert HANDBOOK.is_dir(), f"missing shared corpus at {HANDBOOK}"
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert rows, f"{GOLDEN} is empty"
    return rows


def answerable(golden):
    """(id, question, expect, pages, extra paths) for every answerable question and conversation turn."""
    for r in golden:
        if r["kind"] == "conversation":
            for n, t in enumerate(r["turns"], 1):
                yield f"{r['id']}.{n}", t["question"], t["expect"], t["pages"], []
        elif r["kind"] != "unanswerable":
            extra = [v["file"] for v in r.get("versions", [])]
            yield r["id"], r["question"], r["expect"], r["pages"], extra


def test_every_line_is_an_object_with_the_fields_of_its_kind(golden):
    for r in golden:
        assert r.get("kind") in FIELDS, r
        missing = (COMMON | FIELDS[r["kind"]]) - r.keys()
        assert not missing, f"{r.get('id')}: missing {sorted(missing)}"
        if "question" in r:
            assert isinstance(r["question"], str) and r["question"].strip().endswith("?"), r["id"]


def test_ids_are_unique_and_numbered(golden):
    ids = [r["id"] for r in golden]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"q\d{3}", i) for i in ids)
    assert len({normalise(q) for _, q, *_ in answerable(golden)}) == sum(1 for _ in answerable(golden))


def test_every_kind_has_its_minimum_count(golden):
    counts = Counter(r["kind"] for r in golden)
    short = {k: (counts[k], n) for k, n in MINIMUM.items() if counts[k] < n}
    assert not short, f"kinds below their minimum (have, need): {short}"
    assert sum(counts.values()) >= 150


def test_split_is_the_recorded_draw_half_and_half_per_kind(golden):
    """Per kind: random.Random(20261130).sample(sorted ids, n); the first n // 2 are calibration, the rest test."""
    by_kind: dict[str, list[str]] = {}
    for r in golden:
        by_kind.setdefault(r["kind"], []).append(r["id"])
    drawn = {}
    for ids in by_kind.values():
        order = random.Random(SEED).sample(sorted(ids), len(ids))
        drawn.update({i: "calibration" if n < len(ids) // 2 else "test" for n, i in enumerate(order)})
    assert {r["id"]: r["split"] for r in golden} == drawn
    for kind, ids in by_kind.items():
        test = sum(drawn[i] == "test" for i in ids)
        assert test - (len(ids) - test) in (0, 1), kind


def test_expected_items_are_short_strings_or_spellings_of_one_fact(golden):
    for rid, _, expect, _, _ in answerable(golden):
        assert isinstance(expect, list) and expect or expect == [], rid
        for item in expect:
            spellings = item if isinstance(item, list) else [item]
            assert all(isinstance(s, str) and s.strip() and len(s) <= 80 for s in spellings), (rid, item)
            if isinstance(item, list):
                assert len(set(map(normalise, item))) == len(item) >= 2, (rid, item)


def test_every_page_and_revision_named_exists(golden):
    for r in golden:
        paths = [p for t in r["turns"] for p in t["pages"]] if r["kind"] == "conversation" else r["pages"]
        assert paths, r["id"]
        for p in paths:
            assert (PAGES / p).is_file(), f"{r['id']}: no page {p}"
        for v in r.get("versions", []):
            assert (HANDBOOK / v["file"]).is_file(), f"{r['id']}: no revision {v['file']}"


def test_every_expected_item_is_on_one_of_its_pages(golden):
    missing = [(rid, item) for rid, _, expect, pages, extra in answerable(golden)
               for item in expect if not found(item, pages + extra)]
    assert not missing, missing


def test_unanswerable_questions_abstain_and_name_what_the_pages_cover(golden):
    for r in golden:
        if r["kind"] == "unanswerable":
            assert r["expect"] == "abstain", r["id"]
            assert isinstance(r["covers"], str) and len(r["covers"].split()) >= 3, r["id"]
        else:
            assert r.get("expect") != "abstain", r["id"]


def test_yesno_polarity_is_balanced_and_some_settle_in_other_words(golden):
    yesno = [r for r in golden if r["kind"] == "yesno"]
    assert all(r["polarity"] in ("yes", "no") for r in yesno)
    no = sum(r["polarity"] == "no" for r in yesno)
    assert 0.4 <= no / len(yesno) <= 0.6
    assert sum(r["paraphrased"] is True for r in yesno) >= 8


def test_comparisons_hold_two_values_each_on_a_page(golden):
    for r in (r for r in golden if r["kind"] == "comparison"):
        assert len(r["values"]) >= 2 and len(r["expect"]) >= 2, r["id"]
        for what, value in r["values"].items():
            assert found(value, r["pages"]), (r["id"], what, value)


def test_multi_section_answers_come_from_two_places(golden):
    """Each item is located in the section (page, heading path) named for it, and not all in one place."""
    for r in (r for r in golden if r["kind"] == "multi_section"):
        assert len(r["expect"]) >= 2 and len(r["sections"]) == len(r["expect"]), r["id"]
        places = set()
        for item, place in zip(r["expect"], r["sections"]):
            blocks = [b for b in parsed(place["page"]).blocks if " > ".join(b.section) == place["section"]]
            spellings = item if isinstance(item, list) else [item]
            assert any(normalise(s) in normalise(b.text) for b in blocks for s in spellings), (r["id"], item, place)
            places.add((place["page"], place["section"]))
        assert len(places) >= 2, r["id"]


def test_table_items_are_in_the_named_row_and_column(golden):
    for r in (r for r in golden if r["kind"] == "table"):
        row, column = normalise(r["row"]), normalise(r["column"])
        cells = []
        for page in r["pages"]:
            for table in tables(page):
                if column in table[0]:
                    at = table[0].index(column)
                    cells += [line[at] for line in table[1:]
                              if len(line) > at and (line[0] == row or line[0].startswith(row + " "))]
        assert cells, f"{r['id']}: no row {r['row']!r} with column {r['column']!r}"
        assert any(normalise(s) in cell for cell in cells for item in r["expect"]
                   for s in (item if isinstance(item, list) else [item])), (r["id"], cells)


def test_lists_have_several_elements(golden):
    assert all(len(r["expect"]) >= 3 for r in golden if r["kind"] == "list")


def test_superseded_values_changed_between_the_revision_and_the_current_page(golden):
    """old_value is in a listed revision and gone from the current page; new_value is on the current page."""
    index = {}
    for doc in (HANDBOOK / "versions").iterdir():
        for line in (doc / "index.jsonl").read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            index[f"versions/{doc.name}/{entry['file']}"] = entry["author_date"][:10]
    files = set()
    for r in (r for r in golden if r["kind"] == "superseded"):
        assert r["versions"] and r["asks"] in ("current", "old"), r["id"]
        for v in r["versions"]:
            assert index.get(v["file"]) == v["date"], (r["id"], v)
            files.add(v["file"])
        revisions = [v["file"] for v in r["versions"]]
        assert found(r["old_value"], revisions), (r["id"], r["old_value"])
        assert not found(r["old_value"], r["pages"]), (r["id"], "old value still current")
        assert found(r["new_value"], r["pages"]), (r["id"], r["new_value"])
    assert len(files) <= MAX_REVISION_FILES, sorted(files)


def test_conversations_have_two_turns_referring_and_switching(golden):
    conversations = [r for r in golden if r["kind"] == "conversation"]
    for r in conversations:
        assert len(r["turns"]) == 2 and isinstance(r["refers"], bool), r["id"]
        for t in r["turns"]:
            assert {"question", "expect", "pages"} <= t.keys() and t["expect"], r["id"]
    assert sum(r["refers"] for r in conversations) >= 10
    assert sum(not r["refers"] for r in conversations) >= 8
