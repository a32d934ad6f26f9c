"""Tests for grounding.embeddings: the bundled MiniLM says how much of a text it reads, in its own tokens (B13)."""

from __future__ import annotations

import numpy as np


def test_b13_max_tokens_is_asked_of_the_model(embedder):
    model = embedder._load()
    assert embedder.max_tokens == model.max_seq_length - 2 == 254  # [CLS] and [SEP] are not text
    saved = model.max_seq_length
    try:
        model.max_seq_length = 128
        assert embedder.max_tokens == 126  # follows the model, never a constant
    finally:
        model.max_seq_length = saved


def test_b13_count_tokens_counts_wordpieces_without_special_tokens(embedder):
    assert embedder.count_tokens([]) == []
    assert embedder.count_tokens(["hello world", "unbelievably", ""]) == [2, 5, 0]  # un ##bel ##ie ##va ##bly


def test_b13_text_past_max_tokens_is_not_seen_and_text_within_it_is(embedder):
    """What max_tokens promises: a text of exactly max_tokens tokens is embedded whole (a tail after it changes
    nothing, it is truncated), and one token less leaves room for the tail to count."""
    n = embedder.max_tokens
    body = " ".join(["policy"] * n)
    assert embedder.count_tokens([body]) == [n]
    shorter = " ".join(["policy"] * (n - 1))
    v = embedder.embed([body, body + " volcano", shorter, shorter + " volcano"])
    assert np.allclose(v[0], v[1], atol=1e-6)  # the tail was cut off
    assert not np.allclose(v[2], v[3], atol=1e-3)  # within the limit the last word counts


def test_known_vectors_answer_known_texts_and_encode_only_the_others():
    import numpy as np

    from grounding.embeddings import KnownVectors

    class Fake:
        name, dim = "fake", 2

        def __init__(self):
            self.calls = []

        def embed(self, texts):
            self.calls.append(list(texts))
            return np.array([[0.0, 1.0]] * len(texts), dtype=np.float32)

    fake = Fake()
    known = KnownVectors(fake, {"a": np.array([1.0, 0.0], dtype=np.float32)})
    out = known.embed(["a", "b", "a", "b"])
    assert out.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
    assert fake.calls == [["b"]] and known.encoded == 1  # the unknown text once, the known one never


def test_remembered_vectors_are_served_from_the_cache_without_encoding():
    import numpy as np

    from grounding.embeddings import MiniLMEmbedder

    embedder = MiniLMEmbedder(cache_size=10)
    embedder._encode = lambda texts: (_ for _ in ()).throw(AssertionError(f"encoded {texts}"))  # must not run
    vector = np.array([1.0] + [0.0] * 383, dtype=np.float32)
    embedder.remember({"Desks are booked a day ahead.": vector})
    assert embedder.embed(["Desks are booked a day ahead."])[0].tolist() == vector.tolist()
