"""Conversation memory on the Django side: the turns an answer may send back as history, the stored rolling summary,
and its refresh after an answer. The techniques (incremental summaries, verbatim window, stale labels) are in
grounding.memory.

An ask reads only what its context plan can use (:func:`memory_for_question`): the summary, the newest turns that
could be sent verbatim, and the few older exchanges that share the question's stored terms; the refresh after an
answer reads only the turns the summary does not cover yet. Neither reads or decodes every turn of a long
conversation: beyond those rows, one count of the answered questions (an indexed query) places them.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.db.models import Case, F, QuerySet, TextField, Value, When

from chat.models import Conversation, ConversationSummary, Message
from grounding.context import OLDER_WINDOW
from grounding.lexical import content_terms
from grounding.memory import (MemoryTurn, Summarizer, Summary, relevant_older, rewrite_stale_labels,
                              summarize_incremental)
from grounding.tokens import counter_for


def history_form(message: Message) -> str:
    """The text of a message as it appears in later prompts: an answer's [S#] markers become the titles they
    pointed at ("(source: Leave policy)"), so stale labels cannot be confused with the current sources."""
    if message.role != Message.Role.ASSISTANT:
        return message.text
    titles = {s["label"]: s["title"] for s in message.sources if "label" in s and "title" in s}
    return rewrite_stale_labels(message.text, titles)


def history_cost(message: Message) -> tuple[int, list[str]]:
    """What a message costs and holds as history, found once when it is saved: the raw cl100k token count of its
    history form and that form's stemmed content terms (sorted; grounding.lexical.content_terms), which the search
    for the older exchange most related to a question reads (grounding.memory.relevant_older)."""
    text = history_form(message)
    return counter_for("extractive").count(text), sorted(content_terms(text))


def _terms(message: Message) -> frozenset[str] | None:
    return frozenset(message.terms) if isinstance(message.terms, list) else None


def memory_turns(*, conversation: Conversation, before: Message | None = None) -> list[MemoryTurn]:
    """Answered questions of a conversation asked before ``before``, oldest first, each with its answer, in their
    history form.

    A question's answer is its latest complete reply (a retried or regenerated answer replaces the earlier one, in
    the question's place). Failed or interrupted answers and their questions are left out (their text is stored,
    not sent again), and so is an answer with no text (a provider that streamed nothing: B07; the model API
    rejects empty assistant turns). Token counts (raw cl100k, tokens) come from the messages, counted once when
    saved; the planner calibrates them.
    """
    questions = conversation.messages.filter(role=Message.Role.USER)
    if before is not None:
        questions = questions.filter(pk__lt=before.pk)
    questions = list(questions.order_by("pk"))
    answers: dict[int, Message] = {}
    for m in (conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.COMPLETE,
                                           reply_to__in=[q.pk for q in questions]).order_by("pk")):
        if m.text.strip():
            answers[m.reply_to_id] = m  # the latest complete answer of each question
    turns: list[MemoryTurn] = []
    for q in questions:
        a = answers.get(q.pk)
        if a is not None:
            turns += _exchange(q, a, len(turns) + 1)
    return turns


def _exchange(question: Message, answer: Message, position: int) -> list[MemoryTurn]:
    """A question and its answer as two memory turns, the question at ``position`` (1-based)."""
    cited = [c for c in answer.citations if isinstance(c, dict)]
    return [MemoryTurn("user", question.text, question.tokens, terms=_terms(question), position=position),
            MemoryTurn("assistant", history_form(answer), answer.tokens,
                       sources=tuple(dict.fromkeys(c.get("title", "") for c in cited if c.get("title"))),
                       chunk_ids=tuple(c["chunk_id"] for c in cited if "chunk_id" in c), terms=_terms(answer),
                       position=position + 1)]


# --- reading only what a plan can use --------------------------------------------------------------------------------

#: Exchanges read per query while walking a conversation back from its newest turn.
WALK_BATCH = 100
#: Older exchanges sharing the question's terms read in full, best first (most shared terms, then the most recent):
#: the plan brings back the best one that fits the room left (grounding.context), nearly always among these.
OLDER_CANDIDATES = 8
#: Raw cl100k tokens of history that cannot cost more than a prompt's limit after calibration: 1 / the lowest
#: calibration factor (grounding.tokens.Calibration, floor 0.8).
REACH_FACTOR = 1.25


def _complete_answers(conversation: Conversation, before: Message | None) -> QuerySet:
    """The conversation's complete answers with text to questions before ``before``."""
    answers = (conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.COMPLETE,
                                            reply_to__isnull=False).exclude(text=""))
    return answers.filter(reply_to__lt=before.pk) if before is not None else answers


