"""Conversation memory: rolling summaries, stale-label rewriting, the older exchange related to a question (follow-up
retrieval queries are grounding.followup).

A summary covers turns 1..k of a conversation. It is made incrementally (previous summary + the turns newly evicted
from the verbatim window, never the whole history again), replaces those turns only after it succeeded, is counted
in the history share of the budget, and is re-compressed when it outgrows its cap. Technique: the rolling/running
summary buffer of conversational agents (e.g. LangChain's ConversationSummaryBufferMemory, LlamaIndex's
ChatSummaryMemoryBuffer), here incremental, atomic and provenance-keeping.
"""

from __future__ import annotations

import heapq
import operator

import re
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from grounding.chunking import split_sentences
from grounding.citation_strip import strip_markers
from grounding.citations import parse_markers
from grounding.lexical import content_terms
from grounding.tokens import TokenCounter
from grounding.types import Turn


@dataclass(frozen=True)
class Summary:
    """A conversation summary.

    Attributes:
        text: the summary (plain text, one line per summarized exchange).
        covers: number of turns (messages, user and assistant) it covers: turns 1..covers.
        tokens: token count of ``text``.
        sources: titles of the documents the summarized answers relied on (provenance survives compression).
        chunk_ids: ids of the chunks those answers cited.
    """

    text: str
    covers: int
    tokens: int
    sources: tuple[str, ...] = ()
    chunk_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.covers < 0 or self.tokens < 0:
            raise ValueError("summary covers and tokens must be >= 0")


@dataclass(frozen=True)
class MemoryTurn:
    """A stored turn with what the summarizer needs: its text, role, token count and the sources it cited, the
    content terms stored with it (None when not stored; see Turn.terms) and its position in the conversation."""

    role: str
    text: str
    tokens: int
    sources: tuple[str, ...] = ()
    chunk_ids: tuple[int, ...] = ()
    terms: frozenset[str] | None = None
    #: 1-based place of the turn among all the conversation's remembered turns (0: not known). Lets a caller hand
    #: the planner only the turns it can use (chat.memory.memory_for_question) and still say which were used.
    position: int = 0

    def as_turn(self) -> Turn:
        return Turn("user" if self.role == "user" else "assistant", self.text, self.tokens, self.terms)


class Summarizer(Protocol):
    """Folds turns into a summary text. Raises on failure (the caller keeps memory unchanged)."""

    name: str

    def summarize(self, previous: str, turns: Sequence[MemoryTurn]) -> str: ...

    def compress(self, text: str, max_tokens: int, counter: TokenCounter) -> str: ...


_VALUE = re.compile(r"\d|\$|%|\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)+\b|\b[A-Z]{2,}\b")


def _key_sentences(text: str, question: str, limit: int) -> list[str]:
    """Up to ``limit`` sentences of an answer: those stating values/names first, then by overlap with the question."""
    sentences = [s.strip() for s in split_sentences(strip_markers(text))]
    sentences = [s for s in sentences if len(s.split()) >= 3]
    q = content_terms(question)
    scored = sorted(enumerate(sentences),
                    key=lambda p: (-bool(_VALUE.search(p[1])), -len(q & content_terms(p[1])), p[0]))
    keep = sorted(i for i, _ in scored[:limit])
    return [sentences[i] for i in keep]


class ExtractiveSummarizer:
    """Offline summarizer: one line per exchange, the question and the answer's key sentences (those with numbers,
    amounts, names first), so facts survive compression; no model call."""

    name = "extractive"

    def __init__(self, sentences_per_answer: int = 2, question_words: int = 25) -> None:
        self.sentences_per_answer = sentences_per_answer
        self.question_words = question_words

    def summarize(self, previous: str, turns: Sequence[MemoryTurn]) -> str:
        lines = [line for line in previous.split("\n") if line.strip()]
        question = ""
        for t in turns:
            if t.role == "user":
                if question:
                    lines.append(f"- Asked: {question}")
                question = " ".join(t.text.split()[: self.question_words])
                continue
            answer = " ".join(_key_sentences(t.text, question, self.sentences_per_answer)) or "(no answer)"
            cited = f" (sources: {', '.join(t.sources)})" if t.sources else ""
            lines.append(f"- Asked: {question} Answer: {answer}{cited}" if question else f"- Answer: {answer}{cited}")
            question = ""
        if question:
            lines.append(f"- Asked: {question}")
        return "\n".join(lines)

    def compress(self, text: str, max_tokens: int, counter: TokenCounter) -> str:
        """Keep the lines stating values or names first, newest first, until ``max_tokens``; order preserved."""
        lines = [line for line in text.split("\n") if line.strip()]
        order = sorted(range(len(lines)), key=lambda i: (not _VALUE.search(lines[i]), -i))
        kept: set[int] = set()
        used = 0
        for i in order:
            cost = counter.count(lines[i]) + 1
            if used + cost <= max_tokens:
                kept.add(i)
                used += cost
        return "\n".join(lines[i] for i in sorted(kept))


SUMMARY_SYSTEM = ("You maintain a running summary of a conversation between a user and a documents assistant. "
                  "Keep every number, date, amount, name and document title. Be brief: one line per exchange.")


def summary_request(previous: str, turns: Sequence[MemoryTurn]) -> tuple[str, list[dict[str, str]]]:
    """The (system, messages) of an LLM summarization request: always a single user turn holding the previous
    summary and the new turns (a lone system message is rejected by Anthropic's API, case C05)."""
    body = ["Previous summary:", previous or "(none)", "", "New turns to fold in:"]
    for t in turns:
        body.append(f"{t.role.upper()}: {t.text}" + (f" [sources: {', '.join(t.sources)}]" if t.sources else ""))
    body.append("\nReturn the updated summary only.")
    return SUMMARY_SYSTEM, [{"role": "user", "content": "\n".join(body)}]


