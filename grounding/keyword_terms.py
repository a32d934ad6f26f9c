"""A question's word that no planned sentence holds but a planned document lists among its keywords: "How much
vacation do I get?" over the paid-time-off policy (front matter "keywords: [PTO, vacation, holidays, ...]"), whose
sentences say "paid time off" and "PTO", never "vacation". The s46 new-user trial got the travel policy's "On the
first and last day of a trip you receive 75% of the daily allowance" first: no sentence shared a word with the
question, and the cosine alone ranked it above the accrual sentence. The word is then read as held by every sentence
of the documents listing it, as the document's author said it is about. No Django imports.
"""

from __future__ import annotations

from typing import Container, Sequence

from grounding.lexical import content_terms
from grounding.types import Source

__all__ = ["with_keyword_terms"]


def with_keyword_terms(q_terms: frozenset[str], said: Container[str], sources: Sequence[Source],
                       terms: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """``terms`` (each sentence's content terms, the sentences of ``sources`` in order, one source per sentence) with
    the question's terms (``q_terms``) that no sentence holds (not in ``said``, the planned sentences' terms) added to
    the sentences of every source whose document keywords hold them; ``terms`` unchanged when there is none."""
    missing = frozenset(t for t in q_terms if t not in said)
    if not missing:
        return list(terms)
    listed: dict[int, frozenset[str]] = {}
    out = []
    for source, t in zip(sources, terms):
        key = id(source)
        if key not in listed:
            listed[key] = missing & frozenset().union(*(content_terms(k) for k in source.keywords))
        out.append(t | listed[key] if listed[key] else t)
    return out
