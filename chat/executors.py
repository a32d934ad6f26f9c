"""Where each stage of an ask runs.

On the server (the default): database reads and writes on Django's thread-sensitive worker
(``database_sync_to_async``, which also closes stale connections; waiting jobs served by chat.priority), best-effort writes that must not hold that worker
(saving the text so far, heartbeats) on the process's one writer thread. For the command-line doors (``ask_sync``, which runs the ask with
``async_to_sync``) database work goes back to the calling thread (thread-sensitive ``sync_to_async``): there is one
ask at a time, and the caller's database connection (and, in tests, its transaction) is the one used.

The choice travels in a context variable, so a generation task started by a door inherits its door's executors.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Awaitable, Callable, TypeVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

T = TypeVar("T")
Runner = Callable[[Callable[..., T]], Callable[..., Awaitable[T]]]


def calling_thread(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``fn`` in the thread that called ``async_to_sync`` (the command-line doors), leaving its connection as
    it is."""
    return sync_to_async(fn, thread_sensitive=True)


def detached(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``fn`` on the process's writer thread (chat.runtime.Runtime.writer), not the thread-sensitive worker nor
    the CPU pool: a best-effort write that may outlive its request (the text so far, a heartbeat) neither waits for
    the database worker nor takes a CPU pool thread from another ask's planning while it waits on the disk. The
    writer's database connection is kept while more writes wait (a burst of saves opens one connection, not one per
    save) and closed once its queue is empty, so an idle server holds no connection for it; an unusable or
    obsolete one (CONN_MAX_AGE, a failed health check) is replaced before the next write."""
    def run_and_close(*args, **kwargs) -> T:
        from django.db import connection

        from chat.runtime import runtime

        connection.close_if_unusable_or_obsolete()
        try:
            return fn(*args, **kwargs)
        finally:
            if not runtime.writes_waiting():
                connection.close()

    def call(*args, **kwargs) -> Awaitable[T]:
        from chat.runtime import runtime

        return runtime.write(run_and_close, *args, **kwargs)

    return call


@dataclass(frozen=True)
class Executors:
    """How the stages of an ask run: ``db`` for database work, ``detached`` for best-effort writes off the
    database worker (and off the CPU pool)."""

    db: Runner
    detached: Runner


def database_worker(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``fn`` on Django's thread-sensitive database worker (``database_sync_to_async``), waiting for the
    worker in the order of chat.priority (the ask's stage and age) rather than first come, first served."""
    run = database_sync_to_async(fn)

    async def call(*args, **kwargs) -> T:
        from chat.runtime import runtime

        return await runtime.db_gate.run(lambda: run(*args, **kwargs))

    return call


SERVER = Executors(db=database_worker, detached=detached)
COMMAND = Executors(db=calling_thread, detached=calling_thread)

_current: contextvars.ContextVar[Executors] = contextvars.ContextVar("grounded_executors", default=SERVER)


def current() -> Executors:
    """The executors of the running ask (SERVER unless a command-line door chose COMMAND)."""
    return _current.get()


def use(executors: Executors) -> contextvars.Token:
    """Choose the executors for the current context (and the tasks it starts); returns the token to reset."""
    return _current.set(executors)
