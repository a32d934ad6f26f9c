"""The retrieval query of a question in a conversation, without a model: the question alone, or with what it refers
to (grounding.followup decides; this module measures what the decision needs: how confidently the question alone
retrieves from the domain's index, and how near in meaning it is to the previous question)."""

from __future__ import annotations

import numpy as np

from grounding.followup import follow_up
from grounding.memory import MemoryTurn
from grounding.ranking import relevance
from knowledge.selectors import retrieve_vector

__all__ = ["followup_probe", "offline_query", "previous_questions", "question_confidence"]


def previous_questions(history: list[MemoryTurn]) -> list[str]:
    """The conversation's questions, oldest first."""
    return [t.text for t in history if t.role == "user"]


def offline_query(question: str, history: list[MemoryTurn], confidence: float | None = None,
                  related: float | None = None) -> str:
    """The retrieval query of a question without a model (grounding.followup.follow_up): a question that stands on
    its own is retrieved on its own, one that refers back with the previous question's terms. ``confidence`` is the
    best relevance the question alone retrieves (grounding.ranking.relevance of its top candidate) and ``related``
    the cosine between its embedding and the previous question's, measured by the caller when
    grounding.followup.needs_confidence says the decision rests on them (:func:`followup_probe`)."""
    return follow_up(question, previous_questions(history),
                     confidence=None if confidence is None else (lambda _: confidence),
                     relatedness=None if related is None else (lambda _q, _p: related)).query


def question_confidence(*, domain: int, token: str, question: str, vector) -> float:
    """The best relevance (grounding.ranking.relevance) among the candidates the question alone retrieves from the
    domain's index of ``token``, for its unit vector (float32 (dim,)); 0.0 when nothing is found. Reads the index only
    (CPU-bound)."""
    alone = retrieve_vector(domain=domain, query=question, vector=vector, token=token)
    return max((relevance(c) for c in alone), default=0.0)


def followup_probe(*, domain: int, token: str, question: str, vectors) -> tuple[float, float]:
    """(confidence, related) for :func:`offline_query`: the best relevance the question alone retrieves
    (:func:`question_confidence`) and the cosine of the question's and the previous question's unit vectors
    (``vectors``: float32 (2, dim), the question's first). Reads the index only (CPU-bound)."""
    return (question_confidence(domain=domain, token=token, question=question, vector=vectors[0]),
            float(np.dot(vectors[0], vectors[1])))
