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

from grounding.lexical import asks_about_past, negation_cues, nfkc_fold
from grounding.types import Candidate, Chunk, Dropped
from grounding.values import value_keys

NEAR_DUPLICATE_COSINE = 0.95

#: Rows of the Gram matrix computed per product in ``dedup_near``: only the upper triangle is needed, and products of
#: about 16 x 50 x 384 stay on BLAS's single-threaded small-matrix path (one 50 x 50 product costs 3-4x more here).
GRAM_BLOCK = 16

_KEEP_IN_VALUES = re.compile(r"(?<=\d)[.,:/](?=\d)|(?<![\w.])[-−](?=\d)|[$€£¥₹%]")
_SEPARATORS = re.compile(r"[\W_]+")


def normalise_text(text: str) -> str:
    """Lower-cased text with runs of whitespace and punctuation collapsed (for exact-duplicate hashing).

    What makes a value stays: currency signs, percent signs, a minus before a number and the separators inside a
    number ("1.5", "1/2", "10:30"), so "$65" and "€65", "10%" and "10", "-5" and "5" never hash alike. Read
    NFKC-folded (grounding.lexical.nfkc_fold: "＄６５" hashes as "$65").
    """
    lowered = nfkc_fold(text).lower()
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


def differ_in_values(a: str, b: str) -> bool:
    """True when two texts state different values (grounding.values.value_keys) or a different number of negation
    cues (grounding.lexical.negation_cues), so they must not be merged."""
    return value_key(a) != value_key(b)


@functools.lru_cache(maxsize=100_000)
def value_key(text: str) -> str:
    """What near-duplicate removal compares of a text: its stated values (grounding.values.value_keys, sorted) and
    its number of negation cues, as one string ("$65|2024-01-15#1"). Two texts with different keys must not be
    merged. Computed once per chunk when the index is built (grounding.types.Chunk.value_key): finding the values
    of a long text is the costly part of planning with new candidates."""
    return "|".join(sorted(value_keys(text))) + f"#{negation_cues(text)}"


def _value_key(chunk: Chunk) -> str:
    return chunk.value_key or value_key(chunk.text)


@dataclass(frozen=True)
class Deduplicated:
    """Result of deduplication.

    Attributes:
        kept: (candidate, merged chunk ids with its own first) in input order, each at the place of the best-placed
            copy merged into it (the input is in rank order: the passage keeps the rank its best copy earned).
        dropped: duplicate_of entries naming the kept chunk id.
        conflicts: (chunk id, chunk id) pairs that are near-duplicates but differ in values or negation.
    """

    kept: tuple[tuple[Candidate, tuple[int, ...]], ...]
    dropped: tuple[Dropped, ...]
    conflicts: tuple[tuple[int, int], ...] = ()


_STATUS_RANK = {"current": 2, "draft": 1, "superseded": 0}


