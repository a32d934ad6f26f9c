"""Sentence data read from what ingestion stored (issue 20 point 3: sentence boundaries, vectors and extracted values
are made once at ingestion and read at ask time).

A chunk's layout is how the offline answerer reads the chunk alone (grounding.sentence_data.segment): per sentence,
its character span, kind, quoted text and typed values (grounding.answer_types.typed_values). Ingestion stores it with
the chunk (knowledge.sentences), and the vectors of every quoted text and of the section heading (the claims and the
answer units). A planned source that is one chunk's text unchanged then gets its SentenceData from these, with no
sentence splitting, no value extraction and no model call; any other source (chunks merged, a passage withheld) is
read as before (grounding.sentence_rank.with_sentences).

No Django imports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

import numpy as np

from grounding.answer_types import typed_values
from grounding.sentence_data import SentenceData, built, section_heading, segment, texts_before
from grounding.types import Chunk, ContextPlan

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


def stored_sentence_data(layout: Layout, heading: str, known: Mapping[str, np.ndarray]) -> SentenceData | None:
    """The SentenceData of a chunk from its stored layout, the section ``heading`` its first sentence is read with,
    and ``known`` vectors (text -> unit vector, float32 (dim,)); None when a needed vector is not known."""
    units = [(int(u[0]), int(u[1]), str(u[2]), str(u[3])) for u in layout]
    before = texts_before(units, heading)
    if not units or any(t not in known for t in [u[3] for u in units] + [b for b in before if b]):
        return None
    return built(units, before, known.__getitem__, [tuple(u[4]) for u in layout])


def with_stored_sentences(plan: ContextPlan, chunks: Mapping[int, Chunk], layouts: Mapping[int, Layout],
                          known: Mapping[str, np.ndarray]) -> ContextPlan:
    """The plan with each source that is one chunk's text unchanged (``chunks``: chunk id -> Chunk) carrying the
    SentenceData read from that chunk's stored layout (``layouts``: chunk id -> layout) and ``known`` vectors
    (:func:`stored_sentence_data`); other sources are left as they are."""
    sources = []
    for s in plan.sources:
        key = s.chunk_ids[0] if len(s.chunk_ids) == 1 else None
        chunk, layout = chunks.get(key), layouts.get(key)
        data = None
        if s.sentences is None and chunk is not None and layout and chunk.text == s.text:
            data = stored_sentence_data(layout, section_heading(s.section), known)
        sources.append(replace(s, sentences=data) if data is not None else s)
    return replace(plan, sources=tuple(sources))
