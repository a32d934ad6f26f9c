"""Conversation memory on the Django side: the turns an answer may send back as history, the stored rolling summary,
and its refresh after an answer. The techniques (incremental summaries, verbatim window, stale labels) are in
grounding.memory."""

from __future__ import annotations

from django.db import transaction

from chat.models import Conversation, ConversationSummary, Message
from grounding.lexical import content_terms
from grounding.memory import MemoryTurn, Summarizer, Summary, rewrite_stale_labels, summarize_incremental
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
        if a is None:
            continue
        cited = [c for c in a.citations if isinstance(c, dict)]
        turns.append(MemoryTurn("user", q.text, q.tokens, terms=_terms(q)))
        turns.append(MemoryTurn("assistant", history_form(a), a.tokens,
                                sources=tuple(dict.fromkeys(c.get("title", "") for c in cited if c.get("title"))),
                                chunk_ids=tuple(c["chunk_id"] for c in cited if "chunk_id" in c), terms=_terms(a)))
    return turns


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
    turns = memory_turns(conversation=conversation)
    previous = summary_get(conversation=conversation)
    cap = max(SUMMARY_MIN_CAP, int(history_share * SUMMARY_SHARE))
    window = history_share - cap
    kept, used = 0, 0
    for t in reversed(turns[previous.covers if previous else 0:]):
        if used + t.tokens + 3 > window and kept >= 2:  # the newest exchange always stays verbatim
            break
        used += t.tokens + 3
        kept += 1
    update = summarize_incremental(summarizer=summarizer, previous=previous, turns=turns,
                                   evict_until=len(turns) - kept, cap=cap, counter=counter)
    if update is None:
        return None
    s = update.summary
    with transaction.atomic():
        stored, _ = ConversationSummary.objects.update_or_create(
            conversation=conversation,
            defaults={"text": s.text, "covers": s.covers, "tokens": s.tokens, "sources": list(s.sources),
                      "chunk_ids": list(s.chunk_ids), "summarizer": getattr(summarizer, "name", "")})
    return stored
