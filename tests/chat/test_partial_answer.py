"""The stored partial answer of a stopped, broken or stranded answer is exactly the text the user saw streamed: no
tail missing (the throttled copies of the text so far), nothing the user never saw (a held half citation marker)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from chat import broadcast, generation
from chat.broadcast import partial_get
from chat.models import Message
from chat.providers import registry
from grounding.providers import Done, ScriptedProvider, TextDelta
from tests.chat.test_consumer import connect, frames_until, user  # noqa: F401 - the user fixture

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "How often are laptops replaced?"


class StallingProvider:
    """Streams ``pieces`` (``delay`` seconds apart), then waits for ``release`` before the rest: a model that stops
    writing for a while mid-answer. ``stalled`` is set when it starts waiting."""

    name = "stalling"
    label = "Stalling test provider"

    def __init__(self, pieces: list[str], rest: list[str], delay: float = 0.05) -> None:
        self.pieces, self.rest, self.delay = pieces, rest, delay
        self.stalled = asyncio.Event()
        self.release = asyncio.Event()

    async def stream(self, prompt, plan):
        for piece in self.pieces:
            await asyncio.sleep(self.delay)
            yield TextDelta(piece)
        self.stalled.set()
        await self.release.wait()
        for piece in self.rest:
            yield TextDelta(piece)
        yield Done()


async def shown_until(comm, wanted: str) -> tuple[int, str]:
    """Read frames until the streamed text contains ``wanted``: (answer id, the text shown so far)."""
    text, message_id = "", None
    while wanted not in text:
        frame = await comm.receive_json_from(timeout=60)
        assert frame["type"] not in ("error", "done"), frame
        if frame["type"] == "delta":
            text += frame["text"]
            message_id = frame["message"]
    return message_id, text


async def stored(message_id: int) -> Message:
    return await sync_to_async(Message.objects.get)(pk=message_id)


async def test_stop_stores_exactly_the_streamed_text_not_a_held_half_marker(ingest_demo, user):  # noqa: F811
    """The user stops while a citation marker is half received ("[S"): the page showed "... 36 months " (a half
    marker is never shown), and the stopped answer showed and stored "... 36 months [S" after the Stop. What is
    stored (and shown again on reload) is what was streamed."""
    registry.configure(answerer=ScriptedProvider(["Laptops are ", "replaced every ", "36 months [S", "1]. Then ",
                                                  "more."], delay=0.3))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": QUESTION})
    message_id, shown = await shown_until(comm, "36 months")
    await comm.send_json_to({"type": "stop"})
    frames = await frames_until(comm, "done")
    shown += "".join(f["text"] for f in frames if f["type"] == "delta")
    done = frames[-1]
    await comm.disconnect()
    assert shown == "Laptops are replaced every 36 months "
    assert done["status"] == "interrupted" and done["text"] == shown
    assert (await stored(message_id)).text == shown


async def test_provider_failure_mid_answer_stores_exactly_the_streamed_text(ingest_demo, user):  # noqa: F811
    """The model service breaks after "The answer is [S": the page had shown "The answer is "; the interrupted
    answer stored (and shown after reload) is that text, not one ending in a half marker."""
    registry.configure(answerer=ScriptedProvider(["The answer ", "is [S", "1]."], fail_after=2))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": QUESTION})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "provider_error"
    shown = "".join(f["text"] for f in frames if f["type"] == "delta")
    assert shown == "The answer is "
    answer = await stored(frames[-1]["message_id"])
    assert (answer.status, answer.text) == ("interrupted", shown)


async def test_a_stalled_stream_has_its_last_streamed_words_in_the_stored_text_so_far(
        ingest_demo, user, monkeypatch):  # noqa: F811
    """The model pauses mid-answer and the connection drops (or the server stops): the text so far kept in the
    shared cache and in the answer's row (what a reconnecting page, or the interrupted answer of a stopped server,
    shows) missed the words streamed in the last second before the pause, since those copies were written only when
    a later delta arrived and their time window had passed. They now catch up at the end of the window."""
    monkeypatch.setattr(generation, "PARTIAL_SAVE_SECONDS", 0.3)
    monkeypatch.setattr(broadcast, "PARTIAL_CACHE_SECONDS", 0.2)
    provider = StallingProvider([f"Word{i} " for i in range(8)], ["and the end."])
    registry.configure(answerer=provider)
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": QUESTION})
    message_id, shown = await shown_until(comm, "Word7 ")
    await asyncio.wait_for(provider.stalled.wait(), 30)
    await comm.disconnect()  # the connection drops while the model is paused
    row_text = cached = None
    for _ in range(200):  # waits for the copies (at most 10 s); fails when they never catch up
        row_text = (await stored(message_id)).text
        cached = await partial_get(message_id)
        if row_text == shown and cached and cached["text"] == shown:
            break
        await asyncio.sleep(0.05)
    provider.release.set()
    assert row_text == shown == "".join(f"Word{i} " for i in range(8))
    assert cached["text"] == shown
    for _ in range(400):
        answer = await stored(message_id)
        if answer.status != "streaming":
            break
        await asyncio.sleep(0.05)
    assert answer.status == "complete" and answer.text == shown + "and the end."
