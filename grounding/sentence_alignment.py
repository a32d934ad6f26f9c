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
    """Whether an aligned sentence pair is worth examining (grounding.notes.Concerns is one)."""

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
    Cost: one embed call, one (n_sentences x n_sentences) matrix product.
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
    lexical = lexically_aligned_matrix(token_sets)  # near-copies in words, whatever their cosine
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

    for i, j in pairs:
        block = cosine[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
        if block.size == 0:
            continue
        mask = (block >= similarity) | lexical[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
        best_b, best_a = block.argmax(axis=1), block.argmax(axis=0)
        top_b, top_a = block.max(axis=1), block.max(axis=0)
        result.copies[(i, j)] = {int(a) for a in np.flatnonzero(top_b >= COPY)}
        result.copies[(j, i)] = {int(b) for b in np.flatnonzero(top_a >= COPY)}
        # an aligned pair, unless one of its sentences has a copy in the other source that is not the other one
        # (one vectorised test over the aligned cells, in their row-major order)
        cells = np.argwhere(mask)
        a_, b_ = cells[:, 0], cells[:, 1]
        kept = ((top_b[a_] < COPY) | (best_b[a_] == b_)) & ((top_a[b_] < COPY) | (best_a[b_] == a_))
        hits = [(int(a), int(b)) for a, b in cells[kept]]
        two_versions = same_document(sources, i, j)
        if two_versions:
            # a sentence with a counterpart in the other version (itself, reworded) meets that counterpart only
            vi, vj = row_version[offsets[i]], row_version[offsets[j]]
            hits = [(a, b) for a, b in hits if partner(offsets[i] + a, vj) in (None, offsets[j] + b)
                    and partner(offsets[j] + b, vi) in (None, offsets[i] + a)]
            result.counterparts[(i, j)] = {(a, b) for a, b in hits if counterpart(offsets[i] + a, offsets[j] + b)}
        if concerns is not None:
            hits = [(a, b) for a, b in hits if concerns(
                terms[offsets[i] + a] | terms[offsets[j] + b], similarity=float(block[a, b]),
                relevance=max(float(asked[offsets[i] + a]), float(asked[offsets[j] + b])), versions=two_versions)]
        if hits:
            ranked = sorted(((float(block[a, b]), a, b) for a, b in hits), key=lambda t: (-t[0], t[1], t[2]))
            if focus_terms:
                ranked.sort(key=lambda t: -len(focus_terms & (terms[offsets[i] + t[1]] | terms[offsets[j] + t[2]])))
            result.aligned[(i, j)] = ranked
    return result
