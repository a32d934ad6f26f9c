"""What ingestion stored about the planned sources, read for one answer instead of computed again (issue 20 point 3):
each source's sentences as contradiction detection reads them (:func:`source_claims`), and the sentence layouts,
sentence vectors and values the offline answerer and the support check read (:func:`stored_source_data`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from grounding.claims import claims
from grounding.embeddings import KnownVectors
from grounding.sentence_store import with_stored_sentences
from grounding.support_store import plan_values
from grounding.support_values import SourceValues
from grounding.types import Candidate, ContextPlan, Source
from knowledge.selectors import chunk_layouts, chunk_value_rows

__all__ = ["source_claims", "stored_source_data"]


def source_claims(sources: Sequence[Source], candidates: Sequence[Candidate]) -> list[list[str]]:
    """Each planned source's sentences as contradiction detection reads them (grounding.claims.claims), from
    what ingestion split and stored with its chunks: a source of one chunk has that chunk's sentences; a source merged
    from adjacent chunks of one version has theirs in document order, each once (the chunker's overlap repeats the
    sentences at a cut, and merging removes the repeat). A source with a passage withheld, or whose chunks were not
    split at ingestion, is split now."""
    chunks = {c.chunk.chunk_id: c.chunk for c in candidates}
    out = []
    for source in sources:
        members = [chunks.get(i) for i in source.chunk_ids]
        own = sorted((c for c in members if c is not None and c.version_id == source.version_id),
                     key=lambda c: c.ordinal)
        if source.withheld or None in members or not own or not all(c.sentences for c in own):
            out.append(claims(source.text))
        else:
            out.append(list(dict.fromkeys(s for c in own for s in c.sentences)))
    return out


def stored_source_data(plan: ContextPlan, candidates: Sequence[Candidate], *, domain: int, token: str | None,
                       sentences: KnownVectors | None
                       ) -> tuple[ContextPlan, dict[str, np.ndarray], dict[str, SourceValues]]:
    """(the plan with its sources' stored sentence layouts, label -> the source's stored sentence vectors (n, dim)
    float32, label -> the source's stored values) for a sufficient plan; the plan unchanged and two empty maps for
    another.

    The values are the support check's (grounding.support_store.plan_values: sources whose values cannot be read so
    are absent and found in their texts). With ``sentences`` (the planned chunks' vectors stored at ingestion), a
    source that is one chunk's text unchanged, or adjacent chunks joined, is read as ingestion laid its chunks out
    (grounding.sentence_store: no splitting, no values found, no model call when the answer is composed), and a source
    all of whose sentences have stored vectors gets them. Reads the domain's published index only (the layouts and
    values of the planned chunks), never the database.
    """
    vectors: dict[str, np.ndarray] = {}
    if not plan.sufficient:
        return plan, vectors, {}
    chunks = {c.chunk.chunk_id: c.chunk for c in candidates}
    planned_ids = [i for s in plan.sources for i in s.chunk_ids]
    values = plan_values(plan, chunks, chunk_value_rows(domain=domain, chunk_ids=planned_ids, token=token))
    if sentences is None:
        return plan, vectors, values
    plan = with_stored_sentences(plan, chunks, chunk_layouts(domain=domain, chunk_ids=planned_ids, token=token),
                                 sentences.known)
    for source, group in zip(plan.sources, source_claims(plan.sources, candidates)):
        if group and all(text in sentences.known for text in group):
            vectors[source.label] = np.stack([sentences.known[text] for text in group])
    return plan, vectors, values
