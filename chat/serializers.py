"""JSON forms of the chat, each built in one place:

- the answer payload: the `ask --json` contract, the API's answer, and the core of the websocket's ``done`` frame;
- a stored message as the page and the API's conversation endpoint show it (the whole frozen source snapshot, text
  included, so chips work after a reload); the ``done`` frame is the payload plus this view;
- the plan frame and the frames of a resumed answer.
"""

from __future__ import annotations

from typing import Any, TypedDict

from chat.answering import PreparedAnswer
from chat.frames import DoneFrame, DroppedJSON, NoteJSON, PartialFrame, PlanFrame, SourceJSON
from chat.models import Message
from chat.selectors import answer_markdown
from grounding.citation_stream import CitationStreamParser
from grounding.note_sentences import without_note_sentences
from grounding.notes import answer_notes
from grounding.rendering import render_html
from grounding.source_rendering import render_source_html
from grounding.types import BudgetJSON, ContextPlan


class AnswerPayload(TypedDict, total=False):
    """The answer contract shared by `manage.py ask --json`, the HTTP API and the ``done`` frame.

    Attributes:
        answer: the answer text (Markdown with [S#] markers; raw HTML escaped).
        abstained: the documents did not hold the answer (the text says so).
        status: "complete", "streaming", "interrupted" or "failed"; ``error`` says why for the last two.
        html: the sanitised HTML with citation chips.
        citations: one resolved citation per distinct valid label (label, chunk_id, title, section, version, date,
            cited_text); invalid_citations: labels that resolved to no source.
        spans: the cited sentence of each chip, in text order; support: the per-sentence support check.
        sources: the planned sources (SOURCE_KEYS of the frozen snapshot: no text); notes, budget (tokens),
            dropped: the plan's; usage: the provider's token report (tokens), {} when none.
        provider: who answered; prompt_version: the system prompt version (None: the built-in default).
        conversation, message, question_message, client_id: where the turn is stored.
    """

    answer: str
    abstained: bool
    status: str
    error: str
    html: str
    citations: list[dict[str, Any]]
    invalid_citations: list[str]
    spans: list[dict[str, Any]]
    support: dict[str, Any]
    sources: list[SourceJSON]
    notes: list[NoteJSON]
    budget: BudgetJSON
    dropped: list[DroppedJSON]
    usage: dict[str, int]
    provider: str
    prompt_version: int | None
    conversation: int | None
    message: int | None
    question_message: int | None
    client_id: str


#: The keys of a source in the answer payload (the stored snapshot has the text and the rest too).
SOURCE_KEYS = ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens", "location",
               "source_label")


def shown_notes(answer: Message) -> list[dict[str, Any]]:
    """The notes shown with a stored answer: its plan's notes (the trace's), an injection note only when the answer
    cites a source it names, a contradiction or version note when it concerns what the answer says
    (grounding.notes.answer_notes)."""
    return answer_notes((answer.trace or {}).get("notes", []), (c.get("label", "") for c in answer.citations or ()),
                        answer.text or "")


def answer_payload(answer: Message, question: Message | None = None) -> AnswerPayload:
    """The answer contract of a stored (or filled, unsaved) answer; ``question`` defaults to its cached
    ``reply_to`` (never a query here: this may run on the event loop)."""
    if question is None and answer.reply_to_id and Message._meta.get_field("reply_to").is_cached(answer):
        question = answer.reply_to
    trace = answer.trace or {}
    return {
        "answer": answer.text, "abstained": answer.abstained, "status": answer.status,
        "error": answer.error, "html": answer.html, "citations": answer.citations,
        "invalid_citations": answer.invalid_citations, "spans": answer.spans, "support": answer.support,
        "sources": [{k: v for k, v in s.items() if k in SOURCE_KEYS} for s in answer.sources],
        "notes": shown_notes(answer), "budget": trace.get("budget", {}),
        "dropped": trace.get("dropped", []), "usage": trace.get("usage", {}), "provider": answer.provider,
        "prompt_version": trace.get("prompt_version"), "conversation": answer.conversation_id,
        "message": answer.pk, "question_message": answer.reply_to_id,
        "client_id": question.client_id if question is not None else "",
    }


def done_frame(answer: Message, question: Message | None = None) -> DoneFrame:
    """The ``done`` frame of a stored answer: {"type": "done"}, the answer payload, and the message as the page
    shows it (``text``, the whole source snapshot for the panel)."""
    view = {k: v for k, v in message_json(answer, question).items() if k not in ("id", "role")}
    return {"type": "done", **answer_payload(answer, question), **view}  # type: ignore[typeddict-item]


def source_view(source: dict[str, Any]) -> dict[str, Any]:
    """A source of the plan as the source panel shows it and the frozen snapshot stores it: every key of
    grounding.types.Source.as_dict plus ``html``, its text rendered with its structure (headings, lists, tables) and
    sanitised (grounding.source_rendering; a source merged from chunks of several sections shows the headings between
    them). A snapshot stored before sources had ``html`` gets it rendered here."""
    if not isinstance(source, dict) or "html" in source:
        return source
    return {**source, "html": render_source_html(str(source.get("text", "")), str(source.get("section", "")),
                                                 source.get("sections") or ())}


