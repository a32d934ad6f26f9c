"""Fixtures of the HTTP API tests: users, tokens, and a client that sends a bearer token."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from api.services import token_create
from chat import ratelimit
from tests.api.helpers import ApiClient


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Every test starts with an empty cache and an empty ask-limit window (chat.ratelimit's storage)."""
    cache.clear()
    ratelimit.storage().reset()
    yield
    cache.clear()
    ratelimit.storage().reset()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def alice_token(alice):
    return token_create(user=alice, name="script")[1]


@pytest.fixture
def api(alice_token):
    return ApiClient(alice_token)


@pytest.fixture(autouse=True)
def _keep_the_test_connection(request, monkeypatch):
    """The answer path (chat.generation.answer_run) wraps its queries in channels' database_sync_to_async, which closes
    "old" connections around each call: inside a test's transaction (autocommit off) that closes the test's own
    connection. Django's test client switches the same clean-up off for its request signals; this does it for
    channels' wrapper in the non-transactional tests. Transactional tests run the real thing."""
    if "transactional_db" not in request.fixturenames:
        monkeypatch.setattr("channels.db.close_old_connections", lambda **kwargs: None)
