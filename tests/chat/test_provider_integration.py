"""The real anthropic SDK client through the whole answer path, against a mock transport (no network, no key)."""

from __future__ import annotations

import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat import services
from chat.models import Message
from grounding.providers_anthropic import AnthropicProvider
from tests.grounding.test_providers_anthropic import (Recorder, block_start, block_stop, citation_delta,
                                                      error_response, message_end, message_start, stream_response,
                                                      text_delta)

pytestmark = pytest.mark.django_db(transaction=True)


def provider(handler, mode="text"):
    return AnthropicProvider(api_key="test-key", model="claude-test", citation_mode=mode, max_retries=1,
                             http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)))


async def run(domain, prov, question="How often are laptops replaced?"):
    user = await sync_to_async(get_user_model().objects.create_user)("erin", password="pw")
    conv = await sync_to_async(services.conversation_create)(user=user, domain=domain)
    msg, _ = await sync_to_async(services.turn_append_user)(conversation=conv, text=question)
    frames = []

    async def emit(frame):
        frames.append(frame)

    await services.answer_run(conversation=conv, user_message=msg, emit=emit, provider=prov)
    rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status", "text"))
    return frames, rows


async def test_native_citation_maps_to_its_label_and_highlight(ingest_demo):
    handler = Recorder(lambda: stream_response(
        message_start(), block_start(), text_delta("Laptops are replaced every 36 months."),
        citation_delta(0, "Laptops are replaced on a 36-month refresh cycle"), block_stop(), *message_end()))
    frames, rows = await run(ingest_demo, provider(handler, mode="native"))
    done = frames[-1]
    assert done["type"] == "done" and done["status"] == "complete"
    assert done["citations"][0]["label"] == "S1"
    assert done["citations"][0]["cited_text"] == "Laptops are replaced on a 36-month refresh cycle"
    body = handler.bodies[0]
    assert body["messages"][-1]["content"][0]["type"] == "search_result"
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}


async def test_500_ends_in_an_error_frame_and_keeps_the_user_turn(ingest_demo):
    handler = Recorder(lambda: error_response(500))
    frames, rows = await run(ingest_demo, provider(handler))
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "provider_error"
    assert "unavailable" in frames[-1]["message"]
    assert rows == [("user", "complete", "How often are laptops replaced?"), ("assistant", "failed", "")]
    assert len(handler.requests) == 2  # one retry, then the error


async def test_stream_breaking_mid_way_is_stored_as_interrupted(ingest_demo):
    broken = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    handler = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("Laptops are "), broken))
    frames, rows = await run(ingest_demo, provider(handler))
    assert frames[-1]["type"] == "error"
    assert rows[-1] == ("assistant", "interrupted", "Laptops are ")


async def test_stop_cancels_the_sdk_stream_and_keeps_the_text_so_far(ingest_demo, monkeypatch):
    """`stop` mid-answer: the SDK's HTTP response is closed (no further events are read) and the answer is stored as
    interrupted with what was streamed; the user sees it marked stopped and can resume it."""
    import asyncio
    import json as _json

    from tests.chat.test_consumer import connect, frames_until

    state = {"sent": 0, "closed": False}

    class Body(httpx2.AsyncByteStream):
        """The response body as a network transport streams it: closing the response calls ``aclose`` (which
        releases the connection). An async generator given as ``content`` would only be finalized when garbage
        collected, so its closing could not be observed deterministically."""

        async def __aiter__(self):
            events = [message_start(), block_start(), text_delta("Laptops are "), text_delta("replaced "),
                      text_delta("every "), text_delta("36 months [S1]."), block_stop(), *message_end()]
            for event in events:
                if state["closed"]:
                    return
                state["sent"] += 1
                yield f"event: {event['type']}\ndata: {_json.dumps(event)}\n\n".encode()
                if event["type"] == "content_block_delta":
                    await asyncio.sleep(0.5)

        async def aclose(self):
            state["closed"] = True

    def handler(request):
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=Body())

    monkeypatch.setattr(services, "_provider", provider(handler))
    user = await sync_to_async(get_user_model().objects.create_user)("frank", password="pw")
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    while (await comm.receive_json_from(timeout=60))["type"] != "delta":
        pass
    await comm.send_json_to({"type": "stop"})
    done = (await frames_until(comm, "done"))[-1]
    assert done["type"] == "done" and done["status"] == "interrupted"
    assert done["text"].startswith("Laptops are ") and "36 months" not in done["text"]
    assert state["closed"] and state["sent"] < 8  # closed by the time the answer is stored as stopped
    stored = await sync_to_async(Message.objects.get)(pk=done["message"])
    assert stored.status == "interrupted" and stored.error == "stopped"
    await comm.disconnect()
