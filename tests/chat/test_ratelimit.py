"""The per-user ask limit (issue #10): a moving window (the `limits` package) in memory or Redis, and the websocket's
typed error frame.

Each test runs on the process-memory storage and again on Redis (REDIS_URL, else a Redis on loopback; skipped when
none answers, failed when scripts/services.sh started one that does not), under a key prefix of its own. The
limiter reads ``time.time()`` (limits' storages do, for Redis too), so the tests set that clock.
"""

from __future__ import annotations

import logging
import os
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from limits import RateLimitItemPerSecond
from limits.storage import storage_from_string

from chat import ratelimit
from chat.errors import AskError
from chat.providers import registry
from chat.models import Message
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until

LOOPBACK_REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture(params=["memory", "redis"])
def store(request, settings):
    """The limiter's storage for this test: fresh, and emptied again afterwards."""
    if request.param == "memory":
        settings.ASK_RATE_STORAGE_URL = "memory://"
    else:
        url = django_settings.REDIS_URL or LOOPBACK_REDIS
        probe = storage_from_string(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        if not probe.check():
            if os.environ.get("GROUNDED_REDIS_URL"):  # scripts/test started one: not answering is a failure
                pytest.fail(f"no Redis server answers at {url}, though scripts/services.sh started one")
            pytest.skip(f"no Redis server answers at {url} (eval \"$(scripts/services.sh)\" starts one)")
        settings.ASK_RATE_STORAGE_URL = url
        settings.ASK_RATE_KEY_PREFIX = f"ratelimit-test-{uuid.uuid4().hex[:8]}"
    storage = ratelimit.storage()
    storage.reset()
    yield storage
    storage.reset()


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, seconds: limits' storages stamp and compare with ``time.time()``."""
    now = [0.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def window(store, key: str, *, limit: int, window: int) -> tuple[float, int]:
    """(oldest stamp in the window, asks in the window) as the storage holds them for ``key``."""
    return store.get_moving_window(RateLimitItemPerSecond(limit, window).key_for(key), limit, window)


def test_a_sliding_window_counts_the_last_window_seconds(store, clock):
    def hit(t: float) -> ratelimit.Decision:
        clock[0] = t
        return ratelimit.hit("k", limit=3, window=60)

    assert [hit(t).allowed for t in (0, 10, 20)] == [True, True, True]
    refused = hit(30)
    assert not refused.allowed and refused.retry_after == 30  # the ask at 0 leaves the window at 60
    assert hit(59.5).retry_after == 1  # never 0: rounded up
    assert hit(60.5).allowed  # 0 left; 10, 20, 60.5 are in
    assert not hit(61).allowed and hit(70.5).allowed  # 10 left at 70
    assert hit(200).remaining == 2  # all old asks have left


def test_refused_asks_are_not_counted(store, clock):
    for t in range(5):
        clock[0] = 0.1 * t
        ratelimit.hit("k", limit=1, window=10)
    # only the first was counted, so the window opens 10 s after it, however often the client knocked
    clock[0] = 10.05
    assert ratelimit.hit("k", limit=1, window=10).allowed


def test_keys_are_independent_and_zero_turns_the_limit_off(store, clock, monkeypatch):
    assert ratelimit.hit("a", limit=1, window=60).allowed
    clock[0] = 1
    assert not ratelimit.hit("a", limit=1, window=60).allowed
    assert ratelimit.hit("b", limit=1, window=60).allowed
    touched = []
    monkeypatch.setattr(type(store), "acquire_entry", lambda *args, **kwargs: touched.append(args))
    assert all(ratelimit.hit("c", limit=0, window=60).allowed for _ in range(100))
    assert touched == []  # nothing stored when off


def test_the_window_is_read_through_the_storage(store, clock, settings):
    """Two processes sharing a storage share the window: simulated by a second storage client (Redis: its own
    connection, as another process has) reading the same window a second later."""
    clock[0] = 1000
    assert ratelimit.hit("k", limit=1, window=60).allowed
    second = store
    if settings.ASK_RATE_STORAGE_URL != "memory://":  # memory is one process's: its second reader is itself
        second = storage_from_string(settings.ASK_RATE_STORAGE_URL, key_prefix=settings.ASK_RATE_KEY_PREFIX)
    assert window(second, "k", limit=1, window=60) == (1000, 1)
    clock[0] = 1001
    assert not ratelimit.hit("k", limit=1, window=60).allowed


@pytest.mark.django_db
@override_settings(ASK_RATE_LIMIT=1, ASK_RATE_WINDOW=60, ASK_RATE_STORAGE_URL="redis://127.0.0.1:1/0")
def test_an_unreachable_storage_does_not_block_the_user(caplog):
    """The check goes ahead without the storage rather than block the user (the failure is logged)."""
    user = get_user_model().objects.create_user("dave", password="pw")
    with caplog.at_level(logging.ERROR, logger="grounded.ratelimit"):
        assert ratelimit.ask_allow(user).allowed and ratelimit.ask_allow(user).allowed
    assert "rate limit storage failed" in caplog.text


@pytest.mark.django_db
@override_settings(ASK_RATE_LIMIT=2, ASK_RATE_WINDOW=60)
def test_ask_allow_raises_a_typed_error_naming_when_to_retry(store, clock):
    user = get_user_model().objects.create_user("carol", password="pw")
    clock[0] = 100
    ratelimit.ask_allow(user)
    clock[0] = 110
    ratelimit.ask_allow(user)
    clock[0] = 120
    with pytest.raises(AskError) as info:
        ratelimit.ask_allow(user)
    exc = info.value
    assert exc.code == "rate_limited" and exc.retry_after == 40
    assert exc.message == ("Too many questions: the limit is 2 per 60 seconds. Try again in 40 seconds. "
                           "Your message was not saved; send it again then.")


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_refuses_with_a_typed_frame_stays_usable_and_loses_nothing(ingest_demo, monkeypatch,
                                                                                      store, clock):
    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    clock[0] = 1000.0
    user = await sync_to_async(get_user_model().objects.create_user)("alice", password="pw")
    comm = await connect(user)
    await comm.connect()
    with override_settings(ASK_RATE_LIMIT=1, ASK_RATE_WINDOW=60):
        await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                                 "client_id": "c-1"})
        first = await frames_until(comm, "done")
        assert first[-1]["type"] == "done"
        conversation = first[0]["conversation"]
        clock[0] += 15
        await comm.send_json_to({"type": "ask", "conversation": conversation, "text": "And monitors?",
                                 "client_id": "c-2"})
        refused = await comm.receive_json_from(timeout=10)
        assert refused == {"type": "error", "code": "rate_limited", "retry_after": 45, "client_id": "c-2",
                           "message": "Too many questions: the limit is 1 per 60 seconds. Try again in 45 seconds. "
                                      "Your message was not saved; send it again then."}
        # nothing stored for the refused ask, and the earlier turn is intact
        rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status", "text"))
        assert rows == [("user", "complete", "How often are laptops replaced?"),
                        ("assistant", "complete", "Every 36 months [S1].")]
        # the socket stays usable
        await comm.send_json_to({"type": "resume", "message": first[-1]["message"]})
        assert (await comm.receive_json_from(timeout=10))["type"] == "done"
        # after the wait it is told, the same message goes through (a moment after it, as a real client comes:
        # the window holds an ask for `window` seconds inclusive, so at exactly +45.000 it is still in)
        clock[0] += 45.001
        await comm.send_json_to({"type": "ask", "conversation": conversation, "text": "And monitors?",
                                 "client_id": "c-2"})
        again = await frames_until(comm, "done")
        assert [again[0]["type"], again[-1]["type"]] == ["accepted", "done"]
    assert await sync_to_async(Message.objects.count)() == 4
    await comm.disconnect()
