"""The prompt preview: a dry run of one answer for the admin (no model called), through the same preparation as the
chat and `ask`, so the plan equals what `ask --json` plans for the same input."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from chat.answering import PreparedAnswer, answer_prepare
from chat.memory import memory_turns, summary_get
from chat.providers import ProviderRegistry, registry
from chat.serializers import plan_json
from chat.validation import validate_question
from grounding.providers import completer_for, counter_of
from knowledge.models import Domain


@dataclass(frozen=True)
class PromptPart:
    """One piece of the request as the provider receives it.

    Attributes:
        role: "system", "user" or "assistant".
        part: what the piece is ("system prefix", "context", "history", "question").
        content: the exact text.
        tokens: its token count with the counter the plan used (the provider's calibrated cl100k count).
    """

    role: str
    part: str
    content: str
    tokens: int


@dataclass(frozen=True)
class PromptPreview:
    """A dry run of one answer (no model called): the prepared answer, the request's parts in order, the provider's
    own request body when it builds one (Anthropic, OpenAI-compatible; None for the offline answerer), and the
    model-backed planning checks the dry run left out."""

    domain: Domain
    question: str
    prepared: PreparedAnswer
    parts: tuple[PromptPart, ...]
    request: dict[str, Any] | None
    skipped_checks: tuple[str, ...] = ()
    conversation_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON form: the plan as the chat's plan frame has it (chat.serializers.plan_json: sources, notes, budget,
        dropped, sufficient, abstain_reason, ordering, memory) plus the exact system text and messages."""
        p = self.prepared
        return {"domain": self.domain.slug, "question": self.question, "conversation": self.conversation_id,
                **plan_json(p.plan), "retrieval_query": p.query, "provider": p.provider.name,
                "prompt_version": p.prompt_version.version if p.prompt_version else None,
                "system": p.prompt.system, "messages": [dict(m) for m in p.prompt.messages],
                "parts": [{"role": x.role, "part": x.part, "content": x.content, "tokens": x.tokens}
                          for x in self.parts],
                "request": self.request, "skipped_checks": list(self.skipped_checks)}


@dataclass(frozen=True)
class _DryRunProvider:
    """A provider's name and label without its model: planning counts tokens for it and can call nothing."""

    name: str
    label: str


def prompt_preview(*, domain: Domain, question: str, conversation=None,
                   providers: ProviderRegistry = registry) -> PromptPreview:
    """What answering ``question`` in ``domain`` (optionally as the next turn of ``conversation``) would send, without
    calling any model: chat.answering.answer_prepare with the domain's provider and the conversation's memory turns
    and summary as the chat passes them. Retrieval still embeds the question with the bundled embedding model.

    The provider is handed to planning behind a dry-run stand-in (its name and label only), so the model-backed
    checks a provider with ``complete`` would run during planning (follow-up rewrite, sufficiency check, conflict
    judge, when enabled) are skipped; ``skipped_checks`` names them, as the real answer's plan may differ there.

    Raises:
        chat.errors.AskError: empty or oversized question, invalid domain settings, or a prompt that cannot fit.
    """
    text = validate_question(question)
    history = memory_turns(conversation=conversation) if conversation is not None else []
    summary = summary_get(conversation=conversation) if conversation is not None else None
    provider = providers.for_domain(domain)
    prepared = answer_prepare(domain=domain, question=text, history=history, summary=summary,
                              provider=_DryRunProvider(provider.name, provider.label))
    prompt = prepared.prompt
    count = counter_of(provider).count
    parts = [PromptPart("system", "system prefix", prompt.prefix, count(prompt.prefix))]
    if prompt.context:
        parts.append(PromptPart("system", "context", prompt.context, count(prompt.context)))
    last = len(prompt.messages) - 1
    parts += [PromptPart(m["role"], "question" if i == last else "history", m["content"], count(m["content"]))
              for i, m in enumerate(prompt.messages)]
    checks = (("follow-up rewrite", "LLM_FOLLOWUP_REWRITE"), ("sufficiency check", "LLM_SUFFICIENCY_CHECK"),
              ("conflict judge", "LLM_CONFLICT_JUDGE"))
    skipped = tuple(name for name, flag in checks if getattr(settings, flag, False)) if completer_for(provider) else ()
    return PromptPreview(domain=domain, question=text, prepared=prepared, parts=tuple(parts),
                         request=_provider_request(provider, prepared), skipped_checks=skipped,
                         conversation_id=conversation.pk if conversation is not None else None)


def _provider_request(provider: Any, prepared: PreparedAnswer) -> dict[str, Any] | None:
    """The provider's request body for a prepared answer, when it exposes one (``request(prompt[, plan])``)."""
    build = getattr(provider, "request", None)
    if build is None:
        return None
    takes_plan = len(inspect.signature(build).parameters) > 1
    return build(prepared.prompt, prepared.plan) if takes_plan else build(prepared.prompt)
