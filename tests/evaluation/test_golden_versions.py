"""The fresh version set evaluation/golden/18f_versions.jsonl (split "fresh-versions"): questions about values that
changed between a dated revision of an 18F page and the current page, written in the s13 round from reading the
revisions before that round's version-note changes were run on them. Fast checks only (no embedding, no database):
well formed, read by ``load_golden(split="fresh-versions")`` and by no other split, the old value in the named
revision, the new value on the current page, the expected items where the question asks (current page or revision),
and a revision date equal to its author date in the folder's index.jsonl."""

from __future__ import annotations

import json

from evaluation.golden import load_golden, revisions
from tests.evaluation.test_golden_18f_data import HANDBOOK, PAGES, ROOT, found

FILE = ROOT / "evaluation" / "golden" / "18f_versions.jsonl"
FIELDS = {"id", "kind", "split", "question", "expect", "pages", "versions", "old_value", "new_value", "asks"}


def records() -> list[dict]:
    return [json.loads(line) for line in FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_shape_and_split():
    rs = records()
    assert len(rs) == len({r["id"] for r in rs}) >= 14
    assert all(set(r) == FIELDS and r["id"].startswith("v") for r in rs)
    assert {(r["kind"], r["split"]) for r in rs} == {("superseded", "fresh-versions")}
    assert sum(r["asks"] == "current" for r in rs) > len(rs) / 2
    assert [i.id for i in load_golden(FILE, needs_domain=False, split="fresh-versions")] == [r["id"] for r in rs]
    assert load_golden(FILE, needs_domain=False, split="calibration") == []


def test_labels_hold_against_the_revisions_and_the_current_pages():
    dates = {}
    for doc in (HANDBOOK / "versions").iterdir():
        for line in (doc / "index.jsonl").read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            dates[f"versions/{doc.name}/{entry['file']}"] = entry["author_date"][:10]
    for r in records():
        files = [v["file"] for v in r["versions"]]
        assert all(dates[v["file"]] == v["date"] for v in r["versions"]), r["id"]
        assert found(r["old_value"], files), (r["id"], r["old_value"])
        assert found(r["new_value"], r["pages"]), (r["id"], r["new_value"])
        where = r["pages"] if r["asks"] == "current" else files
        assert all(found(e, where) for e in r["expect"]), r["id"]


def test_revisions_resolve_to_the_pages_they_revise():
    items = load_golden(FILE, needs_domain=False, split="fresh-versions")
    keys = {r.path.name: r.key for r in revisions(items, PAGES)}
    assert keys["2023-01-30_13bf649.md"] == "travel-and-leave/leave.md"
    assert len(keys) == 4
