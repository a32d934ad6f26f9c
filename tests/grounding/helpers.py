"""Builders for grounding tests."""

from __future__ import annotations

from grounding.types import Candidate, Chunk


def chunk(cid: int, text: str, *, doc: int = 1, title: str = "Doc", section: str = "", version: str = "v1",
          date: str = "2025-01-01", tokens: int | None = None) -> Chunk:
    from grounding.tokens import counter_for

    return Chunk(chunk_id=cid, document_id=doc, title=title, section=section, version=version, date=date,
                 text=text, tokens=tokens if tokens is not None else counter_for("extractive").raw(text))


def cand(cid: int, text: str, dense: float, **kw) -> Candidate:
    return Candidate(chunk=chunk(cid, text, **kw), score=dense / 30, dense=dense)
