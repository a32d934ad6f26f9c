"""The configured model provider drives the summarizer, the follow-up rewrite, the sufficiency check and the
contradiction judge (issue 9 point 1), through the real anthropic SDK against a MockTransport."""

from __future__ import annotations

import json

import httpx2
import pytest

from chat.answering import answer_prepare
from chat.calibration import CALIBRATION_COUNTS, tokens_calibrate
from chat.memory import summary_refresh
from chat.providers import registry
from chat.streaming import AnswerStream
from grounding.providers import Usage
from grounding.llm_checks import CONFLICT_SYSTEM, REWRITE_SYSTEM, SUFFICIENCY_SYSTEM
from grounding.memory import SUMMARY_SYSTEM, LLMSummarizer, MemoryTurn
from grounding.providers_anthropic import AnthropicProvider

pytestmark = pytest.mark.django_db


def message_json(text):
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 3}}


def sse(*events) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def answer_stream(text):
    return sse({"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant",
                                                      "model": "claude-test", "content": [], "stop_reason": None,
                                                      "stop_sequence": None,
                                                      "usage": {"input_tokens": 900, "output_tokens": 1}}},
               {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
               {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
               {"type": "content_block_stop", "index": 0},
               {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 9}},
               {"type": "message_stop"})


class FakeClaude:
    """Answers non-streamed calls by their system prompt (which check is asking) and streams the answer."""

    def __init__(self, sufficient="YES", rewrite="daily meal allowance when travelling", judge="NO"):
        self.replies = {REWRITE_SYSTEM: rewrite, SUFFICIENCY_SYSTEM: sufficient, CONFLICT_SYSTEM: judge,
                        SUMMARY_SYSTEM: "The user asked about the meal allowance; it is $65 a day (Travel policy)."}
        self.calls: list[tuple[str, str]] = []  # (which system prompt, user content)
        self.streams = 0

    def complete(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        system = body["system"][0]["text"]
        self.calls.append((system, body["messages"][-1]["content"]))
        return httpx2.Response(200, json=message_json(self.replies[system]))

    def stream(self, request: httpx2.Request) -> httpx2.Response:
        self.streams += 1
        return httpx2.Response(200, headers={"content-type": "text/event-stream"},
                               content=answer_stream("The daily meal allowance is $65 [S1]."))

    def asked(self, system: str) -> list[str]:
        return [content for s, content in self.calls if s == system]


@pytest.fixture
def claude(monkeypatch):
    fake = FakeClaude()
    provider = AnthropicProvider(api_key="test-key", model="claude-test", timeout=5, max_retries=0,
                                 http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(fake.stream)),
                                 sync_http_client=httpx2.Client(transport=httpx2.MockTransport(fake.complete)))
    registry.configure(answerer=provider)
    return fake


HISTORY = [MemoryTurn("user", "How much can I spend on meals when I travel?", 12),
           MemoryTurn("assistant", "The daily meal allowance is $65 (source: Travel and expenses).", 14)]


def test_a_follow_up_is_rewritten_by_the_model_for_retrieval_and_the_question_goes_unchanged(claude, demo_domain):
    prepared = answer_prepare(domain=demo_domain, question="and on the last day?", history=HISTORY)
    assert prepared.query == "daily meal allowance when travelling"
    [request] = claude.asked(REWRITE_SYSTEM)
    assert "USER: How much can I spend on meals when I travel?" in request
    assert "Latest question: and on the last day?" in request
    assert prepared.prompt.messages[-1] == {"role": "user", "content": "and on the last day?"}
    assert prepared.checks["rewrite"] is True and prepared.checks["sufficiency"] == ["YES"]
    assert any("Travel" in s.title for s in prepared.plan.sources)


def test_the_sufficiency_check_saying_no_abstains_without_the_answer_call(claude, demo_domain):
    claude.replies[SUFFICIENCY_SYSTEM] = "NO"
    prepared = answer_prepare(domain=demo_domain, question="What is the daily meal allowance?")
    assert not prepared.plan.sufficient
    assert prepared.plan.abstain_reason == ("the sufficiency check found that the sources do not answer the "
                                            "question")
    [request] = claude.asked(SUFFICIENCY_SYSTEM)  # asked once although the plan may be made again with notes
    assert "Question: What is the daily meal allowance?" in request and "[S1]" in request
    assert not claude.asked(REWRITE_SYSTEM)  # no history: nothing to rewrite

    import asyncio
    frames = []

    async def emit(frame):
        frames.append(frame)

    verified = asyncio.run(AnswerStream(prepared).run(emit))
    assert verified.abstained and claude.streams == 0  # the user is told the documents do not answer it


def test_the_checks_can_be_switched_off_and_then_use_their_offline_forms(claude, demo_domain, settings):
    settings.LLM_SUFFICIENCY_CHECK = settings.LLM_FOLLOWUP_REWRITE = settings.LLM_CONFLICT_JUDGE = False
    prepared = answer_prepare(domain=demo_domain, question="and on the last day?", history=HISTORY)
    assert claude.calls == [] and prepared.plan.sufficient
    assert prepared.query.startswith("and on the last day?") and "meals" in prepared.query  # offline rewrite


