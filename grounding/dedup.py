"""Deduplication [18.7]: exact (normalised text hash) and near-duplicate (embedding cosine), value-aware.

Two chunks that differ in a number, date, amount, percentage, code or negation are never merged, however similar:
"the allowance is $50" and "the allowance is $65" are a possible contradiction, not a duplicate. Such pairs are
returned as conflict candidates for contradiction detection.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from grounding.types import Candidate, Dropped

NEAR_DUPLICATE_COSINE = 0.95

#: Rows of the Gram matrix computed per product in ``dedup_near``: only the upper triangle is needed, and products of
#: about 16 x 50 x 384 stay on BLAS's single-threaded small-matrix path (one 50 x 50 product costs 3-4x more here).
GRAM_BLOCK = 16

_VALUE = re.compile(
    r"(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?)"                    # amounts
    r"|(?:\d{4}-\d{2}-\d{2})"                              # ISO dates
    r"|(?:\d+(?:[.,]\d+)*\s?(?:%|percent\b))"              # percentages
    r"|(?:\b[A-Z]{1,5}-?\d+[A-Z0-9-]*\b)"                  # codes (GS-15, KB0022142)
    r"|(?:\d+(?:[.,:/]\d+)*)",                             # other numbers, times, dates
    re.I)
_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty hundred thousand").split()
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.I)
_NEGATION = re.compile(r"\b(not|no|never|none|neither|nor|cannot|without|may not|must not)\b|n't\b", re.I)


_KEEP_IN_VALUES = re.compile(r"(?<=\d)[.,:/](?=\d)|(?<![\w.])[-−](?=\d)|[$€£¥₹%]")
_SEPARATORS = re.compile(r"[\W_]+")


def normalise_text(text: str) -> str:
    """Lower-cased text with runs of whitespace and punctuation collapsed (for exact-duplicate hashing).

    What makes a value stays: currency signs, percent signs, a minus before a number and the separators inside a
    number ("1.5", "1/2", "10:30"), so "$65" and "€65", "10%" and "10", "-5" and "5" never hash alike.
    """
    lowered = text.lower()
    kept = {m.start() for m in _KEEP_IN_VALUES.finditer(lowered)}
    if not kept:
        return _SEPARATORS.sub(" ", lowered).strip()
    out, pos = [], 0
    for m in _SEPARATORS.finditer(lowered):
        out.append(lowered[pos:m.start()])
        run = "".join(ch for i, ch in enumerate(m.group(0), m.start()) if i in kept)
        out.append(run if run and m.end() - m.start() == len(run) else f" {run} " if run else " ")
        pos = m.end()
    out.append(lowered[pos:])
    return re.sub(r" +", " ", "".join(out)).strip()


@functools.lru_cache(maxsize=100_000)
def text_hash(text: str) -> str:
    """sha1 of normalise_text(text), hex (cached per text: a chunk is hashed once per process)."""
    return hashlib.sha1(normalise_text(text).encode()).hexdigest()


def values_in(text: str) -> frozenset[str]:
    """The values a text states: amounts, dates, percentages, codes, numbers and number words, normalised."""
    found = {re.sub(r"[\s,]", "", m.group(0)).lower().replace("percent", "%") for m in _VALUE.finditer(text)}
    found |= {m.group(1).lower() for m in _NUMBER_WORD.finditer(text)}
    return frozenset(found)


def negations_in(text: str) -> int:
    """How many negation cues a text has (not, no, never, cannot, without, n't, ...)."""
    return len(_NEGATION.findall(text))


def differ_in_values(a: str, b: str) -> bool:
    """True when two texts state different values or differ in negation (so they must not be merged)."""
    return values_in(a) != values_in(b) or negations_in(a) != negations_in(b)


@dataclass(frozen=True)
class Deduplicated:
    """Result of deduplication.

    Attributes:
        kept: (candidate, merged chunk ids with its own first) in input order.
        dropped: duplicate_of entries naming the kept chunk id.
        conflicts: (chunk id, chunk id) pairs that are near-duplicates but differ in values or negation.
    """

    kept: tuple[tuple[Candidate, tuple[int, ...]], ...]
    dropped: tuple[Dropped, ...]
    conflicts: tuple[tuple[int, int], ...] = ()


_STATUS_RANK = {"current": 2, "draft": 1, "superseded": 0}


def dedup_exact(candidates: Sequence[Candidate]) -> Deduplicated:
    """Exact deduplication: one copy per normalised text (a current version first, then a draft, then a superseded
    one; among equals the best dense score), the others' ids merged into it.

    Idempotent: deduplicating the kept candidates again changes nothing. Linear in the candidates; Python only
    visits the texts that repeat.
    """
    hashes = [text_hash(c.chunk.text) for c in candidates]
    first: dict[str, int] = {}
    groups: dict[str, list[int]] = {}  # hash -> indexes of every copy, only for texts that repeat
    for i, h in enumerate(hashes):
        j = first.setdefault(h, i)
        if j != i:
            groups.setdefault(h, [j]).append(i)
    kept: list[tuple[Candidate, tuple[int, ...]] | None] = [(c, (c.chunk.chunk_id,)) for c in candidates]
    if not groups:
        return Deduplicated(tuple(kept), ())  # type: ignore[arg-type]

    def rank(i: int) -> tuple[int, float]:  # current beats draft beats superseded, then the better score
        return (_STATUS_RANK.get(candidates[i].chunk.status, 0), candidates[i].dense)

    beaten: dict[int, int] = {}  # dropped copy -> the kept copy's chunk id
    for members in groups.values():
        best = members[0]
        for i in members[1:]:
            if rank(i) > rank(best):
                best = i
        own = candidates[best].chunk.chunk_id
        kept[best] = (candidates[best],
                      (own,) + tuple(candidates[i].chunk.chunk_id for i in members
                                     if candidates[i].chunk.chunk_id != own))
        for i in members:
            if i != best:
                kept[i] = None
                beaten[i] = own
    dropped = tuple(Dropped(candidates[i].chunk.chunk_id, "duplicate_of", f"same text as chunk {beaten[i]}")
                    for i in sorted(beaten))
    return Deduplicated(tuple(k for k in kept if k is not None), dropped)


def dedup_near(kept: Sequence[tuple[Candidate, tuple[int, ...]]], *,
               threshold: float = NEAR_DUPLICATE_COSINE) -> Deduplicated:
    """Near-duplicate removal over candidates that carry vectors: cosine >= threshold and the same values/negation.

    Greedy in order of dense score: a candidate is merged into the first better-scored kept one it nearly
    duplicates. Candidates without vectors are kept as they are. Pairs above the threshold that differ in values
    are kept both and reported in ``conflicts``. One (n, dim) @ (dim, n) product finds every close pair; Python only
    visits the pairs above the threshold.
    """
    neg = [-c.dense for c, _ in kept]
    with_vec = [i for i in sorted(range(len(kept)), key=neg.__getitem__) if kept[i][0].vector is not None]
    removed: dict[int, int] = {}
    conflicts: list[tuple[int, int]] = []
    merged: dict[int, list[int]] = {}
    n = len(with_vec)
    if n > 1:
        matrix = np.array([kept[i][0].vector for i in with_vec], dtype=np.float32)
        near_above: dict[int, list[int]] = {}  # position -> better-ranked positions near it, best first
        for top in range(0, n, GRAM_BLOCK):  # upper triangle of the Gram matrix, one block of rows at a time
            rows, width = min(GRAM_BLOCK, n - top), n - top
            close = np.flatnonzero(matrix[top:top + rows] @ matrix[top:].T >= threshold).tolist()
            if close == list(range(0, rows * width, width + 1)):  # only the diagonal (each vector with itself)
                continue
            for flat in close:  # row-major: better-ranked b ascending
                b_pos, a_pos = divmod(flat, width)
                if b_pos < a_pos:
                    near_above.setdefault(top + a_pos, []).append(top + b_pos)
        survivor = [True] * n
        for a_pos in sorted(near_above):
            a = with_vec[a_pos]
            target = None
            for b_pos in near_above[a_pos]:
                if not survivor[b_pos]:
                    continue
                b = with_vec[b_pos]
                if differ_in_values(kept[a][0].chunk.text, kept[b][0].chunk.text):
                    conflicts.append((kept[b][0].chunk.chunk_id, kept[a][0].chunk.chunk_id))
                elif target is None:
                    target = b
            if target is not None:
                survivor[a_pos] = False
                removed[a] = target
                merged.setdefault(target, list(kept[target][1])).extend(merged.get(a, kept[a][1]))
    dropped = tuple(Dropped(kept[i][0].chunk.chunk_id, "duplicate_of",
                            f"near-duplicate of chunk {kept[removed[i]][0].chunk.chunk_id}") for i in sorted(removed))
    if not removed:
        return Deduplicated(tuple(kept), (), tuple(conflicts))  # nothing merged: every candidate as it came
    out_kept = tuple((cand, tuple(dict.fromkeys(merged[i])) if i in merged else ids)
                     for i, (cand, ids) in enumerate(kept) if i not in removed)
    return Deduplicated(out_kept, dropped, tuple(conflicts))


_PAST = re.compile(r"\b(previous(ly)?|prior|former(ly)?|old(er)?|used to|before|earlier|in the past|history|"
                   r"historical|changed?|last year|originally|back then|back in|was the|were the|(19|20)\d\d|fy\s?\d\d)\b", re.I)


def asks_about_past(question: str) -> bool:
    """True when a question asks about an earlier state ("what was the allowance in 2024?", "the old policy")."""
    return bool(_PAST.search(question))


def admit_versions(candidates: Sequence[Candidate], question: str, *, similarity: float = 0.8,
                   limit: int = 2) -> tuple[list[Candidate], list[Dropped]]:
    """Decide which superseded-version candidates enter the context.

    Current versions are preferred: a superseded candidate is admitted only when the question asks about the past,
    or when it disagrees with a retrieved current chunk of the same document (cosine >= ``similarity`` and a value
    or negation differs) so the disagreement can be noted; at most ``limit`` such. The others are dropped with
    reason "superseded". Candidates keep their order (the current ones, then the admitted superseded ones), except
    for a question about the past: then every candidate is kept, ordered by dense score, best first.
    """
    current = [c for c in candidates if c.chunk.status != "superseded"]
    old = [c for c in candidates if c.chunk.status == "superseded"]
    if not old:
        return list(candidates), []
    if asks_about_past(question):
        return sorted(candidates, key=lambda c: -c.dense), []
    admitted, dropped = [], []
    for c in sorted(old, key=lambda c: -c.dense):  # the most relevant disagreeing versions first
        rival = next((k for k in current if k.chunk.document_id == c.chunk.document_id and c.vector is not None
                      and k.vector is not None and float(np.dot(c.vector, k.vector)) >= similarity
                      and differ_in_values(c.chunk.text, k.chunk.text)), None)
        if rival is not None and len(admitted) < limit:
            admitted.append(c)
        else:
            dropped.append(Dropped(c.chunk.chunk_id, "superseded",
                                   f"version {c.chunk.version} ({c.chunk.date or 'undated'}) is superseded"))
    return current + admitted, dropped
