"""The query-embedding micro-batcher: texts that arrive together share one encode call (issue 20 point 2)."""

from __future__ import annotations

import asyncio

import numpy as np

from grounding.batching import EmbeddingBatcher


class Recording:
    """A fake embedder: a vector per text (its length in the first dimension), calls recorded."""

    name, dim = "fake", 4

    def __init__(self, fail: bool = False):
        self.calls: list[list[str]] = []
        self.fail = fail

    def embed(self, texts):
        self.calls.append(list(texts))
        if self.fail:
            raise RuntimeError("model broke")
        return np.array([[len(t), 0, 0, 0] for t in texts], dtype=np.float32)


async def test_questions_arriving_together_are_encoded_in_one_call():
    fake = Recording()
    batcher = EmbeddingBatcher(fake, max_wait=0.05)
    texts = [f"question {'x' * i}" for i in range(10)]
    vectors = await asyncio.gather(*(batcher.embed(t) for t in texts))
    assert fake.calls == [texts] and batcher.batches == 1
    assert [int(v[0]) for v in vectors] == [len(t) for t in texts]  # each caller gets its own text's vector


async def test_a_full_batch_goes_at_once_and_the_rest_waits_for_more():
    fake = Recording()
    batcher = EmbeddingBatcher(fake, max_batch=4, max_wait=0.2)
    vectors = await asyncio.wait_for(asyncio.gather(*(batcher.embed(str(i) * (i + 1)) for i in range(10))), 5)
    assert [len(c) for c in fake.calls] == [4, 4, 2]  # two full batches at once, the last two after the wait
    assert [int(v[0]) for v in vectors] == [i + 1 for i in range(10)]


async def test_texts_far_apart_are_encoded_separately():
    fake = Recording()
    batcher = EmbeddingBatcher(fake, max_wait=0.001)
    await batcher.embed("first")
    await asyncio.sleep(0.01)
    await batcher.embed("second")
    assert fake.calls == [["first"], ["second"]]


async def test_a_failing_encode_fails_every_request_of_its_batch_and_the_next_batch_works():
    fake = Recording(fail=True)
    batcher = EmbeddingBatcher(fake, max_wait=0.01)
    results = await asyncio.gather(batcher.embed("a"), batcher.embed("b"), return_exceptions=True)
    assert all(isinstance(r, RuntimeError) and str(r) == "model broke" for r in results)
    fake.fail = False
    assert int((await batcher.embed("ccc"))[0]) == 3


class Blocking(Recording):
    """A fake embedder whose first call waits until ``release`` is set (an encode still running)."""

    def __init__(self):
        super().__init__()
        import threading

        self.release = threading.Event()

    def embed(self, texts):
        if not self.calls:
            self.release.wait(5)
        return super().embed(texts)


async def test_texts_arriving_while_an_encode_runs_go_together_when_it_ends():
    fake = Blocking()
    batcher = EmbeddingBatcher(fake)
    first = asyncio.ensure_future(batcher.embed("first"))
    while batcher.batches == 0:  # the lone first text is encoded at once, not after a wait
        await asyncio.sleep(0)
    later = [asyncio.ensure_future(batcher.embed(f"later {i}")) for i in range(5)]
    await asyncio.sleep(0.01)
    assert batcher.batches == 1  # the later texts wait for the running encode
    fake.release.set()
    vectors = await asyncio.wait_for(asyncio.gather(first, *later), 5)
    assert fake.calls == [["first"], [f"later {i}" for i in range(5)]]
    assert [int(v[0]) for v in vectors] == [5] + [7] * 5


