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


def make_page(i: int, title: str, section: str, text: str) -> Candidate:
    """A retrieved chunk that is a whole page of its own document (version "v1", undated), as the offline answerer's
    tests plan it."""
    return Candidate(Chunk(chunk_id=i, document_id=i, title=title, section=section, version="v1", date="",
                           text=text, tokens=len(text.split()), version_id=i), score=0.03, dense=0.6)


def offline_answer(embedder, question: str, *pages: Candidate) -> str:
    """The offline answerer's text for ``question`` over a plan of ``pages``."""
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.tokens import counter_for

    plan = plan_context(question=question, candidates=list(pages), system_prompt="Answer.",
                        counter=counter_for("extractive"))
    return ExtractiveAnswerer(embedder).compose(question, plan)


def answered(embedder, question: str, *pages: tuple[str, str, str]) -> tuple[str, object]:
    """The offline answerer's text for ``question`` over pages given as (title, section, text), all planned, each a
    document of its own, and that text finalised against the plan (grounding.answer.finalize_answer: citations,
    support)."""
    from grounding.answer import finalize_answer
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.tokens import counter_for

    candidates = [Candidate(Chunk(chunk_id=i + 1, document_id=i + 1, title=title, section=section, version="v1",
                                  date="", text=text, tokens=len(text.split()), version_id=i + 1),
                            score=0.03, dense=0.6)
                  for i, (title, section, text) in enumerate(pages)]
    plan = plan_context(question=question, candidates=candidates, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    text = ExtractiveAnswerer(embedder).compose(question, plan)
    return text, finalize_answer(text, plan)
