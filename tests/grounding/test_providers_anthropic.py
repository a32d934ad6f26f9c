"""AnthropicProvider, offline: a MockTransport answers with responses shaped like the Messages API (SSE stream)."""

from __future__ import annotations

import json

import httpx2
import pytest

from grounding.prompt import DEFAULT_SYSTEM_PROMPT, build_prompt
from grounding.providers import CitationEvent, Done, ProviderError, TextDelta, Usage
from grounding.providers_anthropic import (
    AnthropicProvider,
    strip_sources_block,
)
from grounding.types import ContextPlan, Note, Source, Turn

QUESTION = "What is the capital of Vietnam?"


def src(label, text, title="Doc"):
    return Source(label=label, chunk_ids=(1,), document_id=1, title=title, section="", version="v1",
                  date="2025-01-01", text=text, score=0.5, tokens=10)


SOURCES = (src("S1", "Hanoi is the capital of Vietnam.", title="Geography"),
           src("S2", "Ho Chi Minh City is the largest city.", title="Cities"))
NOTES = (Note(kind="contradiction", labels=("S1", "S2"), text="The sources disagree on something."),)
HISTORY = (Turn(role="user", text="Hello", tokens=1), Turn(role="assistant", text="Hi, ask away.", tokens=3))


def make(sources=SOURCES, notes=(), history=()):
    prompt = build_prompt(system_prompt=DEFAULT_SYSTEM_PROMPT, instructions="Be formal.", sources=sources,
                          notes=notes, history=history, question=QUESTION)
    plan = ContextPlan(question=QUESTION, sources=tuple(sources), history=tuple(history), notes=tuple(notes))
    return prompt, plan


def sse(*events) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def message_start(input_tokens=20, cache_read=100, cache_creation=50):
    return {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 1, "cache_read_input_tokens": cache_read,
                  "cache_creation_input_tokens": cache_creation}}}


def block_start(index=0):
    return {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}


def text_delta(text, index=0):
    return {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": text}}


def citation_delta(search_result_index, cited_text, index=0, source="S1", title="S1: Geography"):
    return {"type": "content_block_delta", "index": index, "delta": {"type": "citations_delta", "citation": {
        "type": "search_result_location", "source": source, "title": title, "cited_text": cited_text,
        "search_result_index": search_result_index, "start_block_index": 0, "end_block_index": 1}}}


def block_stop(index=0):
    return {"type": "content_block_stop", "index": index}


def message_end(output_tokens=12, stop_reason="end_turn"):
    return [{"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None},
             "usage": {"output_tokens": output_tokens}},
            {"type": "message_stop"}]


def stream_response(*events, status=200):
    return httpx2.Response(status, headers={"content-type": "text/event-stream"}, content=sse(*events))


def error_response(status, kind="api_error"):
    return httpx2.Response(status, headers={"retry-after-ms": "1", "content-type": "application/json"},
                           json={"type": "error", "error": {"type": kind, "message": "boom"}})


class Recorder:
    """A MockTransport handler: answers with the queued responses (the last one repeats) and keeps the requests."""

    def __init__(self, *responses):
        self.responses = list(responses)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        make_response = self.responses[min(len(self.requests), len(self.responses)) - 1]
        return make_response()

    @property
    def bodies(self):
        return [json.loads(r.content) for r in self.requests]


def provider(handler, **kw):
    kw.setdefault("max_retries", 2)
    return AnthropicProvider(api_key="test-key", model="claude-test", timeout=5,
                             http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)), **kw)


async def collect(p, prompt, plan):
    """The events the stream yielded, then the ProviderError it raised (if it raised one)."""
    events = []
    try:
        async for e in p.stream(prompt, plan):
            events.append(e)
    except ProviderError as exc:
        events.append(exc)
    return events


def text_of(events):
    return "".join(e.text for e in events if isinstance(e, TextDelta))


