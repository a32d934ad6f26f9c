"""The one code path of a grounded answer, shared by the websocket consumer and `manage.py ask`.

    question -> validate -> retrieve (domain only) -> plan (grounding.context) -> prompt -> provider stream
             -> citation stream parser (no half markers) -> finalize (resolve citations, render) -> persist

Django-side glue only: the techniques live in grounding/.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from django.conf import settings
from django.db import IntegrityError, transaction

from chat.models import Conversation, Message
from grounding.answer import VerifiedAnswer, finalize_answer
from grounding.citations import CitationStreamParser, strip_markers
from grounding.budget import BudgetError, BudgetPolicy
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.prompt import DEFAULT_SYSTEM_PROMPT, Prompt, SourceFormat
from grounding.providers import Done, ExtractiveAnswerer, Provider, ProviderError, TextDelta
from grounding.tokens import counter_for
from grounding.types import ContextPlan, Turn
from knowledge.models import Domain
from knowledge.selectors import retrieve

log = logging.getLogger("grounded.answer")

Emit = Callable[[dict[str, Any]], Awaitable[None]]


class AskError(ValueError):
    """A request that cannot be answered, with a stable code for error frames and exit messages.

    Codes: empty_message, message_too_long, unknown_domain, not_found, budget, provider_error.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def validate_question(text: object) -> str:
    """The question stripped of surrounding whitespace.

    Raises:
        AskError: empty_message (nothing but whitespace) or message_too_long (over MAX_MESSAGE_CHARS characters;
            the message names the limit).
    """
    if not isinstance(text, str) or not text.strip():
        raise AskError("empty_message", "The message is empty. Type a question first.")
    limit = settings.MAX_MESSAGE_CHARS
    if len(text) > limit:
        raise AskError("message_too_long",
                       f"The message is {len(text):,} characters long; the limit is {limit:,} characters. "
                       "Shorten it or split it into several questions.")
    return text.strip()


def domain_get(*, slug: str) -> Domain:
    """The domain with this slug. Raises AskError(unknown_domain) naming the known slugs."""
    try:
        return Domain.objects.get(slug=slug)
    except Domain.DoesNotExist:
        known = ", ".join(Domain.objects.order_by("slug").values_list("slug", flat=True)) or "none yet"
        raise AskError("unknown_domain", f"Unknown domain {slug!r}. Known domains: {known}.")


_provider: Provider | None = None


def get_provider() -> Provider:
    """The configured answer provider (settings.LLM_PROVIDER); the offline extractive answerer by default."""
    global _provider
    if _provider is None:
        name = getattr(settings, "LLM_PROVIDER", "extractive")
        if name != "extractive":
            log.warning("LLM_PROVIDER=%s is not available in this build; using the offline extractive answerer", name)
        _provider = ExtractiveAnswerer()
    return _provider


def settings_for(domain: Domain) -> ContextSettings:
    """The context settings of a domain (ordering, formatting, threshold and budget policy from its fields)."""
    return domain.context_settings()


@dataclass(frozen=True)
class PreparedAnswer:
    """Everything decided before the provider is called."""

    plan: ContextPlan
    prompt: Prompt
    provider: Provider


def history_for_budget(*, conversation: Conversation, before: Message | None = None) -> list[Turn]:
    """Completed question/answer pairs of a conversation before ``before``, oldest first, as prompt turns.

    Earlier answers lose their [S#] markers: their labels belonged to earlier source maps and would be confused
    with the current ones. Failed or interrupted answers and their questions are left out.
    """
    qs = conversation.messages.all()
    if before is not None:
        qs = qs.filter(pk__lt=before.pk)
    turns: list[Turn] = []
    pending_user: Message | None = None
    for m in qs.order_by("pk"):
        if m.role == Message.Role.USER:
            pending_user = m
        elif pending_user is not None and m.status == Message.Status.COMPLETE:
            turns.append(Turn("user", pending_user.text, pending_user.tokens))
            turns.append(Turn("assistant", strip_markers(m.text), m.tokens))
            pending_user = None
    return turns


def answer_prepare(*, domain: Domain, question: str, history: list[Turn] | None = None,
                   provider: Provider | None = None) -> PreparedAnswer:
    """Retrieve and plan (blocking: database and embedding; run it off the event loop).

    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window (the message names the numbers).
    """
    provider = provider or get_provider()
    candidates = retrieve(domain=domain, query=question)
    counter = counter_for(provider.name)
    settings = settings_for(domain)
    try:
        plan = plan_context(question=question, candidates=candidates, history=history or [],
                            system_prompt=DEFAULT_SYSTEM_PROMPT, instructions=domain.instructions,
                            settings=settings, counter=counter)
    except BudgetError as exc:
        raise AskError("budget", str(exc)) from exc
    prompt = prompt_for(plan, system_prompt=DEFAULT_SYSTEM_PROMPT, instructions=domain.instructions,
                        settings=settings)
    return PreparedAnswer(plan=plan, prompt=prompt, provider=provider)


