"""What ingestion stores and retrieval returns: ``Chunk`` (one retrievable passage of one document version) and
``Candidate`` (a retrieved chunk with its scores and stored vectors).

Frozen dataclasses like the rest of grounding.types, which re-exports both: import them from grounding.types. The
plan-side types built from them (Source, ContextPlan, Citation, ...) stay in grounding.types. No Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from grounding.location import Location

__all__ = ["Candidate", "Chunk"]


@dataclass(frozen=True)
class Chunk:
    """One retrievable passage of one document version.

    Attributes:
        chunk_id: database id of the chunk (stable for the life of the version).
        document_id: id of the document the chunk belongs to.
        title: document title.
        section: section path joined with " > " ("Leave types > Annual leave"); "" for the document lead.
        version: version label of the document version ("2025-03", the effective date, or "v1", "v2", ... numbered per
            document when none was given).
        date: effective date of the version as ISO "YYYY-MM-DD", or "" when unknown.
        text: the chunk text as ingested (plain text, Markdown tags removed).
        tokens: token count of ``text`` (cl100k, counted once at ingestion).
        status: "current", "draft" or "superseded".
        ordinal: position of the chunk inside its document version (0-based), used for adjacency.
        version_id: id of the document version.
        location: where the text sits in the original file (PDF pages, slide, sheet rows); None when the format has
            no such places (Markdown, HTML, text).
        parts: when the chunk covers several places, ((character offset in ``text``, location), ...) in text order,
            one per block (grounding.chunking.ChunkDraft.parts); () otherwise.
        sentences: the text's sentences as contradiction detection reads them (grounding.claims.claims),
            split once at ingestion; () when not known.
        units: the other texts the offline answerer reads the chunk as (list items, table rows read with their header,
            the section heading; grounding.sentence_store.layout_texts, those not among ``sentences``), made once
            at ingestion; () when none or not known.
        text_key: the exact-deduplication key of ``text`` (grounding.dedup.text_hash: the hash of its normalised
            form), computed once when the index is built; "" when not known (then computed at planning).
        injection: whether ``text`` has a passage addressed to an AI assistant (grounding.injection), checked once
            at ingestion; None when not known (then planning checks the source text).
        value_key: what near-duplicate removal compares of ``text`` (grounding.dedup.value_key: its stated values
            and negation count), computed once when the index is built; "" when not known (then computed at planning).
        outline: the part of its document version's outline the chunk sits in (section paths joined with " > ",
            grounding.list_answers.outline_near): the names of its section's sub-sections, also those written in
            other chunks; () when not known.
        keywords: its document version's keywords from the front matter (grounding.parsing.keywords_of), lower
            case; () when none or not known.
    """

    chunk_id: int
    document_id: int
    title: str
    section: str
    version: str
    date: str
    text: str
    tokens: int
    status: str = "current"
    ordinal: int = 0
    version_id: int = 0
    location: Location | None = None
    parts: tuple[tuple[int, Location], ...] = ()
    sentences: tuple[str, ...] = field(default=(), repr=False)
    units: tuple[str, ...] = field(default=(), repr=False)
    text_key: str = field(default="", repr=False)
    injection: bool | None = field(default=None, repr=False)
    value_key: str = field(default="", repr=False)
    outline: tuple[str, ...] = field(default=(), repr=False)
    keywords: tuple[str, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            raise ValueError(f"chunk {self.chunk_id}: tokens must be >= 0, got {self.tokens}")
        if not self.text.strip():
            raise ValueError(f"chunk {self.chunk_id}: empty text")


@dataclass(frozen=True)
class Candidate:
    """A retrieved chunk with its scores.

    Attributes:
        chunk: the chunk.
        score: fused reciprocal-rank score (higher is better; about 0.0..0.033 with k=60).
        dense: cosine similarity of question and chunk embeddings (-1..1).
        lexical: BM25 score (0 when the chunk had no lexical match).
        rank: 1-based rank in the fused list.
        vector: the chunk's unit embedding (float32, (dim,)) when known, for near-duplicate detection.
        sentence_vectors: the unit embeddings of ``chunk.sentences`` (float32, (len(sentences), dim)) made at
            ingestion, when known: contradiction detection reads them instead of embedding at ask time.
        unit_vectors: the unit embeddings of ``chunk.units`` (float32, (len(units), dim)) made at ingestion, when
            known: the offline answerer reads them instead of embedding at ask time.
        sentence: cosine of the chunk's best-matching sentence to the query (grounding.ranking, from the sentence
            vectors of ``chunk.sentences`` stored at ingestion); 0.0 unknown.
        sentence_pos: position of that sentence in ``chunk.sentences`` and ``sentence_vectors`` (-1: unknown).
        looked_up: True when retrieval found it by the numbered section label the question names ("Day 3",
            grounding.heading_lookup), not by its scores: planning keeps it whatever its relevance.
    """

    chunk: Chunk
    score: float
    dense: float
    lexical: float = 0.0
    rank: int = 0
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)
    sentence_vectors: np.ndarray | None = field(default=None, compare=False, repr=False)
    unit_vectors: np.ndarray | None = field(default=None, compare=False, repr=False)
    sentence: float = 0.0
    sentence_pos: int = -1
    looked_up: bool = False