def _answered_count(conversation: Conversation, before: Message | None) -> int:
    """How many questions before ``before`` have a complete answer (one indexed COUNT DISTINCT)."""
    return _complete_answers(conversation, before).values("reply_to").distinct().count()


#: A row's text where it has no stored terms (rows saved before terms were), else "": the walk back reads no text.
_LEGACY_TEXT = Case(When(terms__isnull=True, then=F("text")), default=Value(""), output_field=TextField())


def _newest_first(conversation: Conversation, before: Message | None):
    """The answered questions before ``before``, newest first, as light rows (question id, tokens, terms, text if no
    terms, latest complete answer's id, tokens, terms, text if no terms), read WALK_BATCH questions at a time (two
    indexed queries each) as the caller goes back."""
    questions = conversation.messages.filter(role=Message.Role.USER)
    if before is not None:
        questions = questions.filter(pk__lt=before.pk)
    questions = questions.annotate(legacy=_LEGACY_TEXT).order_by("-pk").values_list("pk", "tokens", "terms", "legacy")
    start = 0
    while True:
        batch = list(questions[start:start + WALK_BATCH])
        latest = {a[0]: a[1:] for a in _complete_answers(conversation, before)
                  .filter(reply_to__in=[q[0] for q in batch]).annotate(legacy=_LEGACY_TEXT).order_by("pk")
                  .values_list("reply_to", "pk", "tokens", "terms", "legacy")}  # the latest answer of each
        for q in batch:
            if q[0] in latest:
                yield q + latest[q[0]]
        if len(batch) < WALK_BATCH:
            return
        start += WALK_BATCH


def _light_turns(row: tuple, position: int) -> list[MemoryTurn]:
    """An exchange's two turns without their text (only tokens and terms; the text where no terms are stored)."""
    terms = [frozenset(t) if isinstance(t, list) else None for t in (row[2], row[6])]
    return [MemoryTurn("user", row[3] or "", row[1], terms=terms[0], position=position),
            MemoryTurn("assistant", row[7] or "", row[5] or 0, terms=terms[1], position=position + 1)]


def _full_exchanges(rows: list[tuple], positions: list[int]) -> list[MemoryTurn]:
    """The exchanges of ``rows`` (light rows, oldest first) read in full, at their positions (question's, 1-based)."""
    ids = [pk for row in rows for pk in (row[0], row[4])]
    read = Message.objects.only("pk", "role", "text", "tokens", "terms", "sources", "citations").in_bulk(ids)
    turns: list[MemoryTurn] = []
    for row, position in zip(rows, positions):
        turns += _exchange(read[row[0]], read[row[4]], position)
    return turns


