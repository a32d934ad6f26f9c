"""The candidate answer sentences of a context plan: a scored sentence (:class:`ScoredSentence`, what
grounding.sentence_rank.rank_sentences gives) and the sentence data each planned source carries, made once per answer
(:func:`with_sentences`). Split from grounding.sentence_rank (which re-exports them). No Django imports.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from grounding.embeddings import Embedder, default_embedder
from grounding.sentence_data import SentenceData, section_heading, sentence_data
from grounding.types import ContextPlan, Source

__all__ = ["ScoredSentence", "promoted", "source_sentences", "with_sentences"]


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate answer sentence.

    Attributes:
        text: the sentence as quoted (a table row as "column: value" pairs).
        label: the label of its source.
        score: cosine + overlap bonus + quantity bonus (see the module docstring).
        kind: its kind (grounding.sentence_data.KINDS).
        cosine: the larger of its own and its context vector's cosine with the question.
        overlap: the IDF-weighted share of the question's content terms it holds (0..1).
        values: its typed values ("amount:$65", ...).
        position: its position among its source's sentences.
        precision: the IDF-weighted share of its own content terms that the question holds (0..1): a sentence about
            "award leave" under a question on "annual leave" has a term the question lacks.
    """

    text: str
    label: str
    score: float
    kind: str = "sentence"
    cosine: float = 0.0
    overlap: float = 0.0
    values: tuple[str, ...] = ()
    position: int = 0
    precision: float = 0.0


def promoted(ranked: Sequence[ScoredSentence], chosen: ScoredSentence) -> list[ScoredSentence]:
    """``ranked`` (best first) with ``chosen`` (one of them, or a sentence read from a source beside them) moved
    first and given the best one's score, so that a reading sorting by score again keeps it first."""
    return [replace(chosen, score=ranked[0].score), *(s for s in ranked if s is not chosen)]


def source_sentences(source: Source, embedder: Embedder | None = None) -> SentenceData:
    """The sentence data of a source: the one it carries, else read and embedded from its text (its section's last
    heading gives the first sentence its context)."""
    if source.sentences is not None:
        return source.sentences
    heading = source.section.split(" > ")[-1].strip() if source.section else ""
    return sentence_data([[(source.text, heading)]], embedder or default_embedder())[0][0]


def with_sentences(plan: ContextPlan, embedder: Embedder | None = None) -> ContextPlan:
    """The plan with every source carrying its sentence data (:func:`source_sentences`), made in one embedding call
    for all sources that have none; the plan itself when all have it."""
    missing = [s for s in plan.sources if s.sentences is None]
    if not missing:
        return plan
    headings = [section_heading(s.section) for s in missing]
    made = sentence_data([[(s.text, h)] for s, h in zip(missing, headings)], embedder or default_embedder())
    data = {s.label: d[0] for s, d in zip(missing, made)}
    return replace(plan, sources=tuple(s if s.sentences is not None else replace(s, sentences=data[s.label])
                                       for s in plan.sources))
