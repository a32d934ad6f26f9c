"""Selection inside a token budget: which history turns and which sources fit their shares, and what each costs.

Owns: ``select_history`` (the most recent whole turns that fit the history share, newest exchange never cut),
``select_sources`` (fill the sources share in relevance order, a source that does not fit skipped whole [18.6.2],
labels S1..Sn), building a planned entry's Source with passages addressed to an AI assistant withheld
(``build_source``) and costed (``with_tokens``), and the over_budget records of an entry left out
(``dropped_over_budget``). grounding.context.plan_context decides the shares and composes these.

Pure Python; no Django.
"""

from __future__ import annotations

from typing import Sequence

from grounding.context_merge import Entry, Parts, Sections
from grounding.label_screening import screened_path, screened_title
from grounding.prompt import NO_ANSWER, SOURCES_CLOSE, SOURCES_OPEN
from grounding.prompt_sources import SourceFormat, source_frame
from grounding.quarantine import PLACEHOLDER, Quarantine, quarantine
from grounding.token_pieces import raw_edited
from grounding.tokens import MESSAGE_OVERHEAD, TokenCounter
from grounding.types import Candidate, Dropped, Source, Turn

__all__ = ["build_source", "dropped_over_budget", "select_history", "select_sources", "with_best_match", "with_tokens"]


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


def build_source(cand: Candidate, ids: tuple[int, ...], text: str, label: str, parts: Parts = (),
            clean: frozenset[int] = frozenset(), sections: Sections = (),
                 chunk_starts: tuple[tuple[int, int], ...] = ()) -> Source:
    """The Source for a planned entry (tokens 0 until it is costed). ``label`` is "S<n>" and ``ids`` is non-empty by
    construction, so the instance is filled directly rather than through the validating ``__init__``: planning
    builds one per candidate that may be used. Its title and section headings are screened the same way
    (grounding.label_screening: one addressed to an AI assistant is replaced, and its kinds join ``withheld``).

    Passages addressed to an AI assistant are withheld from the text here (grounding.quarantine, cached per text),
    before the source is costed, so the budget counts what the model is given and every answerer sees the same text.
    An entry whose chunks ingestion found free of such passages (ids all in ``clean``, grounding.types.Chunk.injection
    False) is not scanned again: the scan runs once per chunk at ingestion, not once per plan. ``sections``
    (grounding.context_merge.Sections) and ``chunk_starts`` (Source.chunk_starts) are moved to where their parts
    start in the text left after withholding.
    """
    c = cand.chunk
    safe = Quarantine(text) if clean and all(i in clean for i in ids) else quarantine(text)
    title, title_kinds = screened_title(c.title)
    section, section_kinds = screened_path(c.section)
    withheld = tuple(dict.fromkeys(safe.kinds + title_kinds + section_kinds))
    if sections:
        sections = tuple((start, screened_path(path)[0]) for start, path in sections)
    if sections and safe.regions:
        sections = tuple((_after_withholding(start, safe.regions), section) for start, section in sections)
    if chunk_starts and safe.regions:
        chunk_starts = tuple((_after_withholding(start, safe.regions), chunk) for start, chunk in chunk_starts)
    out = object.__new__(Source)
    out.__dict__.update(label=label, chunk_ids=ids, document_id=c.document_id, title=title, section=section,
                        version=c.version, date=c.date, text=safe.text, score=cand.dense, tokens=0, status=c.status,
                        position=c.ordinal, version_id=c.version_id, withheld=withheld, location=c.location,
                        parts=parts, outline=c.outline, keywords=c.keywords, sections=sections, chunk_starts=chunk_starts)
    return out


def _after_withholding(offset: int, regions: Sequence[tuple[int, int]]) -> int:
    """Where character ``offset`` of a text is once its withheld ``regions`` are each replaced by PLACEHOLDER (an
    offset inside a region moves to the placeholder's start)."""
    shift = 0
    for s, e in regions:
        if offset < s:
            break
        if offset < e:
            return s - shift
        shift += (e - s) - len(PLACEHOLDER)
    return offset - shift


