"""Plain data passed between the stages of one grounded answer.

Every type is a frozen dataclass that validates itself at construction (the Haystack 2.x habit), so a stage can
trust what it receives. The Django side converts its models to these types and back; nothing here knows about
Django.

This module owns the plan-side types: the token budget's JSON shape, ``Dropped``, ``Turn``, ``Note``, ``ContextPlan``
and ``Citation``. ``Chunk`` and ``Candidate`` (what ingestion stores and retrieval returns) live in
grounding.chunk_types and ``Source`` in grounding.source_types; they are re-exported here, so every stage imports its
data types from grounding.types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from grounding.chunk_types import Candidate, Chunk
from grounding.location import Location, source_label
from grounding.source_types import Source

__all__ = ["BudgetJSON", "Candidate", "Chunk", "Citation", "ContextPlan", "Counting", "DropReason", "Dropped", "Note",
           "Source", "Turn"]

DropReason = Literal["below_threshold", "duplicate_of", "over_budget", "superseded", "summarized"]

#: How token counts relate to the model's own tokenizer: "exact" (the count is the model's: cl100k models, or no
#: model at all), "calibrated" (cl100k scaled by a factor measured for a known model family, e.g. Claude),
#: "approximate" (the model's tokenizer is unknown: plain cl100k stands in).
Counting = Literal["exact", "calibrated", "approximate"]


class BudgetJSON(TypedDict, total=False):
    """The one token budget of a plan, as reported in the plan frame, the trace and `ask --json` (all sizes in
    tokens, counted with the plan's counter; see grounding.budget and grounding.context.plan_context).

    Attributes:
        window: the model's context window.
        safety_margin: fraction of the window planned for (0..1).
        usable: floor(window x safety_margin).
        completion_reserve: kept for the answer; also the request's max_tokens.
        system, question: the fixed parts (with message framing).
        available: what history and sources share: usable - completion_reserve - system - question.
        history_share, sources_share: what the policy granted each side.
        history, summary, sources, notes: what each part used (summary is inside history).
        total: the real count of the formatted prompt (never above ``limit``).
        limit: usable - completion_reserve.
        counting: how counts relate to the model's tokenizer (:data:`Counting`).
        factor: the calibration factor applied to cl100k counts (1.0 when exact).
    """

    window: int
    safety_margin: float
    usable: int
    completion_reserve: int
    system: int
    question: int
    available: int
    history_share: int
    sources_share: int
    history: int
    summary: int
    sources: int
    notes: int
    total: int
    limit: int
    counting: Counting
    factor: float

@dataclass(frozen=True)
class Dropped:
    """A candidate the plan left out, with the reason (one of DropReason) and a human-readable detail."""

    chunk_id: int
    reason: DropReason
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class Turn:
    """One earlier message of the conversation, as history for the prompt.

    Attributes:
        role: "user" or "assistant".
        text: the message text.
        tokens: token count of ``text`` (counted once when the message was saved).
        terms: the stemmed content terms of ``text`` (grounding.lexical.content_terms), found once when the message
            was saved, as its token count is; None when not stored (they are then found when needed). The search
            for the older exchange most related to a question reads them instead of re-reading every older turn.
    """

    role: Literal["user", "assistant"]
    text: str
    tokens: int
    terms: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.role not in ("user", "assistant"):
            raise ValueError(f"turn role must be 'user' or 'assistant', got {self.role!r}")


@dataclass(frozen=True)
class Note:
    """A context note for the model and the reader (e.g. a contradiction between two sources)."""

    kind: str
    labels: tuple[str, ...]
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "labels": list(self.labels), "text": self.text}


@dataclass(frozen=True)
class ContextPlan:
    """What the model will see, and why.

    Attributes:
        question: the user's question, unchanged.
        sources: labelled sources in prompt order.
        history: earlier turns kept verbatim, oldest first.
        notes: context notes (contradictions, superseded versions).
        dropped: every candidate left out, with its reason.
        budget: token counts per part: window, safety_margin, usable, completion_reserve, system, question,
            available, history_share, sources_share, history, sources, notes, total (the real count of the
            formatted prompt), limit.
        sufficient: False when the plan abstains without calling a model.
        abstain_reason: why the plan is insufficient ("" when sufficient).
        conflicts: (chunk id, chunk id) near-duplicate pairs that differ in a value or negation (for
            contradiction detection).
        ordering: the ordering strategy applied to ``sources``.
        history_omitted: how many unsummarized earlier turns did not fit the history share (to be summarized).
        summary: the conversation summary included in the prompt (None when none or it did not fit).
        memory: the history split for the trace: summary_tokens, summary_covers, verbatim_turns, older_turns
            (1-based positions of older exchanges brought back), omitted_turns, summary_skipped.
        query: the retrieval query when it differs from the question (a follow-up rewritten with the conversation).
        asked_in: the language the question looks written in when it is not English and most of its words are not
            the domain's ("French"; grounding.language.asked_in), "" otherwise: a refusal then says why.
        scheduled: ((document title, "YYYY-MM-DD"), ...) of scheduled (future-dated) versions the question would
            have matched (grounding.scheduled.scheduled_matches); a refusal then says they are not yet in effect.
    """

    question: str
    sources: tuple[Source, ...]
    history: tuple[Turn, ...] = ()
    notes: tuple[Note, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    budget: dict[str, float] = field(default_factory=dict)
    sufficient: bool = True
    abstain_reason: str = ""
    conflicts: tuple[tuple[int, int], ...] = ()
    ordering: str = "relevance"
    history_omitted: int = 0
    summary: Any = None
    memory: dict[str, Any] = field(default_factory=dict)
    query: str = ""
    asked_in: str = ""
    scheduled: tuple[tuple[str, str], ...] = ()

    @property
    def source_map(self) -> dict[str, Source]:
        """Label -> source. Citations resolve through this map only, never by list position."""
        return {s.label: s for s in self.sources}


@dataclass(frozen=True)
class Citation:
    """A resolved citation of one answer: the label and what it points at.

    Attributes:
        label: "S1"...
        chunk_id: the chunk holding the cited sentence (grounding.types.Source.chunk_of: in a source merged from
            adjacent chunks, the one the sentence starts in; else the source's primary chunk).
        title, version, date: from the source map.
        section: the section path of the cited sentence (grounding.types.Source.section_of: in a source merged from
            chunks of several sections, the section the sentence was written in).
        cited_text: the span of the source the citing sentence relies on (best-matching sentence, or the native
            citation's cited_text).
        location: the cited source's place in its original file (None without one).
    """

    label: str
    chunk_id: int
    title: str
    section: str
    version: str
    date: str
    cited_text: str
    location: Location | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON form (`ask --json`, the done frame, the stored answer); ``location`` and ``source_label`` as in
        Source.as_dict."""
        return {
            "label": self.label,
            "chunk_id": self.chunk_id,
            "title": self.title,
            "section": self.section,
            "version": self.version,
            "date": self.date,
            "cited_text": self.cited_text,
            "location": self.location.as_dict() if self.location else {},
            "source_label": source_label(self.title, self.location),
        }
