"""Followers of a generating answer: the channel-layer group its frames go to (sockets that resumed it, on any
worker) and the shared cache entry holding its text so far."""

from __future__ import annotations

import logging

from django.core.cache import cache

from chat.frames import Frame

log = logging.getLogger("grounded.answer")

#: How long the cached text so far of a generating answer is kept (seconds).
PARTIAL_TTL = 3600


def answer_group(message_id: int) -> str:
    """The channel-layer group of one answer's frames."""
    return f"answer.{int(message_id)}"


def partial_key(message_id: int) -> str:
    """Cache key of a generating answer's text so far."""
    return f"grounded:partial:{int(message_id)}"


async def answer_broadcast(message_id: int, frame: Frame) -> None:
    """Send one frame of a generating answer to the sockets following it (Redis layer: across workers). A layer
    failure is logged, never raised: the answer is saved whatever happens to its followers."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(answer_group(message_id), {"type": "answer.frame", "frame": frame})
    except Exception:
        log.exception("could not broadcast a frame of answer %s", message_id)


def partial_set(message_id: int, *, text: str, seq: int) -> None:
    """Record a generating answer's text so far (characters) and the delta seq it reaches, in the shared cache."""
    cache.set(partial_key(message_id), {"text": text, "seq": seq}, PARTIAL_TTL)


async def partial_aset(message_id: int, *, text: str, seq: int) -> None:
    """:func:`partial_set` through the async cache API (no blocking write on the event loop)."""
    await cache.aset(partial_key(message_id), {"text": text, "seq": seq}, PARTIAL_TTL)


def partial_get(message_id: int) -> dict | None:
    """The cached text so far of a generating answer: {"text", "seq"}, or None."""
    return cache.get(partial_key(message_id))
