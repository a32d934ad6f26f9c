"""Answer providers: one Protocol, async streaming of typed events.

- ExtractiveAnswerer: the offline default. Picks the planned sources' sentences that best answer the question
  (bundled MiniLM cosine + lexical overlap), cites each, abstains below a calibrated threshold.
- ScriptedProvider: deterministic pieces with optional delays and a failure on cue, for tests.
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass
from typing import AsyncIterator, Protocol, Sequence, Union

import numpy as np

from grounding.chunking import split_sentences
from grounding.embeddings import Embedder, default_embedder
from grounding.injection import looks_injected
from grounding.lexical import asks_about_past, content_terms
from grounding.quarantine import is_placeholder
from grounding.prompt import ABSTAIN_TOKEN, Prompt, neutralise_markers
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
    """Yields fixed pieces with an optional delay (seconds) between them; raises after ``fail_after`` pieces."""

    name = "scripted"
    label = "Scripted test provider"

    def __init__(self, pieces: Sequence[str], delay: float = 0.0, fail_after: int | None = None) -> None:
        self.pieces = list(pieces)
        self.delay = delay
        self.fail_after = fail_after
        self.calls: list[Prompt] = []

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]:
        self.calls.append(prompt)
        for i, piece in enumerate(self.pieces):
            if self.fail_after is not None and i >= self.fail_after:
                raise ProviderFailure("scripted provider failure")
            if self.delay:
                await asyncio.sleep(self.delay)
            yield TextDelta(piece)
        yield Usage(input_tokens=0, output_tokens=len(self.pieces))
        yield Done()


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate answer sentence: text, the label of its source, and its score (cosine + overlap bonus)."""

    text: str
    label: str
    score: float


_QUANTITY_QUESTION = re.compile(r"\b(how (many|much|long|often|soon|far|old)|what (percentage|amount|number|"
                                r"time|date|day)|when|deadline|limit|maximum|minimum)\b", re.I)
_HAS_QUANTITY = re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                           r"hundred|thousand|half|once|twice|daily|weekly|monthly|annually|yearly)\b", re.I)


