"""Followers of a generating answer: the channel-layer group its frames go to (sockets that resumed it, on any
worker), the generator's answer to a follower asking for the text so far, and the throttled shared-cache copy of
that text (for a follower whose generator is gone).

Resuming without a gap: a follower joins ``answer_group(id)`` first, then asks ``sync_group(id)`` (the generating
task's own channel, on whichever worker runs it) for the text so far; the generator replies with a ``partial`` frame
(text and the seq it reaches) straight to the follower's channel. Deltas the follower received before that reply and
up to its seq are dropped, later ones shown: nothing falls between, however the writes below are throttled. The
generator sends its deltas to the group only once a follower has asked (``TextSoFar.followed``): the reply holds
every delta before it, so an answer nobody follows (the usual case) costs no group send per delta; its `done` or
`error` always goes to the group.
"""

from __future__ import annotations

import asyncio
import logging

from django.core.cache import cache

from chat.frames import Frame
from chat.throttle import TrailingThrottle

log = logging.getLogger("grounded.answer")

#: How long the cached text so far of a generating answer is kept (seconds).
PARTIAL_TTL = 3600
#: The cached text so far is written at most this often (seconds), through the async cache API, and at the end of a
#: window in which a delta was not written (chat.throttle: the copy is never more than this behind the stream).
PARTIAL_CACHE_SECONDS = 0.5


def answer_group(message_id: int) -> str:
    """The channel-layer group of one answer's frames."""
    return f"answer.{int(message_id)}"


def sync_group(message_id: int) -> str:
    """The channel-layer group of the task generating one answer (followers ask it for the text so far)."""
    return f"answer.{int(message_id)}.sync"


def partial_key(message_id: int) -> str:
    """Cache key of a generating answer's text so far."""
    return f"grounded:partial:{int(message_id)}"


def _layer():
    from channels.layers import get_channel_layer

    return get_channel_layer()


def _may_have_members(layer, group: str) -> bool:
    """False only when the group surely has no member: channels' in-memory layer (one process) holds its groups in
    ``groups``, and its group_send sweeps every channel and group for expiry on each call, so a frame nobody follows
    (the usual case: followers are sockets that resumed) skips it. Another layer (Redis: members in other workers)
    may always have members."""
    from channels.layers import InMemoryChannelLayer

    return not isinstance(layer, InMemoryChannelLayer) or bool(layer.groups.get(group))


async def answer_broadcast(message_id: int, frame: Frame) -> None:
    """Send one frame of a generating answer to the sockets following it (Redis layer: across workers). A layer
    failure is logged, never raised: the answer is saved whatever happens to its followers."""
    layer = _layer()
    if layer is None or not _may_have_members(layer, answer_group(message_id)):
        return
    try:
        await layer.group_send(answer_group(message_id), {"type": "answer.frame", "frame": frame})
    except Exception:
        log.exception("could not broadcast a frame of answer %s", message_id)


async def answer_sync_request(message_id: int, reply_to: str) -> None:
    """Ask the task generating ``message_id`` (any worker) to send its text so far to channel ``reply_to``."""
    layer = _layer()
    if layer is not None:
        await layer.group_send(sync_group(message_id), {"type": "answer.sync", "reply_to": reply_to})


async def partial_get(message_id: int) -> dict | None:
    """The cached text so far of a generating answer: {"text", "seq"}, or None (async cache API)."""
    return await cache.aget(partial_key(message_id))


class TextSoFar:
    """The generating side: the text sent so far of one answer, served to followers that ask for it (see the module
    docstring) and copied to the shared cache at most every PARTIAL_CACHE_SECONDS, the latest text at the latest
    PARTIAL_CACHE_SECONDS after its delta (a trailing write: chat.throttle.TrailingThrottle).

    Use ``await start()`` before the first delta, ``await update(text, seq)`` after each, ``await stop()`` at the end.
    """

    def __init__(self, message_id: int, partial_frame) -> None:
        self.message_id = message_id
        self.text, self.seq = "", 0
        #: a follower asked for the text so far: from then on its deltas are broadcast (before, nobody followed:
        #: a follower's first frame is this reply, which holds every delta sent before it)
        self.followed = False
        self._frame = partial_frame  # (message_id, text, seq) -> the partial frame (chat.serializers)
        self._channel: str | None = None
        self._task: asyncio.Task | None = None
        self._cache = TrailingThrottle(PARTIAL_CACHE_SECONDS, self._write)

    async def start(self) -> None:
        """Listen for followers' requests (a no-op without a channel layer)."""
        layer = _layer()
        if layer is None:
            return
        try:
            self._channel = await layer.new_channel()
            await layer.group_add(sync_group(self.message_id), self._channel)
        except Exception:
            log.exception("answer %s cannot serve its followers", self.message_id)
            self._channel = None
            return
        self._task = asyncio.create_task(self._serve(layer))

    async def _serve(self, layer) -> None:
        while True:
            message = await layer.receive(self._channel)
            if message.get("type") == "answer.sync" and message.get("reply_to"):
                self.followed = True
                try:
                    await layer.send(message["reply_to"], {"type": "answer.frame",
                                                           "frame": self._frame(self.message_id, self.text, self.seq)})
                except Exception:
                    log.exception("could not answer a follower of answer %s", self.message_id)

    async def update(self, text: str, seq: int) -> None:
        """The text so far now reaches delta ``seq``; the cache copy is refreshed now when it is old enough, else at
        the end of its window."""
        self.text, self.seq = text, seq
        await self._cache.changed()

    async def _write(self) -> None:
        try:
            await cache.aset(partial_key(self.message_id), {"text": self.text, "seq": self.seq}, PARTIAL_TTL)
        except Exception:
            log.exception("could not cache the text so far of answer %s", self.message_id)

    async def stop(self) -> None:
        """Stop serving followers (the answer is stored: they read it from the database now); no cache write after."""
        self._cache.close()
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._channel is not None:
            layer = _layer()
            try:
                await layer.group_discard(sync_group(self.message_id), self._channel)
            except Exception:
                log.exception("could not leave the sync group of answer %s", self.message_id)
            self._channel = None