def plan_json(plan: ContextPlan) -> dict[str, Any]:
    """The plan as JSON: sources (with text and its ``html``, for the source panel), notes, budget (tokens), dropped,
    sufficient, abstain_reason, ordering, memory (the history split)."""
    return {
        "sources": [source_view(s.as_dict()) for s in plan.sources],
        "notes": [n.as_dict() for n in plan.notes],
        "budget": plan.budget,
        "dropped": [d.as_dict() for d in plan.dropped],
        "sufficient": plan.sufficient,
        "abstain_reason": plan.abstain_reason,
        "ordering": plan.ordering,
        "memory": plan.memory,
    }


def plan_frame(*, message_id: int, prepared: PreparedAnswer, question_id: int | None = None) -> PlanFrame:
    """The ``plan`` frame sent before the first delta (chips are clickable at once); ``question`` is the id of the
    question it answers (a regenerated answer joins its question's earlier answers on the page)."""
    frame = {"type": "plan", "message": message_id, **plan_json(prepared.plan),
             "provider": {"name": prepared.provider.name, "label": prepared.provider.label}}
    if question_id is not None:
        frame["question"] = question_id
    return frame  # type: ignore[return-value]


def stored_plan_frame(message: Message) -> PlanFrame:
    """The ``plan`` frame of a stored (still streaming) answer, for a socket resuming it: its frozen sources, notes,
    budget and dropped candidates."""
    trace = message.trace or {}
    return {"type": "plan", "message": message.pk, "question": message.reply_to_id,
            "sources": [source_view(s) for s in message.sources], "notes": trace.get("notes", []),
            "budget": trace.get("budget", {}), "dropped": trace.get("dropped", []), "resumed": True,
            "provider": {"name": message.provider, "label": message.provider}}


def partial_frame(message_id: int, text: str, seq: int) -> PartialFrame:
    """The ``partial`` frame of a generating answer: its text so far (characters) up to delta ``seq``, with the
    decided citation markers in it."""
    return {"type": "partial", "message": message_id, "seq": seq, "text": text, "cites": stream_cites(text)}


def stream_cites(text: str) -> list[tuple[int, int]]:
    """The citation markers of a streamed answer's text so far that are decided (outside code), as (start, end)
    character offsets: the chips a resumed socket may show before the answer is done."""
    parser = CitationStreamParser()
    parser.feed(text)
    return parser.citations_in(0, parser.released)


def shown_html(message: Message, notes: list[dict[str, Any]]) -> str:
    """The HTML the page shows for a stored message: its stored HTML, or, when its text has the offline answerer's
    sentence on a note the note box shows (``notes``, :func:`shown_notes`), the text rendered without that sentence
    (grounding.note_sentences): the note is shown once, in the box. The stored text and HTML keep it."""
    text = message.text or ""
    if message.role != Message.Role.ASSISTANT or not notes or not message.html:
        return message.html
    shown = without_note_sentences(text, notes)
    if shown == text:
        return message.html
    return render_html(shown, {str(s.get("label", "")) for s in message.sources or () if isinstance(s, dict)})


def message_json(message: Message, question: Message | None = None) -> dict[str, Any]:
    """A stored message as the page and the API's conversation endpoint show it (the frozen sources, text
    included, make chips work after a reload): id, role, text, html, status, error, abstained, provider, sources
    (as stored: each with its rendered ``html`` since issue 22), citations, invalid (labels), spans, support, notes,
    usage,
    client_id (an answer's is its question's, when the question is given or cached as ``reply_to``; a regenerated
    answer's is the regeneration's); for an answer also reply_to (its question's id), feedback ("helpful",
    "unhelpful" or ""), feedback_reason, and markdown (the text to copy, citations resolved to titles:
    chat.selectors.answer_markdown)."""
    if question is None and message.reply_to_id and Message._meta.get_field("reply_to").is_cached(message):
        question = message.reply_to
    trace = message.trace or {}
    notes = shown_notes(message)
    out = {
        "id": message.pk, "role": message.role, "text": message.text, "html": shown_html(message, notes),
        "status": message.status, "error": message.error, "abstained": message.abstained,
        "provider": message.provider, "sources": message.sources,
        "citations": message.citations,
        "invalid": message.invalid_citations, "spans": message.spans, "support": message.support,
        "notes": notes, "usage": trace.get("usage", {}),
        "client_id": message.client_id or (question.client_id if question is not None else ""),
    }
    if message.role == Message.Role.ASSISTANT:
        out.update(reply_to=message.reply_to_id, feedback=message.feedback, feedback_reason=message.feedback_reason,
                   markdown=answer_markdown(answer=message))
    return out


def conversation_item(conversation: Any) -> dict[str, Any]:
    """A conversation as the page's sidebar lists it: id, title (its name, or "Conversation <id>"), domain (the
    domain's name, shown under the title), url, updated_at (ISO 8601), and ``match``: for a search, the message text
    around the query ("" when the title matched)."""
    return {"id": conversation.pk, "title": str(conversation), "domain": conversation.domain.name,
            "url": f"/c/{conversation.pk}/", "updated_at": conversation.updated_at.isoformat(),
            "match": getattr(conversation, "match", "")}


def page_message_json(message: Message) -> dict[str, Any]:
    """:func:`message_json` as the chat page loads it: every source with its rendered ``html``, also for snapshots
    stored before sources kept it (rendered now, not stored)."""
    out = message_json(message)
    out["sources"] = [source_view(s) for s in out["sources"]]
    return out
