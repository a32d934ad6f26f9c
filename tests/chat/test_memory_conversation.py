"""Conversation memory end to end: long conversations stay within budget, summaries are incremental and atomic,
follow-ups use the conversation, and oversized messages are refused before any provider call."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat.answering import answer_prepare
from chat.errors import AskError
from chat.generation import answer_run
from chat.persistence import conversation_create, question_store
from chat.providers import ProviderRegistry, registry
from chat.streaming import AnswerStream
from chat.validation import validate_question
from chat.memory import history_form
from chat.models import ConversationSummary, Message
from grounding.lexical import content_terms
from grounding.memory import ExtractiveSummarizer, MemoryTurn
from grounding.extractive import ExtractiveAnswerer
from grounding.providers import ScriptedProvider
from grounding.tokens import counter_for
from knowledge.models import Chunk

counter = counter_for("extractive")

QUESTIONS = [
    "How much paid time off do employees accrue each month?",
    "What is the daily meal allowance when travelling?",          # turn 3: the fact checked at turn 40
    "How often are laptops replaced?",
    "How many weeks of paid parental leave do employees get?",
    "How quickly must I report a security incident?",
    "Can I report harassment anonymously?",
    "How big is the home office stipend for remote employees?",
    "When do new hires do robot safety training?",
    "How long must a password be?",
    "What is the nightly hotel limit?",
]


class Recording:
    """Wraps a provider and keeps every prompt it was given."""

    def __init__(self, inner):
        self.inner, self.name, self.label, self.prompts = inner, inner.name, inner.label, []

    def stream(self, prompt, plan):
        self.prompts.append((prompt, plan))
        return self.inner.stream(prompt, plan)


class RecordingSummarizer(ExtractiveSummarizer):
    def __init__(self):
        super().__init__()
        self.calls = []

    def summarize(self, previous, turns):
        self.calls.append((previous, [t.text for t in turns]))
        return super().summarize(previous, turns)


async def ask(conversation, text, provider=None):
    _, msg, _ = await sync_to_async(question_store)(user=None, conversation=conversation, domain=None, text=text)
    frames = []

    async def emit(frame):
        frames.append(frame)

    providers = ProviderRegistry(answerer=provider, summarizer=registry.summarizer()) if provider else registry
    saved = await answer_run(conversation=conversation, question=msg, emit=emit, providers=providers)
    return saved, frames


@pytest.fixture
def small_window(ingest_demo):
    ingest_demo.window = 2_600
    ingest_demo.completion_reserve = 300
    ingest_demo.save()
    return ingest_demo


@pytest.mark.django_db(transaction=True)
async def test_forty_turn_conversation_stays_in_budget_with_incremental_summaries(small_window, monkeypatch):
    summarizer = RecordingSummarizer()
    registry.configure(summarizer=summarizer)
    provider = Recording(ExtractiveAnswerer())
    user = await sync_to_async(get_user_model().objects.create_user)("alice", password="pw")
    conv = await sync_to_async(conversation_create)(user=user, domain=small_window)
    stored_before = []
    for i in range(20):  # 20 questions + 20 answers = 40 turns
        summary = await sync_to_async(ConversationSummary.objects.filter(conversation=conv).first)()
        stored_before.append((summary.text, summary.covers) if summary else ("", 0))
        saved, frames = await ask(conv, QUESTIONS[i % len(QUESTIONS)], provider)
        assert frames[-1]["type"] == "done" and saved.status == "complete"
    assert len(provider.prompts) == 20
    for m in await sync_to_async(list)(Message.objects.filter(conversation=conv)):
        # what a message costs and holds as history is found once, when it is saved, and read at every later ask
        assert (m.tokens, m.terms) == (counter.count(history_form(m)), sorted(content_terms(history_form(m))))
    limit = 2_600 * 0.9 - 300
    for k, (prompt, plan) in enumerate(provider.prompts):
        real = counter.count_messages(prompt.system, prompt.messages)
        assert real == plan.budget["total"] <= limit  # every prompt within budget by the real count
        assert prompt.messages[-1]["content"] == QUESTIONS[k % len(QUESTIONS)]
        if k:  # the newest exchange is always there verbatim
            assert len(prompt.messages) >= 3, (k, plan.memory, plan.budget, [m["content"][:40] for m in prompt.messages])
            assert prompt.messages[-3]["content"] == QUESTIONS[(k - 1) % len(QUESTIONS)]
    # summaries were made, and each summarizer input was the previous summary plus only the newly evicted turns
    assert len(summarizer.calls) >= 3
    covered = 0
    for previous, folded in summarizer.calls:
        assert previous == next(text for text, covers in stored_before if covers == covered) or covered == 0
        assert len(folded) % 2 == 0 and folded[0] in QUESTIONS
        covered += len(folded)
    final = await sync_to_async(ConversationSummary.objects.get)(conversation=conv)
    assert final.covers == covered and final.tokens == counter.count(final.text)
    assert "Travel and Expenses Policy" in final.sources  # provenance survives compression
    # the turn-3 fact is still in the prompt at turn 40 (through the summary)
    last_prompt, last_plan = provider.prompts[-1]
    assert "$65" in last_prompt.system and last_plan.memory["summary_covers"] > 3
    assert last_plan.memory["summary_tokens"] > 0


@pytest.mark.django_db(transaction=True)
async def test_c05_summarizer_failure_is_atomic_and_the_next_turn_retries(small_window, monkeypatch):
    user = await sync_to_async(get_user_model().objects.create_user)("bob", password="pw")
    conv = await sync_to_async(conversation_create)(user=user, domain=small_window)
    asked = 0
    before = None
    while before is None:  # ask until history passes its share and a summary exists
        await ask(conv, QUESTIONS[asked % len(QUESTIONS)])
        asked += 1
        before = await sync_to_async(ConversationSummary.objects.filter(conversation=conv).values().first)()
        assert asked < 15

    class Failing(ExtractiveSummarizer):
        def summarize(self, previous, turns):
            raise RuntimeError("summarizer down")

    registry.configure(summarizer=Failing())
    for _ in range(2):
        saved, frames = await ask(conv, "How long must a password be?")
        assert frames[-1]["type"] == "done" and saved.status == "complete"  # the answer still went out
    after = await sync_to_async(ConversationSummary.objects.filter(conversation=conv).values().first)()
    assert after == before  # memory exactly as before: nothing evicted, nothing lost
    assert await sync_to_async(Message.objects.filter(conversation=conv).count)() == 2 * (asked + 2)
    registry.configure(summarizer=ExtractiveSummarizer())
    await ask(conv, QUESTIONS[7])  # the next turn retries and folds the turns the failed refresh left
    retried = await sync_to_async(ConversationSummary.objects.get)(conversation=conv)
    assert retried.covers > before["covers"]


@pytest.mark.django_db(transaction=True)
async def test_c06_history_overflow_fits_and_old_sources_are_not_resent(ingest_demo):
    ingest_demo.window = 4_096
    await sync_to_async(ingest_demo.save)()
    provider = Recording(ExtractiveAnswerer())
    user = await sync_to_async(get_user_model().objects.create_user)("carol", password="pw")
    conv = await sync_to_async(conversation_create)(user=user, domain=ingest_demo)
    for i in range(12):
        await ask(conv, QUESTIONS[i % len(QUESTIONS)] + " Please explain in detail. " * 30, provider)
    for prompt, plan in provider.prompts:
        assert counter.count_messages(prompt.system, prompt.messages) <= 4_096 * 0.9 - 1_024
    last_prompt, last_plan = provider.prompts[-1]
    cited_before = {i for _, pl in provider.prompts[:-1] for s in pl.sources for i in s.chunk_ids}
    now = {i for s in last_plan.sources for i in s.chunk_ids}
    assert cited_before - now  # earlier answers used sources that the last prompt does not need
    history_text = "\n".join(m["content"] for m in last_prompt.messages[:-1])
    for chunk in await sync_to_async(list)(Chunk.objects.filter(pk__in=cited_before - now)):
        assert chunk.text not in history_text and chunk.text not in last_prompt.system


def test_c06_oversized_message_gets_a_typed_error_before_any_provider_call(settings):
    huge = "word " * 20_000  # about 20,000 tokens
    with pytest.raises(AskError) as exc:
        validate_question(huge)
    assert exc.value.code == "message_too_long"
    assert "the limit is 4,000 characters" in exc.value.message


@pytest.mark.django_db(transaction=True)
async def test_c06_oversized_message_over_the_socket_is_refused_and_nothing_is_stored(ingest_demo, monkeypatch):
    from tests.chat.test_consumer import connect

    scripted = ScriptedProvider(["never"])
    registry.configure(answerer=scripted)
    user = await sync_to_async(get_user_model().objects.create_user)("dave", password="pw")
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "word " * 20_000})
    frame = await comm.receive_json_from(timeout=10)
    assert frame["code"] == "message_too_long" and "4,000" in frame["message"]
    assert scripted.calls == [] and await sync_to_async(Message.objects.count)() == 0
    await comm.disconnect()


@pytest.mark.django_db
def test_follow_up_on_the_18f_handbook_uses_the_conversation(handbook_18f):
    domain, _ = handbook_18f
    first = "How many credit hours can I have accrued at one time?"

    async def ignore(frame):
        return None

    p1 = answer_prepare(domain=domain, question=first)
    a1 = asyncio.run(AnswerStream(p1).run(ignore))
    assert "24 credit hours" in a1.text
    history = [MemoryTurn("user", first, counter.count(first)), MemoryTurn("assistant", a1.text, counter.count(a1.text))]
    p2 = answer_prepare(domain=domain, question="Do they ever expire?", history=history)
    a2 = asyncio.run(AnswerStream(p2).run(ignore))
    assert p2.prompt.messages[-1]["content"] == "Do they ever expire?"  # the model gets the question unchanged
    assert "credit hours" in p2.query
    assert "they never expire" in a2.text
    pages = set(Chunk.objects.filter(pk__in=[c.chunk_id for c in a2.citations])
                .values_list("version__document__source_path", flat=True))
    assert pages == {"travel-and-leave/overtime.md"}
    alone = answer_prepare(domain=domain, question="Do they ever expire?")  # without the conversation
    assert all("credit hours" not in s.text for s in alone.plan.sources[:1])
