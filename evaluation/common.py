"""What every evaluation suite shares: where the data lives, the error type, reading JSON lines, a caching embedder.

Library code for ``manage.py evaluate``, ``support_eval`` and ``conflict_eval``: it raises EvaluationError, which the
commands turn into CommandError (a non-zero exit with the message).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
from django.conf import settings


class EvaluationError(ValueError):
    """An evaluation that cannot run: a missing or broken data file, bad arguments."""


def eval_dir() -> Path:
    """The shared evaluation sets: ../shared/eval next to the checkout (read in place, never copied)."""
    return Path(settings.BASE_DIR).parent / "shared" / "eval"


def read_jsonl(path: Path) -> Iterator[dict]:
    """The records of a JSON-lines file, blank lines skipped.

    Raises:
        EvaluationError: the file is missing or a line is not JSON (the message names the line).
    """
    if not path.is_file():
        raise EvaluationError(f"missing evaluation file {path}")
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise EvaluationError(f"{path}: line {number} is not JSON: {exc}") from exc


class CachingEmbedder:
    """Wraps an embedder so each distinct text is embedded once per run; ``prefetch`` embeds many in one batch.

    Used where the same texts come back (a calibration sweep, the same passage ingested for two variants of a record).
    """

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "embedder")
        self.dim = getattr(inner, "dim", 384)
        self.cache: dict[str, np.ndarray] = {}

    def prefetch(self, texts: Sequence[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self.inner.embed(todo)))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.prefetch(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.cache[t] for t in texts]).astype(np.float32)
