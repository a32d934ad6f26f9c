"""Server-sent events through the real ASGI application: frames arrive while the answer is written, and a client that
goes away mid-answer does not lose the turn."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import AsyncClient

from api.services import token_create
from chat.providers import registry
from chat.models import Message
from config.asgi import application
from grounding.providers import ScriptedProvider
from tests.api.helpers import sse_frames

pytestmark = pytest.mark.django_db(transaction=True)

PIECES = ["Laptops are ", "replaced every ", "36 months ", "[S1]", "."]
BODY = json.dumps({"question": "How often are laptops replaced?", "domain": "handbook"}).encode()


@pytest.fixture
def token(transactional_db):
    user = get_user_model().objects.create_user("alice", password="pw")
    return token_create(user=user, name="t")[1]


async def answer_saved(timeout: float = 30) -> Message:
    for _ in range(int(timeout / 0.05)):
        reply = await sync_to_async(Message.objects.filter(role="assistant").first)()
        if reply and reply.status != "streaming":
            return reply
        await asyncio.sleep(0.05)
    raise AssertionError("the answer was not saved")


async def test_events_arrive_while_the_answer_is_generated(ingest_demo, token, monkeypatch):
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.2))
    client = AsyncClient()
    r = await client.post("/api/v1/ask", BODY, content_type="application/json",
                          headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
    assert r.status_code == 200 and r["Content-Type"].startswith("text/event-stream")
    chunks = []
    async for chunk in r.streaming_content:
        chunks.append(chunk)
        if b"event: delta" in chunk:
            # the first delta is here and the answer is not finished: this is a live stream
            reply = await sync_to_async(Message.objects.get)(role="assistant")
            assert reply.status == "streaming"
    frames = sse_frames(b"".join(chunks))
    kinds = [f["type"] for f in frames]
    assert kinds[:2] == ["accepted", "plan"] and kinds[-1] == "done" and set(kinds[2:-1]) == {"delta"}
    assert len(kinds) > 4 and frames[-1]["text"] == "".join(PIECES)


async def test_a_client_that_disconnects_mid_answer_does_not_lose_the_turn(ingest_demo, token, monkeypatch):
    """Raw ASGI: after the first delta the client sends http.disconnect; Django stops the response, the answer task
    goes on and saves the complete answer."""
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.1))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/v1/ask", "raw_path": b"/api/v1/ask", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                         (b"authorization", f"Bearer {token}".encode()), (b"accept", b"text/event-stream"),
                         (b"content-length", str(len(BODY)).encode())],
             "client": ("127.0.0.1", 5000), "server": ("localhost", 80)}
    gone = asyncio.Event()
    sent: list[dict] = []
    body_sent = False

    async def receive():
        nonlocal body_sent
        if not body_sent:
            body_sent = True
            return {"type": "http.request", "body": BODY, "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
        if message["type"] == "http.response.body" and b"event: delta" in message.get("body", b""):
            gone.set()

    await asyncio.wait_for(application(scope, receive, send), timeout=60)
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    received = b"".join(m.get("body", b"") for m in sent[1:])
    assert b"event: delta" in received and b"event: done" not in received  # it really left mid-answer
    reply = await answer_saved()
    assert reply.status == "complete" and reply.text == "".join(PIECES)
    rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status"))
    assert rows == [("user", "complete"), ("assistant", "complete")]


async def test_a_json_ask_whose_client_disconnects_still_saves_the_answer(ingest_demo, token, monkeypatch):
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.2))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/v1/ask", "raw_path": b"/api/v1/ask", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                         (b"authorization", f"Bearer {token}".encode())],
             "client": ("127.0.0.1", 5000), "server": ("localhost", 80)}
    first = True

    async def receive():
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": BODY, "more_body": False}
        # leave once the answer has started streaming
        while not await sync_to_async(Message.objects.filter(role="assistant").exists)():
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        return {"type": "http.disconnect"}

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(application(scope, receive, send), timeout=60)
    reply = await answer_saved()
    assert reply.status == "complete" and reply.text == "".join(PIECES)
