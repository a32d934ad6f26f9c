"""A trailing-edge throttle for the copies of a streaming answer's text so far (the shared cache, the answer's row).

A plain throttle (write when the window has passed since the last write) leaves the last changes of a burst unwritten
until the next change: when the model pauses, or the socket and then the server go away, the copy lacks the words
the user saw last. The trailing edge writes once more at the end of a window in which a change was skipped, so the
copy holds the latest text within ``seconds`` of its last change (the "throttle with trailing call" of
lodash/underscore's ``throttle``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable

log = logging.getLogger("grounded.answer")


class TrailingThrottle:
    """Calls ``write()`` (an async callable that reads the current value itself) at most once every ``seconds``, and
    once more at the end of a window in which a change was skipped.

    Use ``await changed()`` after each change, ``await flush()`` to write a pending change now, ``close()`` to drop a
    pending one (the caller stores the final value itself). A failing ``write`` is logged, never raised.
    """

    def __init__(self, seconds: float, write: Callable[[], Awaitable[None]], *, written_at: float = 0.0) -> None:
        """``written_at``: the monotonic time of a write taken as done (0: the first change is written at once)."""
        self.seconds = seconds
        self._write = write
        self._written_at = written_at
        self._dirty = False
        self._trailing: asyncio.Task | None = None

    async def changed(self) -> None:
        """The value changed: write it now when the window has passed, else at the window's end."""
        self._dirty = True
        wait = self._written_at + self.seconds - time.monotonic()
        if wait <= 0:
            await self.flush()
        elif self._trailing is None:
            self._trailing = asyncio.create_task(self._later(wait))

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self._trailing = None
        await self.flush()

    async def flush(self) -> None:
        """Write now if a change is unwritten."""
        if not self._dirty:
            return
        self._dirty = False
        self._written_at = time.monotonic()
        try:
            await self._write()
        except Exception:
            log.exception("could not write the text so far")

    def close(self) -> None:
        """Drop a pending trailing write (nothing is written after this)."""
        self._dirty = False
        if self._trailing is not None:
            self._trailing.cancel()
            self._trailing = None
