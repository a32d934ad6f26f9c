"""The retrieval index is built by ingestion and swapped in atomically; a request never builds one (issue 20
point 4)."""

from __future__ import annotations

import pytest

from knowledge.indexing import index_path
from knowledge.models import Domain
from knowledge.selectors import domain_index, retrieve
from knowledge.services import domain_get_or_create, ingest_path

pytestmark = pytest.mark.django_db


def page(tmp_path, name: str, text: str):
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{name}.md").write_text(text, encoding="utf-8")
    return folder


def test_ingestion_publishes_the_index_and_a_search_reads_records_from_it(tmp_path, embedder,
                                                                           django_assert_num_queries):
    domain = domain_get_or_create(slug="idx", name="Index")
    ingest_path(path=page(tmp_path, "desks", "# Desks\n\nDesks are booked a day ahead in the office app.\n"),
                domain=domain, embedder=embedder)
    token = Domain.objects.get(pk=domain.pk).index_token
    assert token and all(index_path(domain=domain, status=s, token=token).is_dir()
                         for s in ("current", "superseded"))
    index = domain_index(domain=domain, token=token)
    assert len(index) == 1 and index.record(0)["text"].startswith("Desks are booked") \
        and index.record(0)["title"] == "Desks"
    from knowledge.selectors import retrieve_vector

    vector = embedder.embed(["How are desks booked?"])[0]
    with django_assert_num_queries(0):  # the search reads the index, not the database
        found = retrieve_vector(domain=domain, query="How are desks booked?", vector=vector, token=token)
    assert [c.chunk.title for c in found] == ["Desks"] and found[0].chunk.chunk_id == index.record(0)["chunk_id"]


def test_a_new_version_swaps_in_a_new_index_and_keeps_the_previous_for_asks_in_flight(tmp_path, embedder):
    domain = domain_get_or_create(slug="idx2", name="Index 2")
    folder = page(tmp_path, "meals", "# Meals\n\nThe daily meal allowance is $50.\n")
    ingest_path(path=folder, domain=domain, embedder=embedder)
    first = Domain.objects.get(pk=domain.pk).index_token
    old = domain_index(domain=domain, token=first)
    (folder / "meals.md").write_text("# Meals\n\nThe daily meal allowance is $65.\n", encoding="utf-8")
    ingest_path(path=folder, domain=domain, embedder=embedder)
    second = Domain.objects.get(pk=domain.pk).index_token
    assert second != first
    assert index_path(domain=domain, status="current", token=first).is_dir()  # an ask using it still can
    assert "$50" in old.record(0)["text"]  # the mapping an ask holds stays valid
    assert "$65" in domain_index(domain=domain).record(0)["text"]
    import os
    import time

    from knowledge import indexing

    stale = time.time() - indexing.KEEP_SECONDS - 1
    os.utime(index_path(domain=domain, status="current", token=first), (stale, stale))
    ingest_path(path=page(tmp_path, "desks", "# Desks\n\nDesks are booked a day ahead.\n"), domain=domain,
                embedder=embedder)
    # two publishes later and old enough: removed; the previous one stays
    assert not index_path(domain=domain, status="current", token=first).is_dir()
    assert index_path(domain=domain, status="current", token=second).is_dir()


def test_a_request_never_builds_an_index(tmp_path, embedder, monkeypatch, caplog):
    from knowledge import indexing

    domain = domain_get_or_create(slug="idx3", name="Index 3")
    ingest_path(path=page(tmp_path, "desks", "# Desks\n\nDesks are booked a day ahead.\n"), domain=domain,
                embedder=embedder)
    assert [c.chunk.title for c in retrieve(domain=domain, query="desks", embedder=embedder)] == ["Desks"]
    builds = []
    monkeypatch.setattr(indexing, "_build", lambda **kw: builds.append(kw))
    # the published directory disappears (say, a cleaned index folder): the request uses what this process had
    import shutil

    shutil.rmtree(index_path(domain=domain, status="current", token=Domain.objects.get(pk=domain.pk).index_token))
    Domain.objects.filter(pk=domain.pk).update(index_token="gone")
    assert [c.chunk.title for c in retrieve(domain=domain, query="desks", embedder=embedder)] == ["Desks"]
    assert builds == [] and "using the previous one" in caplog.text
    # a worker starting builds what is missing
    monkeypatch.undo()
    assert indexing.index_ensure(domain=domain) is True
    assert index_path(domain=domain, status="current", token="gone").is_dir()
