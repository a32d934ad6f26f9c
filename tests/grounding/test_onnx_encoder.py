"""Tests for grounding.onnx_encoder: the model's transformer on ONNX Runtime gives the vectors torch gives (issue 20).

The session's embedder encodes on ONNX Runtime; a second embedder on torch encodes the same texts here, uncached, and
every vector must agree to float32 rounding, so retrieval, notes and the support check read the same numbers either
way."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def torch_embedder():
    from grounding.embeddings import MiniLMEmbedder

    e = MiniLMEmbedder(runtime="torch", cache_size=0)
    e.load()
    return e


def _fresh_onnx(embedder):
    """An uncached view of the session's model on ONNX Runtime (the session's cache may hold vectors read back)."""
    from grounding.embeddings import MiniLMEmbedder

    e = MiniLMEmbedder(cache_size=0)
    e._model, e._onnx = embedder._load(), embedder._onnx
    return e


def test_the_default_embedder_runs_on_onnx_runtime(embedder):
    embedder.load()  # the session's vectors may all come from the saved cache
    assert embedder.runtime == "onnx"


def test_onnx_vectors_are_torch_vectors_on_the_18f_questions(embedder, torch_embedder):
    records = [json.loads(line) for line in (ROOT / "evaluation/golden/18f.jsonl").open()]
    questions = [r["question"] for r in records if "question" in r][:120]  # conversations hold theirs in turns
    onnx = _fresh_onnx(embedder).embed(questions)
    torch = torch_embedder.embed(questions)
    assert onnx.shape == torch.shape == (len(questions), 384) and onnx.dtype == np.float32
    assert np.abs(onnx - torch).max() < 1e-5
    assert np.allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)


def test_onnx_keeps_the_order_of_mixed_lengths_and_odd_texts(embedder, torch_embedder):
    """Long texts (truncated at the model's limit), an empty one, full-width letters and accents, in one batch:
    sorting by length inside the encoder must not move a vector to another text's row."""
    texts = ["Who approves travel?", "", "ｍｅａｌ ａｌｌｏｗａｎｃｅ", "policy " * 400, "Café naïve — “quoted”",
             "Short.", "A somewhat longer sentence about the nightly hotel limit in New York City."]
    onnx = _fresh_onnx(embedder)
    onnx.batch_size = 3  # several batches, each padded to its own longest text
    a, b = onnx.embed(texts), torch_embedder.embed(texts)
    assert np.abs(a - b).max() < 1e-5
    assert np.argmax(a @ b.T, axis=1).tolist() == list(range(len(texts)))


def test_onnx_encodes_on_the_thread_count_asked(embedder):
    model = _fresh_onnx(embedder)._onnx
    one, two = model.encode(["Who approves travel?"], threads=1), model.encode(["Who approves travel?"], threads=2)
    assert np.abs(one - two).max() < 1e-5
    assert {1, 2} <= set(model._sessions)


def test_an_unknown_runtime_is_a_clear_error():
    from grounding.embeddings import MiniLMEmbedder

    with pytest.raises(ValueError, match="'onnx' or 'torch'"):
        MiniLMEmbedder(runtime="tensorflow")


def test_a_model_pooled_otherwise_stays_on_torch(embedder):
    """Only transformer + mean pooling + normalize is exported: a model pooled on [CLS] would get wrong vectors."""
    from grounding.onnx_encoder import OnnxEncoder

    model = embedder._load()

    class ClsPooling:
        pooling_mode = "cls"
        include_prompt = True

    assert OnnxEncoder.of([model[0], ClsPooling(), model[2]]) is None
    assert OnnxEncoder.of([model[0], model[1]]) is None


def test_an_unknown_runtime_in_the_environment_stops_the_process_with_its_name(monkeypatch):
    """A deployment that misspells GROUNDED_EMBEDDING_RUNTIME fails at the first embedding (a server's warm-up), naming
    the value, instead of silently running another runtime."""
    import grounding.embeddings as embeddings

    monkeypatch.setattr(embeddings, "_default", None)
    monkeypatch.setenv("GROUNDED_EMBEDDING_RUNTIME", "onxx")
    with pytest.raises(ValueError, match="GROUNDED_EMBEDDING_RUNTIME must be 'onnx' or 'torch', not 'onxx'"):
        embeddings.default_embedder()
    monkeypatch.setenv("GROUNDED_EMBEDDING_RUNTIME", " Torch ")
    assert embeddings.default_embedder().wanted_runtime == "torch"

