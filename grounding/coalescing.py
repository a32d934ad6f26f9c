"""Merging the text pieces a provider streamed while its reader was busy (issue 20: the work per answer must not grow
with the server's load).

A provider yields its answer in small pieces (a few tokens each); every piece the server forwards costs a frame: the
citation parser, the text-so-far copy, a websocket send. When the server keeps up, each piece goes out as it comes.
When it falls behind (many asks at once), pieces pile up in the provider's stream; forwarded one by one, they cost the
same frames as before, late, and the per-frame work adds to the load that made them late. :class:`Coalesced` reads
the provider in a task of its own, and gives its reader the next event with every text piece already waiting right
behind it merged into one: frames per answer fall as the load rises, and nothing waits for a piece that has not come.

The same idea as Nagle's algorithm for TCP (RFC 896: while an earlier segment is unacknowledged, small writes are
collected into one) and as chat front-ends' delta chunking (Open WebUI's CHAT_RESPONSE_STREAM_DELTA_CHUNK_SIZE), but
adaptive: no delay is added, only pieces that arrived while the reader was busy are merged.

A reader may also ask for a pace (``pace()``: the least time between two text deltas, asked before each): a text
delta then waits until that long after the previous one, and the pieces arriving meanwhile join it. The first text
delta never waits (the reader's first words), nor does any other event. The server asks for a pace only while other
asks wait for their first words (chat.runtime.Runtime.stream_pace): an answer already streaming then costs a frame
every tenth of a second instead of one per piece, and the work it no longer does goes to the others' planning (the
same stage-and-age order as chat.priority: work after someone's first words yields to others' first words).

No Django imports.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import AsyncIterator, Callable

from grounding.providers import Event, TextDelta

__all__ = ["Coalesced"]

#: At most this many characters of waiting pieces are merged into one (a frame stays small; the rest follows).
MAX_MERGED_CHARS = 2_000

_END = object()


class _Failure:
    """An exception the provider's stream raised, delivered in order after the events before it."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class Coalesced:
    """An async iterator over a provider's events (grounding.providers.Event) in the provider's order, where a
    TextDelta followed by TextDeltas already received is one TextDelta of their joined text (at most
    MAX_MERGED_CHARS characters are joined; other events are never merged or reordered).

    The provider's stream is read by a task started at the first ``__anext__``. An exception of the provider's stream
    is raised by ``__anext__`` after the events before it. ``aclose()`` (use ``contextlib.aclosing``) stops the
    reading task and closes the provider's stream, so a cancelled answer closes the provider's HTTP response at once.
    ``pace``: asked before each text delta but the first, the least time (seconds, <= 0 for none) since the previous
    one (see the module docstring); None: no pace.
    """

    def __init__(self, events: AsyncIterator[Event], *, max_chars: int = MAX_MERGED_CHARS,
                 pace: Callable[[], float] | None = None) -> None:
        self._events = events
        self._max_chars = max(1, max_chars)
        self._pace = pace
        self._last_text: float | None = None  # the loop time the previous text delta was given (with a pace)
        self._queue: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None
        self._held: object | None = None  # an event taken from the queue behind merged text, given next

    def __aiter__(self) -> "Coalesced":
        return self

    async def _read(self) -> None:
        try:
            async for event in self._events:
                self._queue.put_nowait(event)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # handed to the reader in order, raised there
            self._queue.put_nowait(_Failure(exc))
            return
        self._queue.put_nowait(_END)

    async def __anext__(self) -> Event:
        if self._reader is None:
            self._reader = asyncio.ensure_future(self._read())
        if self._held is not None:
            item, self._held = self._held, None
        else:
            item = await self._queue.get()
        if item is _END:
            raise StopAsyncIteration
        if isinstance(item, _Failure):
            raise item.error
        if not isinstance(item, TextDelta):
            return item
        if self._pace is not None:
            loop = asyncio.get_running_loop()
            if self._last_text is not None and (wait := self._last_text + self._pace() - loop.time()) > 0:
                await asyncio.sleep(wait)  # the pieces arriving meanwhile join this delta
            self._last_text = loop.time()
        if self._queue.empty():
            return item
        texts, size = [item.text], len(item.text)
        while not self._queue.empty() and size < self._max_chars:
            following = self._queue.get_nowait()
            if not isinstance(following, TextDelta):
                self._held = following
                break
            texts.append(following.text)
            size += len(following.text)
        return TextDelta("".join(texts)) if len(texts) > 1 else item

    async def aclose(self) -> None:
        """Stop reading and close the provider's stream (idempotent)."""
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        close = getattr(self._events, "aclose", None)
        if close is not None:
            await close()