async def test_streamed_text_answer_with_usage_and_done():
    rec = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("Hanoi is "),
                                           text_delta("the capital [S1]."), block_stop(), *message_end()))
    prompt, plan = make()
    events = await collect(provider(rec), prompt, plan)
    assert text_of(events) == "Hanoi is the capital [S1]."
    assert [type(e) for e in events[-2:]] == [Usage, Done]
    assert events[-1].stop_reason == "end_turn"
    assert not any(isinstance(e, ProviderError) for e in events)
    assert len(rec.requests) == 1
    assert rec.requests[0].url.path == "/v1/messages"
    headers = rec.requests[0].headers
    assert headers.get("x-api-key") == "test-key" or headers.get("authorization") == "Bearer test-key"


async def test_usage_totals_include_cache_reads_and_writes():
    rec = Recorder(lambda: stream_response(message_start(input_tokens=20, cache_read=300, cache_creation=40),
                                           block_start(), text_delta("ok"), block_stop(),
                                           *message_end(output_tokens=7, stop_reason="max_tokens")))
    prompt, plan = make()
    events = await collect(provider(rec), prompt, plan)
    usage = next(e for e in events if isinstance(e, Usage))
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens, usage.cache_creation_tokens) == \
        (20, 7, 300, 40)
    assert usage.total_input_tokens == 360
    assert events[-1] == Done(stop_reason="max_tokens")


async def test_c10_native_citation_is_mapped_to_the_first_source_and_marked_in_the_text():
    rec = Recorder(lambda: stream_response(
        message_start(), block_start(), text_delta("The capital"),
        citation_delta(0, "Hanoi is the capital of Vietnam.", source="whatever"),
        text_delta(" is Hanoi."), block_stop(), *message_end()))
    prompt, plan = make()
    events = await collect(provider(rec, citation_mode="native"), prompt, plan)
    text = text_of(events)
    assert text == "The capital is Hanoi.[S1]"
    assert text.index("[S1]") > text.index("Hanoi.")
    cites = [e for e in events if isinstance(e, CitationEvent)]
    assert cites == [CitationEvent(label="S1", cited_text="Hanoi is the capital of Vietnam.", start_block_index=0,
                                   end_block_index=1)]
    assert isinstance(events[-1], Done)


async def test_native_citations_across_blocks_map_each_index_to_its_label():
    rec = Recorder(lambda: stream_response(
        message_start(), block_start(0), text_delta("Hanoi is the capital", 0),
        citation_delta(0, "Hanoi is the capital of Vietnam.", 0), block_stop(0),
        block_start(1), text_delta("; HCMC is the largest city.", 1),
        citation_delta(1, "Ho Chi Minh City is the largest city.", 1, source="S2"),
        citation_delta(1, "Ho Chi Minh City is the largest city.", 1, source="S2"), block_stop(1),
        *message_end()))
    prompt, plan = make()
    events = await collect(provider(rec, citation_mode="native"), prompt, plan)
    assert text_of(events) == "Hanoi is the capital[S1]; HCMC is the largest city.[S2]"
    assert [e.label for e in events if isinstance(e, CitationEvent)] == ["S1", "S2", "S2"]


async def test_text_mode_request_caches_the_stable_prefix_and_keeps_the_question_last():
    rec = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("x"), block_stop(),
                                           *message_end()))
    prompt, plan = make(notes=NOTES, history=HISTORY)
    await collect(provider(rec, max_tokens=321), prompt, plan)
    body = rec.bodies[0]
    assert body["model"] == "claude-test" and body["max_tokens"] == 321 and body["stream"] is True
    system = body["system"]
    assert system[0] == {"type": "text", "text": prompt.prefix, "cache_control": {"type": "ephemeral"}}
    assert system[1]["text"] == prompt.context and "<sources>" in system[1]["text"]
    assert "cache_control" not in system[1]  # short context: no second breakpoint
    assert body["messages"][-1] == {"role": "user", "content": QUESTION}
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]


async def test_long_context_block_gets_its_own_cache_breakpoint():
    rec = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("x"), block_stop(),
                                           *message_end()))
    long_sources = (src("S1", "Hanoi is the capital of Vietnam. " * 200),)
    prompt, plan = make(sources=long_sources)
    await collect(provider(rec), prompt, plan)
    system = rec.bodies[0]["system"]
    assert system[0]["cache_control"] == {"type": "ephemeral"}
    assert system[1]["cache_control"] == {"type": "ephemeral"}


