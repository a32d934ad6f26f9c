"""Aligning every source pair at once (grounding.sentence_alignment.align, issue 20: less CPU per ask) gives exactly
what aligning pair by pair with the per-pair test gives; the Concerns test of many pairs at once
(grounding.notes.Concerns.many) is its per-pair test on each; token codes count shared tokens as the sets do."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from grounding.alignment import lexically_aligned, lexically_aligned_matrix, token_codes, token_set
from grounding.claims import claims
from grounding.notes import NOTE_SIMILARITY, VALUE_EDIT_SIMILARITY, VERSION_NOTE_CLOSE, Concerns
from grounding.sentence_alignment import COPY, align
from grounding.types import Source

VERSIONS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "18f-handbook" / "versions"


class PerPair:
    """A Concerns without its ``many``: align then tests each aligned pair on its own (the per-pair path)."""

    def __init__(self, concerns: Concerns) -> None:
        self.concerns = concerns

    def __call__(self, terms, *, similarity, relevance, versions):
        return self.concerns(terms, similarity=similarity, relevance=relevance, versions=versions)


def _passages(path: Path, size: int = 6) -> list[str]:
    """A page's claims (its front matter left out) in passages of ``size`` sentences, as planned sources hold."""
    text = path.read_text(encoding="utf-8")
    said = claims(text.split("---", 2)[2] if text.startswith("---") else text)
    return [" ".join(said[k:k + size]) for k in range(0, len(said), size)]


def _sources() -> list[Source]:
    """Three passages of each of two dated versions of the leave page (the older superseded), one of the overtime
    page and one of the telework page: pairs of two versions of one document, of two chunks of one version and of
    two documents."""
    old, new = sorted((VERSIONS / "leave").glob("*.md"))[-2:]
    overtime, telework = (sorted((VERSIONS / page).glob("*.md"))[-1] for page in ("overtime", "telework"))
    chosen = [(1, 101, "current", new, k) for k in range(3)] + [(1, 100, "superseded", old, k) for k in range(3)] \
        + [(2, 200, "current", overtime, 1), (3, 300, "current", telework, 1)]
    out = [Source(label=f"S{n}", chunk_ids=(n,), document_id=doc, title=f"Doc {doc}", section="", version="",
                  date="", text=_passages(path)[part], score=0.5, tokens=100, status=status, version_id=version)
           for n, (doc, version, status, path, part) in enumerate(chosen, start=1)]
    # a fourth document copying two sentences of the current leave page among sentences of its own
    copied = claims(out[0].text)[:2] + claims(out[6].text)[:2]
    return out + [Source(label="S9", chunk_ids=(9,), document_id=4, title="Doc 4", section="", version="", date="",
                         text=" ".join(copied), score=0.5, tokens=60, status="current", version_id=400)]


