"""Hybrid retrieval helpers: exact top-k by inner product (numpy) and reciprocal rank fusion of the dense and the
lexical (BM25) rankings. The index itself, on disk and memory-mapped, is grounding.index_store.StoredIndex; its BM25
tokens come from grounding.lexical.bm25_tokens.

RRF: Cormack, Clarke & Buettcher 2009, "Reciprocal Rank Fusion outperforms Condorcet and individual rank learning
methods": score(d) = sum over rankers of 1 / (k + rank(d)), k = 60.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from grounding.input_limit import InputLimit
from grounding.types import Chunk

RRF_K = 60


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


def inner(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Inner products of every row of ``matrix`` (float32 (n, dim)) with ``query`` (dim,): float32 (n,).

    numpy's einsum loop rather than ``matrix @ query``: for one query (a matrix-vector product, bound by reading the
    matrix) OpenBLAS's single-thread sgemv reads at about 11 GB/s here and einsum's SIMD loop at about 19 GB/s, as
    fast as faiss IndexFlatIP on one thread (bench/bench_retrieval.py, 100,000 x 384: 13.2 ms vs 8.0 ms vs 7.5 ms).
    """
    return np.einsum("ij,j->i", matrix, np.asarray(query, dtype=np.float32))


def top_k_inner(matrix: np.ndarray, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product: (rows int64 (k,), scores float32 (k,)), best first.

    ``argpartition`` selects the k best in linear time before only those are sorted (a full argsort of a million
    scores costs more than the product itself). Ties keep the lower row first. The product is :func:`inner` (numpy's
    own loop, not BLAS).
    """
    if matrix.shape[0] == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    rows, scores = top_k_inner_scores(inner(matrix, query), k)
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
