"""The real anthropic SDK client through the whole answer path, against a mock transport (no network, no key)."""

from __future__ import annotations

import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat.generation import answer_run
from chat.persistence import conversation_create, question_store
from chat.providers import ProviderRegistry, registry
from chat.models import Message
from grounding.providers_anthropic import AnthropicProvider
from tests.grounding.test_providers_anthropic import (Recorder, block_start, block_stop, citation_delta,
                                                      error_response, message_end, message_start, stream_response,
                                                      text_delta)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _answer_calls_only(settings):
    """These tests script the answer's stream; the model-backed checks (which now call the same mocked async client)
    stay off, as they are covered in tests/chat/test_llm_wiring.py."""
    settings.LLM_SUFFICIENCY_CHECK = settings.LLM_CONFLICT_JUDGE = False
    settings.LLM_FOLLOWUP_REWRITE = settings.LLM_SUMMARIZER = False


def provider(handler, mode="text"):
    return AnthropicProvider(api_key="test-key", model="claude-test", citation_mode=mode, max_retries=1,
                             http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)))


async def run(domain, prov, question="How often are laptops replaced?", user="erin"):
    user = await sync_to_async(get_user_model().objects.create_user)(user, password="pw")
    conv = await sync_to_async(conversation_create)(user=user, domain=domain)
    _, msg, _ = await sync_to_async(question_store)(user=user, conversation=conv, domain=domain, text=question)
    frames = []

    async def emit(frame):
        frames.append(frame)

    await answer_run(conversation=conv, question=msg, emit=emit, providers=ProviderRegistry(answerer=prov))
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

    registry.configure(answerer=provider(handler))
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


async def test_b02_the_requests_max_tokens_is_the_completion_reserve_the_plan_was_made_with(ingest_demo):
    ingest_demo.completion_reserve = 700
    await sync_to_async(ingest_demo.save)()
    handler = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("Every 36 months [S1]."),
                                               block_stop(), *message_end()))
    frames, _ = await run(ingest_demo, provider(handler))
    stored = await sync_to_async(Message.objects.get)(role="assistant")
    assert handler.bodies[0]["max_tokens"] == 700
    assert stored.trace["max_tokens"] == stored.trace["budget"]["completion_reserve"] == 700  # one number
    plan = next(f for f in frames if f["type"] == "plan")
    assert plan["budget"]["completion_reserve"] == 700


def test_b02_the_openai_compatible_request_takes_the_reserve_too():
    from grounding.prompt import DEFAULT_SYSTEM_PROMPT, build_prompt
    from grounding.providers_openai import OpenAICompatibleProvider
    from grounding.types import ContextPlan

    prompt = build_prompt(system_prompt=DEFAULT_SYSTEM_PROMPT, instructions="", sources=(), notes=(), history=(),
                          question="Hello?")
    plan = ContextPlan(question="Hello?", sources=(), budget={"completion_reserve": 333})
    server = OpenAICompatibleProvider("http://127.0.0.1:9/v1", "llama3.1")
    assert server.request(prompt, plan)["max_tokens"] == 333
    assert server.request(prompt)["max_tokens"] == server.max_tokens  # no plan: the provider's default


async def test_b03_usage_is_stored_with_the_answer_and_shown_in_the_trace(ingest_demo, admin_client):
    handler = Recorder(lambda: stream_response(message_start(input_tokens=20, cache_read=300, cache_creation=40),
                                               block_start(), text_delta("Every 36 months [S1]."), block_stop(),
                                               *message_end(output_tokens=7)))
    frames, _ = await run(ingest_demo, provider(handler))
    stored = await sync_to_async(Message.objects.get)(role="assistant")
    usage = {"input_tokens": 20, "output_tokens": 7, "cache_read_tokens": 300, "cache_creation_tokens": 40,
             "total_input_tokens": 360}
    assert stored.trace["usage"] == usage and frames[-1]["usage"] == usage
    page = (await sync_to_async(admin_client.get)(
        f"/admin/chat/conversation/{stored.conversation_id}/change/")).content.decode()
    assert "Model request and usage" in page and "360 (input + cache read + cache write)" in page


async def test_b04_an_unknown_model_budgets_approximately_and_says_so(ingest_demo):
    ingest_demo.model = "claude-sonnet-9"  # a model name no known tokenizer covers, chosen for the domain
    await sync_to_async(ingest_demo.save)()
    handler = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("Every 36 months [S1]."),
                                               block_stop(), *message_end()))
    frames, _ = await run(ingest_demo, provider(handler))
    plan = next(f for f in frames if f["type"] == "plan")
    assert plan["budget"]["counting"] == "approximate" and handler.bodies[0]["model"] == "claude-sonnet-9"
    ingest_demo.model = "claude-opus-4-6"
    await sync_to_async(ingest_demo.save)()
    frames, _ = await run(ingest_demo, provider(handler), user="frank")
    plan = next(f for f in frames if f["type"] == "plan")
    assert plan["budget"]["counting"] == "calibrated" and plan["budget"]["factor"] == 1.15