async def test_native_mode_sends_search_result_blocks_in_the_last_user_message_before_the_question():
    rec = Recorder(lambda: stream_response(message_start(), block_start(), text_delta("x"), block_stop(),
                                           *message_end()))
    prompt, plan = make(notes=NOTES, history=HISTORY)
    await collect(provider(rec, citation_mode="native"), prompt, plan)
    body = rec.bodies[0]
    system_text = "".join(b["text"] for b in body["system"])
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "<sources>" not in system_text and "Hanoi" not in system_text
    assert "<notes>" in system_text  # the notes stay in the system
    last = body["messages"][-1]
    assert last["role"] == "user"
    blocks = last["content"]
    assert blocks[-1] == {"type": "text", "text": QUESTION}  # the question is last
    results = blocks[:-1]
    assert [b["type"] for b in results] == ["search_result", "search_result"]
    assert results[0] == {"type": "search_result", "source": "S1", "title": "S1: Geography",
                          "content": [{"type": "text", "text": "Hanoi is the capital of Vietnam."}],
                          "citations": {"enabled": True}}
    assert results[1]["source"] == "S2" and results[1]["title"] == "S2: Cities"
    assert body["messages"][0] == {"role": "user", "content": "Hello"}  # history unchanged


def test_strip_sources_block_keeps_notes_and_summary():
    prompt, _ = make(notes=NOTES)
    stripped = strip_sources_block(prompt.context)
    assert "<sources>" not in stripped and "</sources>" not in stripped and "<notes>" in stripped
    assert strip_sources_block("no blocks\n") == "no blocks\n"


async def test_429_then_success_is_retried_by_the_sdk():
    def ok():
        return stream_response(message_start(), block_start(), text_delta("Fine."), block_stop(), *message_end())

    rec = Recorder(lambda: error_response(429, "rate_limit_error"), ok)
    prompt, plan = make()
    events = await collect(provider(rec), prompt, plan)
    assert len(rec.requests) == 2
    assert text_of(events) == "Fine."
    assert isinstance(events[-1], Done)


async def test_500_on_every_try_raises_a_provider_error_after_the_text_so_far():
    rec = Recorder(lambda: error_response(500))
    prompt, plan = make()
    events = await collect(provider(rec, max_retries=2), prompt, plan)
    assert len(rec.requests) == 3  # first try + 2 retries
    assert len(events) == 1 and isinstance(events[0], ProviderError)
    assert events[0].retryable is True
    assert events[0].message.startswith("The model service is unavailable (")


async def test_timeout_ends_in_a_provider_error():
    def handler(request):
        raise httpx2.ReadTimeout("timed out", request=request)

    prompt, plan = make()
    events = await collect(provider(handler, max_retries=0), prompt, plan)
    assert len(events) == 1 and isinstance(events[0], ProviderError) and events[0].retryable
    assert "unavailable" in events[0].message


async def test_client_error_is_not_retryable():
    rec = Recorder(lambda: error_response(400, "invalid_request_error"))
    prompt, plan = make()
    events = await collect(provider(rec), prompt, plan)
    assert len(rec.requests) == 1
    assert isinstance(events[-1], ProviderError) and not events[-1].retryable


async def test_error_event_mid_stream_keeps_the_text_so_far_and_ends_in_an_error():
    body = sse(message_start(), block_start(), text_delta("Partial answer")) + \
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n'
    rec = Recorder(lambda: httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body))
    prompt, plan = make()
    events = await collect(provider(rec), prompt, plan)
    assert text_of(events) == "Partial answer"
    assert isinstance(events[-1], ProviderError)
    assert not any(isinstance(e, Done) for e in events)


async def test_count_tokens_uses_the_count_endpoint():
    def handler(request):
        assert request.url.path == "/v1/messages/count_tokens"
        body = json.loads(request.content)
        assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
        assert body["messages"][-1]["content"] == QUESTION
        return httpx2.Response(200, json={"input_tokens": 1234})

    prompt, _plan = make()
    assert await provider(handler).count_tokens(prompt) == 1234


