"""A socket that drops while its answer generates can resume it from another socket: the text so far, then the rest
of the stream through the channel layer (issue 11 point 2; across workers in tests/scale/test_two_workers.py)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from chat import generation
from chat.providers import registry
from chat.models import Message
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until, user  # noqa: F401 - the user fixture

pytestmark = pytest.mark.django_db(transaction=True)

PIECES = [f"Piece {i} of the answer. " for i in range(12)]


async def test_resume_mid_stream_gets_the_text_so_far_then_the_rest(ingest_demo, user, monkeypatch):  # noqa: F811
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.25))
    monkeypatch.setattr(generation, "PARTIAL_SAVE_SECONDS", 0.5)
    first = await connect(user)
    await first.connect()
    await first.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                              "client_id": "c-1"})
    deltas = []
    plan = None
    while len(deltas) < 6:
        frame = await first.receive_json_from(timeout=60)
        if frame["type"] == "plan":
            plan = frame
        elif frame["type"] == "delta":
            deltas.append(frame)
    await first.disconnect()  # the tab goes away mid-answer; generation goes on
    message_id = plan["message"]

    second = await connect(user)
    await second.connect()
    await second.send_json_to({"type": "resume", "message": message_id})
    resumed_plan = await second.receive_json_from(timeout=10)
    partial = await second.receive_json_from(timeout=10)
    assert resumed_plan["type"] == "plan" and resumed_plan["resumed"] is True
    assert [s["label"] for s in resumed_plan["sources"]] == [s["label"] for s in plan["sources"]]
    assert partial["type"] == "partial" and partial["seq"] >= 1
    assert partial["text"] == "".join(d["text"] for d in deltas[:partial["seq"]])  # what had been streamed
    rest = await frames_until(second, "done")
    later = [f for f in rest if f["type"] == "delta"]
    assert [f["seq"] for f in later] == list(range(partial["seq"] + 1, partial["seq"] + 1 + len(later)))
    done = rest[-1]
    assert done["type"] == "done" and done["status"] == "complete"
    assert partial["text"] + "".join(f["text"] for f in later) == done["text"] == "".join(PIECES)
    stored = await sync_to_async(Message.objects.get)(pk=message_id)
    assert stored.status == "complete" and stored.text == done["text"]
    await second.disconnect()


async def test_resume_of_a_finished_answer_is_its_done_frame(ingest_demo, user, monkeypatch):  # noqa: F811
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced [S1]", "."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    done = (await frames_until(comm, "done"))[-1]
    await comm.send_json_to({"type": "resume", "message": done["message"]})
    again = await comm.receive_json_from(timeout=10)
    assert again["type"] == "done" and again["text"] == done["text"] and again["status"] == "complete"
    await comm.disconnect()
