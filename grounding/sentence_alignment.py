"""The alignment stage of contradiction detection (grounding.contradictions): which sentences of two planned sources
talk about the same thing.

    claims of every source -> ONE embed call (the sentences and the question) -> one cosine matrix
      -> per source pair, the aligned sentence pairs: cosine >= ``similarity`` or a lexical near-copy
         (grounding.alignment), those sharing most of the question's words first
      -> a sentence the other source copies (cosine >= COPY) meets its copy only; between two versions of one
         document, a sentence with a reworded counterpart (each the other's best match over the planned text of the
         other version, near-copies in words) meets that counterpart only
      -> an optional test of each aligned pair (grounding.notes.Concerns) drops the pairs no note could come from

Technique: sentence alignment with Sentence-BERT cosine (Reimers and Gurevych 2019), the first stage of the
alignment-then-mismatch design of de Marneffe, Rafferty and Manning 2008 ("Finding Contradictions in Text", ACL).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Protocol, Sequence

import numpy as np

from grounding.alignment import lexically_aligned_matrix
from grounding.claim_readings import ClaimReading, reading
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.types import Source

__all__ = ["COPY", "REWORDED", "Alignment", "PairTest", "align", "same_document"]

#: Cosine at or above which a sentence is a copy of one in the other source (it agrees with that source).
COPY = 0.95
#: Cosine from which two sentences of two versions, each the other's best match and near-copies in words, are one
#: sentence reworded.
REWORDED = 0.6

#: A source pair: indices (i, j), i < j, into the planned sources.
Pair = tuple[int, int]


class PairTest(Protocol):
    """Whether an aligned sentence pair is worth examining (grounding.notes.Concerns is one). A test that also has
    ``many(terms, a, b, *, similarity, relevance, versions) -> bool array`` (Concerns.many: the test of many pairs
    at once, arrays per pair) is asked once for every aligned pair of every source pair."""

    def __call__(self, terms: frozenset[str], *, similarity: float, relevance: float, versions: bool) -> bool: ...


def same_document(sources: Sequence[Source], i: int, j: int) -> bool:
    """Whether sources i and j are two passages of one document (two versions, or two chunks of one version)."""
    return sources[i].document_id == sources[j].document_id


@dataclass
class Alignment:
    """The aligned sentences of the planned sources.

    Attributes:
        sentences: each source's claims, in the sources' order.
        offsets: the flat row of each source's first sentence (len(sources) + 1 entries; the last is the total).
        read: what the rules read of each sentence (grounding.claim_readings.ClaimReading), by flat row.
        asked: each sentence's cosine to the question, by flat row (zeros without a question).
        aligned: source pair -> its aligned sentence pairs (cosine, sentence of i, sentence of j), best first:
            the sentences sharing most of the question's words first, then by cosine.
        copies: (i, j) -> the sentences of source i that source j copies (cosine >= COPY); both orders are present
            for every pair with sentences.
        counterparts: (i, j) of two versions of one document -> the aligned pairs that are one sentence reworded.
        cosine: the sentences' cosine matrix, by flat rows.
    """

    sentences: list[list[str]]
    offsets: np.ndarray
    read: list[ClaimReading]
    asked: np.ndarray
    aligned: dict[Pair, list[tuple[float, int, int]]] = field(default_factory=dict)
    copies: dict[Pair, set[int]] = field(default_factory=dict)
    counterparts: dict[Pair, set[Pair]] = field(default_factory=dict)
    cosine: np.ndarray | None = None

    def row(self, source: int, sentence: int) -> int:
        """The flat row of a source's sentence."""
        return int(self.offsets[source]) + sentence


