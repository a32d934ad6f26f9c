"""Which waiting stage of which ask a busy worker serves next (issue 20: first words early for as many as possible).

Under a burst every ask's stages queue for the same two executors: the database worker (one thread) and the CPU
pool. Served first come, first served, they run breadth-first: the first ask's planning waits behind every later
ask's acceptance, its support check behind every later ask's planning, and all first words arrive together near the
end of the burst. A :class:`PriorityGate` in front of each executor serves the waiting stage of the highest
priority instead, a priority being ``(stage class, ask order)``:

    ACCEPTING  storing the question (its `accepted` frame tells the user the message is safe)     served first
    ANSWERING  everything up to the answer's first delta: memory, planning, the `plan` frame
    FINISHING  after the first delta: the stored outcome, the support check, the summary           served last

and within a class the ask that arrived first (a counter per process). An ask then reaches its first words after
the acceptance of every ask before it and the planning of those that arrived earlier, not after everybody's; the
work after the first delta, which the reader does not wait for (the provider streams meanwhile), yields to the
planning of others. Nothing waits forever: every class drains once no higher class waits.

Technique: staged event-driven servers with a queue per stage (Welsh, Culler and Brewer 2001, "SEDA: An
Architecture for Well-Conditioned, Scalable Internet Services", SOSP), with the queues ordered by stage and by age
(shortest-remaining-work first, as size-based scheduling of web servers: Harchol-Balter et al. 2003, "Size-based
scheduling to improve web performance", ACM TOCS) instead of by arrival.

The priority travels in a context variable: a generation task started by an ask inherits its ask's order.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")

#: Stage classes, highest priority first.
ACCEPTING, ANSWERING, FINISHING = 0, 1, 2

_arrivals = itertools.count(1)
_priority: contextvars.ContextVar[tuple[int, int]] = contextvars.ContextVar("grounded_priority",
                                                                             default=(ACCEPTING, 0))


def ask_arrived() -> tuple[int, int]:
    """Number a new ask (in arrival order, per process) and put the current context in its ACCEPTING class;
    returns the priority set."""
    priority = (ACCEPTING, next(_arrivals))
    _priority.set(priority)
    return priority


def stage(kind: int) -> None:
    """Move the current context's ask to stage class ``kind`` (ANSWERING, FINISHING), keeping its order."""
    _priority.set((kind, _priority.get()[1]))


def current() -> tuple[int, int]:
    """The current context's priority ((ACCEPTING, 0) outside an ask: a page's or a resume's reads come first)."""
    return _priority.get()


class PriorityGate:
    """At most ``capacity`` jobs of one executor at once (>= 1); a job waiting for a place is let in by priority
    (lowest tuple first, then first come), not by arrival. One gate per executor and event loop."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self.active = 0
        self._waiting: list[tuple[tuple[int, int], int, asyncio.Future]] = []
        self._tickets = itertools.count()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a place (cancelled ones excluded)."""
        return sum(not f.done() for _, _, f in self._waiting)

    async def run(self, make: Callable[[], Awaitable[T]], priority: tuple[int, int] | None = None) -> T:
        """Await ``make()`` once a place is free and no job of a higher priority waits; returns its result
        (exceptions propagate). ``priority`` defaults to the current context's. A job cancelled while waiting
        takes no place; one cancelled while running gives its place back."""
        if self.active < self.capacity and not self.waiting:
            self.active += 1
        else:
            turn = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority or current(), next(self._tickets), turn))
            try:
                await turn  # a place is counted for this job when its turn is granted
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # granted just as it was cancelled: pass the place on
                else:
                    turn.cancel()
                raise
        try:
            return await make()
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)  # the place passes straight to the waiting job
                return
        self.active = max(0, self.active - 1)