async def test_background_texts_go_after_every_waiting_question_and_fill_the_room_left():
    # an answer's support check (background) never delays the questions waiting for their first words
    fake = Blocking()
    batcher = EmbeddingBatcher(fake, max_batch=3)
    first = asyncio.ensure_future(batcher.embed("q0"))
    while batcher.batches == 0:
        await asyncio.sleep(0)
    checks = [asyncio.ensure_future(batcher.embed(f"check {i}", background=True)) for i in range(2)]
    questions = [asyncio.ensure_future(batcher.embed(f"q{i}")) for i in range(1, 5)]
    await asyncio.sleep(0.01)
    fake.release.set()
    vectors = await asyncio.wait_for(asyncio.gather(first, *checks, *questions), 5)
    # the questions that arrived after the checks go first; the checks fill the last batch's room (a full batch goes
    # at once, so two encodes may run side by side: the batches, not the order the threads record them, are checked)
    assert sorted(fake.calls) == [["q0"], ["q1", "q2", "q3"], ["q4", "check 0", "check 1"]]
    assert [int(v[0]) for v in vectors] == [2, 7, 7, 2, 2, 2, 2]


async def test_a_background_text_alone_is_encoded_at_once():
    batcher = EmbeddingBatcher(Recording())
    vector = await asyncio.wait_for(batcher.embed("support check", background=True), 5)
    assert int(vector[0]) == len("support check") and batcher.batches == 1


async def test_a_text_asked_for_again_while_waiting_shares_its_encode():
    fake = Recording()
    batcher = EmbeddingBatcher(fake, max_wait=0.01)
    first, again, other = await asyncio.gather(batcher.embed("same"), batcher.embed("same"), batcher.embed("else"))
    assert fake.calls == [["same", "else"]]  # "same" encoded once
    assert int(first[0]) == int(again[0]) == 4 and int(other[0]) == 4


async def test_a_prefetched_question_is_encoded_once_and_joined_by_the_later_ask():
    fake = Blocking()
    batcher = EmbeddingBatcher(fake)
    batcher.prefetch("what is the meal allowance?")  # the ask arrived: its encode starts, nobody waits yet
    while batcher.batches == 0:
        await asyncio.sleep(0.001)
    joined = asyncio.ensure_future(batcher.embed("what is the meal allowance?"))  # retrieval wants it mid-encode
    await asyncio.sleep(0.01)
    fake.release.set()
    vector = await asyncio.wait_for(joined, 5)
    assert fake.calls == [["what is the meal allowance?"]] and int(vector[0]) == len("what is the meal allowance?")


async def test_cancelling_one_waiter_does_not_cancel_the_shared_encode():
    fake = Blocking()
    batcher = EmbeddingBatcher(fake)
    gone = asyncio.ensure_future(batcher.embed("shared"))
    kept = asyncio.ensure_future(batcher.embed("shared"))
    while batcher.batches == 0:
        await asyncio.sleep(0.001)
    gone.cancel()  # one asker left (a closed socket)
    await asyncio.sleep(0.01)
    fake.release.set()
    assert int((await asyncio.wait_for(kept, 5))[0]) == 6 and gone.cancelled()


async def test_a_failed_prefetch_nobody_awaits_logs_nothing_and_the_text_can_be_asked_again(caplog):
    fake = Recording(fail=True)
    batcher = EmbeddingBatcher(fake)
    future = batcher.prefetch("q")
    await asyncio.sleep(0.02)
    assert future.done() and isinstance(future.exception(), RuntimeError)
    fake.fail = False
    assert int((await batcher.embed("q"))[0]) == 1  # a failed encode is not shared with later requests
    del future
    import gc

    gc.collect()
    assert "exception was never retrieved" not in caplog.text


async def test_a_prefetched_vector_is_kept_until_asked_for_once_and_bounded():
    fake = Recording()
    batcher = EmbeddingBatcher(fake, max_ready=2)
    for text in ("one", "three", "fiftyfive"):
        future = batcher.prefetch(text)
        while not future.done():  # each encoded before the ask comes (waited for, not timed: a loaded machine)
            await asyncio.sleep(0.005)
    assert int((await batcher.embed("three"))[0]) == 5 and int((await batcher.embed("fiftyfive"))[0]) == 9
    assert fake.calls == [["one"], ["three"], ["fiftyfive"]]  # taken from the prefetch, not encoded again
    await batcher.embed("three")  # asked for a second time: encoded again (the embedder's own cache is for that)
    await batcher.embed("one")  # dropped beyond max_ready: encoded again
    assert fake.calls[3:] == [["three"], ["one"]]
