"""Per-user limit on asks: at most ASK_RATE_LIMIT asks in any ASK_RATE_WINDOW seconds (a moving window).

Shared by the websocket consumer and the HTTP API, so one user's asks count against one budget however they arrive.
The counting is the `limits` package's moving window (``MovingWindowRateLimiter``: the timestamps of the accepted
asks, newest first, an ask refused while the ``limit``-th newest is still inside the window). The window lives in
the storage named by ASK_RATE_STORAGE_URL: Redis when REDIS_URL is set (one window for every worker process; the
check-and-record step is one Lua script, atomic on the server), otherwise the process's memory (each process counts
on its own; a per-key lock makes the step atomic between threads). A refused ask is not counted: a client that waits
the time it is told gets through.

Should the storage fail (Redis unreachable), the ask goes ahead and the failure is logged: the limit protects the
answer model from floods, it must not take the product down with its storage.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from limits import RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from chat.errors import AskError

log = logging.getLogger("grounded.ratelimit")

#: Seconds a Redis storage waits to connect or for a reply before the check gives up (and lets the ask through).
STORAGE_TIMEOUT = 2.0


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


@lru_cache(maxsize=4)
def _storage_for(url: str, key_prefix: str) -> Storage:
    options: dict = {"wrap_exceptions": True}
    if url.split(":", 1)[0] in ("redis", "rediss", "redis+unix", "valkey", "valkeys"):
        options.update(key_prefix=key_prefix, socket_timeout=STORAGE_TIMEOUT, socket_connect_timeout=STORAGE_TIMEOUT)
    return storage_from_string(url, **options)


def storage() -> Storage:
    """The `limits` storage of this process for ASK_RATE_STORAGE_URL (built once per URL and key prefix).

    Raises:
        limits.errors.ConfigurationError: the URL names no storage `limits` knows (or its client is not installed).
    """
    return _storage_for(settings.ASK_RATE_STORAGE_URL, settings.ASK_RATE_KEY_PREFIX)


def hit(key: str, *, limit: int, window: int, store: Storage | None = None) -> Decision:
    """Count one event under ``key`` if fewer than ``limit`` happened in the last ``window`` seconds.

    ``limit`` <= 0 turns the limit off (always allowed, nothing stored). ``store`` defaults to :func:`storage`.
    The clock is the storage's (``time.time()`` of this process, also for Redis), so the returned ``retry_after``
    (whole seconds, at least 1 when refused) is read on the same clock. Never raises for a failing storage: the
    event is allowed and the failure logged.
    """
    if limit <= 0:
        return Decision(True, 0, 0, window, 0)
    window = max(1, int(window))
    item = RateLimitItemPerSecond(limit, window)
    limiter = MovingWindowRateLimiter(store if store is not None else storage())
    try:
        allowed = limiter.hit(item, key)
        stats = limiter.get_window_stats(item, key)
    except StorageError as exc:
        log.error("rate limit storage failed; the ask goes ahead unchecked: %r", exc.storage_error)
        return Decision(True, 0, limit, window, limit)
    if allowed:
        return Decision(True, 0, limit, window, max(0, stats.remaining))
    # the ask becomes possible when the oldest of the last `limit` asks leaves the window
    return Decision(False, max(1, math.ceil(stats.reset_time - time.time())), limit, window, 0)


def ask_check(user) -> Decision:
    """Count one ask of ``user`` against ASK_RATE_LIMIT per ASK_RATE_WINDOW seconds (blocking: storage access)."""
    return hit(f"ask:{user.pk}", limit=settings.ASK_RATE_LIMIT, window=settings.ASK_RATE_WINDOW)


def ask_allow(user) -> Decision:
    """:func:`ask_check` that raises when the ask is refused.

    Raises:
        RateLimited: code rate_limited; the message names the limit and when to retry, and says the message was not
            saved.
    """
    decision = ask_check(user)
    if not decision.allowed:
        raise RateLimited(decision)
    return decision
