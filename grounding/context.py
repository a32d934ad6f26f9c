"""Context construction: from ranked candidates and history to a ContextPlan inside one token budget.

    sufficiency [18.10] -> per-candidate floor -> exact + near deduplication [18.7] -> adjacent merge
      -> quarantine of passages addressed to an AI assistant (grounding.quarantine)
      -> one budget shared by history and sources [18.6.1] -> selection [18.6.2] -> labels S1..Sn (relevance)
      -> ordering [18.5] -> real count

Every step is a pure function; ``plan_context`` composes them. Token counts of chunks and turns come precomputed
(counted once at ingestion / when saved); formatted units are counted once and cached, and the prompt's real count is
the exact sum of its units (see grounding.prompt), so planning costs time linear in what it looks at.

This module owns the domain's ``ContextSettings``, ``plan_context`` (the shares of the budget and the steps in
order) and ``prompt_for`` (the prompt of a plan, formatted as it was counted). The adjacent merge is
grounding.context_merge; fitting history and sources into their shares, and building and costing each source, is
grounding.context_selection.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from grounding.budget import BudgetPolicy, available_tokens, split_budget
from grounding.context_merge import merge_adjacent, single
from grounding.context_selection import (costed_source, dropped_over_budget, select_history, select_sources,
                                         with_best_match)
from grounding.dedup import NEAR_DUPLICATE_COSINE, admit_versions, dedup_exact, dedup_near
from grounding.ordering import ORDERINGS, order_sources
from grounding.memory import Summary, relevant_older
from grounding.prompt import (SOURCES_CLOSE, SOURCES_OPEN, NOTES_CLOSE, NOTES_OPEN, build_prompt, format_summary,
                              history_messages, system_prefix_raw)
from grounding.prompt_sources import SourceFormat, format_note, wants_structure
from grounding.ranking import relevance as _relevance
from grounding.tokens import MESSAGE_OVERHEAD, REPLY_PRIMING, TokenCounter
from grounding.types import Candidate, ContextPlan, Dropped, Note, Source, Turn

__all__ = ["ContextSettings", "SufficiencyJudge", "plan_context", "prompt_for"]

#: How many turns before the verbatim window are searched for the exchange most related to the question (older ones
#: are in the summary); bounds the cost of a very long history.
OLDER_WINDOW = 400

#: Optional second opinion on sufficiency (an LLM check when a provider is configured): (question, sources) -> bool.
SufficiencyJudge = Callable[[str, Sequence[Source]], bool]


@dataclass(frozen=True)
class ContextSettings:
    """A domain's context-construction settings.

    Attributes:
        policy: the budget policy.
        ordering: one of grounding.ordering.ORDERINGS.
        source_format: style and score display of sources.
        answer_mode: "direct" or "quote_then_answer".
        structured: format tables/key-values as such when the question compares or asks for attributes [18.11].
        merge_adjacent: merge consecutive chunks of one document version into one source.
        near_duplicate: cosine at or above which two value-identical chunks are duplicates.
        relevant_older: also bring back the older exchange most related to the question among those that fit.
    Raises:
        ValueError: unknown ordering or answer mode.
    """

    policy: BudgetPolicy = field(default_factory=BudgetPolicy)
    ordering: str = "relevance"
    source_format: SourceFormat = field(default_factory=SourceFormat)
    answer_mode: str = "direct"
    structured: bool = True
    merge_adjacent: bool = True
    near_duplicate: float = NEAR_DUPLICATE_COSINE
    relevant_older: bool = True

    def __post_init__(self) -> None:
        if self.ordering not in ORDERINGS:
            raise ValueError(f"unknown ordering {self.ordering!r}; expected one of {', '.join(ORDERINGS)}")
        if self.answer_mode not in ("direct", "quote_then_answer"):
            raise ValueError(f"unknown answer mode {self.answer_mode!r}")




def _count_prompt(counter: TokenCounter, prefix_tokens: int, sources: Sequence[Source], notes_tokens: int,
                  summary_tokens: int, history: Sequence[Turn], question_tokens: int) -> tuple[int, int]:
    """(total, history message tokens) from cached unit counts; exact by construction (see grounding.prompt)."""
    source_tokens = (sum(s.tokens for s in sources) + counter.count(SOURCES_OPEN) + counter.count(SOURCES_CLOSE)
                     if sources else 0)
    if all(t.role == ("user", "assistant")[i % 2] for i, t in enumerate(history)) and len(history) % 2 == 0:
        # alternating user/assistant turns: one message per turn, its count cached on the turn
        history_tokens = sum(t.tokens for t in history) + MESSAGE_OVERHEAD * len(history)
        return prefix_tokens + source_tokens + notes_tokens + summary_tokens + history_tokens + question_tokens, \
            history_tokens
    turn_count = {t.text: t.tokens for t in history}
    history_tokens = 0
    for m in history_messages(history):
        tokens = turn_count.get(m["content"])
        history_tokens += (tokens if tokens is not None else counter.count(m["content"])) + MESSAGE_OVERHEAD
    total = prefix_tokens + source_tokens + notes_tokens + summary_tokens + history_tokens + question_tokens
    return total, history_tokens


def plan_context(
    *,
    question: str,
    candidates: Sequence[Candidate],
    history: Sequence[Turn] = (),
    system_prompt: str,
    instructions: str = "",
    settings: ContextSettings | None = None,
    policy: BudgetPolicy | None = None,
    counter: TokenCounter,
    notes: Sequence[Note] = (),
    judge: SufficiencyJudge | None = None,
    summary: Summary | None = None,
    query: str = "",
    stored_counts: tuple[int | None, int | None] = (None, None),
) -> ContextPlan:
    """Plan the context of one answer.

    Args:
        question: the user's question (kept whole and last).
        candidates: retrieved candidates in rank order (best first); ``vector`` enables near-duplicate removal.
        history: all earlier completed turns of the conversation, oldest first, with cached token counts.
        summary: the rolling summary of turns 1..summary.covers (those turns are not sent verbatim again, except
            the older exchange most related to the question among those that fit, when ``settings.relevant_older``).
        system_prompt, instructions: the stable system prefix parts.
        stored_counts: the raw cl100k counts of ``system_prompt.strip()`` and ``instructions.strip()`` stored when
            an admin saved them (tokens; None: counted here), so a plan encodes only the short fixed texts between
            them (grounding.prompt.system_prefix_raw; the same count either way).
        settings: the domain's context settings (``policy`` overrides its budget policy when given).
        counter: token counter of the provider that will be called.
        notes: context notes to include, in order, as many as fit what is available (plan.notes holds those kept).
        judge: optional sufficiency check run on the selected sources (e.g. an LLM); False makes the plan abstain.
        query: the retrieval query, when a follow-up was rewritten with the conversation (recorded on the plan).
    Returns:
        ContextPlan; ``sufficient`` is False (no model call) when nothing clears the relevance threshold (C16), no
        source fits, or the judge says the sources do not answer the question.
    Raises:
        BudgetError: when system prompt + question + completion reserve alone exceed the usable window (C03).
    """
    settings = settings or ContextSettings()
    if policy is not None:
        settings = replace(settings, policy=policy)
    policy = settings.policy
    structured = settings.structured and wants_structure(question)
    fmt = (settings.source_format if settings.source_format.structured == structured
           else replace(settings.source_format, structured=structured))

    if counter.factor != 1.0:
        # turns carry raw cl100k counts (counted once at save); every part of the prompt is counted by the same
        # calibrated counter (B01), so history is scaled like the rest
        history = [replace(t, tokens=counter.scale(t.tokens)) for t in history]
    prompt_raw, instructions_raw = stored_counts
    prefix_tokens = counter.scale(system_prefix_raw(system_prompt, instructions, settings.answer_mode,
                                                    prompt_raw=prompt_raw, instructions_raw=instructions_raw))
    prefix_tokens += MESSAGE_OVERHEAD
    question_tokens = counter.count(question) + MESSAGE_OVERHEAD + REPLY_PRIMING
    available = available_tokens(policy, system=prefix_tokens, question=question_tokens)

    def budget(**parts: int) -> dict[str, float]:
        out: dict[str, float] = {"counting": counter.counting, "factor": counter.factor,
                                 "window": policy.window, "safety_margin": policy.safety_margin,
                                 "usable": policy.usable, "completion_reserve": policy.completion_reserve,
                                 "system": prefix_tokens, "question": question_tokens, "available": available,
                                 "history_share": 0, "sources_share": 0, "history": 0, "summary": 0, "sources": 0,
                                 "notes": 0,
                                 "total": prefix_tokens + question_tokens, "limit": policy.limit}
        out.update(parts)
        return out

    # 0. versions: current preferred; a superseded one only for the past or a disagreement with the current one
    candidates, version_dropped = admit_versions(candidates, query or question)

    # 1. sufficiency on the retrieval side [18.10]: a candidate's relevance is its chunk cosine or, when higher, the
    # cosine of its best-matching sentence (grounding.ranking)
    relevance = [_relevance(c) for c in candidates]  # once per candidate, read by the three tests below
    best = max((r for r in relevance if r == r), default=None)  # NaN: no score
    if best is None or best < policy.relevance_threshold:
        reason = ("nothing was retrieved" if best is None else
                  f"best relevance {best:.2f} is below the threshold {policy.relevance_threshold:.2f}")
        return ContextPlan(question=question, sources=(), sufficient=False, abstain_reason=reason,
                           dropped=tuple(Dropped(c.chunk.chunk_id, "below_threshold", f"score {c.dense:.2f}")
                                         for c in candidates) + tuple(version_dropped), budget=budget(),
                           ordering=settings.ordering)
    # a chunk found by the numbered section the question names ("Day 3") passes whatever its score: its heading,
    # not its text, matches the question (grounding.heading_lookup)
    dropped: list[Dropped] = list(version_dropped) + [
        Dropped(c.chunk.chunk_id, "below_threshold", f"score {r:.2f}")
        for c, r in zip(candidates, relevance) if not (r >= policy.source_min_score or c.looked_up)]  # NaN included
    passing = [c for c, r in zip(candidates, relevance) if r >= policy.source_min_score or c.looked_up]
    clean = frozenset(c.chunk.chunk_id for c in passing if c.chunk.injection is False)  # checked at ingestion

    # 2. deduplication [18.7] and adjacent merge
    exact = dedup_exact(passing)
    near = dedup_near(exact.kept, threshold=settings.near_duplicate)
    dropped += list(exact.dropped) + list(near.dropped)
    entries = (merge_adjacent(near.kept) if settings.merge_adjacent
               else [single(c, ids) for c, ids in near.kept])
    # the entry holding the best match of all is planned, however low rank fusion put it
    entries = with_best_match(entries, {c.chunk.chunk_id: r for c, r in zip(candidates, relevance)},
                              policy.max_sources)

    # 3. one budget for history and sources [18.6.1]
    notes_tokens = 0
    if notes:  # in order, as many as fit what is available (a note never pushes the prompt past the limit)
        block = counter.count(NOTES_OPEN) + counter.count(NOTES_CLOSE)
        fitting = []
        for note in notes:
            cost = counter.count(format_note(note))
            if block + notes_tokens + cost <= available:
                fitting.append(note)
                notes_tokens += cost
        notes = fitting
        notes_tokens = notes_tokens + block if notes else 0
    room = available - notes_tokens
    covers = min(summary.covers, len(history)) if summary else 0
    summary_text = format_summary(summary.text) if summary else ""
    summary_cost = counter.count(summary_text) if summary_text else 0
    pool = history[covers:]  # unsummarized turns: candidates for the verbatim window
    history_need = summary_cost
    for turn in reversed(pool):  # only as far back as could ever fit: linear in what is looked at
        if history_need >= room:
            break
        history_need += turn.tokens + MESSAGE_OVERHEAD
    costed = []
    for i, entry in enumerate(entries[:policy.max_sources]):
        costed.append(costed_source(entry, f"S{i + 1}", clean, fmt, counter))
    sources_need = sum(s.tokens for s in costed) + counter.count(SOURCES_OPEN) + counter.count(SOURCES_CLOSE)
    split = split_budget(room, history_need=history_need, sources_need=sources_need, policy=policy)

    summary_used = summary_cost if summary_cost and summary_cost <= split.history else 0
    allowance = max(0, room - split.history - min(sources_need, policy.sources_floor))
    turns, turns_used, omitted = select_history(pool, split.history - summary_used, counter,
                                                newest_allowance=allowance)
    older: list[int] = []
    if settings.relevant_older and len(history) > len(turns) + 1:
        left = split.history - summary_used - turns_used
        end = len(history) - len(turns)
        start = max(0, end - OLDER_WINDOW)
        start += start % 2  # keep exchanges whole (user turns at even positions)
        earlier = history[start:end]
        for i in relevant_older(question, earlier, max_tokens=left, overhead=MESSAGE_OVERHEAD):
            pair = earlier[i:i + 2]
            turns = list(pair) + turns
            turns_used += sum(t.tokens + MESSAGE_OVERHEAD for t in pair)
            older.append(start + i)
    history_used = summary_used + turns_used
    source_share = room - history_used
    sources, over, sources_used = select_sources(entries, source_share, counter, fmt, policy.max_sources, costed,
                                                 {d.chunk_id for d in dropped}, clean)
    dropped += over

    # 4. optional second opinion on sufficiency
    reason = "" if sources else "no source fits the token budget"
    if sources and judge is not None and not judge(question, sources):
        reason = "the sufficiency check found that the sources do not answer the question"

    # 5. order [18.5]: a permutation of what the budget kept
    ordered = order_sources(sources, settings.ordering)
    total, history_tokens = _count_prompt(counter, prefix_tokens, ordered, notes_tokens, summary_used, turns,
                                          question_tokens)
    while total > policy.limit and ordered:  # cannot happen with exact unit counts; kept as a guard
        victim = max(ordered, key=lambda s: int(s.label[1:]))  # the last label: S1..Sn stay contiguous
        ordered.remove(victim)
        dropped += dropped_over_budget(victim.chunk_ids, "real prompt count exceeded the budget",
                                       {d.chunk_id for d in dropped})
        total, history_tokens = _count_prompt(counter, prefix_tokens, ordered, notes_tokens, summary_used, turns,
                                              question_tokens)
    memory = {"summary_tokens": summary_used, "summary_covers": covers if summary_used else 0,
              "verbatim_turns": len(turns) - 2 * len(older), "older_turns": [i + 1 for i in older],
              "omitted_turns": omitted, "summary_skipped": bool(summary_cost and not summary_used)}
    return ContextPlan(
        question=question, sources=tuple(ordered), history=tuple(turns), notes=tuple(notes), dropped=tuple(dropped),
        sufficient=bool(ordered) and not reason, abstain_reason=reason, conflicts=near.conflicts,
        ordering=settings.ordering, history_omitted=omitted, summary=summary if summary_used else None,
        memory=memory, query=query if query != question else "",
        budget=budget(history_share=split.history, sources_share=source_share, history=history_tokens + summary_used,
                      summary=summary_used, sources=sum(s.tokens for s in ordered), notes=notes_tokens, total=total),
    )


def prompt_for(plan: ContextPlan, *, system_prompt: str, instructions: str = "",
               settings: ContextSettings | None = None):
    """The Prompt of a plan (the same formatting the plan was counted with)."""
    settings = settings or ContextSettings()
    fmt = replace(settings.source_format, structured=settings.structured and wants_structure(plan.question))
    return build_prompt(system_prompt=system_prompt, instructions=instructions, sources=plan.sources,
                        notes=plan.notes, history=plan.history, question=plan.question, fmt=fmt,
                        answer_mode=settings.answer_mode, summary=plan.summary.text if plan.summary else "")
