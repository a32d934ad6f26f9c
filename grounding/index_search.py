"""Searching a stored retrieval index (grounding.index_store.StoredIndex): dense, lexical and best-sentence rankings
of its rows, fused (the techniques are named in grounding.index_store's docstring). ``Searching`` holds the search
methods; StoredIndex, which opens the files they read, inherits them.

No Django imports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from grounding.contact_lookup import asks_contact, contact_rows
from grounding.heading_lookup import MAX_LOOKED_UP, looked_up_rows
from grounding.lexical import bm25_query_tokens
from grounding.ranking import SENTENCE_WEIGHT, context_scores, first_maxima, fuse, row_best, row_max, top_order
from grounding.respelling import DomainWords, respellings
from grounding.retrieve import inner, rrf_fuse, top_k_inner, top_k_inner_scores
from grounding.table_lookup import looked_up_row

__all__ = ["Hit", "Searching", "TABLE_DEPTH"]

#: How many of the best rows by BM25 :meth:`Searching.search` reads for a table row the query looks up.
TABLE_DEPTH = 10


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
        looked_up: found by the numbered section label the query names (:meth:`Searching.label_hits`) or by
            the table row it looks up (:meth:`Searching.search`), not ranked.
    """

    key: int
    row: int
    score: float
    dense: float
    lexical: float
    rank: int
    sentence: float = 0.0
    sentence_pos: int = -1
    looked_up: bool = False



class Searching:
    """The search methods of a stored index. They read the opened index's arrays: ``vectors`` (n, dim), ``ids``,
    ``ann`` (a usearch index or None), ``bm25`` (a bm25s index or None), and the sentence arrays ``_sentences``,
    ``_sentence_offsets``, ``_contexts``, ``_context_scale``, ``_distinct`` and ``_sentence_map`` (each None when
    absent), and the rows' stored records as bytes (``_records``, read by :meth:`domain_words`); ``len(self)`` is the
    row count."""

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

    def label_hits(self, query: str, query_vector: np.ndarray) -> list[Hit]:
        """Hits for the rows whose section heading carries a numbered label the query names ("What happens on Day
        3?" -> the chunk under "Day 3 (Wednesday)"; grounding.heading_lookup), at most MAX_LOOKED_UP of them, best
        cosine first; [] when it names none. Scored as :meth:`search` scores its hits except that they have no
        fused score or rank (0.0 and 0) and their BM25 score is not computed (0.0): they are found by their label."""
        labels = getattr(self, "section_labels", None)
        rows = looked_up_rows(query, labels()) if labels is not None and len(self) else []
        return self._looked_up_hits(rows, query_vector)

    def contact_hits(self, query: str, query_vector: np.ndarray, documents: Sequence[object]) -> list[Hit]:
        """Hits for the rows under a contact heading of ``documents`` (the candidates' document ids, best first; the
        first such row of each, at most MAX_LOOKED_UP), when the query asks whom to contact ("Who do I contact about
        equipment?", grounding.contact_lookup); [] otherwise. Scored as :meth:`label_hits` scores its hits."""
        sections = getattr(self, "contact_sections", None)
        if sections is None or not len(self) or not asks_contact(query):
            return []
        rows = [r for document in documents for r in contact_rows([document], sections())]
        return self._looked_up_hits(rows, query_vector)

    def _looked_up_hits(self, rows: Sequence[int], query_vector: np.ndarray) -> list[Hit]:
        """Hits for ``rows`` found by a lookup rather than ranked (:meth:`label_hits`, the table rows of
        :meth:`search`), at most MAX_LOOKED_UP of them, best cosine first."""
        if not rows:
            return []
        q = np.asarray(query_vector, dtype=np.float32)
        dense = {r: float(self.vectors[r] @ q) for r in rows}
        rows = sorted(rows, key=lambda r: (-dense[r], r))[:MAX_LOOKED_UP]
        sentence: dict[int, tuple[float, int]] = {}
        if self._sentences is not None and len(self._sentences):
            found, best, pos = self.sentence_best(q, rows)
            sentence = {int(r): (float(b), int(p)) for r, b, p in zip(found, best, pos)}
        return [Hit(key=int(self.ids[r]), row=r, score=0.0, dense=dense[r], lexical=0.0, rank=0,
                    sentence=sentence.get(r, (0.0, -1))[0], sentence_pos=sentence.get(r, (0.0, -1))[1],
                    looked_up=True)
                for r in rows]

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

    def respellings(self, text: str, pieces: Callable[[Sequence[str]], Sequence[int]] | None) -> dict[str, str]:
        """{word of ``text`` (lower case): the indexed documents' word it misspells by a letter}
        (grounding.respelling.respellings: the lexical index's stems tell an unknown word, ``pieces`` a word the
        embedding model knows whole; the rows' words are gathered from the stored records at the first unknown word,
        once per process and index)."""
        terms = self.bm25.vocab_dict if self.bm25 is not None else {}
        return respellings(text, terms=terms, words=self.domain_words, pieces=pieces)

    def domain_words(self) -> DomainWords:
        """The words of the rows' stored records (grounding.respelling.DomainWords), gathered once."""
        words = getattr(self, "_domain_words", None)
        if words is None:
            records = getattr(self, "_records", None)
            words = self._domain_words = DomainWords.of_text(bytes(records) if records is not None else b"")
        return words

    def search(self, query: str, query_vector: np.ndarray, *, k: int = 20, depth: int = 50,
               sentence_weight: float = SENTENCE_WEIGHT, tables: bool = False) -> list[Hit]:
        """Top-k hits by reciprocal rank fusion of the dense and lexical rankings (``depth`` of each enters), and,
        when the index has sentence vectors, of the best-sentence ranking (weighted by ``sentence_weight``; see
        grounding.ranking.fuse).

        With ``tables``, followed by the rows among the best :data:`TABLE_DEPTH` by BM25 that hold a table row the
        query looks up by its row and its column (grounding.table_lookup.looked_up_row), again, as hits with
        ``looked_up`` set (the caller moves them up): a table of links and tool names matches the question's words
        but little of its meaning ("Which tool is recommended for Python code?" / "Python | GitHub * | Bandit ...",
        BM25 rank 3, below where the relevance drop-off cut the fused ranking: fresh39's f39-t07, a development
        set).

        Returns:
            hits sorted by fused score (ties: higher cosine, then lower row), ranks 1..k, then the looked-up table
            rows (a row may be in both); [] for an empty index.
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
        record = getattr(self, "record", None)
        # only a record holding a table separator is parsed (looked_up_row reads nothing else)
        looked = [r for r in lexical_rows[:TABLE_DEPTH] if record is not None
                  and looked_up_row(query, str(record(r, holding=b"|").get("text") or ""))] if tables else []
        return [Hit(key=int(self.ids[row]), row=row, score=score, dense=dense[row],
                    lexical=float(lexical[row]) if lexical is not None else 0.0, rank=rank,
                    sentence=sentence.get(row, (0.0, -1))[0], sentence_pos=sentence.get(row, (0.0, -1))[1])
                for rank, (row, score) in enumerate(best_rows, start=1)] + self._looked_up_hits(looked, q)