class ExtractiveAnswerer:
    """Offline answerer: the best-supported sentences of the planned sources, each cited.

    Score of a sentence =
        max(cosine(question, sentence), cosine(question, previous sentence + sentence))   (context window, so a
            short sentence such as "It must be longer than 14 characters." keeps its subject)
      + ``overlap_weight`` x IDF-weighted share of the question's content terms found in the sentence (IDF over the
            planned sentences, so words every source shares, like the company name, count for little)
      + ``quantity_bonus`` when the question asks for a quantity/time and the sentence states one.
    The answer holds up to ``max_sentences`` sentences scoring at least max(``threshold``, best - ``spread``); below
    ``threshold`` it abstains with ABSTAIN_TOKEN. The threshold is calibrated on the acceptance questions in tests/
    (demo corpus and 18F handbook: answerable vs not), see tests/chat/test_acceptance_*.py.
    """

    name = "extractive"
    label = "Extractive answer (offline): sentences quoted from the sources"

    def __init__(self, embedder: Embedder | None = None, *, threshold: float = 0.62, spread: float = 0.12,
                 max_sentences: int = 3, overlap_weight: float = 0.3, quantity_bonus: float = 0.08,
                 piece_words: int = 3) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.spread = spread
        self.max_sentences = max_sentences
        self.overlap_weight = overlap_weight
        self.quantity_bonus = quantity_bonus
        self.piece_words = piece_words

    def rank(self, question: str, plan: ContextPlan) -> list[ScoredSentence]:
        """All sentences of the plan's sources, best first (CPU-bound; call it off the event loop)."""
        sentences: list[tuple[str, str, str]] = []  # (sentence, label, previous sentence of the same source)
        past = asks_about_past(question)
        for source in plan.sources:
            if source.status == "superseded" and not past:
                continue  # in the context for its disagreement (a note), not to be quoted as the answer
            previous = ""
            for s in split_sentences(source.text):
                s = s.lstrip("-* ").strip()
                words = len(s.split())
                heading = words < 8 and s[-1:] not in ".!?:;)\"”"  # a heading line absorbed into the chunk
                # text addressed to an AI assistant is part of the document, never quoted as the answer (its block
                # is withheld at planning; a sentence that still carries a signal is skipped too)
                if words >= 4 and not heading and not is_placeholder(s) and not looks_injected(s):
                    sentences.append((s, source.label, previous))
                previous = s
        if not sentences:
            return []
        embedder = self.embedder or default_embedder()
        texts = [question] + [s for s, _, _ in sentences] + [f"{p} {s}".strip() for s, _, p in sentences]
        vectors = embedder.embed(texts)
        n = len(sentences)
        cos = np.maximum(vectors[1:n + 1] @ vectors[0], vectors[n + 1:] @ vectors[0])
        terms = [content_terms(s) for s, _, _ in sentences]
        df: dict[str, int] = {}
        for t in terms:
            for w in t:
                df[w] = df.get(w, 0) + 1
        q_terms = content_terms(question)
        idf = {w: math.log((n + 1) / (df.get(w, 0) + 0.5)) for w in q_terms}
        q_weight = sum(idf.values())
        wants_quantity = bool(_QUANTITY_QUESTION.search(question))
        scored = []
        for (text, label, _), c, t in zip(sentences, cos, terms):
            overlap = sum(idf[w] for w in q_terms & t) / q_weight if q_weight > 0 else 0.0
            bonus = self.quantity_bonus if wants_quantity and _HAS_QUANTITY.search(text) else 0.0
            scored.append(ScoredSentence(text, label, float(c) + self.overlap_weight * overlap + bonus))
        scored.sort(key=lambda s: -s.score)
        return scored

    def compose(self, question: str, plan: ContextPlan) -> str:
        """The full answer text (or the abstention text)."""
        ranked = self.rank(question, plan)
        if not ranked or ranked[0].score < self.threshold:
            return ABSTAIN_TOKEN
        floor = max(self.threshold, ranked[0].score - self.spread)
        chosen: list[ScoredSentence] = []
        seen: set[str] = set()
        for s in ranked:
            key = re.sub(r"\W+", " ", s.text.lower()).strip()
            if s.score < floor or len(chosen) >= self.max_sentences:
                break
            if key in seen:
                continue
            seen.add(key)
            chosen.append(s)
        parts = []
        for s in chosen:
            text = neutralise_markers(s.text).rstrip()  # a quoted "[S2]" in a document must not become a citation
            end = text[-1] if text[-1] in ".!?" else "."
            body = text[:-1] if text[-1] in ".!?" else text
            parts.append(f"{body} [{s.label}]{end}")
        cited = {s.label for s in chosen}
        for note in plan.notes:  # the offline answer says where the sources it quotes disagree with others
            if note.kind == "injection" or not cited & set(note.labels):
                continue
            markers = "".join(f"[{label}]" for label in note.labels if label in plan.source_map)
            # dates are in the chips and notes; that a side is a superseded version is said in the answer too
            said = re.sub(r" \((?:\d{4}-\d{2}-\d{2}|undated)([^)]*)\)",
                          lambda m: " (a superseded version)" if "superseded" in m.group(1) else "",
                          neutralise_markers(note.text)).rstrip(".")
            parts.append(f"Note that the sources disagree: {said} {markers}.")
        return " ".join(parts)

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]:
        """Stream the composed answer in pieces of a few words (the work itself runs in a thread)."""
        # For a follow-up question the retrieval query carries the conversation's terms ("do they expire?" ->
        # "... credit hours"); the extractive answerer matches sentences against it, as retrieval did.
        question = plan.query or prompt.messages[-1]["content"]
        text = await asyncio.to_thread(self.compose, question, plan)
        words = re.findall(r"\S+\s*", text)
        for i in range(0, len(words), self.piece_words):
            yield TextDelta("".join(words[i:i + self.piece_words]))
            await asyncio.sleep(0)
        yield Done()


def is_abstention(text: str) -> bool:
    """True when an answer text is the abstention (starts with ABSTAIN_TOKEN, ignoring whitespace/markup)."""
    return text.lstrip(" *_`#>\n").startswith(ABSTAIN_TOKEN)