class LLMSummarizer:
    """Summarizer backed by a model: ``complete(system, messages) -> str`` (a provider's non-streamed call)."""

    name = "llm"

    def __init__(self, complete: Callable[[str, list[dict[str, str]]], str]) -> None:
        self.complete = complete

    def summarize(self, previous: str, turns: Sequence[MemoryTurn]) -> str:
        system, messages = summary_request(previous, turns)
        text = self.complete(system, messages).strip()
        if not text:
            raise ValueError("the summarizer returned an empty summary")
        return text

    def compress(self, text: str, max_tokens: int, counter: TokenCounter) -> str:
        system, messages = summary_request("", [MemoryTurn("user", f"Shorten to under {max_tokens} tokens:\n{text}", 0)])
        return self.complete(system, messages).strip()


@dataclass(frozen=True)
class SummaryUpdate:
    """The result of a successful summarization: the new summary and what went into it (for the trace and tests)."""

    summary: Summary
    previous_text: str
    folded: tuple[MemoryTurn, ...] = field(default_factory=tuple)


def summarize_incremental(*, summarizer: Summarizer, previous: Summary | None, turns: Sequence[MemoryTurn],
                          evict_until: int, cap: int, counter: TokenCounter) -> SummaryUpdate | None:
    """Fold turns previous.covers+1 .. evict_until into the summary.

    Input is the previous summary plus the newly evicted turns only (never the whole history again). When the new
    summary is over ``cap`` tokens it is re-compressed. Returns None when there is nothing new to fold.
    Raises:
        whatever the summarizer raises; the caller keeps memory exactly as it was (atomicity, case C05).
    """
    start = previous.covers if previous else 0
    if evict_until % 2:  # never split an exchange: evict whole question/answer pairs
        evict_until -= 1
    if evict_until <= start:
        return None
    new = tuple(turns[start:evict_until])
    text = summarizer.summarize(previous.text if previous else "", new)
    tokens = counter.count(text)
    if tokens > cap:
        text = summarizer.compress(text, cap, counter)
        tokens = counter.count(text)
    sources = tuple(dict.fromkeys((previous.sources if previous else ()) + tuple(s for t in new for s in t.sources)))
    ids = tuple(dict.fromkeys((previous.chunk_ids if previous else ()) + tuple(i for t in new for i in t.chunk_ids)))
    return SummaryUpdate(Summary(text=text, covers=evict_until, tokens=tokens, sources=sources, chunk_ids=ids),
                         previous.text if previous else "", new)


# --- stale labels ----------------------------------------------------------------------------------------------------

def rewrite_stale_labels(text: str, titles: dict[str, str]) -> str:
    """Replace an earlier answer's [S#] markers with the titles they pointed at ("[S2]" -> "(source: Leave)").

    Earlier answers' labels belonged to earlier source maps; left as they were they would be confused with the
    current sources. Unknown labels are removed.
    """
    out, pos = [], 0
    for m in parse_markers(text):
        out.append(text[pos:m.start])
        names = [titles[lab] for lab in m.labels if lab in titles]
        if names:
            out.append(f" (source: {'; '.join(dict.fromkeys(names))})")
        pos = m.end
    out.append(text[pos:])
    return re.sub(r"\s+\(", " (", "".join(out)).replace(" .", ".")


# --- relevant older turns -------------------------------------------------------------------------------------------

def turn_terms(turn: Turn) -> frozenset[str]:
    """Content terms of a turn: those stored with it (found when the message was saved), else found now (cached per
    text by content_terms)."""
    return turn.terms if turn.terms is not None else content_terms(turn.text)


def relevant_older(question: str, turns: Sequence[Turn], *, limit: int = 1, min_overlap: int = 2,
                   max_tokens: int | None = None, overhead: int = 0) -> list[int]:
    """Indexes of user turns among ``turns`` most related to the question (shared content words >= min_overlap),
    best first (most shared terms, then the most recent), at most ``limit``. Each index points at a user turn whose
    answer is the next turn.

    Args:
        max_tokens: when given, only exchanges whose two turns cost at most this many tokens (each turn's ``tokens``
            plus ``overhead``, the per-message overhead) are considered: the most related exchange that still fits
            the room left in the history share. The cost test runs first, so a nearly full budget costs little.
    """
    q = content_terms(question)
    if len(q) < min_overlap:
        return []
    if max_tokens is None:
        room = float("inf")
    elif (room := max_tokens - 2 * overhead) < 2:  # no exchange of two non-empty turns fits
        return []
    tokens = [t.tokens for t in turns]
    # the cost test over every exchange at once (sums in C), then Python visits only the exchanges that fit
    fitting = (range(len(turns) - 1) if room == float("inf") else
               [i for i, cost in enumerate(map(operator.add, tokens, tokens[1:])) if cost <= room])
    scored = []
    for i in fitting:
        t, answer = turns[i], turns[i + 1]
        if t.role == "user" and answer.role == "assistant":
            # set operations over the question's few terms; the turns' terms are stored with them
            overlap = len((q & turn_terms(t)) | (q & turn_terms(answer)))
            if overlap >= min_overlap:
                scored.append((overlap, i))
    return [i for _, i in heapq.nlargest(limit, scored)]
