"""Anthropic provider: streaming through the SDK's AsyncAnthropic client, prompt caching, native citations.

- Prompt caching: the stable system prefix is the first system block and carries ``cache_control`` (nothing
  time-varying precedes it); in text mode the context block (sources, notes, summary) follows it with its own
  breakpoint when long enough to be worth caching.
- Citation modes:
    "text":   sources are in the system text; the model writes [S#] markers itself.
    "native": sources are sent as ``search_result`` content blocks (citations enabled) in the last user message,
              before the question; each streamed ``citations_delta`` (search_result_location) is mapped back to the
              label of the source at that index and yielded as a CitationEvent, and a "[S#]" marker is inserted into
              the text after the cited block, so the text-mode citation pipeline renders it too (case C10).
- Errors: the SDK retries 429/5xx/timeouts (``max_retries``, backoff); what still fails raises ProviderError
  (grounding.providers) with a message safe to show.

No Django imports here.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from typing import Any, Literal

import anthropic

from grounding.anthropic_blocks import estimate_tokens, search_result_block, strip_sources_block
from grounding.prompt import Prompt
from grounding.providers import (CitationEvent, CompletionError, Done, Event, ProviderError, TextDelta, Usage,
                                 max_tokens_for)
from grounding.types import ContextPlan, Source

CitationMode = Literal["text", "native"]

# A context block longer than this (estimated tokens, len/4) gets its own cache breakpoint.
CACHE_MIN_TOKENS = 1024


#: What the Anthropic stream yields (native citations included); failures raise ProviderError.
AnthropicEvent = Event

__all__ = ["AnthropicEvent", "AnthropicProvider", "CACHE_MIN_TOKENS", "CitationMode", "estimate_tokens",
           "search_result_block", "strip_sources_block"]


def _completion_error(exc: anthropic.APIError) -> CompletionError:
    """The CompletionError of a failed non-streamed call: its HTTP status when it has one, else the error's kind."""
    if isinstance(exc, anthropic.APIStatusError):
        return CompletionError(f"Anthropic completion failed (HTTP {exc.status_code})")
    return CompletionError(f"Anthropic completion failed ({type(exc).__name__})")


def _reply_text(reply: Any) -> str:
    """The text blocks of a Messages API reply joined.

    Raises:
        CompletionError: no text, or a reply that is not a message (a malformed or unexpected response body).
    """
    try:
        text = "".join(getattr(b, "text", "") for b in reply.content if getattr(b, "type", "") == "text").strip()
    except (AttributeError, TypeError) as exc:
        raise CompletionError("Anthropic completion returned a malformed reply") from exc
    if not text:
        raise CompletionError("Anthropic completion returned no text")
    return text


