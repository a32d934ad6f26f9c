"""Lexical alignment of sentences for contradiction detection [18.8]: which pairs share enough of their words to be
two accounts of one statement, whatever their embedding cosine (near-copies with a name changed). The rules that
decide whether an aligned pair contradicts itself are grounding.clash; which pairs are compared,
grounding.contradictions. No Django imports.
"""

from __future__ import annotations

import functools
import itertools
import threading
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


#: Every token met by :func:`token_codes`, numbered in the order first met (process-wide; as large as the vocabulary
#: of the sentences aligned so far).
_CODES: dict[str, int] = {}
_CODES_LOCK = threading.Lock()


def token_codes(words: frozenset[str]) -> tuple[int, ...]:
    """A token set as integer codes, one per token (in the set's iteration order): each token gets one code for the
    life of the process, so two sets share as many codes as tokens. A ClaimReading keeps its set's codes (its
    ``token_codes`` part): an ask aligning sentences met before numbers no token again."""
    missing = [w for w in words if w not in _CODES]
    if missing:
        with _CODES_LOCK:  # a number is taken once, whichever thread meets the token first
            for w in missing:
                _CODES.setdefault(w, len(_CODES))
    return tuple(_CODES[w] for w in words)


def lexically_aligned_matrix(token_sets: Sequence[frozenset[str]],
                             codes: Sequence[Sequence[int]] | None = None) -> np.ndarray:
    """:func:`lexically_aligned` of every pair of n token sets at once: bool (n, n). The shared-token counts are one
    product of the sets' 0/1 incidence matrix (n x tokens met) with its transpose, instead of n x n set
    intersections in Python. ``codes``: each set's :func:`token_codes` when already known (what a ClaimReading
    keeps), else made here."""
    if codes is None:
        codes = [token_codes(words) for words in token_sets]
    sizes = np.array([len(c) for c in codes], dtype=np.int64)
    total = int(sizes.sum())
    if not total:
        return np.zeros((len(codes), len(codes)), dtype=bool)
    # the codes met in these sets, renumbered 0..m-1: the incidence matrix's columns
    met, columns = np.unique(np.fromiter(itertools.chain.from_iterable(codes), dtype=np.int64, count=total),
                             return_inverse=True)
    incidence = np.zeros((len(codes), len(met)), dtype=np.float32)
    incidence[np.repeat(np.arange(len(codes)), sizes), columns] = 1.0
    shared = incidence @ incidence.T  # exact: small integer counts in float32
    smaller = np.minimum(sizes[:, None], sizes[None, :]).astype(np.float32)
    return (shared >= 3) & (shared >= 0.6 * smaller)
