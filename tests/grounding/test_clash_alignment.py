"""Lexical alignment of every sentence pair at once (grounding.alignment.lexically_aligned_matrix) gives exactly what the
pairwise rule gives, on real handbook sentences and on made-up edge cases (three shared tokens, 60% of the smaller)."""

from __future__ import annotations

import random
from pathlib import Path

from grounding.alignment import lexically_aligned, lexically_aligned_matrix, token_set
from grounding.sentences import split_sentences

PAGES = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "18f-handbook" / "current" / "pages"


def test_matrix_equals_the_pairwise_rule_on_handbook_sentences():
    texts = sorted(PAGES.glob("*.md"))[:12]
    sentences = [s for p in texts for s in split_sentences(p.read_text(encoding="utf-8"))][:300]
    sets = [token_set(s) for s in sentences] + [frozenset()]  # a sentence without tokens too
    matrix = lexically_aligned_matrix(sets)
    assert matrix.shape == (len(sets), len(sets)) and matrix.dtype == bool
    expected = [[lexically_aligned(a, b) for b in sets] for a in sets]
    assert matrix.tolist() == expected
    assert 0 < int(matrix.sum()) < matrix.size  # both answers occur


def test_matrix_thresholds_at_three_shared_and_sixty_percent():
    a = frozenset("the lounge is open".split())
    b = frozenset("the lounge is closed".split())  # 3 shared of 4: aligned
    c = frozenset("the lounge is closed on most public holidays".split())  # 3 of min 4 shared with a: aligned
    d = frozenset("is the".split())  # 2 shared: never
    e = frozenset("staff may use the lounge is a room among many others here".split())  # 3 of 4 (a smaller)
    matrix = lexically_aligned_matrix([a, b, c, d, e])
    assert matrix[0, 1] and matrix[0, 2] and matrix[0, 4]
    assert not matrix[0, 3] and not matrix[3, 4]
    rng = random.Random(7)
    words = [f"w{i}" for i in range(12)]
    sets = [frozenset(rng.sample(words, rng.randint(1, 8))) for _ in range(80)]
    assert lexically_aligned_matrix(sets).tolist() == [[lexically_aligned(x, y) for y in sets] for x in sets]


def test_an_antonym_named_in_another_form_by_the_same_sentence_opposes_nothing():
    """Two sentences are opposed by an antonym pair only when each holds one side alone: "Private channel content ...
    can be publicly published" names both sides ("publicly" is "public" in another form), so "The public can request
    copies" does not contradict it (found on the 18F development set, d096). A plain antonym pair still opposes."""
    from grounding.clash import clash
    from grounding.polarity import antonym

    assert clash("Note: Private channel content and direct messages can still be publicly published in a FOIA "
                 "request.", "The public (including media) can request copies via the Freedom of Information Act "
                 "(FOIA).") is None
    assert antonym("Private channels are visible to members only.",
                   "Public channels are visible to members only.") == ("private", "public")
    assert antonym("Contractors are allowed to use the lounge.",
                   "Contractors are prohibited from using the lounge.") == ("allowed", "prohibited")
