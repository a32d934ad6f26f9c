"""Context construction: from ranked candidates and history to a ContextPlan inside one token budget.

    sufficiency [18.10] -> per-candidate floor -> exact + near deduplication [18.7] -> adjacent merge
      -> quarantine of passages addressed to an AI assistant (grounding.quarantine)
      -> one budget shared by history and sources [18.6.1] -> selection [18.6.2] -> labels S1..Sn (relevance)
      -> ordering [18.5] -> real count

Every step is a pure function; ``plan_context`` composes them. Token counts of chunks and turns come precomputed
(counted once at ingestion / when saved); formatted units are counted once and cached, and the prompt's real count is
the exact sum of its units (see grounding.prompt), so planning costs time linear in what it looks at.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from grounding.budget import BudgetError, BudgetPolicy, available_tokens, split_budget
from grounding.dedup import NEAR_DUPLICATE_COSINE, admit_versions, dedup_exact, dedup_near, normalise_text
from grounding.location import Location, merge_locations
from grounding.ordering import ORDERINGS, order_sources
from grounding.memory import Summary, relevant_older
from grounding.prompt import (NO_ANSWER, SOURCES_CLOSE, SOURCES_OPEN, NOTES_CLOSE, NOTES_OPEN, SourceFormat,
                              build_prompt, format_note, format_source, format_summary, history_messages, system_prefix,
                              wants_structure)
from grounding.quarantine import Quarantine, quarantine
from grounding.ranking import relevance as _relevance
from grounding.tokens import MESSAGE_OVERHEAD, REPLY_PRIMING, TokenCounter
from grounding.types import Candidate, ContextPlan, Dropped, Note, Source, Turn

__all__ = ["BudgetError", "BudgetPolicy", "ContextSettings", "SufficiencyJudge", "merge_adjacent", "plan_context",
           "select_history", "select_sources", "dedup_exact", "dedup_near", "normalise_text"]

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


def _strip_overlap(previous: str, text: str) -> str:
    """``text`` without the sentences it repeats from the end of ``previous`` (the chunker's overlap).

    Finds the longest suffix of ``previous`` that is a prefix of ``text`` (at least 20 characters), scanning only the
    places where ``text``'s opening appears: linear in the text length.
    """
    probe = text[:20]
    if len(probe) < 20:
        return text
    start = previous.find(probe, max(0, len(previous) - 2_000))
    while start != -1:
        if text.startswith(previous[start:]):
            return text[len(previous) - start:].lstrip()
        start = previous.find(probe, start + 1)
    return text


#: Where each block of an entry's chunks starts in its text: ((character offset, location), ...) in text order; () when
#: the entry covers one place or none (grounding.types.Source.parts).
Parts = tuple[tuple[int, Location], ...]
#: A planned entry: (representative candidate, chunk ids, text, parts).
Entry = tuple[Candidate, tuple[int, ...], str, Parts]


def merge_adjacent(kept: Sequence[tuple[Candidate, tuple[int, ...]]]) -> list[Entry]:
    """Merge candidates that are consecutive chunks (ordinal n, n+1, ...) of the same document version.

    A run becomes one entry: the best-scored candidate of the run stands for it, its chunk ids are all of the run's
    (best first), its text is the run's texts in document order with the chunker's overlap removed, its chunk's
    location covers the whole run (pages 4 and 5 when the run spans them) and its parts say where each chunk's text
    starts in the merged text with that chunk's own location (so a citation names the page of the sentence it cites,
    Source.location_of). Entries keep the rank of their best member.
    Returns:
        [(representative candidate, chunk ids, merged text, parts)] in rank order.
    """
    if len(kept) < 2:
        return [(c, ids, c.chunk.text, c.chunk.parts) for c, ids in kept]
    position = [(c.chunk.version_id, c.chunk.ordinal) for c, _ in kept]
    in_order = sorted(range(len(kept)), key=position.__getitem__)  # by version, then document order
    runs: dict[int, list[int]] = {}  # the run's best-ranked member (its leader) -> the run in document order
    run = [in_order[0]]
    for j in in_order[1:] + [-1]:  # -1 closes the last run
        if j >= 0 and position[j][0] and position[j][0] == position[run[-1]][0] \
                and position[j][1] == position[run[-1]][1] + 1:
            run.append(j)
            continue
        if len(run) > 1:
            runs[min(run)] = run
        run = [j]
    if not runs:
        return [(c, ids, c.chunk.text, c.chunk.parts) for c, ids in kept]
    members = {j for run in runs.values() for j in run}
    out: list[Entry] = []
    for i, (cand, ids) in enumerate(kept):
        run = runs.get(i)
        if run is None:
            if i not in members:
                out.append((cand, ids, cand.chunk.text, cand.chunk.parts))
            continue
        best = max(run, key=lambda j: kept[j][0].dense)
        ids = kept[best][1]
        for j in run:
            if j != best:
                ids += kept[j][1]
        lead = kept[best][0]
        chunks = [kept[j][0].chunk for j in run]
        location = merge_locations(c.location for c in chunks)
        if location != lead.chunk.location:  # the run covers more pages, slides or rows than its best chunk
            lead = replace(lead, chunk=replace(lead.chunk, location=location))
        text, starts, cuts = _joined_text(tuple([c.text for c in chunks]))
        parts: Parts = ()
        if location is not None:  # each chunk's blocks, moved to where the chunk's text starts in the merged text
            parts = tuple((start + max(0, offset - cut), loc)
                          for c, start, cut in zip(chunks, starts, cuts)
                          for offset, loc in (c.parts or (((0, c.location),) if c.location else ())))
        out.append((lead, ids, text, parts))
    return out


@functools.lru_cache(maxsize=4_096)
def _joined_text(texts: tuple[str, ...]) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Consecutive chunk texts joined by newlines with the chunker's overlap removed; with, per text, the character
    offset where its part starts in the joined text and how many of its leading characters the overlap removal cut
    (cached: the same runs of popular sections come back question after question)."""
    out = [texts[0]]
    starts, cuts = [0], [0]
    at = len(texts[0]) + 1
    for prev, text in zip(texts, texts[1:]):
        part = _strip_overlap(prev, text)
        out.append(part)
        starts.append(at)
        cuts.append(len(text) - len(part))
        at += len(part) + 1
    return "\n".join(out), tuple(starts), tuple(cuts)