def align(sources: Sequence[Source], pairs: Sequence[Pair], embedder: Embedder, *, similarity: float,
          focus: str = "", sentences: Sequence[Sequence[str]], concerns: PairTest | None = None,
          readings: Mapping[str, ClaimReading] | None = None) -> Alignment | None:
    """Align the sentences of each source pair in ``pairs`` (see the module docstring).

    Args:
        sources: the planned sources.
        pairs: the source pairs to align (i < j).
        embedder: called once with every sentence and, when ``focus`` is given, the question (L2-normalised rows).
        similarity: cosine at or above which two sentences are aligned (0 < similarity <= 1).
        focus: the question ("" for none).
        sentences: each source's claims (grounding.claims), in ``sources`` order.
        concerns: an optional test of an aligned pair (both sentences' content words, their cosine, the question's
            cosine to the closer one, whether they come from two versions of one document).
        readings: what the rules read of each sentence, stored at ingestion; a sentence not in it is read here.
    Returns:
        the Alignment, or None when no source has a sentence.
    Cost: one embed call, one (n_sentences x n_sentences) matrix product, array operations over all source pairs at
    once (a row and a column maximum per source, one pass over the matrix for the aligned cells); Python work only
    for the aligned pairs found (about 200 a question on the 18F handbook), and per pair of two versions.
    """
    sentences = [list(x) for x in sentences]
    flat = [x for group in sentences for x in group]
    if not flat:
        return None
    offsets = np.cumsum([0] + [len(g) for g in sentences])
    focus_terms = content_terms(focus) if focus else set()
    embedded = np.asarray(embedder.embed(flat + [focus] if focus else flat), dtype=np.float32)
    vectors = embedded[:len(flat)]
    asked = vectors @ embedded[len(flat)] if focus else np.zeros(len(flat), dtype=np.float32)
    cosine = vectors @ vectors.T
    # what the rules read of each sentence: stored at ingestion, else read from the text (issue 20 point 3)
    known = readings or {}
    read = [known.get(x) or reading(x) for x in flat]
    token_sets = [r.token_set for r in read]
    # near-copies in words, whatever their cosine
    lexical = lexically_aligned_matrix(token_sets, [r.token_codes for r in read])
    terms = [r.terms for r in read] if focus_terms or concerns is not None else []
    result = Alignment(sentences=sentences, offsets=offsets, read=read, asked=asked, cosine=cosine)

    version_rows: dict[tuple, list[int]] = {}  # (document, version) -> its planned sentences (flat rows)
    for k, src in enumerate(sources):
        version_rows.setdefault((src.document_id, src.version_id), []).extend(range(offsets[k], offsets[k + 1]))
    row_version = {r: key for key, rows in version_rows.items() for r in rows}

    def counterpart(x: int, y: int) -> bool:
        """Rows x and y (two versions of one document) are one sentence in two wordings: each the other's best
        match over the planned text of the other version, at least REWORDED close, and near-copies in words (at
        least 6 tokens each, 5 shared, 60% of the shorter)."""
        rows_x, rows_y = version_rows[row_version[x]], version_rows[row_version[y]]
        if rows_y[int(np.argmax(cosine[x, rows_y]))] != y or rows_x[int(np.argmax(cosine[y, rows_x]))] != x:
            return False
        tx, ty = token_sets[x], token_sets[y]
        shared = len(tx & ty)
        return cosine[x, y] >= REWORDED and min(len(tx), len(ty)) >= 6 and shared >= 5 \
            and shared >= 0.6 * min(len(tx), len(ty))

    def partner(x: int, version: tuple) -> int | None:
        """The row of ``version`` that is row x's counterpart, if any."""
        rows = version_rows[version]
        y = rows[int(np.argmax(cosine[x, rows]))]
        return y if counterpart(x, y) else None

    # every source pair at once (one pass over the cosine matrix, not one per pair): for each sentence and source,
    # the closest sentence of that source by row (the sentence against that source's) and by column (that source's
    # against the sentence), as each pair's block would give them (its row and column maxima, first of equals)
    n, k = len(flat), len(sources)
    sizes = np.diff(offsets)
    source_of = np.repeat(np.arange(k), sizes)
    local = np.arange(n) - offsets[source_of]
    top_row, top_col = np.full((n, k), -np.inf, dtype=cosine.dtype), np.full((n, k), -np.inf, dtype=cosine.dtype)
    best_row, best_col = np.zeros((n, k), dtype=np.int64), np.zeros((n, k), dtype=np.int64)
    for s in np.flatnonzero(sizes):
        columns, rows = cosine[:, offsets[s]:offsets[s + 1]], cosine[offsets[s]:offsets[s + 1], :]
        top_row[:, s], best_row[:, s] = columns.max(axis=1), columns.argmax(axis=1)
        top_col[:, s], best_col[:, s] = rows.max(axis=0), rows.argmax(axis=0)
    copy_row, copy_col = (top_row >= COPY).T, (top_col >= COPY).T
    pair_of = np.full((k, k), -1, dtype=np.int64)
    for p, (i, j) in enumerate(pairs):
        pair_of[i, j] = p
    # the aligned cells of every pair, row-major as each pair's own block lists them
    xs, ys = np.nonzero(((cosine >= similarity) | lexical) & (pair_of[source_of[:, None], source_of[None, :]] >= 0))
    si, sj, a_, b_ = source_of[xs], source_of[ys], local[xs], local[ys]
    # an aligned pair, unless one of its sentences has a copy in the other source that is not the other one
    kept = ((top_row[xs, sj] < COPY) | (best_row[xs, sj] == b_)) & ((top_col[ys, si] < COPY) | (best_col[ys, si] == a_))
    xs, ys, si, sj, a_, b_ = xs[kept], ys[kept], si[kept], sj[kept], a_[kept], b_[kept]
    many = getattr(concerns, "many", None)  # the test of all aligned pairs in one call, when it has one
    if many is not None:
        document = np.array([src.document_id for src in sources], dtype=object)  # as same_document compares
        concerned = many(terms, xs, ys, similarity=cosine[xs, ys].astype(np.float64),
                         relevance=np.maximum(asked[xs], asked[ys]).astype(np.float64),
                         versions=document[si] == document[sj]).tolist()
    else:
        concerned = [True] * len(xs)
    by_pair: dict[int, list[tuple[int, int, bool]]] = {}
    for p, a, b, ok in zip(pair_of[si, sj].tolist(), a_.tolist(), b_.tolist(), concerned):
        by_pair.setdefault(p, []).append((a, b, ok))

    for p, (i, j) in enumerate(pairs):
        if not sizes[i] or not sizes[j]:
            continue
        oi, oj = int(offsets[i]), int(offsets[j])
        result.copies[(i, j)] = set(np.flatnonzero(copy_row[j, oi:oi + sizes[i]]).tolist())
        result.copies[(j, i)] = set(np.flatnonzero(copy_col[i, oj:oj + sizes[j]]).tolist())
        cells = by_pair.get(p, [])
        two_versions = same_document(sources, i, j)
        if two_versions:
            # a sentence with a counterpart in the other version (itself, reworded) meets that counterpart only
            vi, vj = row_version[oi], row_version[oj]
            cells = [(a, b, ok) for a, b, ok in cells if partner(oi + a, vj) in (None, oj + b)
                     and partner(oj + b, vi) in (None, oi + a)]
            result.counterparts[(i, j)] = {(a, b) for a, b, _ in cells if counterpart(oi + a, oj + b)}
        if concerns is not None and many is None:
            cells = [(a, b, ok) for a, b, ok in cells if concerns(
                terms[oi + a] | terms[oj + b], similarity=float(cosine[oi + a, oj + b]),
                relevance=max(float(asked[oi + a]), float(asked[oj + b])), versions=two_versions)]
        hits = [(a, b) for a, b, ok in cells if ok]
        if hits:
            ranked = sorted(((float(cosine[oi + a, oj + b]), a, b) for a, b in hits), key=lambda t: (-t[0], t[1], t[2]))
            if focus_terms:
                ranked.sort(key=lambda t: -len(focus_terms & (terms[oi + t[1]] | terms[oj + t[2]])))
            result.aligned[(i, j)] = ranked
    return result