class AnthropicProvider:
    """Streams answers from the Anthropic Messages API (see the module docstring)."""

    name = "anthropic"

    def __init__(self, api_key: str | None, model: str, *, max_tokens: int = 1024,
                 citation_mode: CitationMode = "text", max_retries: int = 2, timeout: float = 60.0,
                 http_client: Any = None, base_url: str | None = None, sync_http_client: Any = None) -> None:
        if citation_mode not in ("text", "native"):
            raise ValueError(f"citation_mode must be 'text' or 'native', got {citation_mode!r}")
        self.model = model
        self.max_tokens = max_tokens
        self.citation_mode: CitationMode = citation_mode
        self.api_key = api_key
        kwargs: dict[str, Any] = {"api_key": api_key or "missing-key", "max_retries": max_retries,
                                  "timeout": timeout}
        if http_client is not None:
            kwargs["http_client"] = http_client
        if base_url:
            kwargs["base_url"] = base_url
        self.client = anthropic.AsyncAnthropic(**kwargs)
        # the blocking client serves ``complete`` from worker threads (an async client is bound to one event loop)
        sync_kwargs = {k: v for k, v in kwargs.items() if k != "http_client"}
        if sync_http_client is not None:
            sync_kwargs["http_client"] = sync_http_client
        self.sync_client = anthropic.Anthropic(**sync_kwargs)
        self.label = f"Anthropic {model}" + (" (native citations)" if citation_mode == "native" else "")

    def variant(self, *, model: str = "", citation_mode: str = "") -> "AnthropicProvider":
        """This provider with another model and/or citation mode (a domain's settings), sharing its HTTP clients.
        Empty arguments keep this provider's values. Raises ValueError for an unknown citation mode."""
        if (not model or model == self.model) and (not citation_mode or citation_mode == self.citation_mode):
            return self
        if citation_mode and citation_mode not in ("text", "native"):
            raise ValueError(f"citation_mode must be 'text' or 'native', got {citation_mode!r}")
        other = copy.copy(self)
        other.model = model or self.model
        other.citation_mode = citation_mode or self.citation_mode  # type: ignore[assignment]
        other.label = f"Anthropic {other.model}" + (" (native citations)" if other.citation_mode == "native" else "")
        return other

    # --- request -----------------------------------------------------------------------------------------------

    def _sources(self, plan: ContextPlan | None) -> tuple[Source, ...]:
        return tuple(plan.sources) if plan is not None and self.citation_mode == "native" else ()

    def system_blocks(self, prompt: Prompt, plan: ContextPlan | None = None) -> list[dict[str, Any]]:
        """The system as text blocks: the stable prefix (cache breakpoint), then the context block."""
        blocks: list[dict[str, Any]] = [{"type": "text", "text": prompt.prefix,
                                         "cache_control": {"type": "ephemeral"}}]
        context = prompt.context
        if self._sources(plan):
            context = strip_sources_block(context)  # the sources travel as search_result blocks instead
        if context.strip():
            block: dict[str, Any] = {"type": "text", "text": context}
            if estimate_tokens(context) > CACHE_MIN_TOKENS:
                block["cache_control"] = {"type": "ephemeral"}
            blocks.append(block)
        return blocks

    def request_messages(self, prompt: Prompt, plan: ContextPlan | None = None) -> list[dict[str, Any]]:
        """Chat messages; in native mode the last user message holds the search_result blocks, then the question."""
        messages: list[dict[str, Any]] = [dict(m) for m in prompt.messages]
        sources = self._sources(plan)
        if sources and messages and messages[-1]["role"] == "user":
            question = messages[-1]["content"]
            content = [search_result_block(s) for s in sources]
            content.append({"type": "text", "text": question})
            messages[-1] = {"role": "user", "content": content}
        return messages

    def request(self, prompt: Prompt, plan: ContextPlan | None = None) -> dict[str, Any]:
        """Keyword arguments for ``messages.stream`` (also handy for tests and traces). ``max_tokens`` is the
        completion reserve the plan was made with (B02), else the provider's default."""
        return {"model": self.model, "max_tokens": max_tokens_for(plan, self.max_tokens),
                "system": self.system_blocks(prompt, plan), "messages": self.request_messages(prompt, plan)}

    # --- streaming ---------------------------------------------------------------------------------------------

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[AnthropicEvent]:
        """Stream the answer: TextDelta / CitationEvent pieces, then Usage and Done.

        Raises:
            ProviderError: the request failed after the SDK's retries (message safe to show; ``retryable``).
        """
        sources = self._sources(plan)
        by_label = {s.label for s in sources}
        input_tokens = output_tokens = cache_read = cache_creation = 0
        stop_reason = "end_turn"
        block_labels: dict[int, list[str]] = {}  # content block index -> labels cited in it (in order, unique)
        try:
            async with self.client.messages.stream(**self.request(prompt, plan)) as stream:
                async for event in stream:
                    kind = event.type
                    if kind == "message_start":
                        u = event.message.usage
                        input_tokens = u.input_tokens or 0
                        output_tokens = u.output_tokens or 0
                        cache_read = getattr(u, "cache_read_input_tokens", None) or 0
                        cache_creation = getattr(u, "cache_creation_input_tokens", None) or 0
                    elif kind == "content_block_delta":
                        delta = event.delta
                        if delta.type == "text_delta":
                            if delta.text:
                                yield TextDelta(delta.text)
                        elif delta.type == "citations_delta":
                            citation = delta.citation
                            label = self._label_for(citation, sources, by_label)
                            if label is None:
                                continue
                            labels = block_labels.setdefault(event.index, [])
                            if label not in labels:
                                labels.append(label)
                            yield CitationEvent(label=label, cited_text=getattr(citation, "cited_text", "") or "",
                                                start_block_index=getattr(citation, "start_block_index", 0) or 0,
                                                end_block_index=getattr(citation, "end_block_index", 1) or 1)
                    elif kind == "content_block_stop":
                        for label in block_labels.pop(event.index, []):
                            yield TextDelta(f"[{label}]")  # right after the text the block cites
                    elif kind == "message_delta":
                        if event.delta.stop_reason:
                            stop_reason = event.delta.stop_reason
                        u = event.usage
                        if u is not None:
                            output_tokens = u.output_tokens or output_tokens
                            input_tokens = getattr(u, "input_tokens", None) or input_tokens
                            cache_read = getattr(u, "cache_read_input_tokens", None) or cache_read
                            cache_creation = getattr(u, "cache_creation_input_tokens", None) or cache_creation
        except anthropic.APITimeoutError:
            raise ProviderError("The model service is unavailable (the request timed out). Please try again.",
                                retryable=True)
        except anthropic.APIConnectionError:
            raise ProviderError("The model service is unavailable (could not connect). Please try again.",
                                retryable=True)
        except anthropic.APIStatusError as exc:
            status = exc.status_code
            if status == 429 or status >= 500:
                raise ProviderError(f"The model service is unavailable (HTTP {status}). Please try again.",
                                    retryable=True)
            if status in (401, 403):
                raise ProviderError(f"The model service refused the credentials (HTTP {status}).",
                                    retryable=False)
            raise ProviderError(f"The model service rejected the request (HTTP {status}).", retryable=False)
        except anthropic.APIError as exc:  # e.g. an error event in the middle of the stream (overloaded)
            raise ProviderError(f"The model service is unavailable ({type(exc).__name__}). Please try again.",
                                retryable=True) from exc
        yield Usage(input_tokens=input_tokens, output_tokens=output_tokens, cache_read_tokens=cache_read,
                    cache_creation_tokens=cache_creation)
        yield Done(stop_reason=stop_reason)

    @staticmethod
    def _label_for(citation: Any, sources: tuple[Source, ...], labels: set[str]) -> str | None:
        """The label of the cited source: by search_result_index, else by the ``source`` field."""
        if getattr(citation, "type", "") != "search_result_location":
            return None
        index = getattr(citation, "search_result_index", None)
        if isinstance(index, int) and 0 <= index < len(sources):
            return sources[index].label
        source = getattr(citation, "source", None)
        return source if source in labels else None

    # --- non-streamed calls (summarizer, follow-up rewrite, sufficiency check, contradiction judge) ------------

    def complete(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str:
        """One blocking Messages API call; the reply's text blocks joined (see grounding.providers.Completer).

        The system text carries a cache breakpoint (these prompts repeat verbatim). The SDK retries 429/5xx and
        timeouts (``max_retries``).
        Raises:
            CompletionError: the call failed after retries, or the reply holds no text.
        """
        request = self._completion_request(system, messages, max_tokens)
        try:
            reply = self.sync_client.messages.create(**request)
        except anthropic.APIError as exc:
            raise _completion_error(exc) from exc
        return _reply_text(reply)

    async def acomplete(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str:
        """:meth:`complete` on the async client (grounding.providers.AsyncCompleter): no thread is held while the
        model answers.

        Raises:
            CompletionError: the call failed after retries, or the reply holds no text.
        """
        request = self._completion_request(system, messages, max_tokens)
        try:
            reply = await self.client.messages.create(**request)
        except anthropic.APIError as exc:
            raise _completion_error(exc) from exc
        return _reply_text(reply)

    def _completion_request(self, system: str, messages: list[dict[str, str]], max_tokens: int) -> dict[str, Any]:
        """The Messages API arguments of :meth:`complete` and :meth:`acomplete`; the system text carries a cache
        breakpoint. Raises ValueError when no message is a user turn (case C05)."""
        if not any(m.get("role") == "user" for m in messages):
            raise ValueError("messages must hold at least one user turn (case C05)")
        return {"model": self.model, "max_tokens": max_tokens,
                "system": [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
                "messages": [dict(m) for m in messages]}

    # --- token counting ----------------------------------------------------------------------------------------

    async def count_tokens(self, prompt: Prompt, plan: ContextPlan | None = None) -> int:
        """Exact input tokens of the request for this prompt (``messages.count_tokens``; needs an API key).

        Raises:
            anthropic.APIError: the count failed (callers treat calibration as optional).
        """
        req = self.request(prompt, plan)
        result = await self.client.messages.count_tokens(model=req["model"], system=req["system"],
                                                         messages=req["messages"])
        return int(result.input_tokens)