def costed_source(entry: Entry, label: str, clean: frozenset[int], fmt: SourceFormat,
                  counter: TokenCounter) -> Source:
    """``build_source`` of an entry with the source's formatted cost in ``tokens`` (calibrated tokens of its unit in
    the prompt, exactly ``counter.count(format_source(source, fmt))``). When the entry knows its raw count (from the
    chunks' counts stored at ingestion), only the frame is counted (grounding.tokens.TokenCounter.count_framed) and,
    when the body differs from the entry's text (withheld, escaped or restructured), the lines that differ
    (grounding.token_pieces.raw_edited); otherwise the unit is counted whole."""
    source = build_source(entry.candidate, entry.ids, entry.text, label, entry.parts, clean, entry.sections,
                          entry.chunk_starts)
    header, body, footer = source_frame(source, fmt)
    stored = entry.raw()
    if stored is not None and body != entry.text:
        stored = raw_edited(entry.text, stored, body)  # only the lines escaping or restructuring changed
    return with_tokens(source, counter.count_framed(header, body, footer, stored))


def with_tokens(source: Source, tokens: int) -> Source:
    """A copy of a just-built ``source`` carrying its formatted cost in ``tokens`` (what ``dataclasses.replace`` does,
    without re-running ``__init__``: the copy's fields were validated when ``source`` was built)."""
    out = object.__new__(Source)
    out.__dict__.update(source.__dict__)
    out.__dict__["tokens"] = tokens
    return out


def dropped_over_budget(ids: Sequence[int], detail: str, accounted: frozenset[int] | set[int]) -> list[Dropped]:
    """over_budget records for an entry left out: its primary chunk and every chunk merged into it (adjacent chunks
    of a run) that is not already recorded elsewhere (an exact or near duplicate is ``duplicate_of``)."""
    out = [Dropped(ids[0], "over_budget", detail)]
    out += [Dropped(x, "over_budget", f"merged with chunk {ids[0]}: {detail}") for x in ids[1:] if x not in accounted]
    return out


def with_best_match(entries: Sequence[Entry], relevance: dict[int, float], limit: int) -> list[Entry]:
    """``entries`` (in rank order) with the one holding the most relevant current chunk of all moved to position
    ``limit`` - 1 when it stands at or after ``limit`` (the most sources one prompt takes), so that it is planned;
    the others keep their order. ``relevance``: chunk id -> its relevance (grounding.ranking.relevance: the chunk's
    cosine, or its best sentence's when higher, the same the thresholds read).

    Rank fusion (grounding.retrieve.rrf_fuse) can put a long chunk about many things low on its chunk-level dense and
    BM25 ranks although one of its sentences matches the question best of all: the leave page's "You can work with
    your supervisor to use up to 4 hours of work time pursuing options from the Employee Assistance Program" (best
    sentence 0.68, every other candidate's at most 0.61) stood 11th of 17 and was never planned (the 18F
    calibration half's q011). Measured on the single-turn answerable questions of the development sets and the
    calibration half (968): the chunk holding the expected answer among the first eight candidates for 931 instead of
    926 (7 gained, 2 lost); moving the best three instead gains no more (9 gained, 3 lost)."""
    if len(entries) <= limit or limit < 1:
        return list(entries)
    low = float("-inf")
    score = [max((r for i in e.ids if (r := relevance.get(i, low)) == r), default=low)  # NaN: no score
             if e.candidate.chunk.status != "superseded" else low for e in entries]
    best = max(range(len(entries)), key=lambda i: (score[i], -i))
    if best < limit or score[best] == low:
        return list(entries)
    rest = [e for i, e in enumerate(entries) if i != best]
    return rest[:limit - 1] + [entries[best]] + rest[limit - 1:]


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
    passages addressed to an AI assistant (see ``build_source``).
    Returns:
        (sources with their formatted cost in ``tokens``, dropped over_budget records for every chunk of the entries
        left out, tokens used incl. the block).
    """
    block = counter.count(SOURCES_OPEN) + counter.count(SOURCES_CLOSE)
    sources: list[Source] = []
    dropped: list[Dropped] = []
    used = block
    for i, entry in enumerate(entries):
        ids = entry.ids
        if len(sources) >= max_sources:  # full: every entry left is over the source limit
            too_many = f"more than {max_sources} sources"
            for rest in entries[i:]:
                dropped += dropped_over_budget(rest.ids, too_many, accounted)
            break
        if i < len(costed) and len(sources) == i:
            source = costed[i]
        else:
            source = costed_source(entry, f"S{len(sources) + 1}", clean, fmt, counter)
        if used + source.tokens > share:
            dropped += dropped_over_budget(ids, f"needs {source.tokens} tokens, {share - used} left", accounted)
            continue
        sources.append(source)
        used += source.tokens
    return sources, dropped, (used if sources else 0)