def _reference(alignment, pairs, similarity: float) -> tuple[dict, dict]:
    """Pair by pair, from the alignment's own cosine matrix: each pair's copies (both orders) and aligned cells, a
    cell kept unless one of its sentences has a copy (cosine >= COPY) in the other source that is not the other
    sentence (before the two-version and the Concerns tests)."""
    cosine, offsets = alignment.cosine, alignment.offsets
    lexical = lexically_aligned_matrix([r.token_set for r in alignment.read])
    copies, cells = {}, {}
    for i, j in pairs:
        block = cosine[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
        if not block.size:
            continue
        near = lexical[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
        copies[(i, j)] = {a for a in range(block.shape[0]) if block[a].max() >= COPY}
        copies[(j, i)] = {b for b in range(block.shape[1]) if block[:, b].max() >= COPY}
        cells[(i, j)] = {(a, b) for a in range(block.shape[0]) for b in range(block.shape[1])
                         if (block[a, b] >= similarity or near[a, b])
                         and (block[a].max() < COPY or int(block[a].argmax()) == b)
                         and (block[:, b].max() < COPY or int(block[:, b].argmax()) == a)}
    return copies, cells


@pytest.mark.parametrize("question", ["How much annual leave do I earn each pay period?",
                                      "Can I telework from another state?", "How is overtime paid?"])
def test_every_pair_at_once_aligns_as_pair_by_pair(embedder, question):
    sources = _sources()
    sentences = [claims(s.text) for s in sources]
    pairs = [(i, j) for i in range(len(sources)) for j in range(i + 1, len(sources))]
    test = Concerns(question)
    at_once = align(sources, pairs, embedder, similarity=0.45, focus=question, sentences=sentences, concerns=test)
    one_by_one = align(sources, pairs, embedder, similarity=0.45, focus=question, sentences=sentences,
                       concerns=PerPair(test))
    unfiltered = align(sources, pairs, embedder, similarity=0.45, focus=question, sentences=sentences)
    assert at_once.aligned == one_by_one.aligned
    assert at_once.copies == one_by_one.copies == unfiltered.copies
    assert at_once.counterparts == one_by_one.counterparts == unfiltered.counterparts
    # sentences of two versions (with reworded counterparts) and of two documents were aligned
    assert (0, 3) in unfiltered.aligned and unfiltered.counterparts[(0, 3)] and (6, 7) in unfiltered.aligned
    kept, aligned = sum(map(len, at_once.aligned.values())), sum(map(len, unfiltered.aligned.values()))
    assert kept < aligned and (kept > 0) == question.startswith("How much annual leave")
    assert set(at_once.copies) == {p for i, j in pairs for p in ((i, j), (j, i))}
    # against a plain pair-by-pair reading of the same cosines: the copies of every pair, and the aligned cells of
    # every pair of two documents (a pair of two versions then meets counterparts only)
    copies, cells = _reference(unfiltered, pairs, 0.45)
    assert unfiltered.copies == copies and copies[(0, 8)] == {0, 1} and copies[(8, 0)] == {0, 1}
    for i, j in pairs:
        if sources[i].document_id != sources[j].document_id:
            assert {(a, b) for _, a, b in unfiltered.aligned.get((i, j), [])} == cells[(i, j)]
    assert cells[(0, 8)] and cells[(6, 7)]


def test_many_pairs_at_once_are_tested_as_each_pair_alone():
    rng = random.Random(7)
    test = Concerns("How many annual leave hours carry over into the next leave year?")
    vocabulary = sorted(test.terms) + ["lunch", "badge", "parking", "day", "year"]
    terms = [frozenset(rng.sample(vocabulary, rng.randint(0, 4))) for _ in range(30)]
    a = np.array([rng.randrange(30) for _ in range(400)])
    b = np.array([rng.randrange(30) for _ in range(400)])
    # cosines on and around each threshold, as float32 cosines read as Python floats
    edges = [NOTE_SIMILARITY, VALUE_EDIT_SIMILARITY, VERSION_NOTE_CLOSE]
    similarity = np.array([float(np.float32(rng.choice(edges) + rng.choice([-1e-7, 0, 1e-7, 0.05, -0.05])))
                           for _ in range(400)])
    relevance = np.array([float(np.float32(rng.choice(edges) + rng.choice([-1e-7, 0, 0.1]))) for _ in range(400)])
    versions = np.array([rng.random() < 0.5 for _ in range(400)])
    got = test.many(terms, a, b, similarity=similarity, relevance=relevance, versions=versions)
    want = [test(terms[x] | terms[y], similarity=s, relevance=r, versions=bool(v))
            for x, y, s, r, v in zip(a, b, similarity, relevance, versions)]
    assert got.tolist() == want
    assert 0 < sum(want) < len(want)  # both outcomes occur
    assert Concerns("").many(terms, a, b, similarity=similarity, relevance=relevance,
                             versions=versions).all()


def test_token_codes_share_as_many_codes_as_the_sets_share_tokens():
    sentences = ["Employees earn 4 hours of annual leave per pay period.",
                 "Employees earn 6 hours of annual leave per pay period after 3 years.",
                 "Badges are collected on the last day.", ""]
    sets = [token_set(s) for s in sentences]
    codes = [token_codes(s) for s in sets]
    for (x, cx), (y, cy) in itertools.combinations(zip(sets, codes), 2):
        assert len(set(cx) & set(cy)) == len(x & y) and len(cx) == len(x)
    assert token_codes(sets[0]) == codes[0]  # one code per token for the life of the process
    assert lexically_aligned_matrix(sets, codes).tolist() == [[lexically_aligned(x, y) for y in sets] for x in sets]
    assert lexically_aligned_matrix([frozenset(), frozenset()]).tolist() == [[False, False], [False, False]]
