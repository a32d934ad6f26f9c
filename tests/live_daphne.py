"""A real Daphne server in a forked process serving the project's ASGI application (config.asgi), for tests of what
goes over the wire; the test database must be a transactional one (the server sees committed rows)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Iterator

from daphne.testing import DaphneProcess


class _Server(DaphneProcess):
    """The child gets a fresh thread-sensitive executor: a fork does not copy the parent's worker thread, and sync
    views would wait on it forever."""

    def run(self):
        from asgiref.sync import SyncToAsync

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        super().run()


@contextmanager
def live_daphne() -> Iterator[int]:
    """Serve config.asgi on 127.0.0.1 with Daphne's defaults; yields the port."""
    from config.asgi import application

    server = _Server("127.0.0.1", lambda: application)
    server.start()
    try:
        assert server.ready.wait(30), "Daphne did not start"
        yield server.port.value
    finally:
        server.terminate()
        server.join(10)
