"""A large Markdown or text file written as one single line (no newline at all) is ingested whole.

A tester's 2.5 MB single-line file took over 15 minutes; sentence splitting had been quadratic in the length of a
line (pysbd on the whole line) before grounding.sentences cut long lines first. The speed is measured as a ratio in
bench/bench_single_line.py (no timed assertion here); this test says what the user gets: every sentence of the file
in a chunk, in order, no chunk over its size.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from knowledge.models import Chunk
from knowledge.services import document_ingest, domain_get_or_create

pytestmark = pytest.mark.django_db


class _HashVectors:
    """The bundled model's input limit (its own token count and max_tokens), with cheap vectors: a few hundred KB
    of chunks would take minutes to encode on the shared cores, and what this test checks is the chunking."""

    def __init__(self, model) -> None:
        self.model = model
        self.name, self.dim, self.max_tokens = model.name, model.dim, model.max_tokens

    def count_tokens(self, texts):
        return self.model.count_tokens(texts)

    def embed(self, texts):
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest() * 48, dtype=np.uint8)[:384].astype(np.float32)
                for t in texts]
        out = np.array(rows, dtype=np.float32).reshape(len(texts), 384) + 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _single_line(sentences: int) -> tuple[str, list[str]]:
    said = [f"Rule {i}: a traveller based in office {i} may claim {10 + i % 90} dollars for meals on day "
            f"{1 + i % 7} of a trip, with *receipts* kept for {i % 30 + 1} days." for i in range(sentences)]
    return " ".join(said), said


@pytest.mark.parametrize("suffix", ["md", "txt"])
def test_a_single_line_file_of_a_few_hundred_kb_is_ingested_whole(suffix, embedder):
    text, said = _single_line(2_600)  # about 300 KB, no newline
    assert "\n" not in text and len(text.encode()) > 280_000
    domain = domain_get_or_create(slug=f"single-line-{suffix}")
    report = document_ingest(domain=domain, name=f"rules.{suffix}", data=text.encode(),
                             embedder=_HashVectors(embedder))
    assert (report.status, report.error) == ("new", "")
    chunks = list(Chunk.objects.filter(version_id=report.version_id).order_by("ordinal"))
    assert len(chunks) == report.chunks > 100
    assert all(0 < c.tokens <= 320 for c in chunks)
    plain = [c.text.replace("*", "") for c in chunks]  # Markdown emphasis is stored as text, text files keep it
    # every sentence of the file is in a chunk, whole, and the chunks follow the file's order
    where = [next((k for k, t in enumerate(plain) if s.replace("*", "") in t), None) for s in said]
    assert None not in where, f"sentence {where.index(None)} is in no chunk"
    assert where == sorted(where)
    # and nothing else: the chunks hold only the file's sentences (overlap repeats a sentence, never invents one)
    rules = {int(n) for t in plain for n in re.findall(r"Rule (\d+):", t)}
    assert rules == set(range(len(said)))
