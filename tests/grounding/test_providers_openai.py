"""OpenAICompatibleProvider, offline: a MockTransport answers like an OpenAI-compatible server (SSE chunks)."""

from __future__ import annotations

import json

import httpx2

from grounding.prompt import DEFAULT_SYSTEM_PROMPT, build_prompt
from grounding.providers import Done, ProviderError, TextDelta, Usage
from grounding.providers_openai import OpenAICompatibleProvider
from grounding.types import ContextPlan, Source, Turn

QUESTION = "What is the capital of Vietnam?"


def make():
    source = Source(label="S1", chunk_ids=(1,), document_id=1, title="Geography", section="", version="v1",
                    date="2025-01-01", text="Hanoi is the capital of Vietnam.", score=0.5, tokens=10)
    history = (Turn(role="user", text="Hello", tokens=1), Turn(role="assistant", text="Hi.", tokens=1))
    prompt = build_prompt(system_prompt=DEFAULT_SYSTEM_PROMPT, instructions="", sources=[source], notes=(),
                          history=history, question=QUESTION)
    return prompt, ContextPlan(question=QUESTION, sources=(source,), history=history)


def chunk(content=None, finish=None, usage=None):
    c = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "llama3",
         "choices": [{"index": 0, "delta": ({"content": content} if content is not None else {}),
                      "finish_reason": finish}]}
    if usage is not None:
        c = {**c, "choices": [], "usage": usage}
    return c


def sse_body(*chunks, done=True):
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    return (": keep-alive\n\n" + text + ("data: [DONE]\n\n" if done else "")).encode()


class Recorder:
    def __init__(self, *responses):
        self.responses = list(responses)
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        return self.responses[min(len(self.requests), len(self.responses)) - 1]()


def provider(handler, **kw):
    return OpenAICompatibleProvider(base_url="http://localhost:11434/v1/", model="llama3", api_key="sk-local",
                                    retry_delay=0, http_client=httpx2.AsyncClient(
                                        transport=httpx2.MockTransport(handler)), **kw)


async def collect(p):
    """The events the stream yielded, then the ProviderError it raised (if it raised one)."""
    prompt, plan = make()
    events = []
    try:
        async for e in p.stream(prompt, plan):
            events.append(e)
    except ProviderError as exc:
        events.append(exc)
    return events


def ok_stream():
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=sse_body(
        chunk(""), chunk("Hanoi is "), chunk("the capital [S1]."), chunk(finish="stop"),
        chunk(usage={"prompt_tokens": 42, "completion_tokens": 6, "total_tokens": 48})))


async def test_sse_stream_is_parsed_into_deltas_usage_and_done():
    rec = Recorder(ok_stream)
    events = await collect(provider(rec))
    assert [e for e in events if isinstance(e, TextDelta)] == [TextDelta("Hanoi is "), TextDelta("the capital [S1].")]
    assert events[-2] == Usage(input_tokens=42, output_tokens=6)
    assert events[-1] == Done(stop_reason="end_turn")


async def test_request_body_system_then_history_then_question():
    rec = Recorder(ok_stream)
    await collect(provider(rec, max_tokens=100))
    req = rec.requests[0]
    assert str(req.url) == "http://localhost:11434/v1/chat/completions"
    assert req.method == "POST"
    assert req.headers["authorization"] == "Bearer sk-local"
    body = json.loads(req.content)
    prompt, _ = make()
    assert body["stream"] is True and body["model"] == "llama3" and body["max_tokens"] == 100
    assert body["messages"][0] == {"role": "system", "content": prompt.system}
    assert body["messages"][1:] == [{"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi."},
                                    {"role": "user", "content": QUESTION}]


async def test_length_finish_and_no_usage_chunk():
    rec = Recorder(lambda: httpx2.Response(200, content=sse_body(chunk("cut"), chunk(finish="length"))))
    events = await collect(provider(rec, include_usage=False))
    assert json.loads(rec.requests[0].content).get("stream_options") is None
    assert events == [TextDelta("cut"), Usage(), Done(stop_reason="max_tokens")]


async def test_http_500_ends_in_a_provider_error_after_retries():
    rec = Recorder(lambda: httpx2.Response(500, json={"error": {"message": "model crashed"}}))
    events = await collect(provider(rec, max_retries=2))
    assert len(rec.requests) == 3
    assert len(events) == 1 and isinstance(events[0], ProviderError)
    assert events[0].retryable and events[0].message.startswith("The model service is unavailable (HTTP 500)")


async def test_429_then_success():
    rec = Recorder(lambda: httpx2.Response(429, json={"error": "busy"}), ok_stream)
    events = await collect(provider(rec))
    assert len(rec.requests) == 2
    assert isinstance(events[-1], Done)


async def test_http_404_is_not_retried():
    rec = Recorder(lambda: httpx2.Response(404, json={"error": "model not found"}))
    events = await collect(provider(rec))
    assert len(rec.requests) == 1
    assert isinstance(events[0], ProviderError) and not events[0].retryable


async def test_connection_error_ends_in_a_provider_error():
    def handler(request):
        raise httpx2.ConnectError("refused", request=request)

    events = await collect(provider(handler, max_retries=1))
    assert len(events) == 1 and isinstance(events[0], ProviderError) and events[0].retryable


async def test_error_chunk_mid_stream_ends_in_a_provider_error():
    body = sse_body(chunk("Partial"), done=False) + b'data: {"error": {"message": "out of memory"}}\n\n'
    rec = Recorder(lambda: httpx2.Response(200, content=body))
    events = await collect(provider(rec))
    assert events[0] == TextDelta("Partial")
    assert isinstance(events[-1], ProviderError) and "out of memory" in events[-1].message


def completion(text):
    return {"id": "chatcmpl-2", "object": "chat.completion", "created": 1, "model": "llama3",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 3, "total_tokens": 23}}


def test_complete_posts_a_non_streamed_request_retrying_5xx():
    import pytest

    from grounding.providers import CompletionError

    seen = []

    def handler(request):
        seen.append(json.loads(request.content))
        return httpx2.Response(503) if len(seen) == 1 else httpx2.Response(200, json=completion(" NO \n"))

    p = OpenAICompatibleProvider("http://llm.local/v1", "llama3", api_key="k", retry_delay=0,
                                 sync_http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
    assert p.complete("Check.", [{"role": "user", "content": "Do they answer?"}], max_tokens=5) == "NO"
    assert len(seen) == 2
    assert seen[1]["stream"] is False and seen[1]["max_tokens"] == 5
    assert seen[1]["messages"] == [{"role": "system", "content": "Check."}, {"role": "user", "content": "Do they answer?"}]
    broken = OpenAICompatibleProvider("http://llm.local/v1", "llama3", retry_delay=0, sync_http_client=httpx2.Client(
        transport=httpx2.MockTransport(lambda r: httpx2.Response(200, json={"choices": []}))))
    with pytest.raises(CompletionError, match="malformed"):
        broken.complete("s", [{"role": "user", "content": "q"}])
    assert p.variant(model="qwen").model == "qwen" and p.variant() is p
