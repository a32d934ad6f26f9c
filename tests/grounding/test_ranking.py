"""Ranking chunks by the sentence that answers (grounding.ranking, grounding.index_store): each chunk's best
sentence, the weighted fusion, the relevance drop-off, near-duplicate passages of other documents behind the rest."""

from __future__ import annotations

import numpy as np
import pytest

from grounding.index_store import StoredIndex
from grounding.ranking import context_vectors, demote_near_duplicates, drop_off, fuse, row_best, top_order
from grounding.types import Candidate, Chunk


def unit(*xs):
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_each_row_gets_its_best_sentence_and_rows_without_sentences_are_absent():
    scores = np.array([0.1, 0.7, 0.3, 0.5, 0.5, 0.2], dtype=np.float32)
    rows, best, pos = row_best(scores, np.array([0, 3, 3, 5, 6]))  # row 1 has no sentence
    assert rows.tolist() == [0, 2, 3] and best.tolist() == pytest.approx([0.7, 0.5, 0.2])
    assert pos.tolist() == [1, 0, 0]  # the first of equal bests


def test_fusion_weighs_the_sentence_ranking():
    fused = fuse([1, 2], [2], [3, 1], sentence_weight=2.0)
    assert fused == pytest.approx({1: 1 / 61 + 2 / 62, 2: 1 / 62 + 1 / 61, 3: 2 / 61})


def chunk(i, doc, status="current"):
    return Chunk(chunk_id=i, document_id=doc, title=f"Doc {doc}", section="", version="v", date="", text=f"text {i}",
                 tokens=2, status=status, version_id=doc)


def test_the_drop_off_keeps_what_is_close_to_the_best_and_at_least_a_few():
    cands = [Candidate(chunk(i, i), 0.03, 0.5, sentence=s, sentence_pos=0)
             for i, s in enumerate([0.80, 0.70, 0.52, 0.40, 0.30, 0.79])]
    kept = drop_off(cands, margin=0.25, keep=2)
    assert [c.chunk.chunk_id for c in kept] == [0, 1, 5]  # within 0.25 of 0.80 (0.52 is not: 0.55 is the floor)
    assert [c.chunk.chunk_id for c in drop_off(cands, margin=0.0, keep=3)] == [0, 1, 2]
    old = Candidate(chunk(9, 9, "superseded"), 0.01, 0.1, sentence=0.1, sentence_pos=0)
    assert old in drop_off(cands + [old], margin=0.1, keep=1)  # superseded candidates are kept for notes



def test_a_chunk_that_matches_as_a_whole_better_than_by_any_sentence_is_not_dropped():
    # its answer is spread over sentences (an abbreviation in one, the asked value in another): chunk cosine 0.64
    spread = Candidate(chunk(1, 1), 0.03, 0.64, sentence=0.48, sentence_pos=2)
    top = Candidate(chunk(2, 2), 0.03, 0.62, sentence=0.80, sentence_pos=0)
    others = [Candidate(chunk(i, i), 0.02, 0.3, sentence=0.5, sentence_pos=0) for i in (3, 4, 5)]
    kept = drop_off([top, *others, spread], margin=0.25, keep=1)
    assert [c.chunk.chunk_id for c in kept] == [2, 1]  # 0.64 >= 0.80 - 0.25; the 0.5 ones are below


def data(*vectors):
    return np.stack(vectors)  # a chunk's sentence vectors, stored at ingestion


def test_a_paragraph_repeated_on_other_pages_moves_behind_the_page_that_answers():
    same = unit(1, 0, 0)
    first = Candidate(chunk(1, 10), 0.05, 0.6, sentence=0.9, sentence_pos=0, sentence_vectors=data(same))
    copy = Candidate(chunk(2, 11), 0.04, 0.6, sentence=0.9, sentence_pos=0, sentence_vectors=data(unit(1, 0.01, 0)))
    sibling = Candidate(chunk(3, 10), 0.035, 0.6, sentence=0.9, sentence_pos=0, sentence_vectors=data(same))
    answer = Candidate(chunk(4, 12), 0.03, 0.5, sentence=0.7, sentence_pos=0, sentence_vectors=data(unit(0, 1, 0)))
    order = demote_near_duplicates([first, copy, sibling, answer])
    assert [c.chunk.chunk_id for c in order] == [1, 3, 4, 2]  # the same document's own passage is not a repeat


