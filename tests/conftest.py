"""Shared test set-up: one embedding model per session, and ingested corpora shared between the tests that read them.

The 18F handbook is ingested once per session (about a minute on 2 cores) into the test database, outside the
per-test transactions, so every non-transactional test can read it. Transactional tests (websocket, browser) run
after those and ingest the small demo corpus themselves.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
HANDBOOK_18F = SHARED / "corpora" / "18f-handbook" / "current" / "pages"
DEMO_CORPUS = ROOT / "demo" / "corpus"


#: Vectors of every text the test session embedded, kept between runs (var/ is git-ignored): the second pass of
#: scripts/test, and any later run, reads the 18F handbook's chunk and sentence vectors instead of encoding them again.
EMBEDDING_CACHE = ROOT / "var" / "test-embedding-cache"


@pytest.fixture(scope="session")
def embedder():
    """The bundled MiniLM embedder, loaded once per session. For the tests its cache holds every text, long chunks
    too, and is loaded from and saved to EMBEDDING_CACHE (.json: the model's name and the texts; .npy: their
    vectors, one row each); the model's output for a text does not change, so a vector read back is the vector the
    model gives."""
    import json

    import numpy as np

    from grounding.embeddings import default_embedder

    e = default_embedder()
    e.cache_chars, e.cache_size = 10**9, 1_000_000
    names, rows = EMBEDDING_CACHE.with_suffix(".json"), EMBEDDING_CACHE.with_suffix(".npy")
    if names.is_file() and rows.is_file():
        saved = json.loads(names.read_text())
        vectors = np.load(rows)
        if saved.get("model") == e.name and len(saved["texts"]) == len(vectors):
            e.remember(dict(zip(saved["texts"], vectors)))
    e.embed(["warm up"])
    yield e
    known = e.remembered()
    if known:
        EMBEDDING_CACHE.parent.mkdir(parents=True, exist_ok=True)
        np.save(rows, np.stack(list(known.values())).astype(np.float32))
        names.write_text(json.dumps({"model": e.name, "texts": list(known)}))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, with the database worker's connections closed before they are dropped.

    Async tests run database work on asgiref's thread-sensitive worker (channels' ``database_sync_to_async``), which
    keeps its connection between calls (CONN_MAX_AGE) as it does on the server; left open at the end of the session
    it keeps PostgreSQL from dropping the test database ("being accessed by other users").
    """
    import asyncio

    from asgiref.sync import sync_to_async
    from django.db import connections

    yield django_db_setup
    # from a loop of this (sync) thread, a thread-sensitive call goes to that same worker thread
    asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


@pytest.fixture(scope="session")
def handbook_18f(django_db_setup, django_db_blocker, embedder):
    """Domain '18f' holding the whole current 18F handbook, ingested once per session."""
    from knowledge.services import domain_get_or_create, ingest_path

    assert HANDBOOK_18F.is_dir(), f"missing shared corpus at {HANDBOOK_18F}"
    with django_db_blocker.unblock():
        domain = domain_get_or_create(slug="18f", name="18F handbook")
        report = ingest_path(path=HANDBOOK_18F, domain=domain)
    return domain, report


@pytest.fixture(scope="session")
def demo_session(django_db_setup, django_db_blocker, embedder):
    """Domain 'handbook' with the demo corpus, ingested once per session (for non-transactional tests)."""
    from knowledge.services import domain_get_or_create, ingest_path

    with django_db_blocker.unblock():
        domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook")
        ingest_path(path=DEMO_CORPUS, domain=domain)
    return domain


@pytest.fixture
def demo_domain(demo_session, db):
    """The session's demo domain inside a test transaction."""
    from knowledge.models import Domain

    return Domain.objects.get(slug="handbook")


@pytest.fixture
def ingest_demo(transactional_db, embedder):
    """For transactional tests: ingest the demo corpus into this test's database and return the domain."""
    from knowledge.services import domain_get_or_create, ingest_path

    domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook")
    ingest_path(path=DEMO_CORPUS, domain=domain)
    return domain


@pytest.fixture(autouse=True)
def _fresh_token_calibration():
    """Calibration learned in one test (from mock usage reports) must not change another test's budgets."""
    from grounding.tokens import calibrator

    yield
    calibrator.reset()


@pytest.fixture(autouse=True)
def _provider_registry_restored():
    """A provider or summarizer a test hands to the registry (chat.providers.registry.configure) is gone after it."""
    from chat.providers import registry

    state = registry.state()
    yield
    registry.restore(state)
