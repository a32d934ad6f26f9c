"""Answer providers: one Protocol, async streaming of typed events.

- The offline default, the extractive answerer, is grounding.extractive.ExtractiveAnswerer.
- ScriptedProvider: deterministic pieces with optional delays and a failure on cue, for tests.
"""

from __future__ import annotations

import re
import asyncio
from dataclasses import dataclass
from typing import AsyncIterator, Protocol, Sequence, Union

from grounding.prompt import ABSTAIN_TOKEN, Prompt
from grounding.tokens import TokenCounter, counter_for
from grounding.types import ContextPlan


class ProviderError(Exception):
    """The provider failed (an outage, refused credentials, a rejected request); raised, never yielded.

    Attributes:
        message: safe to show to the user (says what failed and whether to retry).
        retryable: True when the same request may succeed later (timeouts, 429, 5xx).
    """

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable


class CompletionError(ProviderError):
    """A non-streamed completion failed (outage, refused credentials, empty reply); the message is safe to log."""

    def __init__(self, message: str, *, retryable: bool = True) -> None:
        super().__init__(message, retryable=retryable)


@dataclass(frozen=True)
class TextDelta:
    """A piece of answer text."""

    text: str


@dataclass(frozen=True)
class CitationEvent:
    """A provider-native citation (Anthropic search_result citations): the label of the cited source and the text
    the model cited from it.

    Attributes:
        label: "S1", ... (the source at the citation's search_result_index in the request).
        cited_text: the cited text (the source's content blocks start..end joined).
        start_block_index, end_block_index: the cited block range inside the source's content (end exclusive).
    """

    label: str
    cited_text: str
    start_block_index: int = 0
    end_block_index: int = 1


@dataclass(frozen=True)
class Usage:
    """Token usage the provider reported for one answer (tokens).

    Attributes:
        input_tokens: uncached input tokens as the API reports them.
        output_tokens: generated tokens.
        cache_read_tokens: input tokens read from the provider's prompt cache.
        cache_creation_tokens: input tokens written to the prompt cache.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0

    @property
    def total_input_tokens(self) -> int:
        """The whole prompt: input + cache_read + cache_creation (tokens)."""
        return self.input_tokens + self.cache_read_tokens + self.cache_creation_tokens

    def as_dict(self) -> dict[str, int]:
        """JSON form stored with an answer and shown in its trace (tokens)."""
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "cache_read_tokens": self.cache_read_tokens, "cache_creation_tokens": self.cache_creation_tokens,
                "total_input_tokens": self.total_input_tokens}


@dataclass(frozen=True)
class Done:
    """The stream ended normally."""

    stop_reason: str = "end_turn"


#: What a provider's stream yields; failures are raised as ProviderError, never yielded.
Event = Union[TextDelta, CitationEvent, Usage, Done]


class Provider(Protocol):
    """Streams the answer to a prompt as typed events (:data:`Event`), ending with Done; a failure raises
    ProviderError.

    Model-backed providers also offer ``complete(system, messages, max_tokens=...) -> str``, a blocking,
    non-streamed call used by the summarizer, the follow-up rewrite, the sufficiency check and the contradiction
    judge (see :class:`Completer`); the offline extractive answerer does not, and those features then use their
    offline fallbacks.
    """

    name: str
    label: str

    def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]: ...


class Completer(Protocol):
    """A blocking, non-streamed model call: ``(system, messages, max_tokens) -> reply text``.

    ``messages`` is [{"role": "user"|"assistant", "content": str}, ...] and always holds at least one user turn
    (a lone system prompt is rejected by Anthropic's API, case C05). Safe to call from worker threads.
    Raises:
        CompletionError: the call failed after the client's retries.
    """

    def __call__(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str: ...


def max_tokens_for(plan: ContextPlan | None, default: int) -> int:
    """The ``max_tokens`` of a request: the completion reserve the plan's budget was made with (tokens; B02), so the
    answer gets exactly the room the budget kept for it; ``default`` without a plan (or a budget)."""
    reserve = int((plan.budget or {}).get("completion_reserve", 0)) if plan is not None else 0
    return reserve if reserve > 0 else default


def counter_of(provider: object) -> TokenCounter:
    """The token counter a provider's prompts are budgeted with: decided by the model it answers with (its ``model``
    attribute; providers without a model count exactly), see grounding.tokens.counter_for (B04)."""
    return counter_for(getattr(provider, "name", "unknown"), getattr(provider, "model", "") or "")


class AsyncCompleter(Protocol):
    """A non-streamed model call on the provider's async client: ``await acomplete(system, messages, max_tokens)``
    -> reply text. Used on the event loop (the chat's model-backed checks), so no thread waits for the model.

    Raises:
        CompletionError: the call failed after the client's retries.
    """

    async def __call__(self, system: str, messages: list[dict[str, str]], max_tokens: int = 512) -> str: ...


def async_completer_for(provider: object) -> AsyncCompleter | None:
    """The provider's ``acomplete`` method, or None when it has none (the offline answerer, scripted tests)."""
    acomplete = getattr(provider, "acomplete", None)
    return acomplete if callable(acomplete) else None


def completer_for(provider: object) -> Completer | None:
    """The provider's ``complete`` method, or None when it has none (the offline answerer, scripted tests)."""
    complete = getattr(provider, "complete", None)
    return complete if callable(complete) else None


class ProviderFailure(ProviderError):
    """Raised by ScriptedProvider on cue (simulates an outage mid-stream)."""

    def __init__(self, message: str = "scripted provider failure") -> None:
        super().__init__(message, retryable=True)


class ScriptedProvider:
    """Yields fixed pieces with an optional delay (seconds) between them; raises after ``fail_after`` pieces.

    The pieces come on the provider's own clock, as a model server sends them: piece i is due ``(i + 1) * delay``
    seconds after the stream starts, whenever its reader asks. A reader that falls behind (a busy server) finds the
    pieces due meanwhile waiting, as it finds a model's events waiting in its socket's buffer, and gets them at once;
    one that keeps up waits ``delay`` before each."""

    name = "scripted"
    label = "Scripted test provider"

    def __init__(self, pieces: Sequence[str], delay: float = 0.0, fail_after: int | None = None) -> None:
        self.pieces = list(pieces)
        self.delay = delay
        self.fail_after = fail_after
        self.calls: list[Prompt] = []

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]:
        self.calls.append(prompt)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for i, piece in enumerate(self.pieces):
            if self.fail_after is not None and i >= self.fail_after:
                raise ProviderFailure("scripted provider failure")
            if self.delay:
                wait = started + (i + 1) * self.delay - loop.time()
                if wait > 0:  # a piece already due is there at once, as events already in a socket's buffer are
                    await asyncio.sleep(wait)
            yield TextDelta(piece)
        yield Usage(input_tokens=0, output_tokens=len(self.pieces))
        yield Done()


def is_abstention(text: str) -> bool:
    """True when an answer text is the abstention (starts with ABSTAIN_TOKEN in any case, ignoring whitespace and
    markup)."""
    return text.lstrip(" *_`#>\n")[:len(ABSTAIN_TOKEN)].upper() == ABSTAIN_TOKEN


#: The abstention token where it does not open the answer ("... every 36 months [S1]. INSUFFICIENT_EVIDENCE"), in
#: any case, with the spaces before it and a colon or period after it: never shown (grounding.answer drops it).
LATE_ABSTAIN_TOKEN = re.compile(rf"[ \t]*{ABSTAIN_TOKEN}[:.]?", re.I)

