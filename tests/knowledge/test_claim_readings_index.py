"""What contradiction detection reads of a chunk's sentences is made at ingestion, stored with the chunk, carried by
the index and read at ask time (issue 20 point 3)."""

from __future__ import annotations

import json

import pytest

from grounding.claim_readings import READINGS_VERSION, reading, reading_row
from knowledge.indexing import index_ensure, index_path, index_publish
from knowledge.models import Chunk, Domain
from knowledge.selectors import chunk_readings, domain_index, retrieve_vector
from knowledge.services import domain_get_or_create, ingest_path
from tests.knowledge.test_indexing import page

pytestmark = pytest.mark.django_db

PAGE = ("# Travel\n\nThe daily meal allowance is $65 per day. Contractors may not use the lounge.\n\n"
        "Pets are prohibited in the office, about 3,600 visitors a year.\n")


def _chunks(domain):
    return list(Chunk.objects.filter(version__document__domain=domain).order_by("pk"))


def test_ingestion_stores_each_sentences_reading_and_an_ask_reads_them_from_the_index(tmp_path, embedder):
    domain = domain_get_or_create(slug="readings", name="Readings")
    ingest_path(path=page(tmp_path, "travel", PAGE), domain=domain, embedder=embedder)
    chunks = _chunks(domain)
    assert chunks and all(c.sentences for c in chunks)
    for c in chunks:
        assert c.readings == {"version": READINGS_VERSION, "rows": [reading_row(s) for s in c.sentences]}
    assert "readings" not in domain_index(domain=domain).record(0)  # kept apart: retrieval does not parse them
    question = "What is the meal allowance?"
    found = retrieve_vector(domain=domain, query=question, vector=embedder.embed([question])[0],
                            token=Domain.objects.get(pk=domain.pk).index_token)
    got = chunk_readings(domain=domain, chunks=[c.chunk for c in found])
    assert set(got) == {s for c in found for s in c.chunk.sentences}
    for sentence, stored in got.items():
        made = reading(sentence)
        assert (stored.tokens, stored.terms, stored.values, stored.cues, stored.polarity.plain) == \
            (made.tokens, made.terms, made.values, made.cues, made.polarity.plain)


def test_chunks_without_readings_or_with_old_ones_get_them_when_the_index_is_built(tmp_path, embedder):
    domain = domain_get_or_create(slug="readings2", name="Readings 2")
    ingest_path(path=page(tmp_path, "travel", PAGE), domain=domain, embedder=embedder)
    made = {c.pk: c.readings for c in _chunks(domain)}
    first, *rest = _chunks(domain)
    Chunk.objects.filter(pk=first.pk).update(readings=None)
    Chunk.objects.filter(pk__in=[c.pk for c in rest]).update(readings={"version": READINGS_VERSION - 1, "rows": []})
    index_publish(domain=domain)
    assert {c.pk: c.readings for c in _chunks(domain)} == made
    index = domain_index(domain=domain)
    assert [index.readings(row) for row in range(len(index))] == [made[int(k)]["rows"] for k in index.ids]


def test_a_worker_starting_indexes_again_a_domain_whose_index_has_no_readings(tmp_path, embedder):
    domain = domain_get_or_create(slug="readings3", name="Readings 3")
    ingest_path(path=page(tmp_path, "travel", PAGE), domain=domain, embedder=embedder)
    before = Domain.objects.get(pk=domain.pk).index_token
    assert index_ensure(domain=domain) is False
    for status in ("current", "superseded"):  # as an index written before it carried the readings
        meta = index_path(domain=domain, status=status, token=before) / "meta.json"
        meta.write_text(json.dumps({k: v for k, v in json.loads(meta.read_text()).items() if k != "readings"}))
    assert index_ensure(domain=domain) is True
    assert Domain.objects.get(pk=domain.pk).index_token != before
    index = domain_index(domain=domain)
    assert all(index.readings(row) for row in range(len(index)))