def test_the_contradiction_judge_is_asked_about_unflagged_aligned_pairs_and_its_finding_becomes_a_note(
        claude, demo_domain):
    claude.replies[CONFLICT_SYSTEM] = "YES: one source gives 90 days for the stipend receipts, the other 30."
    prepared = answer_prepare(domain=demo_domain, question="How much is the home office stipend?")
    judged = claude.asked(CONFLICT_SYSTEM)
    assert 1 <= len(judged) <= 5  # bounded: at most max_judged calls per answer
    assert all(r.startswith("Statement A: ") for r in judged)
    assert prepared.checks["judge_calls"] == len(judged)
    notes = [n for n in prepared.plan.notes if "90 days for the stipend receipts" in n.text]
    assert notes, [n.text for n in prepared.plan.notes]
    assert all(len(n.labels) == 2 and all(lab in {s.label for s in prepared.plan.sources} for lab in n.labels)
               for n in notes)


def test_the_summarizer_is_the_models_and_its_request_holds_a_user_turn(claude, demo_domain):
    from django.contrib.auth import get_user_model

    from chat.models import Conversation, Message

    summarizer = registry.summarizer()
    assert isinstance(summarizer, LLMSummarizer) and summarizer.name == "llm:anthropic"
    user = get_user_model().objects.create_user("dana", password="pw")
    conv = Conversation.objects.create(user=user, domain=demo_domain)
    for i in range(4):
        q = Message.objects.create(conversation=conv, role="user", text=f"Question {i} about meals and travel?",
                                   tokens=9)
        Message.objects.create(conversation=conv, role="assistant", reply_to=q, tokens=60,
                               text=f"Answer {i}: the daily meal allowance is $65 per day while travelling. " * 3)
    stored = summary_refresh(conversation=conv, history_share=300, summarizer=registry.summarizer())
    assert stored is not None and stored.summarizer == "llm:anthropic"
    assert stored.text == claude.replies[SUMMARY_SYSTEM]
    [request] = claude.asked(SUMMARY_SYSTEM)
    assert "Previous summary:\n(none)" in request and "USER: Question 0 about meals and travel?" in request


def test_an_answer_calibrates_the_token_factor_with_the_providers_exact_count(claude, demo_domain):
    import asyncio

    from grounding.providers import counter_of
    from grounding.tokens import TokenCounter, calibrator

    counted = []
    exact = {}  # the provider's count: a quarter above the local estimate (set once the estimate is known)

    def count_tokens(request):
        counted.append(json.loads(request.content))
        return httpx2.Response(200, json={"input_tokens": exact["tokens"]})

    provider = registry.answerer()
    provider.client = provider.client.__class__(
        api_key="test-key", max_retries=0, http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(
            lambda r: count_tokens(r) if r.url.path.endswith("/count_tokens") else claude.stream(r))))
    prepared = answer_prepare(domain=demo_domain, question="What is the daily meal allowance?")
    estimate = TokenCounter(provider="anthropic").count_messages(prepared.prompt.system, prepared.prompt.messages)
    exact["tokens"] = round(estimate * 1.25)
    factor = asyncio.run(tokens_calibrate(prepared=prepared))
    assert counted and counted[0]["model"] == "claude-test" and "max_tokens" not in counted[0]
    key = counter_of(provider).provider  # the model's calibration key ("anthropic:claude-test": an unknown model)
    assert estimate > 300 and factor == round(exact["tokens"] / estimate, 4) and calibrator.samples(key) == 1
    assert counter_of(provider).factor == factor  # the next plan budgets with the measured factor
    assert counter_of(provider).counting == "calibrated"
    # once enough exact counts are in, the usage an answer reports is used instead of another count call
    for _ in range(CALIBRATION_COUNTS - 1):
        asyncio.run(tokens_calibrate(prepared=prepared))
    reported = round(estimate * 1.5)
    asyncio.run(tokens_calibrate(prepared=prepared, usage=Usage(input_tokens=100, cache_read_tokens=reported - 100,
                                                                           cache_creation_tokens=0)))
    assert len(counted) == CALIBRATION_COUNTS
    assert counter_of(provider).factor == round(reported / estimate, 4)


def test_the_served_ask_judges_contradictions_on_the_async_client_and_plans_again_with_the_finding(demo_domain):
    """On the request path (chat.pipeline.prepare_staged) the contradiction judge's calls go through the provider's
    async client, concurrently, never from a pool thread (issue 20 point 1); its finding becomes a note as in the
    blocking path."""
    import asyncio

    from chat.answering import answer_inputs
    from chat.pipeline import prepare_staged
    from chat.runtime import runtime

    fake = FakeClaude()
    fake.replies[CONFLICT_SYSTEM] = "YES: one source gives 90 days for the stipend receipts, the other 30."

    def on_async_client(request):  # non-streamed checks and the streamed answer share the async client
        return fake.stream(request) if json.loads(request.content).get("stream") else fake.complete(request)

    def on_blocking_client(request):
        raise AssertionError("a model call was made from a thread on the request path")

    provider = AnthropicProvider(api_key="test-key", model="claude-test", timeout=5, max_retries=0,
                                 http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(on_async_client)),
                                 sync_http_client=httpx2.Client(transport=httpx2.MockTransport(on_blocking_client)))
    inputs = answer_inputs(domain=demo_domain)
    prepared = asyncio.run(prepare_staged(inputs=inputs, question="How much is the home office stipend?",
                                          provider=provider, runtime=runtime))
    judged = fake.asked(CONFLICT_SYSTEM)
    assert 1 <= len(judged) <= 5 and prepared.checks["judge_calls"] == len(judged)
    assert [n for n in prepared.plan.notes if "90 days for the stipend receipts" in n.text]
    assert fake.asked(SUFFICIENCY_SYSTEM)  # the sufficiency check too, on the async client
