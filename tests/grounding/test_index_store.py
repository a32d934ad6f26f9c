"""The on-disk, memory-mapped retrieval index: dense, BM25 and fused results as computed by hand, atomic builds, HNSW
recall."""

from __future__ import annotations

import bm25s
import numpy as np
import pytest

from grounding.index_store import StoredIndex
from grounding.lexical import bm25_tokens
from grounding.retrieve import index_text, rrf_fuse, top_k_inner
from grounding.types import Chunk

WORDS = "travel meal allowance leave holiday laptop security password parking bonus payroll remote office".split()


def corpus(n: int, dim: int = 32, seed: int = 3):
    rng = np.random.default_rng(seed)
    chunks = [Chunk(chunk_id=1000 + i, document_id=i // 4, title=f"Doc {i // 4}", section=f"Part {i % 4}",
                    version="v1", date="2025-01-01", text=" ".join(rng.choice(WORDS, size=12)), tokens=12,
                    ordinal=i % 4, version_id=i // 4)
              for i in range(n)]
    matrix = rng.normal(size=(n, dim)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return chunks, matrix


def unit(rng, dim):
    v = rng.normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def test_top_k_selects_the_best_rows_in_order_with_lower_rows_first_on_ties():
    matrix = np.array([[1, 0], [0, 1], [1, 0], [0.6, 0.8]], dtype=np.float32)
    rows, scores = top_k_inner(matrix, np.array([1, 0], dtype=np.float32), 3)
    assert rows.tolist() == [0, 2, 3] and scores.tolist() == pytest.approx([1.0, 1.0, 0.6])
    assert top_k_inner(matrix, np.array([1, 0], dtype=np.float32), 10)[0].tolist() == [0, 2, 3, 1]
    assert rrf_fuse([5, 7], [7]) == {5: 1 / 61, 7: 1 / 62 + 1 / 61}


def reference_search(texts, matrix, query, q, *, k=10, depth=50):
    """Exact hybrid search written out: cosine over the whole matrix, BM25 over a fresh bm25s index of the same
    tokens, the ``depth`` best of each (BM25 only with a positive score) fused by reciprocal rank (k = 60); ties by
    the higher cosine, then the lower row. Returns (row, fused, cosine, bm25, rank) tuples."""
    dense = matrix @ q
    bm25 = bm25s.BM25()
    bm25.index(bm25_tokens(texts), show_progress=False)
    lexical = np.asarray(bm25.get_scores(bm25_tokens([query])[0]), dtype=np.float32)
    dense_order = sorted(range(len(texts)), key=lambda r: (-dense[r], r))[:depth]
    lexical_order = [r for r in sorted(range(len(texts)), key=lambda r: (-lexical[r], r))[:depth] if lexical[r] > 0]
    fused: dict[int, float] = {}
    for order in (dense_order, lexical_order):
        for rank, row in enumerate(order, start=1):
            fused[row] = fused.get(row, 0.0) + 1 / (60 + rank)
    best = sorted(fused, key=lambda r: (-fused[r], -dense[r], r))[:k]
    return [(r, fused[r], float(dense[r]), float(lexical[r]), rank) for rank, r in enumerate(best, start=1)]


def test_stored_index_gives_the_exact_hybrid_results_through_memory_maps(tmp_path):
    chunks, matrix = corpus(120)
    texts = [index_text(c) for c in chunks]
    stored = StoredIndex.build(tmp_path / "idx", [c.chunk_id for c in chunks], matrix, texts)
    # a plain ndarray view of the memory map: the same mapped pages, slicing without memmap's per-slice Python code
    assert type(stored.vectors) is np.ndarray and isinstance(stored.vectors.base, np.memmap)
    assert not stored.approximate and len(stored) == 120
    rng = np.random.default_rng(9)
    for query in ("meal allowance when I travel", "laptop password", "zebra"):
        q = unit(rng, matrix.shape[1])
        expected = reference_search(texts, matrix, query, q)
        hits = stored.search(query, q, k=10)
        assert [(h.row, h.key, h.score, h.dense, h.lexical, h.rank) for h in hits] == [
            (r, chunks[r].chunk_id, pytest.approx(s), pytest.approx(d, abs=1e-6), pytest.approx(lx, rel=1e-5), rank)
            for r, s, d, lx, rank in expected]
        assert all(np.array_equal(stored.vector(h.row), matrix[h.row]) for h in hits)
    assert any(h.lexical > 0 for h in stored.search("laptop password", unit(rng, 32), k=10))  # BM25 took part


def test_building_is_atomic_and_a_finished_index_is_reused(tmp_path):
    chunks, matrix = corpus(10)
    ids, texts = [c.chunk_id for c in chunks], [index_text(c) for c in chunks]
    first = StoredIndex.build(tmp_path / "idx", ids, matrix, texts)
    second = StoredIndex.build(tmp_path / "idx", ids[:3], matrix[:3], texts[:3])  # already there: opened as is
    assert len(first) == len(second) == 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]  # no temporary directory left behind
    with pytest.raises(ValueError, match="10 vectors, 3 ids and 10 texts"):
        StoredIndex.build(tmp_path / "other", ids[:3], matrix, texts)
    assert not (tmp_path / "other").exists()


def test_an_empty_index_searches_to_nothing(tmp_path):
    empty = StoredIndex.build(tmp_path / "idx", [], np.zeros((0, 8), dtype=np.float32), [])
    assert len(empty) == 0 and empty.search("anything", np.ones(8, dtype=np.float32) / 8 ** 0.5) == []


def test_above_the_threshold_the_hnsw_graph_answers_with_high_recall(tmp_path):
    chunks, matrix = corpus(3_000, dim=48)
    stored = StoredIndex.build(tmp_path / "idx", [c.chunk_id for c in chunks], matrix,
                               [index_text(c) for c in chunks], ann_threshold=1_000)
    assert stored.approximate
    rng = np.random.default_rng(5)
    found = 0
    for _ in range(50):
        q = unit(rng, 48)
        exact = set(top_k_inner(matrix, q, 10)[0].tolist())
        rows, scores = stored.dense_top(q, 10)
        found += len(exact & set(rows.tolist()))
        assert scores == pytest.approx(matrix[rows] @ q, abs=1e-4)  # scores are cosines, like the exact path
    assert found / 500 >= 0.95  # recall@10 of HNSW against exact search on this data


def test_an_ann_threshold_of_zero_never_builds_the_graph(tmp_path):
    import numpy as np

    from grounding.index_store import StoredIndex

    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(50, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = StoredIndex.build(tmp_path / "i", list(range(50)), matrix, ["x"] * 50, ann_threshold=0)
    assert not index.approximate and index.dense_top(matrix[7], 1)[0].tolist() == [7]


def test_repeated_sentences_are_scanned_once_with_the_same_results(tmp_path):
    # a domain holding dated versions repeats most sentences: the index keeps the distinct sentence vectors apart
    # (grounding.index_files.distinct_rows) and a search scans those once, copying each cosine to its repeats
    from grounding.index_files import distinct_rows

    rng = np.random.default_rng(13)
    chunks, matrix = corpus(60, dim=16)
    pool = [unit(rng, 16) for _ in range(40)]
    sets = [np.stack([pool[int(j)] for j in rng.integers(0, 40, size=int(rng.integers(1, 6)))]) for _ in chunks]
    texts = [index_text(c) for c in chunks]
    index = StoredIndex.build(tmp_path / "idx", [c.chunk_id for c in chunks], matrix, texts, sentence_vectors=sets)
    assert (tmp_path / "idx" / "sentence_map.npy").is_file()
    flat = np.concatenate(sets)
    first, mapping = distinct_rows(flat)
    assert len(first) <= 40 and np.array_equal(flat[first][mapping], flat) and first.tolist() == sorted(first)
    plain = tmp_path / "plain"  # the same index without the distinct rows: every sentence scanned
    plain.mkdir()
    for f in (tmp_path / "idx").iterdir():
        if f.is_file() and f.name not in ("sentence_map.npy", "sentence_distinct.npy"):
            (plain / f.name).write_bytes(f.read_bytes())
        elif f.is_dir():
            import shutil
            shutil.copytree(f, plain / f.name)
    full = StoredIndex(plain)
    assert full._distinct is None and index._distinct is not None
    for i in range(15):
        q = unit(rng, 16)
        assert [h.__dict__ for h in index.search(WORDS[i % len(WORDS)], q, k=10)] == \
            [h.__dict__ for h in full.search(WORDS[i % len(WORDS)], q, k=10)]
        (r1, b1, p1), (r2, b2, p2) = index.sentence_best(q), full.sentence_best(q)
        assert r1.tolist() == r2.tolist() and b1.tobytes() == b2.tobytes() and p1.tolist() == p2.tolist()


def test_a_row_record_is_made_into_a_chunk_once_per_index_and_shared(tmp_path):
    chunks, matrix = corpus(4)
    records = [{"chunk_id": c.chunk_id, "text": c.text} for c in chunks]
    stored = StoredIndex.build(tmp_path / "idx", [c.chunk_id for c in chunks], matrix, [c.text for c in chunks],
                               records=records)
    made = []

    def make(record):
        made.append(record["chunk_id"])
        return (record["chunk_id"], record["text"])

    first = stored.made(2, make)
    assert first == (chunks[2].chunk_id, chunks[2].text)
    assert stored.made(2, make) is first and made == [chunks[2].chunk_id]  # read and made once
    assert stored.made(0, make)[0] == chunks[0].chunk_id and len(made) == 2
    reopened = StoredIndex(tmp_path / "idx")  # another index object (a swapped-in build) makes its own
    assert reopened.made(2, make) == first and len(made) == 3


def test_a_rows_layout_is_parsed_once_per_index_and_shared(tmp_path):
    chunks, matrix = corpus(6)
    layouts = [[[0, 5, "prose", "Hello", []], [6, 12, "item", "world.", [["money", "$5"]]]], None, [], None,
               [[0, 3, "prose", "Abc", []]], None]
    stored = StoredIndex.build(tmp_path / "idx", [c.chunk_id for c in chunks], matrix, [c.text for c in chunks],
                               layouts=layouts)
    first = stored.layout(0)
    assert first == layouts[0] and stored.layout(0) is first  # parsed once, the same list on the next ask
    assert stored.layout(4) == layouts[4] and stored.layout(1) is None and not stored.layout(2)
    reopened = StoredIndex(tmp_path / "idx")
    assert reopened.layout(0) == first and reopened.layout(0) is not first  # per index object
