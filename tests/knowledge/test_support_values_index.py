"""The support check reads each cited source's values from what ingestion stored with its chunks (issue 20 point 3;
grounding.support_store), and finds exactly what reading the source's text finds: over every chunk of the 18F
handbook as the test suite ingests it, over every run of two and three adjacent chunks joined as the planner joins
them, and over the sources and answers of the calibration half's questions."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from pathlib import Path

import pytest

from grounding.context_merge import joined_text
from grounding.providers import TextDelta
from grounding.support import check_support
from grounding.support_store import VALUES_VERSION, chunk_values, joined_values
from grounding.support_values import source_keys, source_values, values_of_keys
from knowledge.models import Chunk, Domain
from knowledge.selectors import domain_index

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "evaluation" / "golden" / "18f.jsonl"


def _versions(domain) -> dict[int, list[tuple[str, dict | None]]]:
    """version id -> its chunks in document order as (text, the values row the published index holds)."""
    index = domain_index(domain=domain)
    out: dict[int, list] = defaultdict(list)
    for c in Chunk.objects.filter(version__document__domain=domain).order_by("version_id", "ordinal"):
        row = index.row_of(c.pk)
        if row is not None:
            out[c.version_id].append((index.record(row)["text"], index.values(row)))
    return out


def test_every_chunk_of_the_18f_handbook_has_the_values_of_its_text(handbook_18f):
    domain, _ = handbook_18f
    chunks = [c for run in _versions(domain).values() for c in run]
    assert len(chunks) > 300, "precondition: the whole handbook is indexed"
    by_lines = 0
    for text, row in chunks:
        assert row is not None and row["v"] == VALUES_VERSION
        assert values_of_keys(row["all"]) == source_values(text), text[:200]
        if "lines" in row:
            by_lines += 1
            assert {k for _, keys in row["lines"] for k in keys} == set(row["all"]) == set(source_keys(text))
    assert by_lines >= 0.9 * len(chunks), f"only {by_lines} of {len(chunks)} chunks read by lines"


def test_adjacent_chunks_of_the_18f_handbook_joined_have_the_values_of_their_joined_text(handbook_18f):
    domain, _ = handbook_18f
    read, tried = 0, 0
    for run in _versions(domain).values():
        for size in (2, 3):
            for i in range(len(run) - size + 1):
                texts, rows = [t for t, _ in run[i:i + size]], [r for _, r in run[i:i + size]]
                tried += 1
                joined = joined_values(texts, rows)
                if joined is None:
                    continue
                read += 1
                text = joined_text(tuple(texts))[0]
                assert joined[0] == text
                assert values_of_keys(joined[1]) == source_values(text), text[:300]
    assert tried > 500 and read >= 0.8 * tried, f"{read} of {tried} joined sources read from stored values"


def _calibration_questions(n: int) -> list[str]:
    records = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]
    return [r["question"] for r in records if r.get("split") == "calibration" and "question" in r][:n]


async def _answer_text(prepared) -> str:
    return "".join([e.text async for e in prepared.provider.stream(prepared.prompt, prepared.plan)
                    if isinstance(e, TextDelta)])


def test_answers_on_the_18f_handbook_are_checked_the_same_with_stored_values(handbook_18f, embedder):
    from chat.answering import answer_prepare

    domain = Domain.objects.get(pk=handbook_18f[0].pk)
    stored_sources = merged = checked = 0
    for question in _calibration_questions(25):
        prepared = answer_prepare(domain=domain, question=question)
        sources = {s.label: s.text for s in prepared.plan.sources}
        for source in prepared.plan.sources:
            if source.label in prepared.source_values:
                stored_sources += 1
                merged += len(source.chunk_ids) > 1
                assert prepared.source_values[source.label] == source_values(source.text), source.text[:300]
        if not prepared.plan.sufficient:
            continue
        text = asyncio.run(_answer_text(prepared))
        full = check_support(text, sources, embedder, question=question)
        read = check_support(text, sources, embedder, question=question, stored_values=prepared.source_values)
        assert read.as_dict() == full.as_dict()
        checked += bool(full.sentences)
    assert stored_sources >= 25 and merged >= 1 and checked >= 10, (stored_sources, merged, checked)


PAGE = ("# Travel\n\nThe daily meal allowance is $65 per day.\n\n- Hotels: up to $225 a night\n- Taxis: two rides\n\n"
        "Submit the report within 30 days of March 5,\n2024.\n")


def test_ingestion_stores_each_chunks_values_and_the_index_build_reads_them(tmp_path, embedder, monkeypatch):
    from knowledge import indexing
    from knowledge.services import domain_get_or_create, ingest_path
    from tests.knowledge.test_indexing import page

    domain = domain_get_or_create(slug="stored-values", name="Stored values")
    ingest_path(path=page(tmp_path, "travel", PAGE), domain=domain, embedder=embedder)
    chunks = list(Chunk.objects.filter(version__document__domain=domain).order_by("pk"))
    assert chunks and all(c.support_values == chunk_values(c.text) for c in chunks)
    assert {"$65", "$225", "2", "30", "5", "2024"} <= {k for c in chunks for k in c.support_values["all"]}
    index = domain_index(domain=domain)
    assert [index.values(row) for row in range(len(index))] == [c.support_values for c in chunks]

    read = []  # a build reads the stored rows: the chunks' texts are not read for values again
    monkeypatch.setattr(indexing, "chunk_values", lambda text: read.append(text) or chunk_values(text))
    indexing.index_publish(domain=domain)
    assert read == []

    first, *rest = chunks  # a chunk stored before values were made, or with another version's, gets them once
    Chunk.objects.filter(pk=first.pk).update(support_values=None)
    Chunk.objects.filter(pk__in=[c.pk for c in rest]).update(support_values={"v": VALUES_VERSION - 1, "all": []})
    indexing.index_publish(domain=domain)
    assert sorted(read) == sorted(c.text for c in chunks)
    again = list(Chunk.objects.filter(version__document__domain=domain).order_by("pk"))
    assert [c.support_values for c in again] == [chunk_values(c.text) for c in chunks]
    index = domain_index(domain=domain)
    assert [index.values(row) for row in range(len(index))] == [c.support_values for c in again]


def test_a_text_read_line_by_line_has_the_keys_of_the_whole_text():
    by_lines = "Hotels: $225 a night\nTaxis: two rides\n\nSee [3] for the 2024 rates."
    row = chunk_values(by_lines)
    assert row["lines"] == [[0, ["$225"]], [1, ["2"]], [3, ["2024"]]]
    assert set(row["all"]) == set(source_keys(by_lines)) == {"$225", "2", "2024"}
    across = "Submit it by March 5,\n2024."  # a date runs across the line break: read as a whole, no lines
    assert chunk_values(across) == {"v": VALUES_VERSION, "all": sorted(source_keys(across))}
    assert "lines" not in chunk_values(across) and "2024" in chunk_values(across)["all"]
