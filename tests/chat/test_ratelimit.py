"""The per-user ask limit (issue #10): a sliding window in Django's cache, and the websocket's typed error frame."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import override_settings

from chat import ratelimit
from chat.errors import AskError
from chat.providers import registry
from chat.models import Message
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_sliding_window_counts_the_last_window_seconds():
    hit = lambda t: ratelimit.hit("k", limit=3, window=60, now=t)  # noqa: E731
    assert [hit(t).allowed for t in (0, 10, 20)] == [True, True, True]
    refused = hit(30)
    assert not refused.allowed and refused.retry_after == 30  # the ask at 0 leaves the window at 60
    assert hit(59.5).retry_after == 1  # never 0: rounded up
    assert hit(60.5).allowed  # 0 left; 10, 20, 60.5 are in
    assert not hit(61).allowed and hit(70.5).allowed  # 10 left at 70
    assert hit(200).remaining == 2  # all old asks have left


def test_refused_asks_are_not_counted():
    for t in range(5):
        ratelimit.hit("k", limit=1, window=10, now=0.1 * t)
    # only the first was counted, so the window opens 10 s after it, however often the client knocked
    assert ratelimit.hit("k", limit=1, window=10, now=10.05).allowed


def test_keys_are_independent_and_zero_turns_the_limit_off():
    assert ratelimit.hit("a", limit=1, window=60, now=0).allowed
    assert not ratelimit.hit("a", limit=1, window=60, now=1).allowed
    assert ratelimit.hit("b", limit=1, window=60, now=1).allowed
    assert all(ratelimit.hit("c", limit=0, window=60, now=0).allowed for _ in range(100))
    assert cache.get("c") is None  # nothing stored when off


def test_the_window_is_read_through_the_cache(monkeypatch):
    """Two processes sharing a cache share the window: simulated by a second clock reading the same cache."""
    assert ratelimit.hit("k", limit=1, window=60, now=1000).allowed
    assert cache.get("k") == [1000]
    assert not ratelimit.hit("k", limit=1, window=60, now=1001).allowed


def test_a_stuck_lock_does_not_block_the_user(monkeypatch):
    monkeypatch.setattr(ratelimit, "LOCK_WAIT", 0.02)
    cache.add("k:lock", 1, timeout=60)  # a holder that crashed
    assert ratelimit.hit("k", limit=1, window=60, now=0).allowed
    assert cache.get("k:lock") == 1  # someone else's lock is left alone


@pytest.mark.django_db
@override_settings(ASK_RATE_LIMIT=2, ASK_RATE_WINDOW=60)
def test_ask_allow_raises_a_typed_error_naming_when_to_retry():
    user = get_user_model().objects.create_user("carol", password="pw")
    ratelimit.ask_allow(user, now=100)
    ratelimit.ask_allow(user, now=110)
    with pytest.raises(AskError) as info:
        ratelimit.ask_allow(user, now=120)
    exc = info.value
    assert exc.code == "rate_limited" and exc.retry_after == 40
    assert exc.message == ("Too many questions: the limit is 2 per 60 seconds. Try again in 40 seconds. "
                           "Your message was not saved; send it again then.")


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_refuses_with_a_typed_frame_stays_usable_and_loses_nothing(ingest_demo, monkeypatch):
    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    clock = [1000.0]
    real_hit = ratelimit.hit
    monkeypatch.setattr(ratelimit, "hit", lambda key, **kw: real_hit(key, **{**kw, "now": clock[0]}))
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
        assert refused == {"type": "error", "code": "rate_limited", "retry_after": 45,
                           "message": "Too many questions: the limit is 1 per 60 seconds. Try again in 45 seconds. "
                                      "Your message was not saved; send it again then."}
        # nothing stored for the refused ask, and the earlier turn is intact
        rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status", "text"))
        assert rows == [("user", "complete", "How often are laptops replaced?"),
                        ("assistant", "complete", "Every 36 months [S1].")]
        # the socket stays usable
        await comm.send_json_to({"type": "resume", "message": first[-1]["message"]})
        assert (await comm.receive_json_from(timeout=10))["type"] == "done"
        # after the wait it is told, the same message goes through
        clock[0] += 45
        await comm.send_json_to({"type": "ask", "conversation": conversation, "text": "And monitors?",
                                 "client_id": "c-2"})
        again = await frames_until(comm, "done")
        assert [again[0]["type"], again[-1]["type"]] == ["accepted", "done"]
    assert await sync_to_async(Message.objects.count)() == 4
    await comm.disconnect()
