"""A stored chunk as the framework-free grounding.types.Chunk, and as the JSON record the retrieval index keeps of it
(the same fields, so that retrieval builds its candidates from the index without reading the database)."""

from __future__ import annotations

from typing import Any

from grounding.dedup import text_hash, value_key
from grounding.list_answers import outline_near
from grounding.location import Location, stored_parts
from grounding.parsing import keywords_of
from grounding.types import Chunk as GChunk
from knowledge.models import Chunk


def chunk_record(c: Chunk) -> dict[str, Any]:
    """The JSON record of a stored chunk (version and document selected): chunk_id, document_id, title, section,
    version (label), date (ISO or ""), text, tokens, status, ordinal, version_id, location (JSON, {} without),
    sentences (as split at ingestion), units (the answerer's other texts, made at ingestion; absent when not made;
    how it reads the chunk, its layout, is kept apart by the index: grounding.index_store.StoredIndex.layout),
    text_key (the exact-deduplication key, grounding.dedup.text_hash: computed
    here, once per index build, instead of at every plan) and injection (whether the text addresses an AI assistant,
    checked at ingestion; None: not checked), value_key (grounding.dedup.value_key, stored at ingestion) and outline
    (the part of the version's outline the chunk sits in, grounding.list_answers.outline_near: the names of the
    sub-sections of its section, also those written in other chunks) and keywords (the version's front matter
    keywords, grounding.parsing.keywords_of)."""
    v = c.version
    return {"chunk_id": c.pk, "document_id": v.document_id, "title": v.title or v.document.title,
            "section": c.section, "version": v.label, "date": v.effective_date.isoformat() if v.effective_date else "",
            "text": c.text, "tokens": c.tokens, "status": v.status, "ordinal": c.ordinal, "version_id": v.pk,
            "location": c.location or {}, "sentences": list(c.sentences or []), "units": list(c.units or []),
            "text_key": text_hash(c.text), "injection": c.injection, "value_key": c.value_key or value_key(c.text),
            "outline": list(outline_near(v.outline or [], c.section)), "keywords": list(keywords_of(v.metadata or {}))}


def chunk_from_record(r: dict[str, Any]) -> GChunk:
    """The grounding Chunk of a record made by :func:`chunk_record` (records of older indexes lack sentences,
    text_key, value_key, outline and keywords: they are left empty)."""
    return GChunk(chunk_id=r["chunk_id"], document_id=r["document_id"], title=r["title"], section=r["section"],
                  version=r["version"], date=r["date"], text=r["text"], tokens=r["tokens"], status=r["status"],
                  ordinal=r["ordinal"], version_id=r["version_id"], location=Location.from_dict(r["location"]),
                  parts=stored_parts(r["location"]), sentences=tuple(r.get("sentences", ())),
                  units=tuple(r.get("units", ())),
                  text_key=r.get("text_key", ""), injection=r.get("injection"),
                  value_key=r.get("value_key", ""), outline=tuple(r.get("outline", ())),
                  keywords=tuple(r.get("keywords", ())))


def chunk_to_grounding(c: Chunk) -> GChunk:
    """Convert a stored chunk (with version and document selected) to the framework-free type."""
    return chunk_from_record(chunk_record(c))