def test_the_index_scores_every_chunk_by_its_best_sentence_and_fuses_that_ranking(tmp_path):
    q = unit(1, 0, 0, 0)
    matrix = np.stack([unit(0, 1, 0, 0), unit(0.2, 1, 0, 0), unit(0, 0, 1, 0)])  # chunk vectors miss the query
    sentences = np.stack([unit(0, 0, 0, 1), unit(0, 1, 0, 0), unit(0.9, 0.1, 0, 0), unit(0, 0, 1, 0)])
    offsets = np.array([0, 1, 3, 4])  # chunk 1 owns sentences 1 and 2; its second one answers
    index = StoredIndex.build(tmp_path / "idx", [10, 11, 12], matrix, ["a", "b", "c"],
                              sentence_vectors=[sentences[s:e] for s, e in zip(offsets[:-1], offsets[1:])])
    rows, best, pos = index.sentence_best(q)
    assert rows.tolist() == [0, 1, 2] and pos.tolist() == [0, 1, 0] and best[1] == pytest.approx(0.994, abs=1e-3)
    restricted = index.sentence_best(q, rows=[1])
    assert restricted[0].tolist() == [1] and restricted[2].tolist() == [1]
    hits = index.search("zzz", q, k=3)
    assert hits[0].key == 11 and hits[0].sentence_pos == 1 and hits[0].sentence == pytest.approx(best[1])
    reopened = StoredIndex(tmp_path / "idx")
    assert reopened.sentence_vectors(1).shape == (2, 4) and reopened.search("zzz", q, k=3)[0].key == 11
    # the context vector of chunk 1's second sentence is its own plus the first one's, re-normalised
    window = sentences[1] + sentences[2]
    assert np.allclose(context_vectors(sentences[1:3])[1], window / np.linalg.norm(window), atol=1e-6)


def test_one_pass_context_cosines_equal_the_context_matrix_scan(tmp_path):
    # the exact scan reads the sentence matrix once and derives each context cosine from the sentences' own ones
    # (grounding.ranking.context_scores); an index without the scales scans both matrices: the same result
    rng = np.random.default_rng(3)
    sets = [rng.normal(size=(int(k), 16)).astype(np.float32) for k in rng.integers(1, 7, size=300)]
    sets = [s / np.linalg.norm(s, axis=1, keepdims=True) for s in sets]
    sets[5][1] = -sets[5][0]  # a window of norm 0: the context vector is the sentence's own
    matrix = np.stack([s.mean(axis=0) / np.linalg.norm(s.mean(axis=0)) for s in sets])
    index = StoredIndex.build(tmp_path / "idx", list(range(300)), matrix, ["t"] * 300, sentence_vectors=sets)
    assert (tmp_path / "idx" / "context_scale.npy").is_file()
    two_pass = tmp_path / "old"
    two_pass.mkdir()
    for f in (tmp_path / "idx").iterdir():
        if f.name != "context_scale.npy" and f.is_file():
            (two_pass / f.name).write_bytes(f.read_bytes())
    old = StoredIndex(two_pass)
    for _ in range(20):
        q = rng.normal(size=16).astype(np.float32)
        q /= np.linalg.norm(q)
        (rows, best, pos), (rows2, best2, pos2) = index.sentence_best(q), old.sentence_best(q)
        assert rows.tolist() == rows2.tolist() and pos.tolist() == pos2.tolist()
        assert np.allclose(best, best2, atol=1e-6)


def test_the_top_rows_are_those_of_a_full_sort_with_ties_at_the_cut_kept_in_row_order():
    rng = np.random.default_rng(5)
    for _ in range(50):
        values = rng.integers(0, 6, size=int(rng.integers(1, 40))).astype(np.float32)  # many exact ties
        for k in (1, 3, 7, 50):
            full = np.lexsort((np.arange(len(values)), -values))[:k]
            assert top_order(values, k).tolist() == full.tolist()
    assert top_order(np.array([0.5, np.nan, 0.7], dtype=np.float32), 2).tolist() == [2, 0]  # NaN: the full sort


def test_a_search_finds_each_fused_rows_best_sentence_as_the_full_scan_does(tmp_path):
    # search scores every sentence but finds the best sentence's position only for the fused rows
    # (grounding.ranking.row_max, first_maxima): the same rows, cosines and positions as sentence_best's
    rng = np.random.default_rng(7)
    sets = [rng.normal(size=(int(k), 8)).astype(np.float32) for k in rng.integers(1, 5, size=200)]
    sets = [s / np.linalg.norm(s, axis=1, keepdims=True) for s in sets]
    sets[3] = np.stack([sets[3][0], sets[3][0]])  # equal sentences: the first one is the best
    matrix = np.stack([s.mean(axis=0) / np.linalg.norm(s.mean(axis=0)) for s in sets])
    index = StoredIndex.build(tmp_path / "idx", list(range(200)), matrix, ["t"] * 200, sentence_vectors=sets)
    for i in range(20):
        q = sets[3][0] if i == 0 else unit(*rng.normal(size=8))
        rows, best, pos = index.sentence_best(q)
        by_row = {int(r): (float(b), int(p)) for r, b, p in zip(rows, best, pos)}
        hits = index.search("t", q, k=30)
        assert hits and all((h.sentence, h.sentence_pos) == by_row[h.row] for h in hits)
    assert index.search("t", sets[3][0], k=1)[0].sentence_pos == 0

