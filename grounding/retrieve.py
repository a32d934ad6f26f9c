"""Hybrid retrieval: dense cosine (numpy) + lexical BM25 (bm25s), fused by reciprocal rank fusion.

RRF: Cormack, Clarke & Buettcher 2009, "Reciprocal Rank Fusion outperforms Condorcet and individual rank learning
methods": score(d) = sum over rankers of 1 / (k + rank(d)), k = 60.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import bm25s
import numpy as np
import Stemmer

from grounding.input_limit import InputLimit
from grounding.types import Candidate, Chunk

RRF_K = 60
_stemmer = Stemmer.Stemmer("english")


def _tokenize(texts: Sequence[str]) -> list[list[str]]:
    return bm25s.tokenize(list(texts), stopwords="en", stemmer=_stemmer, return_ids=False, show_progress=False)


def index_text(chunk: Chunk) -> str:
    """The text a chunk is indexed (and embedded) under: title, section path and body (characters)."""
    return _head(chunk.title, chunk.section) + chunk.text


def _head(title: str, section: str) -> str:
    """What is indexed before a chunk's text: "title > section" and a line break ("" when both are empty)."""
    head = " > ".join(p for p in (title, section) if p)
    return f"{head}\n" if head else ""


def input_limit(embedder: object, *, title: str) -> InputLimit | None:
    """The embedder's input length for the chunks of a document titled ``title``, embedded as :func:`index_text`
    builds their text (title, section path, then the chunk): for grounding.chunking.chunk_blocks (B13).

    Returns None for an embedder that does not say how much it reads (no ``max_tokens`` and ``count_tokens``, as
    test doubles); grounding.embeddings.MiniLMEmbedder says.
    """
    max_tokens = getattr(embedder, "max_tokens", None)
    count = getattr(embedder, "count_tokens", None)
    if not isinstance(max_tokens, int) or not callable(count):
        return None

    def prefix(section: tuple[str, ...]) -> str:
        return _head(title, " > ".join(section))

    return InputLimit(max_tokens=max_tokens, count=count, prefix=prefix)


def top_k_inner(matrix: np.ndarray, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product: (rows int64 (k,), scores float32 (k,)), best first.

    ``argpartition`` selects the k best in linear time before only those are sorted (a full argsort of a million
    scores costs more than the product itself). Ties keep the lower row first.
    """
    if matrix.shape[0] == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    rows, scores = top_k_inner_scores(matrix @ np.asarray(query, dtype=np.float32), k)
    return rows.astype(np.int64), scores.astype(np.float32)


def rrf_fuse(dense_rows: Sequence[int], lexical_rows: Sequence[int], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal rank fusion of two rankings of rows: {row: sum of 1 / (k + rank)} (Cormack et al. 2009)."""
    fused: dict[int, float] = {}
    for rank, row in enumerate(dense_rows, start=1):
        fused[int(row)] = fused.get(int(row), 0.0) + 1.0 / (k + rank)
    for rank, row in enumerate(lexical_rows, start=1):
        fused[int(row)] = fused.get(int(row), 0.0) + 1.0 / (k + rank)
    return fused


def top_k_inner_scores(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k of a score array: (rows, scores), best first (``argpartition`` then a sort of the k)."""
    n = scores.shape[0]
    k = min(k, n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    part = np.argpartition(-scores, k - 1)[:k] if k < n else np.arange(n)
    rows = part[np.lexsort((part, -scores[part]))]
    return rows, scores[rows]


@dataclass
class HybridIndex:
    """An in-memory index over one domain's chunks.

    Attributes:
        chunks: the indexed chunks; row i of ``matrix`` is chunk i.
        matrix: float32 (n, dim) L2-normalised embeddings.
    Raises:
        ValueError: when the matrix rows do not match the chunks.
    """

    chunks: list[Chunk]
    matrix: np.ndarray

    def __post_init__(self) -> None:
        if self.matrix.shape[0] != len(self.chunks):
            raise ValueError(f"{self.matrix.shape[0]} vectors for {len(self.chunks)} chunks")
        self._bm25: bm25s.BM25 | None = None
        if self.chunks:
            tokens = _tokenize([index_text(c) for c in self.chunks])
            if any(tokens):
                self._bm25 = bm25s.BM25()
                self._bm25.index(tokens, show_progress=False)

    def __len__(self) -> int:
        return len(self.chunks)

    def search(self, query: str, query_vector: np.ndarray, *, k: int = 20, depth: int = 50) -> list[Candidate]:
        """Top-k candidates for a query.

        Args:
            query: the retrieval query text (for BM25).
            query_vector: float32 (dim,) unit vector of the query.
            k: number of candidates returned.
            depth: how many results of each ranker enter the fusion.
        Returns:
            candidates sorted by fused score (descending), ranks 1..k; [] for an empty index.
        """
        n = len(self.chunks)
        if n == 0:
            return []
        q = np.asarray(query_vector, dtype=np.float32)
        dense = self.matrix @ q
        dense_order, _ = top_k_inner_scores(dense, depth)
        lexical = np.zeros(n, dtype=np.float32)
        if self._bm25 is not None:
            tokens = _tokenize([query])[0]
            if tokens:
                lexical = np.asarray(self._bm25.get_scores(tokens), dtype=np.float32)
        top_lexical, top_scores = top_k_inner_scores(lexical, depth)
        lexical_order = [int(i) for i, s in zip(top_lexical, top_scores) if s > 0]
        fused = rrf_fuse(dense_order, lexical_order)
        best = sorted(fused.items(), key=lambda kv: (-kv[1], -float(dense[kv[0]]), kv[0]))[:k]
        return [Candidate(chunk=self.chunks[i], score=s, dense=float(dense[i]), lexical=float(lexical[i]), rank=r,
                          vector=self.matrix[i])
                for r, (i, s) in enumerate(best, start=1)]