@dataclass
class AnswerStream:
    """Runs the provider for a prepared answer and streams safe deltas; keeps the text so far for interruptions."""

    prepared: PreparedAnswer
    raw: list[str] = field(default_factory=list)
    seq: int = 0

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
        try:
            async for event in self.prepared.provider.stream(self.prepared.prompt, plan):
                if isinstance(event, TextDelta):
                    self.raw.append(event.text)
                    safe = parser.feed(event.text)
                    if safe:
                        self.seq += 1
                        await emit({"type": "delta", "seq": self.seq, "text": safe})
                elif isinstance(event, ProviderError):
                    raise AskError("provider_error", event.message)
                elif isinstance(event, Done):
                    break
        except AskError:
            raise
        except Exception as exc:  # a provider outage must not lose the turn: typed error, turn kept
            log.exception("provider failed")
            raise AskError("provider_error", f"The answer service failed: {exc}") from exc
        rest = parser.close()
        if rest:
            self.seq += 1
            await emit({"type": "delta", "seq": self.seq, "text": rest})
        return finalize_answer(self.text_so_far, plan)


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
    }


def answer_json(prepared: PreparedAnswer, verified: VerifiedAnswer) -> dict[str, Any]:
    """The `ask --json` contract: answer, abstained, citations, invalid_citations, sources, notes, budget, dropped."""
    plan = prepared.plan
    sources = [{k: v for k, v in s.as_dict().items() if k in
                ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens")}
               for s in plan.sources]
    return {**verified.as_dict(), "sources": sources, "notes": [n.as_dict() for n in plan.notes],
            "budget": plan.budget, "dropped": [d.as_dict() for d in plan.dropped],
            "provider": prepared.provider.name}


# --- persistence --------------------------------------------------------------------------------------------------

def conversation_create(*, user, domain: Domain, title: str = "") -> Conversation:
    """A new conversation of ``user`` with ``domain``."""
    return Conversation.objects.create(user=user, domain=domain, title=title[:200])


def conversation_get(*, user, conversation_id: object) -> Conversation:
    """The user's own conversation. Raises AskError(not_found) for unknown ids and for other users' ids alike."""
    try:
        return Conversation.objects.select_related("domain").get(pk=int(conversation_id), user=user)
    except (Conversation.DoesNotExist, TypeError, ValueError):
        raise AskError("not_found", "Conversation not found.")


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


def answer_start(*, user_message: Message, prepared: PreparedAnswer) -> Message:
    """Create the assistant message (status streaming) with the frozen source snapshot and trace."""
    plan = prepared.plan
    return Message.objects.create(
        conversation=user_message.conversation, role=Message.Role.ASSISTANT, reply_to=user_message,
        status=Message.Status.STREAMING, provider=prepared.provider.name,
        sources=[s.as_dict() for s in plan.sources],
        trace={"budget": plan.budget, "dropped": [d.as_dict() for d in plan.dropped],
               "notes": [n.as_dict() for n in plan.notes], "abstain_reason": plan.abstain_reason},
    )


def answer_finish(*, message: Message, verified: VerifiedAnswer) -> Message:
    """Store the complete answer: text, html, citations, abstention; token count of its history form."""
    message.text = verified.text
    message.html = verified.html
    message.abstained = verified.abstained
    message.citations = [c.as_dict() for c in verified.citations]
    message.spans = list(verified.spans)
    message.invalid_citations = list(verified.invalid)
    message.tokens = counter_for("extractive").count(strip_markers(verified.text))
    message.status = Message.Status.COMPLETE
    message.save()
    return message


def answer_interrupt(*, message: Message, text: str, status: str, error: str = "") -> Message:
    """Store an interrupted or failed answer with the text streamed so far and the reason."""
    message.text = text
    message.status = status
    message.error = error
    message.tokens = counter_for("extractive").count(strip_markers(text))
    message.save(update_fields=["text", "status", "error", "tokens"])
    return message


def message_json(message: Message) -> dict[str, Any]:
    """A stored message as the page/JS sees it (the frozen sources make chips work after reload)."""
    return {
        "id": message.pk, "role": message.role, "text": message.text, "html": message.html,
        "status": message.status, "error": message.error, "abstained": message.abstained,
        "provider": message.provider, "sources": message.sources, "citations": message.citations,
        "invalid": message.invalid_citations, "spans": message.spans, "notes": message.trace.get("notes", []),
        "client_id": message.client_id,
    }
