"""Ranking retrieved chunks by the sentence that answers: the best-sentence score of each chunk fused with the chunk's
dense and BM25 rankings, the candidate list cut where relevance drops off, and near-duplicate passages of other
documents moved behind the distinct ones.

- Fusion is weighted reciprocal rank fusion (Cormack, Clarke & Buettcher 2009; weighted as in Bruch et al. 2023, "An
  Analysis of Fusion Functions for Hybrid Retrieval"): score(d) = sum over rankers r of w_r / (k + rank_r(d)), k = 60,
  the chunk dense and BM25 rankings with weight 1 and the best-sentence ranking with SENTENCE_WEIGHT.
- The best sentence of a chunk follows passage-level evidence scoring (Callan 1994, "Passage-level evidence in
  document retrieval": a document scored by its best passage), here at the grain of one sentence, as the
  extractive answerer quotes it.
- The drop-off keeps the candidates whose best-sentence cosine is within DROP_OFF of the best one (never fewer than
  MIN_KEPT): how many sources an answer gets follows the relevance of what was found and the token budget
  (grounding.context), not a fixed count.

No Django imports.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from grounding.types import Candidate

RRF_K = 60
#: Weight of the best-sentence ranking in the fusion (the chunk dense and BM25 rankings weigh 1). Chosen on the
#: calibration half of the 18F golden set (gold page among the planned sources).
SENTENCE_WEIGHT = 1.5
#: Candidates whose best-sentence cosine is more than this below the best candidate's are left out of the plan.
DROP_OFF = 0.25
#: Fewest candidates kept by the drop-off (when that many were retrieved).
MIN_KEPT = 3
#: Two best sentences from different documents at or above this cosine are near-duplicates.
NEAR_DUPLICATE_SENTENCE = 0.95


def row_best(scores: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row, the best of its sentences' scores: row i owns scores[offsets[i]:offsets[i + 1]].

    Returns:
        (rows that own at least one sentence, int64; their best score, float32; the best sentence's position within
        the row, int64; the first one on ties). Rows without sentences are absent.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.diff(offsets)
    rows = np.flatnonzero(lengths > 0)
    if len(rows) == 0:
        return rows.astype(np.int64), np.zeros(0, np.float32), np.zeros(0, np.int64)
    starts = offsets[rows]
    scores = np.asarray(scores, dtype=np.float32)
    best = np.maximum.reduceat(scores, starts)
    is_best = scores >= np.repeat(best, lengths[rows])
    hits = np.flatnonzero(is_best)
    segment = np.searchsorted(starts, hits, side="right") - 1
    _, first = np.unique(segment, return_index=True)
    return rows.astype(np.int64), best, (hits[first] - starts).astype(np.int64)


def row_max(scores: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`row_best` without the positions: (rows that own at least one sentence, int64; their best score,
    float32). Positions are found afterwards, for the few rows that need one (:func:`first_maxima`)."""
    offsets = np.asarray(offsets, dtype=np.int64)
    rows = np.flatnonzero(np.diff(offsets) > 0)
    if len(rows) == 0:
        return rows.astype(np.int64), np.zeros(0, np.float32)
    return rows.astype(np.int64), np.maximum.reduceat(np.asarray(scores, dtype=np.float32), offsets[rows])


def first_maxima(scores: np.ndarray, offsets: np.ndarray, rows: Sequence[int]) -> list[int]:
    """For each of ``rows`` (each owning at least one score: row i owns scores[offsets[i]:offsets[i + 1]]), the
    position of its best score within the row, the first one on ties: the positions :func:`row_best` gives those
    rows, found for them only (one gather, one :func:`row_best` over their scores)."""
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) == 0:
        return []
    offsets = np.asarray(offsets, dtype=np.int64)
    starts, lengths = offsets[rows], offsets[rows + 1] - offsets[rows]
    local = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=local[1:])
    picks = np.repeat(starts - local[:-1], lengths) + np.arange(local[-1])
    return row_best(np.asarray(scores)[picks], local)[2].tolist()


def top_order(values: np.ndarray, k: int) -> np.ndarray:
    """Indexes of the ``k`` largest ``values`` (float (n,)), largest first, the lower index first on ties: exactly
    ``np.lexsort((np.arange(n), -values))[:k]``, without sorting all n (the values from the k-th largest up are
    selected in linear time, every tie of the k-th included, and only they are sorted)."""
    n = len(values)
    if k <= 0 or n == 0:
        return np.zeros(0, dtype=np.int64)
    if k >= n or not np.isfinite(values).all():
        return np.lexsort((np.arange(n), -values))[:k]
    kth = np.partition(values, n - k)[n - k]
    chosen = np.flatnonzero(values >= kth)
    return chosen[np.lexsort((chosen, -values[chosen]))][:k]


