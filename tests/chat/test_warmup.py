"""A server worker is ready before the first question (issue 20 point 5): the model is loaded and every domain's
index is built (when missing) and mapped when the ASGI application starts."""

from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.django_db


def test_warm_loads_the_model_and_maps_every_domains_index(embedder, tmp_path):
    from chat.warmup import warm
    from grounding.embeddings import default_embedder
    from knowledge import selectors
    from knowledge.indexing import index_path
    from knowledge.models import Domain
    from knowledge.services import domain_get_or_create, ingest_path

    (tmp_path / "desks.md").write_text("# Desks\n\nDesks are booked a day ahead.\n\n## Contact\n\nFacilities: #desks on "
                                       "Slack.\n", encoding="utf-8")
    domain = domain_get_or_create(slug="warm", name="Warm")
    ingest_path(path=tmp_path, domain=domain, embedder=embedder)
    token = Domain.objects.get(pk=domain.pk).index_token
    shutil.rmtree(index_path(domain=domain, status="superseded", token=token))  # a missing one gets built
    selectors._cache.clear()
    report = warm()
    assert default_embedder()._model is not None
    assert report["domains"] >= 1 and report["built"] >= 1
    assert (domain.pk, "current") in selectors._cache and (domain.pk, "superseded") in selectors._cache
    assert index_path(domain=domain, status="superseded", token=token).is_dir()
    # the contact sections are read at start, not by the first "Who do I contact ...?" (139 ms at 10,030 chunks)
    _, current = selectors._cache[(domain.pk, "current")]
    assert current._contacts is not None and [s for _, s in current._contacts.values()] == ["Contact"]
    # and the documents' words a misspelled word is read as (0.47 s at 10,030 chunks), not by the first such question
    assert getattr(current, "_domain_words", None) is not None and current._domain_words.nearest("boked") == "booked"


def test_the_asgi_application_warms_up_when_the_setting_asks(monkeypatch):
    import importlib

    import chat.warmup
    import config.asgi

    calls = []
    monkeypatch.setattr(chat.warmup, "warm", lambda: calls.append(1))
    from django.test import override_settings

    with override_settings(WARMUP=True):
        importlib.reload(config.asgi)
    with override_settings(WARMUP=False):
        importlib.reload(config.asgi)
    assert calls == [1]


def test_warm_freezes_start_up_objects_out_of_the_garbage_collector(embedder):
    """After warm-up, what start-up made (here a list made before it) is in the permanent generation: no collection
    during an ask walks it again (a full collection of torch's and Django's objects stalled a burst of asks)."""
    import gc

    from chat.warmup import warm

    made_at_start = [object()]
    try:
        warm()
        assert gc.get_freeze_count() > 0
        assert not any(o is made_at_start for o in gc.get_objects())
        made_later = [object()]
        assert any(o is made_later for o in gc.get_objects())
    finally:
        gc.unfreeze()


def test_the_server_start_ends_abandoned_uploads_only_without_a_task_queue(embedder, settings, monkeypatch):
    """Without a task queue an upload runs in a thread of the one server process: a worker starting marks the ones a
    stopped server left running failed (knowledge.services.jobs.ingest_jobs_abandoned). With one (REDIS_URL) jobs
    run on queue workers that a server restart does not stop: they are left alone."""
    import gc

    from chat.warmup import warm

    called = []
    monkeypatch.setattr("knowledge.services.ingest_jobs_abandoned", lambda: called.append(True) or 0)
    try:
        for queue in (False, True):
            settings.INGEST_QUEUE = queue
            warm()
    finally:
        gc.unfreeze()
    assert called == [True]
