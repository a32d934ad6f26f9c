"""The sentence-transformers model's encoder run by ONNX Runtime instead of torch (issue 20: the query embedding was
about two thirds of an ask's CPU).

The loaded model's transformer is exported to ONNX in memory (``torch.onnx.export``, about 1 s for MiniLM-L6, so
nothing is written to disk or downloaded) and run by an ``onnxruntime.InferenceSession``; the token embeddings are
mean-pooled over the attention mask and L2-normalised, which is what the model's own modules declare (Pooling with
``pooling_mode`` "mean", then Normalize): :meth:`OnnxEncoder.of` returns None for a model built otherwise, and the
caller keeps torch. Tokenisation is the model's own tokenizer with the arguments sentence-transformers passes
(padding to the batch's longest text, "longest_first" truncation at ``max_seq_length``), and a batch holds texts of
similar length (sorted, as ``SentenceTransformer.encode`` does), so the vectors are the torch path's to float32
rounding (largest difference about 2e-7 on the 18F questions; tests/grounding/test_onnx_encoder.py).

Measured on this 2-core machine, one thread, 200 questions of the 18F set (bench/bench_embedding.py): 4.7 ms of CPU a
question one at a time against torch's 11.1 ms, 3.6 ms against 7.2 ms in batches of 20, and 46 ms against 83 ms a
900-character chunk in batches of 64 (docs/benchmarks.md). A session's ``run`` releases the
interpreter lock, as torch's kernels do. The technique is ONNX Runtime's transformer graph fusion (attention,
layer norm and GELU kernels fused at session creation, ``ORT_ENABLE_ALL``); see "Accelerate Hugging Face models"
in the ONNX Runtime documentation and sentence-transformers' own ONNX backend, which needs optimum (not usable here:
it pins transformers below 4.58).
"""

from __future__ import annotations

import importlib.util
import io
import logging
import threading
import warnings
from typing import Any

import numpy as np

log = logging.getLogger("grounded.embeddings")

_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class OnnxEncoder:
    """Encode texts with a sentence-transformers model's transformer exported to ONNX and run by ONNX Runtime.

    One session per native thread count (the ``threads`` argument of :meth:`encode`): a CPU-pool task of the server
    runs on one thread (settings.COMPUTE_THREADS), ingestion on the machine's cores. Sessions are thread-safe: the
    pool's threads share one.

    Attributes:
        max_length: the longest input in model tokens, special tokens included (the model's ``max_seq_length``).
    """

    def __init__(self, graph: bytes, tokenizer: Any, max_length: int) -> None:
        self._graph = graph
        self.tokenizer = tokenizer
        self.max_length = max_length
        self._sessions: dict[int, Any] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, model: Any) -> "OnnxEncoder | None":
        """The ONNX encoder of a loaded ``SentenceTransformer`` whose modules are a BERT-style transformer, mean
        pooling and normalisation (all-MiniLM-L6-v2 is), or None: onnxruntime or onnx not installed, another
        pooling, or the export failed (logged; the caller then encodes with torch).

        The export takes about a second and holds the graph's bytes (about 90 MB for MiniLM-L6) to make a session
        per thread count."""
        if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
            log.info("onnxruntime or onnx is not installed: sentences are encoded with torch")
            return None
        import torch

        modules = list(model)
        if (len(modules) != 3 or getattr(modules[1], "pooling_mode", None) != "mean"
                or type(modules[2]).__name__ != "Normalize" or getattr(modules[1], "include_prompt", True) is not True):
            log.info("the embedding model is not transformer + mean pooling + normalize: encoded with torch")
            return None
        transformer = getattr(modules[0], "auto_model", None)
        if transformer is None:
            return None

        class _Hidden(torch.nn.Module):
            """The transformer's last hidden state from keyword inputs (its forward's positional order differs
            between transformers releases)."""

            def __init__(self, inner: torch.nn.Module) -> None:
                super().__init__()
                self.inner = inner

            def forward(self, input_ids, attention_mask, token_type_ids):
                return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=token_type_ids).last_hidden_state

        sample = model.tokenizer(["Ready when the first question comes."], return_tensors="pt")
        if any(name not in sample for name in _INPUTS):
            log.info("the embedding model's tokenizer does not give %s: encoded with torch", ", ".join(_INPUTS))
            return None
        graph = io.BytesIO()
        try:
            with warnings.catch_warnings(), torch.no_grad():
                warnings.simplefilter("ignore")  # the TorchScript exporter's tracer warnings about shapes
                torch.onnx.export(
                    _Hidden(transformer).eval(), tuple(sample[name] for name in _INPUTS), graph,
                    input_names=list(_INPUTS), output_names=["last_hidden_state"],
                    dynamic_axes={name: {0: "batch", 1: "tokens"} for name in (*_INPUTS, "last_hidden_state")},
                    opset_version=17, dynamo=False)
        except Exception as exc:  # an exporter that cannot trace this model: torch still can encode it
            log.warning("the embedding model could not be exported to ONNX (%s): encoded with torch", exc)
            return None
        return cls(graph.getvalue(), model.tokenizer, int(model.max_seq_length))

    def _session(self, threads: int):
        with self._lock:
            session = self._sessions.get(threads)
            if session is None:
                import onnxruntime as ort

                options = ort.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                # calls rarely repeat a (batch, tokens) shape, so a memory pattern planned per shape is seldom
                # reused; without it intermediate buffers come from the session's arena (two workers' system CPU
                # fell in the one pair of load runs that compared it: docs/benchmarks.md)
                options.enable_mem_pattern = False
                session = ort.InferenceSession(self._graph, options, providers=["CPUExecutionProvider"])
                self._sessions[threads] = session
            return session

    def encode(self, texts: list[str], batch_size: int = 64, threads: int = 1) -> np.ndarray:
        """float32 (len(texts), dim) unit rows, in the order of ``texts``; (0, 0) for no texts.

        Texts are tokenised as sentence-transformers does (truncated at :attr:`max_length` model tokens) and run in
        batches of ``batch_size`` texts of similar length (sorted by character count), on ``threads`` native
        threads."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        session = self._session(max(1, int(threads)))
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out: np.ndarray | None = None
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            tokens = self.tokenizer([texts[i] for i in rows], padding=True, truncation="longest_first",
                                    max_length=self.max_length, return_tensors="np")
            feed = {name: np.asarray(tokens[name], dtype=np.int64) for name in _INPUTS}
            hidden = session.run(None, feed)[0]
            mask = feed["attention_mask"].astype(np.float32)
            # mean pooling as one product per text (no (batch, tokens, dim) temporary)
            pooled = np.einsum("btd,bt->bd", hidden, mask) / np.clip(mask.sum(axis=1), 1e-9, None)[:, None]
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            if out is None:
                out = np.empty((len(texts), pooled.shape[1]), dtype=np.float32)
            out[rows] = pooled
        return out
