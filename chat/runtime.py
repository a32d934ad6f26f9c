"""What a server worker shares between the asks it serves: the CPU pool, the query-embedding batcher and the
admission queue (back-pressure).

- CPU pool: a bounded thread pool sized to the machine (settings.CPU_WORKERS) for embedding, search, planning and
  notes. The model and numpy release the GIL in their heavy loops, so two threads use two cores; the event loop and
  the database worker are never blocked by this work.
- Batcher: questions arriving within settings.EMBED_BATCH_WAIT seconds are embedded in one call
  (grounding.batching.EmbeddingBatcher), one batcher per event loop.
- Writer: one thread for best-effort writes (the text so far, heartbeats; chat.executors.detached), so they take
  no CPU pool thread from planning while they wait on the disk.
- Priority gates: the stages of all asks waiting for the database worker or the CPU pool are served by stage and
  age (chat.priority), not first come, first served.
- Admission: at most settings.ASK_CONCURRENCY asks are planned at once per worker; the others wait in order, and
  each is told its place (`queued` frames) instead of everything slowing down at once. Nothing is dropped.
- Stream pace: while asks are planned or wait to be, answers already streaming send a delta at most every
  settings.STREAM_PACE_SECONDS (:meth:`Runtime.stream_pace`), their pieces merged, so that their frames do not take
  the loop from the planning of others' first words.
- Connections: a pool thread keeps no database connection. The pool's jobs are not meant to read the database (that
  is the database worker's; best-effort writes are the writer's), but one that does (a blocking call a test or a
  command hands to the loop's default executor) has its connection closed when it ends: a connection left in an idle pool thread would
  stay open for CONN_MAX_AGE, unseen, and keep a database from being dropped.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import os
import threading
import weakref
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Awaitable, Callable, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from chat.priority import PriorityGate
from grounding.batching import EmbeddingBatcher
from grounding.embeddings import default_embedder

T = TypeVar("T")

#: How often (seconds) an ask waiting for admission is told its new place in the queue.
QUEUE_REPORT_SECONDS = 1.0


class Admission:
    """A first-come, first-served gate of ``capacity`` places on one event loop.

    ``enter(report)`` returns at once when a place is free; otherwise the ask waits its turn and ``report(position)``
    is awaited with its 1-based place in the queue at once and whenever the place changes (checked every
    QUEUE_REPORT_SECONDS). ``leave()`` hands the place to the next in the queue.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self.active = 0
        self.waiting: collections.deque[asyncio.Future] = collections.deque()

    async def enter(self, report: Callable[[int], Awaitable[None]] | None = None) -> None:
        """Take a place, waiting in the queue when all are taken. Raises CancelledError (no place held then)."""
        if self.active < self.capacity and not self.waiting:
            self.active += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        told = 0
        try:
            while True:
                position = self._position(turn)
                if report is not None and position and position != told:
                    told = position
                    await report(position)
                try:
                    await asyncio.wait_for(asyncio.shield(turn), timeout=QUEUE_REPORT_SECONDS)
                    return
                except asyncio.TimeoutError:
                    continue
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.leave()  # granted just as it was cancelled: pass the place on
            else:
                turn.cancel()
                if turn in self.waiting:
                    self.waiting.remove(turn)
            raise

    def _position(self, turn: asyncio.Future) -> int:
        try:
            return self.waiting.index(turn) + 1
        except ValueError:
            return 0

    def leave(self) -> None:
        """Give the place back: the next waiting ask takes it."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.active = max(0, self.active - 1)


def _closing_connections(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` closing, when it returns or raises, any database connection it opened in its thread."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            for conn in connections.all(initialized_only=True):
                if conn.connection is not None and not conn.in_atomic_block:
                    conn.close()

    return run


class _Pool(ThreadPoolExecutor):
    """The CPU pool: a ThreadPoolExecutor whose jobs close the database connections they opened (see the module
    docstring)."""

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_closing_connections(fn), *args, **kwargs)


class _Borrowed(ThreadPoolExecutor):
    """Another executor lent to an event loop as its default one (asyncio wants a ThreadPoolExecutor there): work
    goes to the lent pool, this one never starts a thread, and shutting it down does nothing."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(max_workers=1)
        self.inner = inner

    def submit(self, fn, /, *args, **kwargs):
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        return None


def limit_compute_threads(threads: int | None = None) -> None:
    """Let native code (torch's intra-op pool, the BLAS under numpy) use ``threads`` threads per call
    (settings.COMPUTE_THREADS): parallelism comes from the CPU pool's threads, one task per core, so several threads
    per task would only fight for the same cores. Process-wide; called when the pool is made and at warm-up."""
    threads = max(1, threads or settings.COMPUTE_THREADS)
    import torch
    from threadpoolctl import threadpool_limits

    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    threadpool_limits(limits=threads)