def memory_for_question(*, conversation: Conversation, before: Message | None, question: str,
                        reach_tokens: int) -> tuple[list[MemoryTurn], Summary | None]:
    """What the context plan of ``question`` can use of the conversation's memory: (turns, the stored summary).

    The turns (oldest first, each with its ``position`` among all the conversation's remembered turns, as
    :func:`memory_turns` would number them) are
      - the newest exchanges the summary does not cover, back to the first whose tokens take the total past
        ``reach_tokens`` (raw cl100k tokens: more than history can ever be given; that one included), and
      - among the OLDER_WINDOW turns before those, the OLDER_CANDIDATES exchanges sharing the most stored content
        terms with the question (at least 2; grounding.memory.relevant_older): the older exchange the plan may
        bring back is the best of these that fits.
    Only those rows are read whole; the walk back reads ids, token counts and stored terms. Hand both to
    chat.answering.answer_plan, which places the summary among these turns by their positions.
    """
    summary = summary_get(conversation=conversation)
    exchanges = _answered_count(conversation, before)
    if not exchanges:  # a conversation's first question (or nothing answered before it): no walk back
        return [], summary
    covered = min(summary.covers // 2, exchanges) if summary else 0
    recent: list[tuple] = []
    older: list[tuple] = []
    used = 0
    for row in _newest_first(conversation, before):
        if len(recent) < exchanges - covered and used <= reach_tokens:
            recent.append(row)
            used += row[1] + (row[5] or 0)
        elif len(older) < OLDER_WINDOW // 2:
            older.append(row)
        else:
            break
    recent.reverse()
    older.reverse()
    first_recent = exchanges - len(recent)  # exchanges before the recent ones
    first_older = first_recent - len(older)
    light: list[MemoryTurn] = []
    for i, row in enumerate(older):
        light += _light_turns(row, 2 * (first_older + i) + 1)
    chosen = sorted(i // 2 for i in relevant_older(question, light, limit=OLDER_CANDIDATES))
    rows = [older[i] for i in chosen] + recent
    positions = [2 * (first_older + i) + 1 for i in chosen] + [2 * (first_recent + i) + 1 for i in range(len(recent))]
    return _full_exchanges(rows, positions), summary


def summary_in(history: list[MemoryTurn], summary: Summary | None) -> Summary | None:
    """The summary placed among ``history`` (turns carrying positions, possibly only some of the conversation's):
    its ``covers`` counted in those turns, for grounding.context.plan_context. Unchanged when any turn lacks a
    position."""
    if summary is None or not history or any(t.position <= 0 for t in history):
        return summary
    return replace(summary, covers=sum(1 for t in history if t.position <= summary.covers))


def memory_trace(memory: dict, history: list[MemoryTurn], summary: Summary | None) -> dict:
    """A plan's memory trace (grounding.types.ContextPlan.memory) with positions in the whole conversation when the
    plan was given only some of its turns (:func:`memory_for_question`): older_turns as positions, summary_covers as
    stored, omitted_turns counting every unsummarized turn not sent."""
    if not history or any(t.position <= 0 for t in history):
        return memory
    total = history[-1].position
    covers = min(summary.covers, total) if summary else 0
    out = dict(memory)
    out["older_turns"] = [history[i - 1].position for i in memory.get("older_turns", [])]
    if out.get("summary_covers"):
        out["summary_covers"] = covers
    out["omitted_turns"] = max(0, total - covers - int(memory.get("verbatim_turns", 0)))
    return out


def summary_get(*, conversation: Conversation) -> Summary | None:
    """The stored rolling summary of a conversation as the framework-free type (None when there is none)."""
    stored = ConversationSummary.objects.filter(conversation=conversation).first()
    if stored is None:
        return None
    return Summary(text=stored.text, covers=stored.covers, tokens=stored.tokens, sources=tuple(stored.sources),
                   chunk_ids=tuple(stored.chunk_ids))


#: Share of history's budget the summary may take (the rest is the verbatim window); at least SUMMARY_MIN_CAP tokens.
SUMMARY_SHARE = 0.3
SUMMARY_MIN_CAP = 200


def _verbatim(turns: list[MemoryTurn], window: int) -> int:
    """How many of the newest ``turns`` stay verbatim in a window of ``window`` tokens (each turn's tokens plus 3 for
    its role markers); the newest exchange always stays."""
    kept, used = 0, 0
    for t in reversed(turns):
        if used + t.tokens + 3 > window and kept >= 2:
            break
        used += t.tokens + 3
        kept += 1
    return kept


def summary_refresh(*, conversation: Conversation, history_share: int,
                    summarizer: Summarizer) -> ConversationSummary | None:
    """Fold the turns that no longer fit the verbatim window into the conversation summary (after an answer).

    ``history_share`` is the most the domain's policy lets history take (tokens). The verbatim window is the newest
    turns fitting that share minus the summary cap (SUMMARY_SHARE of the share); the newest exchange is never
    evicted. Atomic: the summarizer runs first; only on success is the new summary saved in one transaction, so a
    failing summarizer leaves memory exactly as it was and the next answer retries (case C05). Returns the saved
    summary, or None when nothing needed folding.
    Raises:
        whatever the summarizer raises (nothing is saved then).
    """
    counter = counter_for("extractive")
    previous = summary_get(conversation=conversation)
    # only the turns the summary does not cover yet are read (numbered from the first of them)
    exchanges = _answered_count(conversation, None)
    covered = min(previous.covers // 2, exchanges) if previous else 0
    if exchanges - covered <= 1:  # the newest exchange always stays verbatim: nothing to fold, nothing to read
        return None
    rows = [row for _, row in zip(range(exchanges - covered), _newest_first(conversation, None))][::-1]
    positions = [2 * (covered + i) + 1 for i in range(len(rows))]
    cap = max(SUMMARY_MIN_CAP, int(history_share * SUMMARY_SHARE))
    window = history_share - cap
    # what stays verbatim is decided on the stored token counts of the light rows: when every uncovered turn
    # fits, nothing is folded and no text is read (the usual case after an answer in a short conversation)
    light = [t for row, position in zip(rows, positions) for t in _light_turns(row, position)]
    kept = _verbatim(light, window)
    if kept >= len(light):
        return None
    turns = _full_exchanges(rows, positions)
    kept = _verbatim(turns, window)
    update = summarize_incremental(summarizer=summarizer, previous=replace(previous, covers=0) if previous else None,
                                   turns=turns, evict_until=len(turns) - kept, cap=cap, counter=counter)
    if update is None:
        return None
    s = replace(update.summary, covers=2 * covered + update.summary.covers)
    with transaction.atomic():
        stored, _ = ConversationSummary.objects.update_or_create(
            conversation=conversation,
            defaults={"text": s.text, "covers": s.covers, "tokens": s.tokens, "sources": list(s.sources),
                      "chunk_ids": list(s.chunk_ids), "summarizer": getattr(summarizer, "name", "")})
    return stored
