"""Versions and contradictions on real revisions: the 18F overtime policy, whose maximum salary changed over time
($176,300 in FY22, $183,500 in FY23, $191,900 in 2024; checked by reading the dated revisions)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from chat.answering import answer_prepare
from chat.persistence import answer_unsaved
from chat.serializers import answer_payload
from chat.streaming import AnswerStream
from knowledge.models import Chunk, Document
from knowledge.services import domain_get_or_create, ingest_path
from tests.conftest import SHARED

pytestmark = pytest.mark.django_db
REVISIONS = SHARED / "corpora" / "18f-handbook" / "versions" / "overtime"


@pytest.fixture
def overtime(embedder):
    domain = domain_get_or_create(slug="overtime-versions")
    domain.stored = []  # labels of the revisions whose text changed (editorial link-only edits are unchanged)
    for path in sorted(REVISIONS.glob("*.md")):
        date = dt.date.fromisoformat(path.name[:10])
        report = ingest_path(path=path, domain=domain, key="overtime", version=path.stem, date=date)
        if report.files[0].status in ("new", "new_version"):
            domain.stored.append(path.stem)
    return domain


def ask(domain, question):
    prepared = answer_prepare(domain=domain, question=question)

    async def ignore(frame):
        return None

    return answer_payload(answer_unsaved(prepared=prepared, verified=asyncio.run(AnswerStream(prepared).run(ignore))))


def test_revisions_become_versions_of_one_document(overtime):
    doc = Document.objects.get(domain=overtime)
    statuses = list(doc.versions.order_by("effective_date").values_list("label", "status"))
    assert [label for label, _ in statuses] == overtime.stored and len(statuses) >= 5
    assert [st for _, st in statuses] == ["superseded"] * (len(statuses) - 1) + ["current"]


def test_current_answer_cites_the_newest_version_and_a_note_names_the_older_one(overtime):
    out = ask(overtime, "What is the maximum salary above which you cannot receive overtime or comp time?")
    assert "$191,900" in out["answer"] and not out["abstained"]
    cited = Chunk.objects.filter(pk__in=[c["chunk_id"] for c in out["citations"]])
    current = overtime.stored[-1]
    assert {c.version.label for c in cited if "$191,900" in c.text} == {current}
    superseded = [s for s in out["sources"] if s["version"] != current]
    assert superseded, "the disagreeing older version is in the context"
    notes = [n for n in out["notes"] if n["kind"] in ("version_superseded", "value_mismatch")]
    # the note compares the current version with the last one that said otherwise: $183,500, not FY22's $176,300
    assert notes and any("$191,900" in n["text"] and "$183,500" in n["text"] for n in notes)
    assert not any("$176,300" in n["text"] for n in notes)
    assert all("salary" in n["text"] for n in notes)  # only disagreements about what was asked
    assert "Note that this changed:" in out["answer"]  # the offline answer names the change (not a disagreement)
    assert "sources disagree" not in out["answer"]
    assert any(n["kind"] == "version_superseded" for n in notes)
    assert "(a superseded version) says" in out["answer"]  # and says which side is the superseded version
    assert all(d["reason"] in {"below_threshold", "duplicate_of", "over_budget", "superseded"} for d in out["dropped"])
    assert any(d["reason"] == "superseded" for d in out["dropped"])  # the other old versions stay out


def test_question_about_the_past_gets_the_old_version(overtime):
    out = ask(overtime, "What was the maximum salary for comp time in FY23?")
    assert "$183,500" in out["answer"]
