"""The sentences of chunks and their embeddings, made once at ingestion (issue 20 point 3), so that an ask reads them
instead of encoding them:

- claims: what contradiction detection needs of a source (its sentences as grounding.claims.claims splits
  them, and their MiniLM vectors), stored with each chunk and carried by the retrieval index;
- readings: what the contradiction rules read of each claim (grounding.claim_readings: its tokens, values, negations),
  so that an ask does not read the claims again;
- layout: how the offline answerer reads the chunk (grounding.sentence_store.chunk_layout: each sentence's span, kind,
  quoted text and typed values);
- units: the other texts that reading needs the vectors of (list items, table rows read as "column: value" pairs, the
  section heading; the texts it shares with the claims are not repeated), with their vectors, which the answerer
  finds in the embedder's cache when a plan is made (grounding.embeddings.KnownVectors).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from grounding.claim_readings import stored_readings
from grounding.claims import claims
from grounding.embeddings import Embedder
from grounding.sentence_data import section_heading
from grounding.sentence_store import chunk_layout, layout_texts


@dataclass(frozen=True)
class StoredSentences:
    """What ingestion stores of one chunk's sentences.

    Attributes:
        claims: the text's sentences as contradiction detection reads them; claim_vectors: their vectors, float32
            little-endian bytes, (len(claims), dim).
        units: the answerer's other texts of the chunk (not among ``claims``); unit_vectors: their vectors, as above.
        layout: how the answerer reads the chunk (grounding.sentence_store.chunk_layout).
        readings: what the contradiction rules read of each claim (grounding.claim_readings.stored_readings).
    """

    claims: list[str]
    claim_vectors: bytes
    units: list[str]
    unit_vectors: bytes
    layout: list[list]
    readings: dict


def answer_units(layout: list[list], section: str, said: Sequence[str]) -> list[str]:
    """The texts reading a chunk's ``layout`` needs (its section path ``section``) that are not among the chunk's
    claims ``said``."""
    known = set(said)
    return [t for t in layout_texts(layout, section_heading(section)) if t not in known]


#: Texts per embedding call when an ingestion reports its progress (several calls only past this many).
PROGRESS_BATCH = 2048


def embed_reporting(embedder: Embedder, texts: Sequence[str],
                    progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The vectors of ``texts`` (float32, (n, dim)), in calls of PROGRESS_BATCH texts with ``progress(done, total)``
    after each when more than one call is needed and ``progress`` is given; else in one call. A 5 MB text (some
    50,000 sentences) takes tens of minutes on two cores: the s22 break run's ingest printed nothing meanwhile."""
    if progress is None or len(texts) <= PROGRESS_BATCH:
        return np.asarray(embedder.embed(list(texts)), dtype="<f4")
    parts = []
    for start in range(0, len(texts), PROGRESS_BATCH):
        parts.append(np.asarray(embedder.embed(list(texts[start:start + PROGRESS_BATCH])), dtype="<f4"))
        progress(min(start + PROGRESS_BATCH, len(texts)), len(texts))
    return np.concatenate(parts)


def _embed_groups(groups: Sequence[Sequence[str]], embedder: Embedder,
                  progress: Callable[[int, int], None] | None = None) -> list[bytes]:
    """Each group's vectors as float32 little-endian bytes, (len(group), dim); every distinct text of all groups
    embedded once (:func:`embed_reporting`)."""
    flat = list(dict.fromkeys(t for g in groups for t in g))
    vectors = embed_reporting(embedder, flat, progress) if flat else np.zeros((0, 0), dtype="<f4")
    row = {t: i for i, t in enumerate(flat)}
    return [vectors[[row[t] for t in g]].tobytes() if g else b"" for g in groups]


def sentences_embed(*, texts: Sequence[str], embedder: Embedder, sections: Sequence[str] | None = None,
                    progress: Callable[[int, int], None] | None = None) -> list[StoredSentences]:
    """For each chunk text (with its section path in ``sections``, "" each when None): its claims and answer units
    with their vectors, every text of every chunk embedded once (in one call, or with ``progress(done, total)``
    sentences after each batch: :func:`embed_reporting`)."""
    sections = list(sections) if sections is not None else [""] * len(texts)
    groups = [claims(t) for t in texts]
    layouts = [chunk_layout(t) for t in texts]
    units = [answer_units(lay, s, g) for lay, s, g in zip(layouts, sections, groups)]
    packed = _embed_groups(groups + units, embedder, progress)
    n = len(groups)
    return [StoredSentences(g, packed[i], u, packed[n + i], lay, stored_readings(g))
            for i, (g, u, lay) in enumerate(zip(groups, units, layouts))]


def units_embed(*, texts: Sequence[str], sections: Sequence[str], said: Sequence[Sequence[str]],
                embedder: Embedder) -> list[tuple[list[str], bytes, list[list]]]:
    """For chunks whose claims are stored but not their layout and answer units (stored before these were made):
    each chunk's units, their vectors (float32 little-endian bytes) and its layout, in one embedding call."""
    layouts = [chunk_layout(t) for t in texts]
    units = [answer_units(lay, s, g) for lay, s, g in zip(layouts, sections, said)]
    return list(zip(units, _embed_groups(units, embedder), layouts))