def select_history(turns: Sequence[Turn], share: int, counter: TokenCounter, *,
                   newest_allowance: int = 0) -> tuple[list[Turn], int, int]:
    """The most recent turns that fit ``share`` tokens, filled newest first, returned oldest first.

    Turns are taken whole. The newest exchange (its last user and assistant turns) is never cut: when it does not
    fit ``share`` it is still taken if it fits ``share + newest_allowance``. History starts with a user turn. A newest
    user turn without an answer costs the NO_ANSWER message sent after it too.
    Stops at the first turn that does not fit, so the cost is linear in the turns kept, not in the history.
    Returns:
        (turns kept, tokens used including per-message overhead, number of older turns left out).
    """
    kept: list[Turn] = []
    used = 0
    limit = share
    # a newest user turn without its answer (the answer failed) is sent with the NO_ANSWER filler after it
    filler = counter.count(NO_ANSWER) + MESSAGE_OVERHEAD if turns and turns[-1].role == "user" else 0
    for i, turn in enumerate(reversed(turns)):
        cost = turn.tokens + MESSAGE_OVERHEAD + (filler if i == 0 else 0)
        if i < 2 and used + cost > limit:
            limit = share + newest_allowance
        if used + cost > limit:
            break
        kept.insert(0, turn)
        used += cost
    while kept and kept[0].role != "user":
        used -= kept[0].tokens + MESSAGE_OVERHEAD
        kept.pop(0)
    if not kept:
        used = 0
    return kept, used, len(turns) - len(kept)


def _source(cand: Candidate, ids: tuple[int, ...], text: str, label: str, parts: Parts = (),
            clean: frozenset[int] = frozenset()) -> Source:
    """The Source for a planned entry (tokens 0 until it is costed). ``label`` is "S<n>" and ``ids`` is non-empty by
    construction, so the instance is filled directly rather than through the validating ``__init__``: planning
    builds one per candidate that may be used.

    Passages addressed to an AI assistant are withheld from the text here (grounding.quarantine, cached per text),
    before the source is costed, so the budget counts what the model is given and every answerer sees the same text.
    An entry whose chunks ingestion found free of such passages (ids all in ``clean``, grounding.types.Chunk.injection
    False) is not scanned again: the scan runs once per chunk at ingestion, not once per plan.
    """
    c = cand.chunk
    safe = Quarantine(text) if clean and all(i in clean for i in ids) else quarantine(text)
    out = object.__new__(Source)
    out.__dict__.update(label=label, chunk_ids=ids, document_id=c.document_id, title=c.title, section=c.section,
                        version=c.version, date=c.date, text=safe.text, score=cand.dense, tokens=0, status=c.status,
                        position=c.ordinal, version_id=c.version_id, withheld=safe.kinds, location=c.location,
                        parts=parts)
    return out


def _with_tokens(source: Source, tokens: int) -> Source:
    """A copy of a just-built ``source`` carrying its formatted cost in ``tokens`` (what ``dataclasses.replace`` does,
    without re-running ``__init__``: the copy's fields were validated when ``source`` was built)."""
    out = object.__new__(Source)
    out.__dict__.update(source.__dict__)
    out.__dict__["tokens"] = tokens
    return out