class Runtime:
    """The worker's shared resources (see the module docstring); one per process (:data:`runtime`)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._writes = 0  # writes submitted to the writer and not finished
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._per_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The CPU pool (settings.CPU_WORKERS threads), created on first use, and anew in a forked child (a pool's
        threads do not survive a fork: work handed to the parent's pool there would never run)."""
        with self._lock:
            self._forked()
            if self._pool is None:
                limit_compute_threads()
                self._pool = _Pool(max_workers=settings.CPU_WORKERS, thread_name_prefix="grounded-cpu")
            return self._pool

    def _forked(self) -> None:
        """Forget the executors made before a fork (their threads do not exist in the child). Under ``_lock``."""
        if self._pid != os.getpid():
            self._pool, self._writer, self._pid = None, None, os.getpid()
            self._per_loop = weakref.WeakKeyDictionary()

    @property
    def writer(self) -> ThreadPoolExecutor:
        """One thread for best-effort writes off the database worker (chat.executors.detached: the text so far,
        heartbeats), made on first use (and anew in a forked child). One is enough: the writes are throttled (one
        per answer per chat.generation.PARTIAL_SAVE_SECONDS) and each is one UPDATE; on SQLite writes are serialised
        by the database anyway."""
        with self._lock:
            self._forked()
            if self._writer is None:
                self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grounded-writer")
            return self._writer

    def write(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Awaitable[T]:
        """Run the blocking ``fn(*args, **kwargs)`` on the writer thread; returns an awaitable of its result
        (exceptions propagate). While it runs, :meth:`writes_waiting` counts the writes queued behind it."""
        with self._lock:
            self._writes += 1

        def run() -> T:
            try:
                return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self._writes -= 1

        return sync_to_async(run, thread_sensitive=False, executor=self.writer)()

    def writes_waiting(self) -> bool:
        """True when other writes are queued for the writer thread (called by a running write, which counts
        itself)."""
        with self._lock:
            return self._writes > 1

    def _loop_state(self) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        pool = self.pool  # (re)made first: a forked child starts with fresh per-loop state too
        state = self._per_loop.get(loop)
        if state is None:
            # asyncio.to_thread (the offline answerer's composing, the support check) runs on the bounded pool too;
            # the loop gets a view of it that its close() cannot shut down (a command's loop is short-lived)
            loop.set_default_executor(_Borrowed(pool))
            state = {"batcher": EmbeddingBatcher(default_embedder(), executor=pool,
                                                 max_batch=settings.EMBED_BATCH, max_wait=settings.EMBED_BATCH_WAIT),
                     "admission": Admission(settings.ASK_CONCURRENCY),
                     # stages waiting for the database worker or the CPU pool are served by priority (chat.priority)
                     "db_gate": PriorityGate(1), "cpu_gate": PriorityGate(settings.CPU_WORKERS)}
            self._per_loop[loop] = state
        return state

    @property
    def batcher(self) -> EmbeddingBatcher:
        """The running loop's query-embedding batcher."""
        return self._loop_state()["batcher"]

    @property
    def admission(self) -> Admission:
        """The running loop's admission gate."""
        return self._loop_state()["admission"]

    def stream_pace(self) -> float:
        """The least time (seconds) between two deltas of an answer already streaming on the running loop:
        settings.STREAM_PACE_SECONDS while another ask of this loop is planned or waits to be (grounding.coalescing:
        an answer whose reader has words yields to those waiting for theirs), else 0 (each piece as soon as it
        can)."""
        admission = self.admission
        busy = admission.active > 0 or any(not turn.done() for turn in admission.waiting)
        return float(settings.STREAM_PACE_SECONDS) if busy else 0.0

    @property
    def db_gate(self) -> PriorityGate:
        """The running loop's gate in front of the database worker (one job at a time, by priority)."""
        return self._loop_state()["db_gate"]

    async def cpu(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run ``fn(*args, **kwargs)`` on the CPU pool and return its result (exceptions propagate). Jobs waiting
        for a pool thread are let in by their ask's priority (chat.priority), at most CPU_WORKERS at a time."""
        loop = asyncio.get_running_loop()
        job = functools.partial(fn, *args, **kwargs)
        return await self._loop_state()["cpu_gate"].run(lambda: loop.run_in_executor(self.pool, job))


#: The process's runtime.
runtime = Runtime()
