"""The one code path of a grounded answer, shared by the websocket consumer and `manage.py ask`.

    question -> validate -> retrieve (domain only) -> plan (grounding.context) -> prompt -> provider stream
             -> citation stream parser (no half markers) -> finalize (resolve citations, render) -> persist

Django-side glue only: the techniques live in grounding/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction

from chat.models import Conversation, ConversationSummary, Message
from grounding.answer import AbstainFilter, QuoteFilter, VerifiedAnswer, finalize_answer
from grounding.citations import CitationStreamParser
from grounding.contradictions import detect_conflicts
from grounding.embeddings import default_embedder
from grounding.support import check_support
from grounding.memory import (ExtractiveSummarizer, LLMSummarizer, MemoryTurn, Summarizer, Summary, retrieval_query,
                              rewrite_stale_labels, summarize_incremental)
from grounding.budget import BudgetError
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.prompt import QUOTE_THEN_ANSWER, Prompt
from grounding.injection import injection_notes
from grounding.llm_checks import LLMConflictJudge, LLMQueryRewriter, LLMSufficiencyJudge
from grounding.notes import relabel_notes, relevant_notes
from grounding.providers import (Done, ExtractiveAnswerer, Provider, ProviderError, TextDelta, Usage,
                                 completer_for)
from grounding.tokens import TokenCounter, calibrator, counter_for
from grounding.types import ContextPlan
from knowledge.models import Domain, SystemPrompt
from knowledge.services import system_prompt_active
from knowledge.selectors import retrieve

log = logging.getLogger("grounded.answer")

Emit = Callable[[dict[str, Any]], Awaitable[None]]


class AskError(ValueError):
    """A request that cannot be answered, with a stable code for error frames and exit messages.

    Codes: empty_message, invalid_text, message_too_long, unknown_domain, not_found, forbidden, budget, domain_settings,
    provider_error, rate_limited.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def validate_question(text: object) -> str:
    """The question stripped of surrounding whitespace.

    Raises:
        AskError: empty_message (missing or nothing but whitespace), invalid_text (not a string; an unpaired
            surrogate or a NUL character, which no database can store), or message_too_long (over MAX_MESSAGE_CHARS characters; the message names
            the limit).
    """
    if text is not None and not isinstance(text, str):
        raise AskError("invalid_text", f"The message must be text, not {type(text).__name__}.")
    if not text or not text.strip():
        raise AskError("empty_message", "The message is empty. Type a question first.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AskError("invalid_text", "The message holds characters that are not valid text (an unpaired "
                                       "surrogate). Retype or paste it again.")
    if "\x00" in text:
        raise AskError("invalid_text", "The message holds a NUL character, which is not text. Remove it and send "
                                       "it again.")
    limit = settings.MAX_MESSAGE_CHARS
    if len(text) > limit:
        raise AskError("message_too_long",
                       f"The message is {len(text):,} characters long; the limit is {limit:,} characters. "
                       "Shorten it or split it into several questions.")
    tokens = counter_for("extractive").count(text)
    if tokens > settings.MAX_MESSAGE_TOKENS:
        raise AskError("message_too_long",
                       f"The message is {tokens:,} tokens long; the limit is {settings.MAX_MESSAGE_TOKENS:,} tokens. "
                       "Shorten it or split it into several questions.")
    return text.strip()


def domain_get(*, slug: str, user=None) -> Domain:
    """The domain with this slug; with ``user``, only among the domains that user may read (Domain.groups).

    Raises:
        AskError(unknown_domain): no such domain, or one the user may not read (the two are not told apart, so the
            error reveals nothing); the message names the slugs the caller may use.
    """
    domains = Domain.objects.all() if user is None else Domain.objects.readable_by(user)
    try:
        return domains.get(slug=slug)
    except Domain.DoesNotExist:
        known = ", ".join(domains.order_by("slug").values_list("slug", flat=True)) or "none yet"
        raise AskError("unknown_domain", f"Unknown domain {slug!r}. Known domains: {known}.")


_provider: Provider | None = None


def get_provider() -> Provider:
    """The configured answer provider, chosen from the environment (settings.LLM_PROVIDER):

    - "anthropic" (the default when ANTHROPIC_API_KEY is set): Claude through the anthropic SDK, streaming, prompt
      caching, text or native citations (ANTHROPIC_MODEL, ANTHROPIC_CITATION_MODE);
    - "openai": an OpenAI-compatible chat-completions server such as Ollama, llama.cpp or vLLM (OPENAI_BASE_URL,
      OPENAI_API_KEY, OPENAI_MODEL);
    - "extractive": the offline extractive answerer, the default with no configuration.
    """
    global _provider
    if _provider is None:
        name = settings.LLM_PROVIDER
        if name == "anthropic":
            from grounding.providers_anthropic import AnthropicProvider

            _provider = AnthropicProvider(api_key=settings.ANTHROPIC_API_KEY, model=settings.ANTHROPIC_MODEL,
                                          citation_mode=settings.ANTHROPIC_CITATION_MODE)
        elif name == "openai":
            from grounding.providers_openai import OpenAICompatibleProvider

            _provider = OpenAICompatibleProvider(base_url=settings.OPENAI_BASE_URL, model=settings.OPENAI_MODEL,
                                                 api_key=settings.OPENAI_API_KEY or None)
        else:
            if name != "extractive":
                log.warning("unknown LLM_PROVIDER=%s; using the offline extractive answerer", name)
            _provider = ExtractiveAnswerer()
    return _provider


def provider_for(domain: Domain) -> Provider:
    """The provider a domain's answers use: the configured one, with the domain's model and citation mode when it
    sets them (providers without those options, like the offline answerer, are returned unchanged)."""
    provider = get_provider()
    variant = getattr(provider, "variant", None)
    if callable(variant) and (domain.model or domain.citation_mode != "text"):
        try:
            return variant(model=domain.model, citation_mode=domain.citation_mode)
        except ValueError as exc:
            raise AskError("domain_settings", f"The settings of domain {domain.slug!r} are invalid ({exc}); "
                                              "an administrator must correct them.") from exc
    return provider


def settings_for(domain: Domain) -> ContextSettings:
    """The context settings of a domain (ordering, formatting, threshold and budget policy from its fields).

    Raises:
        AskError(domain_settings): the domain's settings are out of range (the message says which).
    """
    try:
        return domain.context_settings()
    except ValueError as exc:
        raise AskError("domain_settings", f"The settings of domain {domain.slug!r} are invalid ({exc}); "
                                          "an administrator must correct them.") from exc


@dataclass(frozen=True)
class PreparedAnswer:
    """Everything decided before the provider is called."""

    plan: ContextPlan
    prompt: Prompt
    provider: Provider
    query: str = ""
    #: what the model-backed checks did: {"rewrite": bool, "sufficiency": [verdicts], "judge_calls": int}
    checks: dict[str, Any] = field(default_factory=dict)
    #: the knowledge.SystemPrompt version the prompt used (None: the built-in default)
    prompt_version: SystemPrompt | None = None


def history_form(message: Message) -> str:
    """The text of a message as it appears in later prompts: an answer's [S#] markers become the titles they
    pointed at ("(source: Leave policy)"), so stale labels cannot be confused with the current sources."""
    if message.role != Message.Role.ASSISTANT:
        return message.text
    titles = {s["label"]: s["title"] for s in message.sources if "label" in s and "title" in s}
    return rewrite_stale_labels(message.text, titles)


def memory_turns(*, conversation: Conversation, before: Message | None = None) -> list[MemoryTurn]:
    """Completed question/answer pairs of a conversation before ``before``, oldest first, in their history form.

    Failed or interrupted answers and their questions are left out (their text is stored, not sent again). Token
    counts come from the messages (counted once when saved).
    """
    qs = conversation.messages.all()
    if before is not None:
        qs = qs.filter(pk__lt=before.pk)
    turns: list[MemoryTurn] = []
    pending_user: Message | None = None
    for m in qs.order_by("pk"):
        if m.role == Message.Role.USER:
            pending_user = m
        elif pending_user is not None and m.status == Message.Status.COMPLETE:
            cited = [c for c in m.citations if isinstance(c, dict)]
            turns.append(MemoryTurn("user", pending_user.text, pending_user.tokens))
            turns.append(MemoryTurn("assistant", history_form(m), m.tokens,
                                    sources=tuple(dict.fromkeys(c.get("title", "") for c in cited if c.get("title"))),
                                    chunk_ids=tuple(c["chunk_id"] for c in cited if "chunk_id" in c)))
            pending_user = None
    return turns


def summary_get(*, conversation: Conversation) -> Summary | None:
    """The stored rolling summary of a conversation as the framework-free type (None when there is none)."""
    stored = ConversationSummary.objects.filter(conversation=conversation).first()
    if stored is None:
        return None
    return Summary(text=stored.text, covers=stored.covers, tokens=stored.tokens, sources=tuple(stored.sources),
                   chunk_ids=tuple(stored.chunk_ids))


_summarizer: Summarizer | None = None


def get_summarizer() -> Summarizer:
    """The configured summarizer: the provider's model when it offers non-streamed completions and LLM_SUMMARIZER is
    on; otherwise the offline extractive summarizer (the default with no configuration)."""
    global _summarizer
    if _summarizer is None:
        complete = completer_for(get_provider()) if settings.LLM_SUMMARIZER else None
        if complete is not None:
            llm = LLMSummarizer(complete)
            llm.name = f"llm:{get_provider().name}"
            _summarizer = llm
        else:
            _summarizer = ExtractiveSummarizer()
    return _summarizer


def summary_refresh(*, conversation: Conversation, history_share: int) -> ConversationSummary | None:
    """Fold the turns that no longer fit the verbatim window into the conversation summary (after an answer).

    ``history_share`` is the most the domain's policy lets history take (tokens). The verbatim window is the newest
    turns fitting that share minus the summary cap (30% of the share); the newest exchange is never evicted.
    Atomic: the summarizer runs first; only on success is the new summary saved in one transaction, so a failing
    summarizer leaves memory exactly as it was and the next answer retries (case C05). Returns the saved summary, or
    None when nothing needed folding.
    Raises:
        whatever the summarizer raises (nothing is saved then).
    """
    counter = counter_for("extractive")
    turns = memory_turns(conversation=conversation)
    previous = summary_get(conversation=conversation)
    cap = max(200, int(history_share * 0.3))
    window = history_share - cap
    kept, used = 0, 0
    for t in reversed(turns[previous.covers if previous else 0:]):
        if used + t.tokens + 3 > window and kept >= 2:  # the newest exchange always stays verbatim
            break
        used += t.tokens + 3
        kept += 1
    update = summarize_incremental(summarizer=get_summarizer(), previous=previous, turns=turns,
                                   evict_until=len(turns) - kept, cap=cap, counter=counter)
    if update is None:
        return None
    s = update.summary
    with transaction.atomic():
        stored, _ = ConversationSummary.objects.update_or_create(
            conversation=conversation,
            defaults={"text": s.text, "covers": s.covers, "tokens": s.tokens, "sources": list(s.sources),
                      "chunk_ids": list(s.chunk_ids), "summarizer": get_summarizer().name})
    return stored


def answer_prepare(*, domain: Domain, question: str, history: list[MemoryTurn] | None = None,
                   summary: Summary | None = None, provider: Provider | None = None) -> PreparedAnswer:
    """Retrieve and plan (blocking: database and embedding; run it off the event loop).

    Follow-up questions are retrieved with the conversation's help (grounding.memory.retrieval_query); the model
    still receives the question unchanged.
    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window (the message names the numbers).
    """
    provider = provider or provider_for(domain)
    system_prompt, prompt_version = system_prompt_active()
    history = history or []
    complete = completer_for(provider)
    rewriter = LLMQueryRewriter(complete) if complete and settings.LLM_FOLLOWUP_REWRITE else None
    judge = LLMSufficiencyJudge(complete) if complete and settings.LLM_SUFFICIENCY_CHECK else None
    conflict_judge = LLMConflictJudge(complete) if complete and settings.LLM_CONFLICT_JUDGE else None
    if rewriter is not None and history:
        query = rewriter(question, [(t.role, t.text) for t in history])
    else:
        query = retrieval_query(question, [t.text for t in history if t.role == "user"])
    candidates = retrieve(domain=domain, query=query, superseded=5)
    counter = counter_for(provider.name)
    context_settings = settings_for(domain)
    turns = [t.as_turn() for t in history]
    try:
        def make_plan(notes: list) -> ContextPlan:
            return plan_context(question=question, candidates=candidates, history=turns,
                                system_prompt=system_prompt, instructions=domain.prompt_instructions(),
                                settings=context_settings, counter=counter, summary=summary, query=query, notes=notes,
                                judge=judge)

        plan = make_plan([])
        if plan.sufficient:
            # contradictions among the planned sources become context notes [18.8.2]; the plan is made again with
            # the notes counted in the budget, and the notes follow their sources' labels in the new plan
            notes = relevant_notes(detect_conflicts(plan.sources, default_embedder(), focus=query,
                                                    judge=conflict_judge), query)
            # a source carrying text addressed to an AI assistant gets a note naming it (never quoting it)
            notes += injection_notes(plan.sources)
            labelled_by = plan
            for _ in range(3):
                if not notes:
                    break
                candidate = make_plan(notes)
                moved = relabel_notes(notes, labelled_by, candidate)
                if moved == notes:
                    plan = candidate
                    break
                notes, labelled_by = moved, candidate
            else:
                plan = make_plan([])  # notes that keep moving are left out rather than mislabelled
    except BudgetError as exc:
        raise AskError("budget", str(exc)) from exc
    prompt = prompt_for(plan, system_prompt=system_prompt, instructions=domain.prompt_instructions(),
                        settings=context_settings)
    checks = {"rewrite": bool(rewriter and rewriter.calls and not rewriter.failures),
              "sufficiency": list(judge.verdicts) if judge else [],
              "judge_calls": conflict_judge.calls if conflict_judge else 0}
    return PreparedAnswer(plan=plan, prompt=prompt, provider=provider, query=query, prompt_version=prompt_version,
                          checks=checks)


@dataclass
class AnswerStream:
    """Runs the provider for a prepared answer and streams safe deltas; keeps the text so far for interruptions."""

    prepared: PreparedAnswer
    raw: list[str] = field(default_factory=list)
    seq: int = 0
    #: the provider's last usage report (tokens), for calibration and traces
    usage: Usage | None = None

    @property
    def text_so_far(self) -> str:
        return "".join(self.raw)

    async def run(self, emit: Emit) -> VerifiedAnswer:
        """Stream ``delta`` frames through ``emit`` and return the verified answer.

        With an insufficient plan no provider is called (abstention). Raises AskError(provider_error) when the
        provider reports or raises an error; CancelledError propagates (the caller saves what was streamed).
        """
        plan = self.prepared.plan
        if not plan.sufficient:
            return finalize_answer("", plan)
        parser = CitationStreamParser()
        quotes = QuoteFilter() if QUOTE_THEN_ANSWER in self.prepared.prompt.prefix else None
        abstain = AbstainFilter()  # the abstention token is never shown while streaming
        native: dict[str, str] = {}  # label -> cited_text of a provider's native citation
        try:
            # aclosing: a cancel (stop) that lands outside the provider's own await (e.g. while a delta is sent)
            # still closes the provider's stream and its HTTP response at once
            async with contextlib.aclosing(self.prepared.provider.stream(self.prepared.prompt, plan)) as events:
                async for event in events:
                    if hasattr(event, "cited_text") and hasattr(event, "label"):
                        native.setdefault(event.label, event.cited_text)
                    elif isinstance(event, TextDelta):
                        self.raw.append(event.text)
                        safe = parser.feed(abstain.feed(quotes.feed(event.text) if quotes else event.text))
                        if safe:
                            self.seq += 1
                            await emit({"type": "delta", "seq": self.seq, "text": safe})
                    elif isinstance(event, Usage):
                        self.usage = event
                    elif isinstance(event, ProviderError):
                        raise AskError("provider_error", event.message)
                    elif isinstance(event, Done):
                        break
        except AskError:
            raise
        except Exception as exc:  # a provider outage must not lose the turn: typed error, turn kept
            log.exception("provider failed")
            raise AskError("provider_error", f"The answer service failed: {exc}") from exc
        rest = parser.feed(abstain.feed(quotes.close()) if quotes else "")  # in stream order: held quotes text,
        rest += parser.feed(abstain.close())  # then a held beginning of the token,
        rest += parser.close()  # then a held beginning of a marker
        if rest:
            self.seq += 1
            await emit({"type": "delta", "seq": self.seq, "text": rest})
        verified = finalize_answer(self.text_so_far, plan)
        if native:  # the model's own cited span is the highlight of that source
            verified = replace(
                verified,
                citations=tuple(replace(c, cited_text=native.get(c.label, c.cited_text)) for c in verified.citations),
                spans=tuple({**sp, "cited_text": native.get(sp["label"], sp["cited_text"])} for sp in verified.spans))
        if not verified.abstained:
            report = await asyncio.to_thread(check_support, verified.text,
                                             {s.label: s.text for s in plan.sources}, default_embedder())
            verified = replace(verified, support=report.as_dict())
        return verified


#: Exact counts asked of a provider's count endpoint per process before relying on answers' usage reports alone.
CALIBRATION_COUNTS = 5


async def tokens_calibrate(*, prepared: PreparedAnswer, usage: Usage | None = None) -> float | None:
    """Calibrate the provider's cl100k factor (grounding.tokens.calibrator) with this answer's exact input count.

    The exact count comes from the provider's ``count_tokens`` (Anthropic ``messages.count_tokens``, when an API key
    is set) for the first CALIBRATION_COUNTS answers, else from the input tokens the answer's usage reported
    (input + cache read + cache creation). Runs after ``done``, never delaying the answer; a failed count changes
    nothing. Returns the new factor, or None when there was no exact count (offline answerer, scripted provider).
    """
    provider, prompt = prepared.provider, prepared.prompt
    exact = 0
    count = getattr(provider, "count_tokens", None)
    if callable(count) and getattr(provider, "api_key", None) and calibrator.samples(provider.name) < CALIBRATION_COUNTS:
        try:
            exact = int(await count(prompt, prepared.plan))
        except Exception as exc:  # calibration is optional; the static factor stays
            log.warning("token count for calibration failed: %s", exc)
    if not exact and usage is not None:
        exact = int(getattr(usage, "total_input_tokens", 0) or usage.input_tokens or 0)
    if exact <= 0:
        return None
    estimate = TokenCounter(provider=provider.name).count_messages(prompt.system, prompt.messages)
    factor = calibrator.observe(provider.name, estimate, exact)
    log.info("token calibration %s: estimate %d, exact %d, factor %.3f", provider.name, estimate, exact, factor)
    return factor


#: While an answer streams, its text so far is saved at most this often (seconds), for sockets that resume it.
PARTIAL_SAVE_SECONDS = 1.0


def answer_group(message_id: int) -> str:
    """The channel-layer group of one answer's frames (sockets that resumed it, on any worker)."""
    return f"answer.{int(message_id)}"


async def answer_broadcast(message_id: int, frame: dict[str, Any]) -> None:
    """Send one frame of a generating answer to the sockets following it (Redis layer: across workers). A layer
    failure is logged, never raised: the answer is saved whatever happens to its followers."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(answer_group(message_id), {"type": "answer.frame", "frame": frame})
    except Exception:
        log.exception("could not broadcast a frame of answer %s", message_id)


#: How long the cached text so far of a generating answer is kept (seconds).
PARTIAL_TTL = 3600


def partial_key(message_id: int) -> str:
    """Cache key of a generating answer's text so far."""
    return f"grounded:partial:{int(message_id)}"


def answer_partial_detached(*, message_id: int, text: str, seq: int) -> None:
    """Save a streaming answer's text so far and the delta seq it reaches (only while it is still streaming), from a
    pool thread whose database connection is closed afterwards. Failures are logged, never raised (the partial text
    is an aid to resuming, not the stored answer)."""
    from django.db import connection

    try:
        Message.objects.filter(pk=message_id, status=Message.Status.STREAMING).update(text=text, stream_seq=seq)
    except Exception:
        log.exception("could not save the text so far of answer %s", message_id)
    finally:
        connection.close()


def resume_frames(*, message: Message) -> list[dict[str, Any]]:
    """What a socket resuming a still-streaming answer is sent first: its plan (the frozen sources, notes, budget) and
    a ``partial`` frame with the text so far and its seq; deltas after that seq follow through answer_group.

    The text so far comes from the shared cache (written before each delta is broadcast), else from the message row
    (saved every PARTIAL_SAVE_SECONDS). Call it after joining the group, so no delta falls between the two.
    """
    trace = message.trace or {}
    cached = cache.get(partial_key(message.pk))
    text, seq = (cached["text"], cached["seq"]) if cached and cached["seq"] >= message.stream_seq \
        else (message.text, message.stream_seq)
    return [
        {"type": "plan", "message": message.pk, "sources": message.sources, "notes": trace.get("notes", []),
         "budget": trace.get("budget", {}), "dropped": trace.get("dropped", []), "resumed": True,
         "provider": {"name": message.provider, "label": message.provider}},
        {"type": "partial", "message": message.pk, "seq": seq, "text": text},
    ]


def plan_json(plan: ContextPlan) -> dict[str, Any]:
    """The plan as JSON: sources (with text, for the source panel), notes, budget, dropped."""
    return {
        "sources": [s.as_dict() for s in plan.sources],
        "notes": [n.as_dict() for n in plan.notes],
        "budget": plan.budget,
        "dropped": [d.as_dict() for d in plan.dropped],
        "sufficient": plan.sufficient,
        "abstain_reason": plan.abstain_reason,
        "ordering": plan.ordering,
        "memory": plan.memory,
    }


def answer_once(*, domain: Domain, question: str,
                provider: Provider | None = None) -> tuple[PreparedAnswer, VerifiedAnswer]:
    """One answer outside a conversation, synchronously (``manage.py ask``, ``manage.py evaluate``): the question is
    validated, planned and answered through the same steps as the chat, with the streamed frames discarded.

    Must be called where no event loop runs (it runs the stream with ``asyncio.run``).
    Raises:
        AskError: an empty, oversized or invalid question, or a provider failure (code and user-facing message).
    """
    text = validate_question(question)
    prepared = answer_prepare(domain=domain, question=text, provider=provider)

    async def discard(frame: dict[str, Any]) -> None:
        return None

    return prepared, asyncio.run(AnswerStream(prepared).run(discard))


def answer_json(prepared: PreparedAnswer, verified: VerifiedAnswer) -> dict[str, Any]:
    """The `ask --json` contract: answer, abstained, citations, invalid_citations, sources, notes, budget, dropped."""
    plan = prepared.plan
    sources = [{k: v for k, v in s.as_dict().items() if k in
                ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens")}
               for s in plan.sources]
    return {**verified.as_dict(), "support": verified.support, "sources": sources,
            "notes": [n.as_dict() for n in plan.notes],
            "budget": plan.budget, "dropped": [d.as_dict() for d in plan.dropped],
            "provider": prepared.provider.name,
            "prompt_version": prepared.prompt_version.version if prepared.prompt_version else None}


# --- persistence --------------------------------------------------------------------------------------------------

def conversation_create(*, user, domain: Domain, title: str = "") -> Conversation:
    """A new conversation of ``user`` with ``domain``."""
    return Conversation.objects.create(user=user, domain=domain, title=title[:200])


def conversation_get(*, user, conversation_id: object) -> Conversation:
    """The user's own conversation.

    Raises:
        AskError(not_found): unknown ids and other users' ids alike.
        AskError(forbidden): the user's own conversation whose domain they may no longer read (group removed).
    """
    try:
        conversation = Conversation.objects.select_related("domain").get(pk=int(conversation_id), user=user)
    except (Conversation.DoesNotExist, TypeError, ValueError, OverflowError):
        raise AskError("not_found", "Conversation not found.")
    if not Domain.objects.readable_by(user).filter(pk=conversation.domain_id).exists():
        raise AskError("forbidden", f"You no longer have access to the domain {conversation.domain.name!r} of this "
                                    "conversation. Ask an administrator for access.")
    return conversation


@transaction.atomic
def turn_append_user(*, conversation: Conversation, text: str, client_id: str = "") -> tuple[Message, bool]:
    """Store the user's turn before anything else happens. Idempotent on ``client_id``.

    Returns:
        (message, created): created is False when a message with this client id already exists (a resend).
    """
    client_id = (client_id or "")[:64]
    if client_id:
        existing = conversation.messages.filter(client_id=client_id, role=Message.Role.USER).first()
        if existing:
            return existing, False
    try:
        with transaction.atomic():
            msg = Message.objects.create(conversation=conversation, role=Message.Role.USER, text=text,
                                         tokens=counter_for("extractive").count(text), client_id=client_id)
    except IntegrityError:
        return conversation.messages.get(client_id=client_id, role=Message.Role.USER), False
    if not conversation.title:
        conversation.title = text[:80]
    conversation.save(update_fields=["title", "updated_at"])
    return msg, True


def answer_start(*, user_message: Message) -> Message:
    """Create the assistant message (status streaming) before anything can fail, so every turn gets an outcome."""
    return Message.objects.create(conversation=user_message.conversation, role=Message.Role.ASSISTANT,
                                  reply_to=user_message, status=Message.Status.STREAMING)


def answer_planned(*, message: Message, prepared: PreparedAnswer) -> Message:
    """Store the frozen source snapshot (as the model will see it) and the plan's trace on the answer."""
    plan = prepared.plan
    message.provider = prepared.provider.name
    message.sources = [s.as_dict() for s in plan.sources]
    message.trace = {"budget": plan.budget, "dropped": [d.as_dict() for d in plan.dropped],
                     "notes": [n.as_dict() for n in plan.notes], "abstain_reason": plan.abstain_reason,
                     "memory": plan.memory, "retrieval_query": prepared.query, "ordering": plan.ordering,
                     "prompt_version": prepared.prompt_version.version if prepared.prompt_version else None,
                     "checks": prepared.checks}
    message.prompt_version = prepared.prompt_version
    message.save(update_fields=["provider", "sources", "trace", "prompt_version"])
    return message


def answer_finish(*, message: Message, verified: VerifiedAnswer) -> Message:
    """Store the complete answer: text, html, citations, abstention; token count of its history form."""
    message.text = verified.text
    message.html = verified.html
    message.abstained = verified.abstained
    message.citations = [c.as_dict() for c in verified.citations]
    message.spans = list(verified.spans)
    message.support = verified.support
    message.invalid_citations = list(verified.invalid)
    message.status = Message.Status.COMPLETE
    message.tokens = counter_for("extractive").count(history_form(message))
    message.save()
    return message


def answer_interrupt(*, message: Message, text: str, status: str, error: str = "") -> Message:
    """Store an interrupted or failed answer with the text streamed so far and the reason."""
    message.text = text
    message.status = status
    message.error = error
    message.tokens = counter_for("extractive").count(history_form(message))
    message.save(update_fields=["text", "status", "error", "tokens"])
    return message


def message_json(message: Message) -> dict[str, Any]:
    """A stored message as the page/JS sees it (the frozen sources make chips work after reload)."""
    return {
        "id": message.pk, "role": message.role, "text": message.text, "html": message.html,
        "status": message.status, "error": message.error, "abstained": message.abstained,
        "provider": message.provider, "sources": message.sources, "citations": message.citations,
        "invalid": message.invalid_citations, "spans": message.spans, "support": message.support,
        "notes": message.trace.get("notes", []),
        "client_id": message.client_id or _question_client_id(message),
    }


def _question_client_id(message: Message) -> str:
    """An answer's client id is its question's (the id the client sent with the ask), when the question is loaded
    with it (``reply_to`` cached: never a query here, which may run on the event loop)."""
    if message.reply_to_id and Message._meta.get_field("reply_to").is_cached(message):
        return message.reply_to.client_id
    return ""


def done_frame(message: Message) -> dict[str, Any]:
    """The `done` frame of a stored answer."""
    return {"type": "done", "message": message.pk, **{k: v for k, v in message_json(message).items()
                                                       if k not in ("id", "role")}}


async def answer_run(*, conversation: Conversation, user_message: Message, emit: Emit,
                     provider: Provider | None = None) -> Message | None:
    """The whole life of one answer, shared by the websocket and the tests: plan, stream, save, then summarize.

    Every outcome is saved: complete; interrupted with the text so far (on cancel, e.g. `stop`); failed with the
    reason (provider outage), the user's turn always kept. Frames: plan, delta..., done, or error. After `done` the
    conversation summary is refreshed (never delaying the answer); a failing summarizer changes nothing.
    Returns the saved assistant message (None when planning itself failed).
    """
    from channels.db import database_sync_to_async as db

    assistant: Message | None = None
    stream: AnswerStream | None = None
    direct = emit

    async def emit(frame: dict[str, Any]) -> None:  # noqa: F811 - to the socket, and to resumed sockets elsewhere
        await direct(frame)
        message_id = assistant.pk if assistant is not None else None
        if message_id is not None and frame.get("type") in ("delta", "done", "error"):
            await answer_broadcast(message_id, frame)

    try:
        assistant = await db(answer_start)(user_message=user_message)
        history = await db(memory_turns)(conversation=conversation, before=user_message)
        summary = await db(summary_get)(conversation=conversation)
        prepared = await db(answer_prepare)(domain=conversation.domain, question=user_message.text,
                                            history=history, summary=summary, provider=provider)
        await db(answer_planned)(message=assistant, prepared=prepared)
        await emit({"type": "plan", "message": assistant.pk, **plan_json(prepared.plan),
                    "provider": {"name": prepared.provider.name, "label": prepared.provider.label}})
        stream = AnswerStream(prepared)
        message_id = assistant.pk
        shown = [""]  # the safe text sent so far, one string (what a resumed socket must see first)
        saved_at = [time.monotonic()]

        async def emit_delta(frame: dict[str, Any]) -> None:
            shown[0] += frame["text"]
            # the text so far goes to the shared cache before the delta is broadcast: a socket that joins the group
            # and then reads the cache misses nothing (see resume_frames)
            cache.set(partial_key(message_id), {"text": shown[0], "seq": frame["seq"]}, PARTIAL_TTL)
            await emit({**frame, "message": message_id})
            if time.monotonic() - saved_at[0] >= PARTIAL_SAVE_SECONDS:
                saved_at[0] = time.monotonic()
                # on a pool thread, not the request's thread-sensitive one: a streamed HTTP response may outlive
                # the request's executor, and a missed partial save only makes a resume start a little earlier
                await sync_to_async(answer_partial_detached, thread_sensitive=False)(
                    message_id=message_id, text=shown[0], seq=frame["seq"])

        verified = await stream.run(emit_delta)
        saved = await db(answer_finish)(message=assistant, verified=verified)
        await emit(done_frame(saved))
    except asyncio.CancelledError:
        if assistant is not None:
            saved = await asyncio.shield(db(answer_interrupt)(
                message=assistant, text=stream.text_so_far if stream else "", status=Message.Status.INTERRUPTED,
                error="stopped"))
            await emit(done_frame(saved))
        return assistant
    except AskError as exc:
        if assistant is not None:
            partial = stream.text_so_far if stream else ""
            # a stream that broke mid-way keeps its text as an interrupted answer; one that never started failed
            status = Message.Status.INTERRUPTED if partial and exc.code == "provider_error" else Message.Status.FAILED
            await db(answer_interrupt)(message=assistant, text=partial, status=status, error=exc.message)
        await emit({"type": "error", "code": exc.code, "message": exc.message,
                    "message_id": assistant.pk if assistant else None})
        return assistant
    except Exception as exc:  # never leave a turn without an outcome
        log.exception("answer generation failed")
        if assistant is not None:
            await db(answer_interrupt)(message=assistant, text=stream.text_so_far if stream else "",
                                       status=Message.Status.FAILED, error=str(exc))
        await emit({"type": "error", "code": "internal", "message": "The answer failed; please retry.",
                    "message_id": assistant.pk if assistant else None})
        return assistant
    await tokens_calibrate(prepared=prepared, usage=stream.usage if stream else None)
    try:
        share = int(prepared.plan.budget.get("available", 0) * settings_for(conversation.domain).policy.history_cap)
        await db(summary_refresh)(conversation=conversation, history_share=share)
    except Exception:
        log.exception("summary refresh failed for conversation %s; memory left unchanged", conversation.pk)
    return saved