def _left_out(ids: Sequence[int], detail: str, accounted: frozenset[int] | set[int]) -> list[Dropped]:
    """over_budget records for an entry left out: its primary chunk and every chunk merged into it (adjacent chunks
    of a run) that is not already recorded elsewhere (an exact or near duplicate is ``duplicate_of``)."""
    out = [Dropped(ids[0], "over_budget", detail)]
    out += [Dropped(x, "over_budget", f"merged with chunk {ids[0]}: {detail}") for x in ids[1:] if x not in accounted]
    return out


def select_sources(entries: Sequence[Entry], share: int, counter: TokenCounter,
                   fmt: SourceFormat, max_sources: int, costed: Sequence[Source] = (),
                   accounted: frozenset[int] | set[int] = frozenset(),
                   clean: frozenset[int] = frozenset()) -> tuple[list[Source], list[Dropped], int]:
    """Fill ``share`` tokens in relevance order [18.6.2]: a source that does not fit is skipped whole (never cut
    mid-thought) and the search goes on for smaller ones that fit. Labels S1..Sn follow relevance.

    ``costed`` optionally holds, for the first entries, the Source already built with label S{i+1} and its formatted
    cost in ``tokens``; it is reused while the labels agree (no entry skipped yet), so nothing is formatted twice.
    ``accounted`` holds the chunk ids already recorded as dropped (duplicates merged into an entry), so that an
    entry left out records each of its other chunks once. ``clean`` holds the chunk ids ingestion found free of
    passages addressed to an AI assistant (see ``_source``).
    Returns:
        (sources with their formatted cost in ``tokens``, dropped over_budget records for every chunk of the entries
        left out, tokens used incl. the block).
    """
    block = counter.count(SOURCES_OPEN) + counter.count(SOURCES_CLOSE)
    sources: list[Source] = []
    dropped: list[Dropped] = []
    used = block
    for i, (cand, ids, text, parts) in enumerate(entries):
        if len(sources) >= max_sources:  # full: every entry left is over the source limit
            too_many = f"more than {max_sources} sources"
            for _, rest, _, _ in entries[i:]:
                dropped += _left_out(rest, too_many, accounted)
            break
        if i < len(costed) and len(sources) == i:
            source = costed[i]
        else:
            source = _source(cand, ids, text, f"S{len(sources) + 1}", parts, clean)
            source = _with_tokens(source, counter.count(format_source(source, fmt)))
        if used + source.tokens > share:
            dropped += _left_out(ids, f"needs {source.tokens} tokens, {share - used} left", accounted)
            continue
        sources.append(source)
        used += source.tokens
    return sources, dropped, (used if sources else 0)


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
) -> ContextPlan:
    """Plan the context of one answer.

    Args:
        question: the user's question (kept whole and last).
        candidates: retrieved candidates in rank order (best first); ``vector`` enables near-duplicate removal.
        history: all earlier completed turns of the conversation, oldest first, with cached token counts.
        summary: the rolling summary of turns 1..summary.covers (those turns are not sent verbatim again, except
            the older exchange most related to the question among those that fit, when ``settings.relevant_older``).
        system_prompt, instructions: the stable system prefix parts.
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
    prefix_tokens = counter.count(system_prefix(system_prompt, instructions, settings.answer_mode)) + MESSAGE_OVERHEAD
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
    best = max((_relevance(c) for c in candidates if _relevance(c) == _relevance(c)), default=None)  # NaN: no score
    if best is None or best < policy.relevance_threshold:
        reason = ("nothing was retrieved" if best is None else
                  f"best relevance {best:.2f} is below the threshold {policy.relevance_threshold:.2f}")
        return ContextPlan(question=question, sources=(), sufficient=False, abstain_reason=reason,
                           dropped=tuple(Dropped(c.chunk.chunk_id, "below_threshold", f"score {c.dense:.2f}")
                                         for c in candidates) + tuple(version_dropped), budget=budget(),
                           ordering=settings.ordering)
    dropped: list[Dropped] = list(version_dropped) + [
        Dropped(c.chunk.chunk_id, "below_threshold", f"score {_relevance(c):.2f}")
        for c in candidates if not _relevance(c) >= policy.source_min_score]  # a NaN score included
    passing = [c for c in candidates if _relevance(c) >= policy.source_min_score]
    clean = frozenset(c.chunk.chunk_id for c in passing if c.chunk.injection is False)  # checked at ingestion

    # 2. deduplication [18.7] and adjacent merge
    exact = dedup_exact(passing)
    near = dedup_near(exact.kept, threshold=settings.near_duplicate)
    dropped += list(exact.dropped) + list(near.dropped)
    entries = (merge_adjacent(near.kept) if settings.merge_adjacent
               else [(c, ids, c.chunk.text, ()) for c, ids in near.kept])

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
    for i, (c, ids, text, parts) in enumerate(entries[:policy.max_sources]):
        source = _source(c, ids, text, f"S{i + 1}", parts, clean)
        costed.append(_with_tokens(source, counter.count(format_source(source, fmt))))
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
        dropped += _left_out(victim.chunk_ids, "real prompt count exceeded the budget", {d.chunk_id for d in dropped})
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
