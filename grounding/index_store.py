"""A retrieval index on disk, memory-mapped by every worker process (retrieval at scale).

One index is a directory written once and never modified (a changed domain gets a new directory):

    vectors.npy   float32 (n, dim) L2-normalised embeddings; row i belongs to ids[i]   (np.load, mmap_mode="r")
    ids.npy       int64 (n,) the chunks' primary keys
    bm25/         the bm25s lexical index (sparse CSC arrays, loaded with mmap=True)
    ann.usearch   an HNSW graph (usearch, inner product) when n >= ann_threshold, opened as a view (mmap)
    records.bin   the chunks' records (JSON objects, UTF-8, one after another; row i is
                  records.bin[offsets[i]:offsets[i + 1]]), so that retrieval reads what it returns from the index,
                  never from the database
    offsets.npy   int64 (n + 1,) byte offsets into records.bin                              (np.load, mmap_mode="r")
    sentences.npy float32 (m, dim) the rows' sentence vectors, row after row (made at ingestion: what contradiction
                  detection compares), and sentence_offsets.npy int64 (n + 1,): row i's are
                  sentences[sentence_offsets[i]:sentence_offsets[i + 1]]; both absent when none were given
    sentence_distinct.npy float32 (u, dim) the distinct rows of sentences.npy, with sentence_map.npy int32 (m,) each
                  sentence's row among them: a search scans u rows, not m (absent when nearly all are distinct)
    units.npy     float32 (u, dim) the rows' answer-unit vectors (made at ingestion: the other texts the offline
                  answerer reads a chunk as), with unit_offsets.npy int64 (n + 1,) as for sentences; never scored
    layouts.bin   the chunks' layouts (JSON per row, with layout_offsets.npy): read only for an answer's planned chunks
    meta.json     {"format": 2, "n": ..., "dim": ..., "ann": bool, "answer": what it carries for answering}

The operating system's page cache holds each file once however many processes map it, so a domain's matrix is
resident once per machine, not once per worker. Exact search (numpy, the inner products then ``argpartition``) is the
default; above ``ann_threshold`` vectors the HNSW graph answers the dense side (Malkov & Yashunin 2018, "Efficient and
robust approximate nearest neighbor search using Hierarchical Navigable Small World graphs"), and its recall@10
against exact search is measured in bench/bench_retrieval.py. Dense and lexical rankings are fused by reciprocal rank
fusion (grounding.retrieve.rrf_fuse, Cormack et al. 2009); BM25 tokens come from grounding.lexical.bm25_tokens.
When the rows have sentence vectors, each chunk also gets the cosine of its best-matching sentence (or sentence in
context: contexts.npy, float32 (m, dim), each sentence's vector plus the one before it in its chunk, re-normalised,
written next to sentences.npy; with context_scale.npy, float32 (m,), an exact scan reads only sentences.npy and
derives the context cosines from the sentences' own: grounding.ranking.context_scores), and that ranking is fused
with the other two (grounding.ranking.fuse).

No Django imports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import bm25s
import numpy as np

from grounding.index_files import ANN_EXPANSION, ANN_THRESHOLD, FORMAT, build_directory
from grounding.lexical import bm25_query_tokens
from grounding.ranking import SENTENCE_WEIGHT, context_scores, first_maxima, fuse, row_best, row_max, top_order
from grounding.retrieve import inner, rrf_fuse, top_k_inner, top_k_inner_scores


@dataclass(frozen=True)
class Hit:
    """One fused result: the chunk key, its row in the index, and its scores.

    Attributes:
        key: the chunk's primary key (ids[row]).
        row: the row of its vector in vectors.npy.
        score: reciprocal-rank-fusion score.
        dense: cosine to the query (inner product of unit vectors).
        lexical: BM25 score (0.0 when the lexical side did not find it).
        rank: 1-based rank after fusion.
        sentence: cosine of the chunk's best-matching sentence (sentence alone or with the previous one) to the
            query; 0.0 without sentence data.
        sentence_pos: that sentence's position among the chunk's sentences (-1 without sentence data).
    """

    key: int
    row: int
    score: float
    dense: float
    lexical: float
    rank: int
    sentence: float = 0.0
    sentence_pos: int = -1


def _mapped(path: Path) -> np.ndarray:
    """An .npy file memory-mapped read-only, as a plain ndarray view of the map: slicing a numpy.memmap runs Python
    code (its __array_finalize__) on every slice, 40 microseconds each, several hundred per ask (a candidate's
    vector, sentence and unit vectors); the view reads the same mapped pages with none of it."""
    return np.load(path, mmap_mode="r").view(np.ndarray)


def _mapped_bytes(path: Path, offsets: np.ndarray) -> np.ndarray:
    """A file of rows of bytes (``offsets``: int64 (n + 1,) bounds) memory-mapped as a plain uint8 ndarray view;
    an empty array when the rows are all empty (numpy cannot map an empty file)."""
    if int(offsets[-1]) <= 0:
        return np.zeros(0, dtype=np.uint8)
    return np.memmap(path, dtype=np.uint8, mode="r").view(np.ndarray)


class StoredIndex:
    """A read-only index directory (see the module docstring), opened with memory maps.

    Raises:
        FileNotFoundError: the directory or one of its files is missing.
        ValueError: the files disagree (rows vs ids) or the format is unknown.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        meta = json.loads((self.path / "meta.json").read_text())
        if meta.get("format") != FORMAT:
            raise ValueError(f"unknown index format {meta.get('format')!r} in {self.path}")
        self.vectors: np.ndarray = _mapped(self.path / "vectors.npy")
        self.ids: np.ndarray = _mapped(self.path / "ids.npy")
        if self.vectors.shape[0] != self.ids.shape[0]:
            raise ValueError(f"{self.vectors.shape[0]} vectors for {self.ids.shape[0]} ids in {self.path}")
        self.offsets: np.ndarray = _mapped(self.path / "offsets.npy")
        self._records = _mapped_bytes(self.path / "records.bin", self.offsets)
        if self.offsets.shape[0] != self.ids.shape[0] + 1:
            raise ValueError(f"{self.offsets.shape[0] - 1} records for {self.ids.shape[0]} ids in {self.path}")
        self._sentences: np.ndarray | None = None
        self._sentence_offsets: np.ndarray | None = None
        if (self.path / "sentence_offsets.npy").is_file():
            self._sentences = _mapped(self.path / "sentences.npy")
            self._sentence_offsets = _mapped(self.path / "sentence_offsets.npy")
        self._distinct: np.ndarray | None = None  # the distinct sentence vectors, and each sentence's row among them
        self._sentence_map: np.ndarray | None = None
        if self._sentences is not None and (self.path / "sentence_map.npy").is_file():
            self._distinct = _mapped(self.path / "sentence_distinct.npy")
            self._sentence_map = _mapped(self.path / "sentence_map.npy")
            if self._sentence_map.shape != self._sentences.shape[:1]:
                raise ValueError(f"the distinct sentence map disagrees with the sentence vectors in {self.path}")
        self._layouts: np.ndarray | None = None
        self._layout_offsets: np.ndarray | None = None
        if (self.path / "layout_offsets.npy").is_file():
            self._layout_offsets = _mapped(self.path / "layout_offsets.npy")
            self._layouts = _mapped_bytes(self.path / "layouts.bin", self._layout_offsets)
        self._units: np.ndarray | None = None
        self._unit_offsets: np.ndarray | None = None
        if (self.path / "unit_offsets.npy").is_file():
            self._units = _mapped(self.path / "units.npy")
            self._unit_offsets = _mapped(self.path / "unit_offsets.npy")
        self.bm25: bm25s.BM25 | None = (bm25s.BM25.load(str(self.path / "bm25"), mmap=True, show_progress=False)
                                        if (self.path / "bm25").is_dir() else None)
        self._contexts: np.ndarray | None = None
        if self._sentences is not None and (self.path / "contexts.npy").is_file():
            self._contexts = _mapped(self.path / "contexts.npy")
            if self._contexts.shape != self._sentences.shape:
                raise ValueError(f"context vectors disagree with the sentence vectors in {self.path}")
        self._context_scale: np.ndarray | None = None
        if self._sentences is not None and (self.path / "context_scale.npy").is_file():
            self._context_scale = np.load(self.path / "context_scale.npy")
            if self._context_scale.shape != self._sentences.shape[:1]:
                raise ValueError(f"context scales disagree with the sentence vectors in {self.path}")
        self.ann = None
        if meta.get("ann"):
            from usearch.index import Index

            self.ann = Index.restore(str(self.path / "ann.usearch"), view=True)
            self.ann.expansion_search = ANN_EXPANSION

    @staticmethod
    def answer_data(path: Path | str) -> int:
        """What the index directory at ``path`` carries for answering (meta.json "answer", grounding.index_files.
        ANSWER_DATA; 0 for an index written before it was recorded)."""
        return int(json.loads((Path(path) / "meta.json").read_text()).get("answer", 0))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @property
    def approximate(self) -> bool:
        """True when the dense side is answered by the HNSW graph."""
        return self.ann is not None

    # --- building -----------------------------------------------------------------------------------------------

    def record(self, row: int) -> dict:
        """The stored record of a row (the JSON object given to :meth:`build`; {} when none was given)."""
        start, end = int(self.offsets[row]), int(self.offsets[row + 1])
        return json.loads(bytes(self._records[start:end])) if end > start else {}

    def sentence_vectors(self, row: int) -> np.ndarray | None:
        """The sentence vectors stored for a row, float32 (k, dim) (a view into the memory map); None when the
        index holds none."""
        if self._sentence_offsets is None:
            return None
        return self._sentences[int(self._sentence_offsets[row]):int(self._sentence_offsets[row + 1])]

    def layout(self, row: int) -> list | None:
        """The layout stored for a row (grounding.sentence_store.chunk_layout), parsed; None when none is kept."""
        if self._layout_offsets is None:
            return None
        start, end = int(self._layout_offsets[row]), int(self._layout_offsets[row + 1])
        return json.loads(bytes(self._layouts[start:end])) if end > start else None

    def row_of(self, key: int) -> int | None:
        """The row of a chunk key (the ids are in ascending order, as indexes are built); None when absent."""
        pos = int(np.searchsorted(self.ids, key))
        return pos if pos < len(self.ids) and int(self.ids[pos]) == key else None

    def unit_vectors(self, row: int) -> np.ndarray | None:
        """The answer-unit vectors stored for a row, float32 (k, dim) (a view into the memory map); None when the
        index holds none."""
        if self._unit_offsets is None:
            return None
        return self._units[int(self._unit_offsets[row]):int(self._unit_offsets[row + 1])]

    @classmethod
    def build(cls, path: Path | str, ids: Sequence[int] | np.ndarray, matrix: np.ndarray, texts: Sequence[str], *,
              records: Sequence[dict] | None = None, sentence_vectors: Sequence[np.ndarray] | None = None,
              unit_vectors: Sequence[np.ndarray] | None = None, layouts: Sequence[list | None] | None = None,
              ann_threshold: int = ANN_THRESHOLD) -> "StoredIndex":
        """Write an index directory atomically (grounding.index_files.build_directory: the arguments, the errors)
        and open it; when another process finished the same index meanwhile, its directory is opened instead."""
        return cls(build_directory(path, ids, matrix, texts, records=records, sentence_vectors=sentence_vectors,
                                   unit_vectors=unit_vectors, layouts=layouts, ann_threshold=ann_threshold))

    # --- search -------------------------------------------------------------------------------------------------

    def dense_top(self, query_vector: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k rows by cosine: (rows, scores), best first; approximate when the HNSW graph is present."""
        n = len(self)
        k = min(k, n)
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        q = np.asarray(query_vector, dtype=np.float32)
        if self.ann is None:
            return top_k_inner(self.vectors, q, k)
        matches = self.ann.search(q, k)
        rows = np.asarray(matches.keys, dtype=np.int64)
        return rows, (1.0 - np.asarray(matches.distances, dtype=np.float32))  # usearch "ip" distance = 1 - dot

    def lexical_top(self, query: str, k: int) -> tuple[list[int], np.ndarray | None]:
        """Top-k rows by BM25 with a positive score, and the full score array (None without a lexical index)."""
        if self.bm25 is None:
            return [], None
        q = list(bm25_query_tokens(query))
        if not q:
            return [], None
        scores = np.asarray(self.bm25.get_scores(q), dtype=np.float32)
        rows, top = top_k_inner_scores(scores, k)
        return [int(r) for r, s in zip(rows, top) if s > 0], scores

    def sentence_best(self, query_vector: np.ndarray,
                      rows: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each chunk's best-matching sentence: (rows, best cosine per row, the sentence's position in its chunk's
        sentences, grounding.types.Chunk.sentences).

        The cosine of a sentence is the larger of its own vector's and its context vector's (contexts.npy, see
        grounding.ranking.context_vectors) with the query. Every row is scored (exact, one product over all
        sentences) unless ``rows`` restricts it (the HNSW path scores only the candidate rows). Rows without
        sentences are left out.
        Raises ValueError without sentence vectors.
        """
        if self._sentences is None or self._sentence_offsets is None:
            raise ValueError(f"{self.path} has no sentence vectors")
        sentences = self._sentences
        contexts = self._contexts if self._contexts is not None else sentences
        offsets = np.asarray(self._sentence_offsets)
        q = np.asarray(query_vector, dtype=np.float32)
        if rows is None:
            scores, offsets = self._sentence_scores(q)
            return row_best(scores, offsets)
        rows = np.asarray(sorted({int(r) for r in rows}), dtype=np.int64)
        starts, ends = offsets[rows], offsets[rows + 1]
        picks = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)]) if len(rows) else np.zeros(0, int)
        scores = np.maximum(inner(sentences[picks], q), inner(contexts[picks], q)) if len(picks) else np.zeros(0)
        local = np.concatenate([[0], np.cumsum(ends - starts)])
        kept, best, pos = row_best(scores, local)
        return rows[kept], best, pos

    def _sentence_scores(self, query_vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every sentence's cosine to the query, the larger of its own and its context vector's, float32 (m,), and the
        rows' offsets into it (int64 (n + 1,)): what :meth:`sentence_best` scores when no rows are given."""
        q = np.asarray(query_vector, dtype=np.float32)
        # each distinct sentence is scanned once, its cosine copied to its repeats (the same bytes: the same product)
        own = inner(self._sentences, q) if self._distinct is None else inner(self._distinct, q)[self._sentence_map]
        if self._context_scale is not None:  # one pass over the sentence matrix: contexts from own cosines
            scores = np.maximum(own, context_scores(own, self._context_scale))
        else:
            contexts = self._contexts if self._contexts is not None else self._sentences
            scores = np.maximum(own, inner(contexts, q))
        return scores, np.asarray(self._sentence_offsets)

    def search(self, query: str, query_vector: np.ndarray, *, k: int = 20, depth: int = 50,
               sentence_weight: float = SENTENCE_WEIGHT) -> list[Hit]:
        """Top-k hits by reciprocal rank fusion of the dense and lexical rankings (``depth`` of each enters), and,
        when the index has sentence vectors, of the best-sentence ranking (weighted by ``sentence_weight``; see
        grounding.ranking.fuse).

        Returns:
            hits sorted by fused score (ties: higher cosine, then lower row), ranks 1..k; [] for an empty index.
        """
        if len(self) == 0:
            return []
        dense_rows, dense_scores = self.dense_top(query_vector, depth)
        lexical_rows, lexical = self.lexical_top(query, depth)
        if self._sentences is None or not len(self._sentences):
            fused = rrf_fuse(dense_rows, lexical_rows)
            sentence: dict[int, tuple[float, int]] = {}
        else:
            if self.ann is None:
                # every row scored; the best sentence's position is found for the fused rows only
                scores, starts = self._sentence_scores(query_vector)
                rows, best = row_max(scores, starts)
                order = top_order(best, depth)
            else:
                rows, best, pos = self.sentence_best(query_vector, list(dense_rows) + list(lexical_rows))
                order = np.lexsort((rows, -best))[:depth]
            fused = fuse(dense_rows, lexical_rows, [int(rows[i]) for i in order], sentence_weight=sentence_weight)
            # the best sentence of the fused rows only (rows is ascending: one binary search each, not a dict of
            # every row of the domain)
            wanted = np.fromiter(fused, dtype=np.int64, count=len(fused))
            at = np.minimum(np.searchsorted(rows, wanted), max(len(rows) - 1, 0))
            if self.ann is None:
                known = [(int(r), int(i)) for r, i in zip(wanted, at) if len(rows) and rows[i] == r]
                positions = first_maxima(scores, starts, [r for r, _ in known])
                sentence = {r: (float(best[i]), p) for (r, i), p in zip(known, positions)}
            else:
                sentence = {int(r): (float(best[i]), int(pos[i])) for r, i in zip(wanted, at)
                            if len(rows) and rows[i] == r}
        dense = {int(r): float(s) for r, s in zip(dense_rows, dense_scores)}
        q = np.asarray(query_vector, dtype=np.float32)
        for row in fused:
            if row not in dense:  # found by BM25 only: its cosine from its own row of the matrix
                dense[row] = float(self.vectors[row] @ q)
        best_rows = sorted(fused.items(), key=lambda kv: (-kv[1], -dense[kv[0]], kv[0]))[:k]
        return [Hit(key=int(self.ids[row]), row=row, score=score, dense=dense[row],
                    lexical=float(lexical[row]) if lexical is not None else 0.0, rank=rank,
                    sentence=sentence.get(row, (0.0, -1))[0], sentence_pos=sentence.get(row, (0.0, -1))[1])
                for rank, (row, score) in enumerate(best_rows, start=1)]

    def vector(self, row: int) -> np.ndarray:
        """The unit vector of a row (a view into the memory map)."""
        return self.vectors[row]