def context_vectors(vectors: np.ndarray) -> np.ndarray:
    """The "previous sentence + sentence" vectors of one chunk's sentence vectors, float32 (k, dim): each row the
    re-normalised sum of its vector and the one before it (the first row is its own), so that a short sentence such
    as "It must be longer than 14 characters." keeps its subject. No model call."""
    vectors = np.asarray(vectors, dtype=np.float32)
    out = vectors.copy()
    if len(vectors) > 1:
        window = vectors[1:] + vectors[:-1]
        norms = np.linalg.norm(window, axis=1, keepdims=True)
        out[1:] = np.where(norms > 0, window / np.where(norms > 0, norms, 1.0), vectors[1:])
    return out


def context_scale(vectors: np.ndarray) -> np.ndarray:
    """Per sentence of one chunk, float32 (k,): 1 / |vector + previous vector| where :func:`context_vectors` sums the
    two, else 0 (the first sentence, or a window of norm 0: the context vector is the sentence's own). With it a
    context vector's cosine to a query comes from the sentences' own cosines (:func:`context_scores`), so scoring
    reads the sentence matrix once instead of the sentence and context matrices."""
    vectors = np.asarray(vectors, dtype=np.float32)
    out = np.zeros(len(vectors), dtype=np.float32)
    if len(vectors) > 1:
        norms = np.linalg.norm(vectors[1:] + vectors[:-1], axis=1)
        out[1:] = np.where(norms > 0, 1.0 / np.where(norms > 0, norms, 1.0), 0.0)
    return out


def context_scores(scores: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The cosines of the context vectors to a query from the sentences' own cosines ``scores`` (m,) and the
    per-sentence ``scale`` (m,) of :func:`context_scale`, chunks one after another: (s_i + s_(i-1)) * scale_i where
    scale_i > 0, else s_i. Equal to the product with :func:`context_vectors` up to float rounding (the dot product is
    linear: q . (a + b) / |a + b| = (q . a + q . b) / |a + b|)."""
    previous = np.empty_like(scores)
    previous[0:1] = 0.0
    previous[1:] = scores[:-1]
    return np.where(scale > 0, (scores + previous) * scale, scores)


def fuse(dense_rows: Sequence[int], lexical_rows: Sequence[int], sentence_rows: Sequence[int], *, k: int = RRF_K,
         sentence_weight: float = SENTENCE_WEIGHT) -> dict[int, float]:
    """Weighted reciprocal rank fusion of three rankings of rows: {row: sum of w / (k + rank)}."""
    fused: dict[int, float] = {}
    for weight, ranking in ((1.0, dense_rows), (1.0, lexical_rows), (sentence_weight, sentence_rows)):
        for rank, row in enumerate(ranking, start=1):
            fused[int(row)] = fused.get(int(row), 0.0) + weight / (k + rank)
    return fused


def relevance(candidate: Candidate) -> float:
    """A candidate's relevance for the drop-off: its chunk cosine, or its best sentence's cosine when higher (the
    same relevance planning's thresholds read, grounding.context): a chunk whose answer is spread over two
    sentences matches as a whole better than by any one of them."""
    return max(candidate.dense, candidate.sentence) if candidate.sentence_pos >= 0 else candidate.dense


def drop_off(candidates: Sequence[Candidate], *, margin: float = DROP_OFF, keep: int = MIN_KEPT) -> list[Candidate]:
    """The candidates (in their order) whose relevance is within ``margin`` of the best one's; at least the first
    ``keep``. Superseded candidates (kept for version questions and notes) are not cut here."""
    if not candidates:
        return []
    current = [c for c in candidates if c.chunk.status != "superseded"]
    top = max((relevance(c) for c in current), default=0.0)
    kept, count = [], 0
    for c in candidates:
        if c.chunk.status == "superseded":
            kept.append(c)
            continue
        if count < keep or relevance(c) >= top - margin:
            kept.append(c)
            count += 1
    return kept


def demote_near_duplicates(candidates: Sequence[Candidate], *,
                           threshold: float = NEAR_DUPLICATE_SENTENCE) -> list[Candidate]:
    """The candidates with each one whose best sentence is a near-duplicate (cosine >= ``threshold``) of the best
    sentence of a higher-ranked candidate from another document moved behind all distinct ones (their order kept):
    a paragraph repeated on several pages must not crowd out the page that answers."""
    distinct: list[Candidate] = []
    repeats: list[Candidate] = []
    seen: list[tuple[int, np.ndarray]] = []  # (document id, best sentence vector)
    for c in candidates:
        vector = _best_vector(c)
        if vector is not None and any(doc != c.chunk.document_id and float(v @ vector) >= threshold
                                      for doc, v in seen):
            repeats.append(c)
            continue
        distinct.append(c)
        if vector is not None:
            seen.append((c.chunk.document_id, vector))
    return distinct + repeats


def _best_vector(c: Candidate) -> np.ndarray | None:
    """The vector of a candidate's best sentence (grounding.types.Candidate.sentence_vectors, stored at ingestion);
    None when unknown."""
    vectors = c.sentence_vectors
    if vectors is None or not (0 <= c.sentence_pos < len(vectors)):
        return None
    return np.asarray(vectors[c.sentence_pos], dtype=np.float32)
