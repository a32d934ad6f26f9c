"""Lexical alignment of sentences for contradiction detection [18.8]: which pairs share enough of their words to be
two accounts of one statement, whatever their embedding cosine (near-copies with a name changed). The rules that
decide whether an aligned pair contradicts itself are grounding.clash; which pairs are compared,
grounding.contradictions. No Django imports.
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from grounding.lexical import TOKEN, fold_accents


@functools.lru_cache(maxsize=50_000)
def token_set(sentence: str) -> frozenset[str]:
    """The lower-cased TOKENs of a sentence with accents folded (for lexical alignment). Cached per sentence: a
    planned source's sentences are aligned again on every question that plans it."""
    return frozenset(t.lower() for t in TOKEN.findall(fold_accents(sentence)))


def lexically_aligned(a: frozenset[str], b: frozenset[str]) -> bool:
    """True when two sentences' token sets share at least three tokens and 60% of the smaller set (the overlap
    coefficient): the lexical side of alignment, for near-copies that an embedding separates because a name changed
    ("Abdulrazak Gurnah is awarded the Nobel Prize" / "Olga Tokarczuk is awarded ...": MiniLM cosine 0.45)."""
    shared = len(a & b)
    return shared >= 3 and shared >= 0.6 * min(len(a), len(b))


def lexically_aligned_matrix(token_sets: Sequence[frozenset[str]]) -> np.ndarray:
    """:func:`lexically_aligned` of every pair of n token sets at once: bool (n, n). The shared-token counts are one
    product of the sets' 0/1 incidence matrix (n x vocabulary) with its transpose, instead of n x n set
    intersections in Python."""
    vocabulary: dict[str, int] = {}
    rows, cols = [], []
    for r, words in enumerate(token_sets):
        for w in words:
            rows.append(r)
            cols.append(vocabulary.setdefault(w, len(vocabulary)))
    incidence = np.zeros((len(token_sets), len(vocabulary)), dtype=np.float32)
    incidence[rows, cols] = 1.0
    shared = incidence @ incidence.T  # exact: small integer counts in float32
    sizes = np.array([len(w) for w in token_sets], dtype=np.float32)
    return (shared >= 3) & (shared >= 0.6 * np.minimum(sizes[:, None], sizes[None, :]))
