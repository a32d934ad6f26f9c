"""Sentence data read from what ingestion stored (issue 20 point 3: sentence boundaries, vectors and extracted values
are made once at ingestion and read at ask time).

A chunk's layout is how the offline answerer reads the chunk alone (grounding.sentence_data.segment): per sentence,
its character span, kind, quoted text and typed values (grounding.answer_types.typed_values). Ingestion stores it with
the chunk (knowledge.sentences), and the vectors of every quoted text and of the section heading (the claims and the
answer units). A planned source that is one chunk's text unchanged then gets its SentenceData from these, with no
sentence splitting, no value extraction and no model call. A source made of adjacent chunks (grounding.context_merge)
is read from its chunks' layouts too, moved to where each chunk's part starts in the joined text, when reading the
joined text would give the same sentences (:func:`joined_layout`). Any other source (a passage withheld, a join that
changes how the text reads) is read from its text (grounding.sentence_rank.with_sentences).

No Django imports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

import numpy as np

from grounding.answer_types import typed_values
from grounding.context_merge import joined_text
from grounding.sentence_data import SentenceData, built, logical_lines, section_heading, segment, texts_before
from grounding.types import Chunk, ContextPlan, Source

#: A stored layout: per sentence (start, end, kind, quoted text, typed values); offsets are characters of the text.
Layout = Sequence[Sequence]


def chunk_layout(text: str) -> list[list]:
    """The layout of a chunk text read alone (as a planned source of one chunk is read): per sentence
    [start, end, kind, quoted text, [typed values]], JSON-ready."""
    units, _ = segment(text, "")
    return [[a, b, kind, quoted, list(typed_values(quoted))] for a, b, kind, quoted in units]


def layout_texts(layout: Layout, heading: str) -> list[str]:
    """Every text whose vector reading the layout needs, each once, in order: the quoted sentences and the heading
    the first is read with."""
    return list(dict.fromkeys([u[3] for u in layout] + ([heading] if heading and layout else [])))


def stored_sentence_data(layout: Layout, heading: str, known: Mapping[str, np.ndarray], *,
                         screened: bool = False) -> SentenceData | None:
    """The SentenceData of a chunk from its stored layout, the section ``heading`` its first sentence is read with,
    and ``known`` vectors (text -> unit vector, float32 (dim,)); ``screened`` as SentenceData.screened. None when a
    needed vector is not known."""
    units = [(int(u[0]), int(u[1]), str(u[2]), str(u[3])) for u in layout]
    before = texts_before(units, heading)
    if not units or any(t not in known for t in [u[3] for u in units] + [b for b in before if b]):
        return None
    data = built(units, before, known.__getitem__, [tuple(u[4]) for u in layout])
    return replace(data, screened=True) if screened else data


def joined_layout(texts: Sequence[str], layouts: Sequence[Layout]) -> tuple[str, list[list]] | None:
    """The joined text of consecutive chunks of one document (in document order, joined as adjacent planned chunks
    are: grounding.context_merge.joined_text, the chunker's overlap removed) and its layout made from the chunks'
    stored ``layouts``: each chunk's sentences after the overlap, offsets moved to where its part starts.

    Reading a text is line by line (grounding.sentence_data.segment), so the two agree when every join is a line
    break between lines that read apart: None (read the joined text instead) when a part starts inside a line (the
    overlap ended mid-line), a sentence straddles the overlap's end, a table runs across a join (its header is read
    from the chunk before), or the line after a join would continue the line before it (hard-wrapped text).
    """
    text, starts, cuts = joined_text(tuple(texts))
    out: list[list] = []
    for k, (chunk, layout, start, cut) in enumerate(zip(texts, layouts, starts, cuts)):
        if k:
            before = texts[k - 1].rstrip().rsplit("\n", 1)[-1]
            after = chunk[cut:].lstrip().split("\n", 1)[0]
            if (cut and chunk[cut - 1] != "\n") or " | " in before or " | " in after \
                    or len(logical_lines(f"{before}\n{after}")) != 2:
                return None
        for unit in layout:
            a, b = int(unit[0]), int(unit[1])
            if a < cut < b:
                return None
            if a >= cut:
                moved = [start + a - cut, start + b - cut, *unit[2:]]
                if text[moved[0]:moved[1]] != chunk[a:b]:
                    return None
                out.append(moved)
    return text, out


def source_run(source: Source, chunks: Mapping[int, Chunk]) -> list[Chunk] | None:
    """The chunks a planned source's text was made of, in document order (``chunks``: chunk id -> Chunk): its lead
    chunk alone when the text is that chunk's unchanged; else the consecutive chunks of the lead's version among its
    chunk ids (near-duplicates merged in are other versions' chunks), which joined (grounding.context_merge.
    joined_text) may give the text (the caller compares); None when neither (a lead not in ``chunks``, a run with a
    gap or of one chunk whose text differs: a passage withheld)."""
    lead = chunks.get(source.chunk_ids[0]) if source.chunk_ids else None
    if lead is None:
        return None
    if lead.text == source.text:
        return [lead]
    run = sorted((chunks[i] for i in source.chunk_ids if i in chunks and chunks[i].version_id == lead.version_id),
                 key=lambda c: c.ordinal)
    if len(run) > 1 and all(b.ordinal == a.ordinal + 1 for a, b in zip(run, run[1:])):
        return run
    return None


def with_stored_sentences(plan: ContextPlan, chunks: Mapping[int, Chunk], layouts: Mapping[int, Layout],
                          known: Mapping[str, np.ndarray]) -> ContextPlan:
    """The plan with each source that is one chunk's text unchanged, or adjacent chunks joined (``chunks``: chunk id
    -> Chunk), carrying the SentenceData read from the stored layouts (``layouts``: chunk id -> layout; a joined
    source's from :func:`joined_layout`) and ``known`` vectors (:func:`stored_sentence_data`); other sources are
    left as they are."""
    sources = []
    for s in plan.sources:
        data = layout = None
        run = source_run(s, chunks) if s.sentences is None else None
        if not run:
            pass
        elif len(run) == 1:
            layout = layouts.get(run[0].chunk_id)
        elif all(layouts.get(c.chunk_id) for c in run):
            joined = joined_layout([c.text for c in run], [layouts[c.chunk_id] for c in run])
            layout = joined[1] if joined is not None and joined[0] == s.text else None
        if layout:
            data = stored_sentence_data(layout, section_heading(s.section), known,
                                        screened=all(c.injection is False for c in run))
        sources.append(replace(s, sentences=data) if data is not None else s)
    return replace(plan, sources=tuple(sources))
