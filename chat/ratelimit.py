"""Per-user limit on asks: at most ASK_RATE_LIMIT asks in any ASK_RATE_WINDOW seconds (a sliding window).

Shared by the websocket consumer and the HTTP API, so one user's asks count against one budget however they arrive.
The window lives in Django's cache (the timestamps of the accepted asks, newest last), so it holds across processes
when a shared cache (Redis, Memcached, database) is configured with DJANGO_CACHE_URL; the default local-memory cache
counts per process. A refused ask is not counted: a client that waits the time it is told gets through.

The check-and-record step is guarded by a short lock taken with ``cache.add`` (atomic on every shared backend), so two
processes cannot both take the last slot. Should the lock stay taken (a crashed holder), it expires after a few
seconds and the check goes ahead without it rather than block the user.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches

from chat.errors import AskError

#: How long the check-and-record lock may be held before it expires by itself (seconds).
LOCK_TTL = 5
#: How long to wait for the lock before going ahead without it (seconds).
LOCK_WAIT = 0.5


@dataclass(frozen=True)
class Decision:
    """The outcome of one ask against the limit.

    Attributes:
        allowed: the ask may go ahead (and was counted).
        retry_after: whole seconds until an ask would be allowed again (0 when allowed).
        limit: asks allowed per window (0: no limit).
        window: the window, seconds.
        remaining: asks left in the current window after this one.
    """

    allowed: bool
    retry_after: int
    limit: int
    window: int
    remaining: int


class RateLimited(AskError):
    """AskError(rate_limited) that also carries the seconds to wait (for Retry-After and the error frame)."""

    def __init__(self, decision: Decision) -> None:
        wait = decision.retry_after
        super().__init__(
            "rate_limited",
            f"Too many questions: the limit is {decision.limit} per {_duration(decision.window)}. "
            f"Try again in {_duration(wait)}. Your message was not saved; send it again then.")
        self.retry_after = wait
        self.decision = decision


def _duration(seconds: int) -> str:
    return "1 second" if seconds == 1 else f"{seconds} seconds"


def hit(key: str, *, limit: int, window: int, now: float | None = None, cache_alias: str = "default") -> Decision:
    """Count one event under ``key`` if fewer than ``limit`` happened in the last ``window`` seconds.

    ``limit`` <= 0 turns the limit off (always allowed, nothing stored).
    """
    if limit <= 0:
        return Decision(True, 0, 0, window, 0)
    window = max(1, int(window))
    cache = caches[cache_alias]
    lock_key = f"{key}:lock"
    locked = _acquire(cache, lock_key)
    try:
        now = time.time() if now is None else now
        stamps = [t for t in (cache.get(key) or []) if isinstance(t, (int, float)) and t > now - window]
        if len(stamps) >= limit:
            # the ask becomes possible when the oldest of the last `limit` asks leaves the window
            oldest = stamps[-limit]
            return Decision(False, max(1, math.ceil(oldest + window - now)), limit, window, 0)
        stamps.append(now)
        cache.set(key, stamps[-limit:], timeout=window + 1)
        return Decision(True, 0, limit, window, limit - len(stamps))
    finally:
        if locked:
            cache.delete(lock_key)


def _acquire(cache, lock_key: str) -> bool:
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        if cache.add(lock_key, 1, timeout=LOCK_TTL):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def ask_check(user, *, now: float | None = None) -> Decision:
    """Count one ask of ``user`` against ASK_RATE_LIMIT per ASK_RATE_WINDOW seconds (blocking: cache access)."""
    return hit(f"ratelimit:ask:{user.pk}", limit=settings.ASK_RATE_LIMIT, window=settings.ASK_RATE_WINDOW, now=now)


def ask_allow(user, *, now: float | None = None) -> Decision:
    """:func:`ask_check` that raises when the ask is refused.

    Raises:
        RateLimited: code rate_limited; the message names the limit and when to retry, and says the message was not
            saved.
    """
    decision = ask_check(user, now=now)
    if not decision.allowed:
        raise RateLimited(decision)
    return decision
