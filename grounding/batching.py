"""Micro-batching of query embeddings across concurrent asks.

One encode call of 32 short texts costs little more than one of 1 on the CPU (the transformer's matrix products
amortise their fixed cost over the batch), so questions arriving together are encoded together. A text that arrives
while no encode is running is encoded at once (after ``max_wait`` seconds, default 0: the same turn of the event loop
collects what arrived with it), so a lone question never waits; texts that arrive while an encode runs wait for it
and then go as one batch (at most ``max_batch``; a full batch goes at once). The batch size thus follows the load:
one at a time when idle, as many as arrived during the previous encode under a burst. This is the dynamic batching
of model servers (NVIDIA Triton's dynamic batcher, the continuous batching of LLM servers such as vLLM), applied to
one process's asyncio loop. Texts asked for in the background (``embed(..., background=True)``: the support check of
an answer already streamed) go after every question waiting, so under a burst they never delay a question's first
words; they fill batches that have room and are never starved (a batch with room takes them).

A text asked for again while it waits or is being encoded shares that encode (one future per text in flight), and
``prefetch(text)`` starts a text's encode without waiting for it (its vector is kept until asked for once, at most
``max_ready`` of them): a server starts the question's embedding the moment
the ask arrives, so it runs while the question is stored and the memory read (the database worker), and the
retrieval stage later joins it instead of starting it (issue 20: the question embedding leaves the critical path of
those steps).

No Django imports.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass, field

import numpy as np

from grounding.embeddings import Embedder


@dataclass
class EmbeddingBatcher:
    """Embeds texts for coroutines of one event loop, batching those that arrive together.

    Attributes:
        embedder: the model (its ``embed(texts) -> (n, dim) float32``, thread-safe).
        executor: where the encode call runs (a thread pool: the model releases the GIL in its matrix products);
            None: the loop's default executor.
        max_batch: the most texts in one encode call.
        max_wait: how long (seconds) the first text of a batch waits for others when no encode is running (0: only
            the texts arriving in the same turn of the event loop join it).
        max_ready: how many prefetched vectors are kept until asked for (the oldest dropped beyond: asks that never
            came).
        batches, texts: counters (encode calls made, texts encoded) for tests and benchmarks.
    """

    embedder: Embedder
    executor: Executor | None = None
    max_batch: int = 32
    max_wait: float = 0.0
    max_ready: int = 256
    batches: int = 0
    texts: int = 0
    _pending: list[tuple[str, asyncio.Future]] = field(default_factory=list, repr=False)
    _later: list[tuple[str, asyncio.Future]] = field(default_factory=list, repr=False)
    _flush: asyncio.Handle | None = field(default=None, repr=False)
    _running: int = field(default=0, repr=False)
    _inflight: dict[str, asyncio.Future] = field(default_factory=dict, repr=False)
    _ready: OrderedDict[str, asyncio.Future] = field(default_factory=OrderedDict, repr=False)

    async def embed(self, text: str, *, background: bool = False) -> np.ndarray:
        """The unit vector of ``text`` (float32, (dim,)), encoded in a batch with the texts that arrive with it;
        ``background`` texts wait behind every question (see the module docstring). A text already waiting or being
        encoded (asked for, or prefetched, by anyone) is not encoded again: its encode is shared. Cancelling the
        caller does not cancel a shared encode.

        Raises:
            whatever the embedder raises (every request of the failed batch gets the exception).
        """
        ready = self._ready.pop(text, None)  # prefetched and encoded already
        if ready is not None:
            return ready.result()
        return await asyncio.shield(self._request(text, background=background))

    def prefetch(self, text: str) -> asyncio.Future:
        """Start encoding ``text`` as a question (in the next batch) without waiting for it; a later ``embed(text)``
        joins this encode while it runs, or takes its vector once it is done (kept until then, the oldest of more
        than ``max_ready`` dropped). Returns the future of the
        vector; its failure is retrieved here, so a prefetch nobody awaits logs nothing. Needs a running loop."""
        future = self._request(text, background=False)
        future.add_done_callback(lambda done: self._keep(text, done))
        return future

    def _keep(self, text: str, done: asyncio.Future) -> None:
        if done.cancelled() or done.exception() is not None:  # retrieved: nothing logged; asked again, it is retried
            return
        self._ready[text] = done
        self._ready.move_to_end(text)
        while len(self._ready) > self.max_ready:
            self._ready.popitem(last=False)

    def _request(self, text: str, *, background: bool) -> asyncio.Future:
        shared = self._inflight.get(text)
        if shared is not None and not shared.done():
            return shared
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self._inflight[text] = future
        future.add_done_callback(lambda done: self._inflight.get(text) is done and self._inflight.pop(text))
        (self._later if background else self._pending).append((text, future))
        if len(self._pending) >= self.max_batch:
            self._start(loop)
        elif self._flush is None and not self._running:
            self._flush = (loop.call_later(self.max_wait, self._start, loop) if self.max_wait > 0
                           else loop.call_soon(self._start, loop))
        return future

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        batch, self._pending = self._pending[:self.max_batch], self._pending[self.max_batch:]
        room = self.max_batch - len(batch)
        if room > 0 and self._later:  # background texts fill what room the questions leave
            batch, self._later = batch + self._later[:room], self._later[room:]
        if len(self._pending) >= self.max_batch:  # more than a batch arrived at once: the next full one goes too
            self._flush = loop.call_soon(self._start, loop)
        if batch:
            self._running += 1
            loop.create_task(self._encode(loop, batch))

    async def _encode(self, loop: asyncio.AbstractEventLoop, batch: list[tuple[str, asyncio.Future]]) -> None:
        self.batches += 1
        self.texts += len(batch)
        try:
            vectors = await loop.run_in_executor(self.executor, self.embedder.embed, [t for t, _ in batch])
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        finally:
            self._running -= 1
            if (self._pending or self._later) and not self._running and self._flush is None:
                self._start(loop)  # what arrived during this encode goes now, as one batch
        for (_, future), vector in zip(batch, vectors):
            if not future.done():
                future.set_result(vector)
