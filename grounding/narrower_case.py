"""A list item that states a narrower case than the one asked is not the answer while its sibling states the case
itself.

"Roughly how long does a new TS take?" is answered by "6-8 months for a new Top Secret (TS) clearance", not by its
sibling "8-15 months for a new Top Secret clearance with access to Sensitive Compartmented Information (TS/SCI)",
which ranked a hair above it: the second says all the first says and more that the question does not ask (fresh41's
f41-m11, a development set). Asked of "TS/SCI", the narrower item names an asked word its sibling lacks and stays
first. This is the specificity preference of question answering read over items of one list: of two candidates
that match a question alike, the one with unmatched content is penalised (the "extra words" term of answer-sentence
ranking: Ittycheriah et al. 2001, "IBM's statistical question answering system", TREC-9).

No Django imports.
"""

from __future__ import annotations

from typing import Sequence

from grounding.lexical import content_terms
from grounding.scored_sentences import ScoredSentence, promoted

__all__ = ["general_case_first"]


def general_case_first(ranked: Sequence[ScoredSentence], asked: str, *,
                       margin: float = 0.05) -> Sequence[ScoredSentence]:
    """``ranked`` (best first), with a list item of the best one's source moved first when the best is an item too,
    scores within ``margin`` (cosine + bonus units) of it (it then takes the best's score), holds every content term
    of ``asked`` the best holds, and says nothing but what the best says besides (its other content terms a subset of
    the best's, two or more fewer; numbers, the values the items differ by, are not counted): the best is then a
    narrower case of it that the question does not name ("Fewer than 3 years: 4 hours" is no narrower case of "15+
    years: 8 hours", one word apart: fresh40's f40-m01). ``ranked`` unchanged otherwise."""
    if not ranked or ranked[0].kind != "item":
        return ranked
    best = ranked[0]
    q = content_terms(asked)
    own = _words(best.text)
    held, extra = own & q, own - q
    for s in ranked[1:]:
        if s.score < best.score - margin:
            break
        if s.label != best.label or s.kind != "item":
            continue
        terms = _words(s.text)
        if held <= terms and (terms - q) < extra and len(extra - terms) >= 2:
            return promoted(ranked, s)
    return ranked


def _words(text: str) -> frozenset[str]:
    """The content terms of ``text`` less its numbers."""
    return frozenset(t for t in content_terms(text) if not t[:1].isdigit())
