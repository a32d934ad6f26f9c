"""Hybrid retrieval helpers: exact top-k by inner product (numpy) and reciprocal rank fusion of the dense and the
lexical (BM25) rankings. The index itself, on disk and memory-mapped, is grounding.index_store.StoredIndex; its BM25
tokens come from grounding.lexical.bm25_tokens.

RRF: Cormack, Clarke & Buettcher 2009, "Reciprocal Rank Fusion outperforms Condorcet and individual rank learning
methods": score(d) = sum over rankers of 1 / (k + rank(d)), k = 60.
"""

from __future__ import annotations

from concurrent.futures import Executor
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


#: Bytes of matrix from which one :func:`inner` scan is shared with an idle thread of the helper pool (a smaller scan
#: costs less than handing half of it over: about 0.3 ms of reading at this size).
SPLIT_BYTES = 4 << 20

_helpers: list[Executor | None] = [None]


def use_helpers(executor: Executor | None) -> None:
    """Let large :func:`inner` scans share their rows with an idle thread of ``executor`` (the server's CPU pool,
    chat.runtime); None: every scan runs on its calling thread alone. Process-wide."""
    _helpers[0] = executor


def inner(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Inner products of every row of ``matrix`` (float32 (n, dim)) with ``query`` (dim,): float32 (n,).

    numpy's einsum loop rather than ``matrix @ query``: for one query (a matrix-vector product, bound by reading the
    matrix) OpenBLAS's single-thread sgemv reads at about 11 GB/s here and einsum's SIMD loop at about 19 GB/s, as
    fast as faiss IndexFlatIP on one thread (bench/bench_retrieval.py, 100,000 x 384: 13.2 ms vs 8.0 ms vs 7.5 ms).

    A matrix of at least SPLIT_BYTES is read in two halves when helpers are set (:func:`use_helpers`): the second
    half is offered to the helper pool and the calling thread reads the first; if no helper thread took the second
    half by then, the caller reads it too (so a busy pool, or a pool whose every thread is such a caller, never
    waits). einsum releases the GIL, so an idle core halves a sentence-matrix scan (60,000 x 384 on this machine:
    10.3 ms vs 5.0 ms). Each row's product is computed by the same loop either way: the result is identical.
    """
    q = np.asarray(query, dtype=np.float32)
    helpers = _helpers[0]
    if helpers is None or matrix.nbytes < SPLIT_BYTES or matrix.shape[0] < 2:
        return np.einsum("ij,j->i", matrix, q)
    out = np.empty(matrix.shape[0], dtype=np.result_type(matrix.dtype, q.dtype))
    half = matrix.shape[0] // 2

    def part(lo: int, hi: int) -> None:
        np.einsum("ij,j->i", matrix[lo:hi], q, out=out[lo:hi])

    try:
        shared = helpers.submit(part, half, matrix.shape[0])
    except RuntimeError:  # the pool is shut down (a process exiting)
        shared = None
    part(0, half)
    if shared is None or shared.cancel():  # nobody took it: the caller reads it
        part(half, matrix.shape[0])
    else:
        shared.result()
    return out


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
