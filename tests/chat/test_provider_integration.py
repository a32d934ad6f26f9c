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
