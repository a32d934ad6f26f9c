"""Merging of adjacent chunks: consecutive chunks of one document version become one planned entry.

Owns: the planned entry (``Entry``: representative candidate, chunk ids, text, ``Parts``), ``merge_adjacent`` (a run
of chunks n, n+1, ... of one version becomes one entry whose location covers the run and whose parts say where each
chunk's text starts), and the removal of the chunker's overlap between consecutive texts. Used by
grounding.context.plan_context (step 2, after deduplication) and grounding.context_selection.

Pure Python; no Django.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import NamedTuple, Sequence

from grounding.location import Location, merge_locations
from grounding.token_pieces import raw_joined, raw_tail
from grounding.types import Candidate

__all__ = ["Entry", "Parts", "Sections", "merge_adjacent"]


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
#: Where each chunk's part of a merged entry's text starts, with that chunk's own section path: ((character offset,
#: section), ...) in text order; () when the entry is one chunk or all its chunks share one section
#: (grounding.types.Source.sections).
Sections = tuple[tuple[int, str], ...]


class Entry(NamedTuple):
    """A planned entry: the candidate that stands for it, its chunk ids (that candidate's first), its text, where each
    chunk's blocks start in that text (``Parts``), what the text was made of: per chunk in text order, (the
    chunk's text, its raw cl100k count stored at ingestion (0: not stored), how many leading characters the overlap
    removal cut), from which :meth:`raw` counts the text, and where each chunk's part starts with its own section
    (``Sections``, so a cited sentence is shown under the section it was written in), and where each chunk's part
    starts with its chunk id (() for one chunk; grounding.types.Source.chunk_starts)."""

    candidate: Candidate
    ids: tuple[int, ...]
    text: str
    parts: Parts
    made_of: tuple[tuple[str, int, int], ...]
    sections: Sections = ()
    chunk_starts: tuple[tuple[int, int], ...] = ()

    def raw(self) -> int | None:
        """Raw cl100k count of ``text`` (tokens) from the chunks' stored counts, or None when one is not stored.
        Exact: the chunks' texts joined by newlines, each from its cut on (grounding.token_pieces.raw_joined, raw_tail)."""
        if len(self.made_of) == 1:
            return self.made_of[0][1] or None
        if not all(r > 0 for _, r, _ in self.made_of):
            return None
        return raw_joined([(text[cut:], raw_tail(text, r, cut)) for text, r, cut in self.made_of])


def single(cand: Candidate, ids: tuple[int, ...]) -> Entry:
    """The entry of one candidate alone: its chunk's text and parts."""
    return Entry(cand, ids, cand.chunk.text, cand.chunk.parts, ((cand.chunk.text, cand.chunk.tokens, 0),))


def merge_adjacent(kept: Sequence[tuple[Candidate, tuple[int, ...]]]) -> list[Entry]:
    """Merge candidates that are consecutive chunks (ordinal n, n+1, ...) of the same document version.

    A run becomes one entry: the best-scored candidate of the run stands for it, its chunk ids are all of the run's
    (best first), its text is the run's texts in document order with the chunker's overlap removed, its chunk's
    location covers the whole run (pages 4 and 5 when the run spans them), its chunk's outline is the run's outlines in
    document order (grounding.types.Chunk.outline), and its parts say where each chunk's text
    starts in the merged text with that chunk's own location (so a citation names the page of the sentence it cites,
    Source.location_of), and its sections say where each chunk's text starts with that chunk's own section path when
    the run spans more than one section (so a citation names the section of the sentence it cites,
    Source.section_of, and the rendered passage shows the headings between the chunks). Entries keep the rank of
    their best member.
    Returns:
        [(representative candidate, chunk ids, merged text, parts)] in rank order.
    """
    if len(kept) < 2:
        return [single(c, ids) for c, ids in kept]
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
        return [single(c, ids) for c, ids in kept]
    members = {j for run in runs.values() for j in run}
    out: list[Entry] = []
    for i, (cand, ids) in enumerate(kept):
        run = runs.get(i)
        if run is None:
            if i not in members:
                out.append(single(cand, ids))
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
        outline = tuple(dict.fromkeys(p for c in chunks for p in c.outline))
        if outline != lead.chunk.outline:  # the sub-sections near every chunk of the run (grounding.list_answers)
            lead = replace(lead, chunk=replace(lead.chunk, outline=outline))
        text, starts, cuts = joined_text(tuple([c.text for c in chunks]))
        parts: Parts = ()
        if location is not None:  # each chunk's blocks, moved to where the chunk's text starts in the merged text
            parts = tuple((start + max(0, offset - cut), loc)
                          for c, start, cut in zip(chunks, starts, cuts)
                          for offset, loc in (c.parts or (((0, c.location),) if c.location else ())))
        sections: Sections = ()
        if len({c.section for c in chunks}) > 1:
            sections = tuple((start, c.section) for c, start in zip(chunks, starts))
        out.append(Entry(lead, ids, text, parts, tuple((c.text, c.tokens, cut) for c, cut in zip(chunks, cuts)),
                         sections, tuple((start, c.chunk_id) for c, start in zip(chunks, starts))))
    return out


@functools.lru_cache(maxsize=4_096)
def joined_text(texts: tuple[str, ...]) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
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