def dedup_exact(candidates: Sequence[Candidate]) -> Deduplicated:
    """Exact deduplication: one copy per normalised text (a current version first, then a draft, then a superseded
    one; among equals the best retrieval score, the fused rank's, then the best dense score), the others' ids merged
    into it, at the place of the first copy.

    Idempotent: deduplicating the kept candidates again changes nothing. Linear in the candidates; Python only
    visits the texts that repeat. The key of a chunk is its ``text_key`` when the index carries it (computed once,
    when the index was built), else :func:`text_hash` of its text.
    """
    hashes = [c.chunk.text_key or text_hash(c.chunk.text) for c in candidates]
    first: dict[str, int] = {}
    groups: dict[str, list[int]] = {}  # hash -> indexes of every copy, only for texts that repeat
    for i, h in enumerate(hashes):
        j = first.setdefault(h, i)
        if j != i:
            groups.setdefault(h, [j]).append(i)
    kept: list[tuple[Candidate, tuple[int, ...]] | None] = [(c, (c.chunk.chunk_id,)) for c in candidates]
    if not groups:
        return Deduplicated(tuple(kept), ())  # type: ignore[arg-type]

    def rank(i: int) -> tuple[int, float, float]:  # current beats draft beats superseded, then the better score
        return (_STATUS_RANK.get(candidates[i].chunk.status, 0), candidates[i].score, candidates[i].dense)

    beaten: dict[int, int] = {}  # dropped copy -> the kept copy's chunk id
    for members in groups.values():
        best = members[0]
        for i in members[1:]:
            if rank(i) > rank(best):
                best = i
        own = candidates[best].chunk.chunk_id
        for i in members:
            kept[i] = None
            if i != best:
                beaten[i] = own
        # the kept copy stands where the best-placed copy stood (members[0]): a copy ranked lower must not take the
        # passage out of the sources the budget admits
        kept[members[0]] = (candidates[best],
                            (own,) + tuple(candidates[i].chunk.chunk_id for i in members
                                           if candidates[i].chunk.chunk_id != own))
    dropped = tuple(Dropped(candidates[i].chunk.chunk_id, "duplicate_of", f"same text as chunk {beaten[i]}")
                    for i in sorted(beaten))
    return Deduplicated(tuple(k for k in kept if k is not None), dropped)


def dedup_near(kept: Sequence[tuple[Candidate, tuple[int, ...]]], *,
               threshold: float = NEAR_DUPLICATE_COSINE) -> Deduplicated:
    """Near-duplicate removal over candidates that carry vectors: cosine >= threshold and the same values/negation.

    Greedy in order of version status (current, draft, superseded), then retrieval score (the fused rank's: its
    best sentence and BM25 count, not the chunk's cosine alone), then dense score: a candidate is merged into the
    first better-ranked kept one it nearly duplicates, which then stands at the better of the two places in the input
    (a passage repeated on two pages keeps the rank of its better-placed copy: fresh8's y8-012 lost its answer
    when the Slack code of conduct, on two pages, was kept as the copy with the better chunk cosine, ranked below
    the 8-source limit; s32).
    Candidates without vectors are kept as they are. Pairs above the threshold that differ in values are kept both
    and reported in ``conflicts``. One (n, dim) @ (dim, n) product finds every close pair; Python only
    visits the pairs above the threshold.
    """
    # a current version before a draft before a superseded one, then the better retrieval score: a superseded copy of
    # a current passage is merged into it, never the current passage into the old version (which would be cited as
    # superseded for what the current version still says)
    order = [(-_STATUS_RANK.get(c.chunk.status, 0), -c.score, -c.dense) for c, _ in kept]
    with_vec = [i for i in sorted(range(len(kept)), key=order.__getitem__) if kept[i][0].vector is not None]
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
                if _value_key(kept[a][0].chunk) != _value_key(kept[b][0].chunk):  # differ in values
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
    # each kept candidate stands where the best-placed passage merged into it stood (the candidates come in rank
    # order): a copy placed lower (a current version, a demoted or promoted candidate) must not take the passage out
    # of the sources the budget admits
    place = list(range(len(kept)))
    for a, b in removed.items():  # a target is never removed itself (it is merged into only while it survives)
        place[b] = min(place[b], a)
    out_kept = tuple((cand, tuple(dict.fromkeys(merged[i])) if i in merged else ids)
                     for i, (cand, ids) in sorted(enumerate(kept), key=lambda e: place[e[0]]) if i not in removed)
    return Deduplicated(out_kept, dropped, tuple(conflicts))


#: Cosine (chunk vectors) at or above which a superseded chunk is an older wording of a retrieved current chunk of
#: its document. 0.75: on the 18F calibration questions, the 2022 leave page's military-leave chunk (with "Code 50",
#: now "Code 51") meets its current chunk at 0.785.
OLDER_WORDING = 0.75
#: A superseded chunk this close to the question (grounding.ranking.relevance) as the best retrieved current chunk of
#: its document, or closer, is admitted whatever its cosine to that document's chunks: a revision that moved its
#: passage into other chunks (the 18F leave page's advanced-leave example, "84 ... hours" in a chunk of its own in
#: 2023, inside a longer chunk now: cosine 0.67 to it) is still the version the question is about (s13 round).
ASKED_MARGIN = 0.05