def test_rejects_an_unknown_citation_mode():
    with pytest.raises(ValueError):
        AnthropicProvider(api_key="k", model="m", citation_mode="footnotes")


# --- non-streamed completions (summarizer, rewrite, sufficiency, judge) ----------------------------------------------

def message_json(text, input_tokens=30, output_tokens=5):
    return {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                      "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}


def sync_provider(handler, **kw):
    kw.setdefault("max_retries", 2)
    return AnthropicProvider(api_key="test-key", model="claude-test", timeout=5,
                             sync_http_client=httpx2.Client(transport=httpx2.MockTransport(handler)), **kw)


def test_complete_sends_a_cached_system_and_the_user_turn_and_returns_the_text():
    rec = Recorder(lambda: httpx2.Response(200, json=message_json("vacation days for contractors")))
    p = sync_provider(rec)
    text = p.complete("Rewrite the question.", [{"role": "user", "content": "and contractors?"}], max_tokens=100)
    assert text == "vacation days for contractors"
    body = rec.bodies[0]
    assert rec.requests[0].url.path == "/v1/messages"
    assert body["model"] == "claude-test" and body["max_tokens"] == 100 and "stream" not in body
    assert body["system"] == [{"type": "text", "text": "Rewrite the question.", "cache_control": {"type": "ephemeral"}}]
    assert body["messages"] == [{"role": "user", "content": "and contractors?"}]


def test_complete_retries_529_then_succeeds_and_raises_a_completion_error_when_it_keeps_failing():
    from grounding.providers import CompletionError

    rec = Recorder(lambda: error_response(529, "overloaded_error"), lambda: httpx2.Response(200, json=message_json("YES")))
    assert sync_provider(rec).complete("s", [{"role": "user", "content": "q"}]) == "YES"
    assert len(rec.requests) == 2
    failing = Recorder(lambda: error_response(500))
    with pytest.raises(CompletionError, match="HTTP 500"):
        sync_provider(failing, max_retries=1).complete("s", [{"role": "user", "content": "q"}])
    assert len(failing.requests) == 2
    empty = Recorder(lambda: httpx2.Response(200, json={**message_json(""), "content": []}))
    with pytest.raises(CompletionError, match="no text"):
        sync_provider(empty).complete("s", [{"role": "user", "content": "q"}])


def test_complete_refuses_a_request_without_a_user_turn_c05():
    with pytest.raises(ValueError, match="C05"):
        sync_provider(Recorder()).complete("s", [])


def test_variant_carries_a_domains_model_and_citation_mode_and_shares_the_clients():
    p = provider(Recorder())
    assert p.variant() is p and p.variant(model="claude-test", citation_mode="text") is p
    v = p.variant(model="claude-other", citation_mode="native")
    assert (v.model, v.citation_mode, v.label) == ("claude-other", "native", "Anthropic claude-other (native citations)")
    assert v.client is p.client and (p.model, p.citation_mode) == ("claude-test", "text")
    with pytest.raises(ValueError):
        p.variant(citation_mode="footnotes")


async def test_text_events_of_one_network_read_reach_the_server_as_one_piece():
    """Twenty text_delta events the API sent in one network read (as a busy server finds them in its socket) are
    one piece after grounding.coalescing, through the real SDK's stream parser: one delta frame, not twenty, with
    the same text; the usage and the end still follow."""
    from grounding.coalescing import Coalesced

    words = [f"w{i} " for i in range(20)]
    rec = Recorder(lambda: stream_response(message_start(), block_start(), *(text_delta(w) for w in words),
                                           block_stop(), *message_end()))
    prompt, plan = make()
    events = [e async for e in Coalesced(provider(rec).stream(prompt, plan))]
    texts = [e for e in events if isinstance(e, TextDelta)]
    assert len(texts) == 1 and texts[0].text == "".join(words)
    assert [type(e) for e in events[-2:]] == [Usage, Done]
