"""The retrieval query of a question in a conversation, without a model: the question alone, or with what it refers
to (grounding.followup decides; this module measures what the decision needs: how confidently the question alone
retrieves from the domain's index, alone and with the previous question's terms)."""

from __future__ import annotations

from typing import Mapping, Sequence

from grounding.followup import ATTRIBUTES, follow_up, own_terms
from grounding.lexical import content_terms
from grounding.memory import MemoryTurn
from grounding.ranking import relevance
from knowledge.selectors import retrieve_vector

__all__ = ["followup_probe", "offline_query", "previous_questions", "question_confidence"]


def previous_questions(history: list[MemoryTurn]) -> list[str]:
    """The conversation's questions, oldest first."""
    return [t.text for t in history if t.role == "user"]


def offline_query(question: str, history: list[MemoryTurn],
                  confidences: Mapping[str, float] | None = None) -> str:
    """The retrieval query of a question without a model (grounding.followup.follow_up): a question that stands on
    its own is retrieved on its own, one that refers back with the previous question's terms. ``confidences`` holds
    the best relevance each query grounding.followup.probe_queries names retrieves (grounding.ranking.relevance of
    its top candidate), measured by the caller (:func:`followup_probe`) when the decision rests on them."""
    return follow_up(question, previous_questions(history),
                     confidence=None if not confidences else confidences.__getitem__).query


def question_confidence(*, domain: int, token: str, question: str, vector,
                        naming: frozenset[str] = frozenset()) -> float:
    """The best relevance (grounding.ranking.relevance) among the candidates the question retrieves from the
    domain's index of ``token``, for its unit vector (float32 (dim,)); 0.0 when nothing is found. With ``naming``
    (content terms), only candidates whose text, title or section holds one of them count. Reads the index only
    (CPU-bound)."""
    found = retrieve_vector(domain=domain, query=question, vector=vector, token=token)
    return max((relevance(c) for c in found if not naming or naming & content_terms(
        f"{c.chunk.title}\n{c.chunk.section}\n{c.chunk.text}")), default=0.0)


def followup_probe(*, domain: int, token: str, queries: Sequence[str], vectors) -> dict[str, float]:
    """{query: the best relevance it retrieves (:func:`question_confidence`)} for the ``queries``
    grounding.followup.probe_queries names, their unit vectors in ``vectors`` (float32 (len(queries), dim), in the
    same order). Reads the index only (CPU-bound).

    The question with the previous question's terms (the second query) counts only what holds a word the question
    names of its own (grounding.followup.own_terms), when it names one: those terms always find the previous topic's
    passage again, so its gain said "Can I work from home?" after a billing question, or "Can I date a coworker?"
    after the gift limit, referred back (the s15 new-user runs); "Do they expire?" names nothing of its own, nor does
    "Is there a maximum value?" (an attribute only, grounding.followup.ATTRIBUTES: it was retrieved alone and found
    nothing after "Can I accept gifts from suppliers?", the s23 new-user run)."""
    own = own_terms(queries[0]) - ATTRIBUTES if queries else frozenset()
    return {q: question_confidence(domain=domain, token=token, question=q, vector=v, naming=own if i else frozenset())
            for i, (q, v) in enumerate(zip(queries, vectors))}