def admit_versions(candidates: Sequence[Candidate], question: str, *, similarity: float = OLDER_WORDING,
                   limit: int = 2, margin: float = ASKED_MARGIN) -> tuple[list[Candidate], list[Dropped]]:
    """Decide which superseded-version candidates enter the context.

    Current versions are preferred: a superseded candidate is admitted only when the question asks about the past,
    or when it belongs to the newest superseded version of its document among the candidates (the version just
    before the current one: an older version's wording is history, not the change a note reports), a current chunk of
    its document was retrieved, and the old chunk's text differs from every retrieved
    current chunk of that document (normalised text: an unchanged passage has nothing to note) and either is an
    older wording of one of them (chunk cosine >= ``similarity``) or is about the question at least as much as that
    document's best current chunk less ``margin`` (grounding.ranking.relevance); at most ``limit`` such, the newest
    versions first (by date, then version id), then the most relevant to the question, so that a note compares the
    current version with the one just before it where it speaks about what was asked. The others are dropped with
    reason "superseded". The current candidates keep their order, each admitted version right after its current
    chunk (the older wording's match, else the document's most relevant current chunk) so that both enter the
    context together, within any cap on sources, except for a question about the past: then every candidate is
    kept, ordered by dense score, best first.
    """
    from grounding.ranking import relevance  # grounding.ranking imports nothing of this module; kept local

    current = [c for c in candidates if c.chunk.status != "superseded"]
    old = [c for c in candidates if c.chunk.status == "superseded"]
    if not old:
        return list(candidates), []
    if asks_about_past(question):
        return sorted(candidates, key=lambda c: -c.dense), []

    def key(c: Candidate) -> str:
        return c.chunk.text_key or text_hash(c.chunk.text)

    def rival_of(c: Candidate) -> int | None:
        """Index in ``current`` of the chunk an admitted ``c`` follows, or None when ``c`` is not admitted."""
        mine = [i for i, k in enumerate(current) if k.chunk.document_id == c.chunk.document_id]
        if not mine or any(key(current[i]) == key(c) for i in mine):
            return None
        worded = next((i for i in mine if c.vector is not None and current[i].vector is not None
                       and float(np.dot(c.vector, current[i].vector)) >= similarity), None)
        if worded is not None:
            return worded
        best = max(mine, key=lambda i: relevance(current[i]))
        return best if relevance(c) >= relevance(current[best]) - margin else None

    # the version just before the current one: of a document's retrieved superseded chunks, only the newest version's
    newest: dict[int, tuple[str, int]] = {}
    for c in old:
        newest[c.chunk.document_id] = max(newest.get(c.chunk.document_id, ("", -1)),
                                          (c.chunk.date or "", c.chunk.version_id))
    after: dict[int, list[Candidate]] = {}  # index of the rival current candidate -> admitted older versions
    admitted, dropped = 0, []
    # the newest versions first, then the most relevant to the question
    for c in sorted(old, key=lambda c: (c.chunk.date or "", c.chunk.version_id, relevance(c)), reverse=True):
        latest = (c.chunk.date or "", c.chunk.version_id) == newest[c.chunk.document_id]
        rival = rival_of(c) if admitted < limit and latest else None
        if rival is not None:
            after.setdefault(rival, []).append(c)
            admitted += 1
        else:
            dropped.append(Dropped(c.chunk.chunk_id, "superseded",
                                   f"version {c.chunk.version} ({c.chunk.date or 'undated'}) is superseded"))
    return [x for i, k in enumerate(current) for x in [k] + after.get(i, [])], dropped
