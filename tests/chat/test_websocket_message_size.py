"""The websocket's message limit over the wire (a real Daphne, a plain websocket client): it is the product's
message limit (chat.validation.websocket_message_limit), and a larger message closes the socket with code 1009 and a
reason, not a silent drop."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from chat.validation import request_limit, websocket_message_limit
from tests.live_daphne import live_daphne

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cookie(transactional_db):
    client = Client()
    client.force_login(get_user_model().objects.create_user("alice", password="pw"))
    return f"sessionid={client.cookies['sessionid'].value}"


async def exchange(port: int, cookie: str, message: str) -> tuple[dict | None, int | None, str]:
    """Send one text message; (the first frame back or None, the close code or None, the close reason)."""
    async with connect(f"ws://127.0.0.1:{port}/ws/chat/", origin=f"http://127.0.0.1:{port}",
                       additional_headers={"Cookie": cookie}, max_size=None) as socket:
        await socket.send(message)
        try:
            return json.loads(await asyncio.wait_for(socket.recv(), 30)), None, ""
        except ConnectionClosed as closed:
            return None, closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else ""


def test_the_websocket_limit_is_room_for_a_question_at_the_message_limit():
    """The limit follows the message limit: an ask with a question of MAX_MESSAGE_CHARS astral characters, each
    written as JSON escapes (12 bytes), fits; GROUNDED_WEBSOCKET_MAX_BYTES overrides it."""
    ask = json.dumps({"type": "ask", "text": "\U0001F600" * 4000, "conversation": 2 ** 53, "domain": "x" * 50,
                      "client_id": "c" * 64, "progress": True})
    assert websocket_message_limit() == request_limit(chars=4000) >= len(ask.encode())
    with override_settings(MAX_MESSAGE_CHARS=100_000):
        assert websocket_message_limit() == 100_000 * 12 + 4096
    with override_settings(WEBSOCKET_MAX_MESSAGE_BYTES=5000):
        assert websocket_message_limit() == 5000


def test_a_websocket_message_over_the_limit_is_closed_with_1009_and_a_reason_not_dropped(cookie):
    """A client sending a message over the limit (here 1.1 MB, over Daphne's own 1 MiB too) saw its socket die with
    code 1006 and no reason, and the chat page showed a dead chat. Daphne now reads up to the product's limit and
    closes a larger message with 1009 ("message too big") and a reason naming the limit; a question at the limit
    still gets its answer (here the refusal of a question over the token limit, in an error frame)."""
    limit = websocket_message_limit()
    at_limit = json.dumps({"type": "ask", "domain": "handbook", "text": "\U0001F600" * 4000})  # escaped: 48 KB
    with live_daphne() as port:
        for size in (limit + 1, 1_100_000):
            frame, code, reason = async_to_sync(exchange)(port, cookie, "x" * size)
            assert (frame, code) == (None, 1009), (size, frame, code)
            assert f"exceeds payload limit of {limit} octets" in reason
        frame, code, _ = async_to_sync(exchange)(port, cookie, at_limit)
    assert code is None and frame["type"] == "error" and frame["code"] == "message_too_long"


def test_the_whitespace_around_a_message_does_not_count_toward_its_limit(settings):
    # the page trims a message before counting it; the server counted the spaces too and refused what the page
    # let through (s9 breaker)
    from chat.validation import validate_question

    settings.MAX_MESSAGE_CHARS = 20
    assert validate_question("   How often?   " + " " * 30) == "How often?"
