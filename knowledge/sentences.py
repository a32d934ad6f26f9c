"""The sentences of chunks and their embeddings, made once at ingestion (issue 20 point 3): what contradiction
detection needs of a source (its sentences as grounding.contradictions.claims splits them, and their MiniLM vectors)
is stored with each chunk and carried by the retrieval index, so that an ask reads it instead of embedding about a
hundred sentences per question.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from grounding.contradictions import claims
from grounding.embeddings import Embedder


def sentences_embed(*, texts: Sequence[str], embedder: Embedder) -> list[tuple[list[str], bytes]]:
    """For each chunk text: (its sentences, their vectors as float32 little-endian bytes, (len(sentences), dim)),
    all sentences of all texts embedded in one call."""
    groups = [claims(t) for t in texts]
    flat = [s for g in groups for s in g]
    vectors = np.asarray(embedder.embed(flat), dtype="<f4") if flat else np.zeros((0, 0), dtype="<f4")
    out, at = [], 0
    for group in groups:
        out.append((group, vectors[at:at + len(group)].tobytes()))
        at += len(group)
    return out
