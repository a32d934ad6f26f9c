"""The typed contract of the chat protocol: the frames the server sends (websocket and server-sent events alike) and
the trace stored with each answer.

Frames are JSON objects with a ``type``; the TypedDicts below say which keys each carries. Sizes are in tokens,
texts in characters, times in seconds.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Union

from grounding.types import BudgetJSON


class SourceJSON(TypedDict, total=False):
    """One labelled source as the plan frame, the stored snapshot and the source panel have it
    (grounding.types.Source.as_dict): label, chunk_id, chunk_ids, document_id, title, section, version, date,
    status, text (characters), score (cosine), tokens (its formatted cost), position; as sent to the page also html
    (the text rendered with its structure, sanitised: chat.serializers.source_view)."""

    label: str
    chunk_id: int
    chunk_ids: list[int]
    document_id: int
    title: str
    section: str
    version: str
    date: str
    status: str
    text: str
    score: float
    tokens: int
    position: int
    html: str


class NoteJSON(TypedDict):
    """A context note (a contradiction, a superseded version, a passage addressed to AI assistants)."""

    kind: str
    labels: list[str]
    text: str


class DroppedJSON(TypedDict):
    """A candidate the plan left out, with the reason (below_threshold, duplicate_of, over_budget, superseded,
    summarized)."""

    chunk_id: int
    reason: str
    detail: str


class ProviderJSON(TypedDict):
    name: str
    label: str


class _AcceptedOptional(TypedDict, total=False):
    domain: str
    regenerates: int


class AcceptedFrame(_AcceptedOptional):
    """The question is stored: its id, its conversation (new or continued), the client's id, the title, the
    domain's name; for a regeneration (a new answer to a stored question) ``regenerates``, the answer it was asked
    from, and the regeneration's client id."""

    type: Literal["accepted"]
    message: int
    conversation: int
    client_id: str
    title: str


class PlanFrame(TypedDict, total=False):
    """Sent before the first delta, so chips are clickable at once: the question answered, the sources (each with
    its rendered ``html``), notes, budget (tokens), what was dropped and why, and who answers."""

    type: Literal["plan"]
    message: int
    question: int
    sources: list[SourceJSON]
    notes: list[NoteJSON]
    budget: BudgetJSON
    dropped: list[DroppedJSON]
    sufficient: bool
    abstain_reason: str
    ordering: str
    memory: dict[str, Any]
    provider: ProviderJSON
    resumed: bool


class StatusFrame(TypedDict):
    """What the answer is doing before its first delta ("searching", "planning", "writing"); sent to a websocket
    client that asked for it (``progress: true`` in its ask)."""

    type: Literal["status"]
    message: int
    stage: Literal["searching", "planning", "writing"]


class QueuedFrame(TypedDict):
    """The server is planning as many asks as it can at once: this one waits its turn, ``position`` (1-based) in the
    queue; sent at once and whenever the position changes. Nothing is dropped."""

    type: Literal["queued"]
    message: int
    position: int


class DeltaFrame(TypedDict, total=False):
    """A piece of answer text safe to show (no half citation marker); ``seq`` counts from 1; ``cites`` holds the
    [start, end] character offsets in ``text`` of its decided citation markers (outside code)."""

    type: Literal["delta"]
    message: int
    seq: int
    text: str
    cites: list[tuple[int, int]]


class PartialFrame(TypedDict):
    """A resumed answer's text so far, up to delta ``seq`` (with its ``cites``); later deltas follow."""

    type: Literal["partial"]
    message: int
    seq: int
    text: str
    cites: list[tuple[int, int]]


class DoneFrame(TypedDict, total=False):
    """The stored answer (chat.serializers.message_json without id and role): status, text, html, citations,
    invalid labels, support check, notes, sources, usage."""

    type: Literal["done"]
    message: int
    status: str
    text: str
    html: str
    error: str
    abstained: bool
    provider: str
    sources: list[SourceJSON]
    citations: list[dict[str, Any]]
    invalid: list[str]
    spans: list[dict[str, Any]]
    support: dict[str, Any]
    notes: list[NoteJSON]
    client_id: str


class ErrorFrame(TypedDict, total=False):
    """A failure the user sees: a stable code (chat.errors.CODES), the message, and for rate_limited the seconds to
    wait; message_id when a stored answer failed."""

    type: Literal["error"]
    code: str
    message: str
    retry_after: int
    message_id: int


Frame = Union[AcceptedFrame, StatusFrame, QueuedFrame, PlanFrame, DeltaFrame, PartialFrame, DoneFrame, ErrorFrame,
              dict]


class Trace(TypedDict, total=False):
    """What the answer's plan decided, stored with the answer and shown in the admin ("why this answer").

    Attributes:
        budget: the token budget split (grounding.types.BudgetJSON: tokens per part, limit, counting mode).
        dropped, notes: as in the plan frame.
        abstain_reason: why the plan abstained ("" when it did not).
        memory: the history split (summary tokens, verbatim turns, older turns brought back).
        retrieval_query: the query retrieval used (the question, or a follow-up rewritten).
        ordering: the source ordering applied.
        prompt_version: the system prompt version used (None: the built-in default).
        checks: what the model-backed checks did.
        max_tokens: the completion reserve sent as the request's max_tokens (tokens).
        usage: tokens the provider reported (grounding.providers.Usage.as_dict), when it did.
    """

    budget: BudgetJSON
    dropped: list[DroppedJSON]
    notes: list[NoteJSON]
    abstain_reason: str
    memory: dict[str, Any]
    retrieval_query: str
    ordering: str
    prompt_version: int | None
    checks: dict[str, Any]
    max_tokens: int
    usage: dict[str, int]
