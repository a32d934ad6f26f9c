"""Reads for the knowledge app: the per-domain retrieval index and retrieval itself."""

from __future__ import annotations

import threading

import numpy as np

from grounding.embeddings import Embedder, default_embedder
from grounding.retrieve import HybridIndex
from grounding.types import Candidate
from grounding.types import Chunk as GChunk
from knowledge.models import Chunk, DocumentVersion, Domain

_cache: dict[tuple[int, str], tuple[str, HybridIndex]] = {}
_lock = threading.Lock()


def chunk_to_grounding(c: Chunk) -> GChunk:
    """Convert a stored chunk (with version and document selected) to the framework-free type."""
    v = c.version
    return GChunk(chunk_id=c.pk, document_id=v.document_id, title=v.title or v.document.title, section=c.section,
                  version=v.label, date=v.effective_date.isoformat() if v.effective_date else "", text=c.text,
                  tokens=c.tokens, status=v.status, ordinal=c.ordinal, version_id=v.pk)


def domain_index(*, domain: Domain, status: str = DocumentVersion.Status.CURRENT) -> HybridIndex:
    """The hybrid index over the domain's chunks of one version status ("current" or "superseded"), rebuilt only
    when ``domain.index_token`` changed (any ingestion or version change)."""
    token = Domain.objects.filter(pk=domain.pk).values_list("index_token", flat=True).first() or ""
    with _lock:
        hit = _cache.get((domain.pk, status))
        if hit and hit[0] == token:
            return hit[1]
    rows = list(Chunk.objects.filter(version__document__domain=domain, version__status=status)
                .select_related("version__document").order_by("pk"))
    chunks = [chunk_to_grounding(c) for c in rows]
    matrix = (np.frombuffer(b"".join(bytes(c.embedding) for c in rows), dtype="<f4").reshape(len(rows), -1)
              if rows else np.zeros((0, 384), dtype=np.float32))
    index = HybridIndex(chunks, np.ascontiguousarray(matrix, dtype=np.float32))
    with _lock:
        _cache[(domain.pk, status)] = (token, index)
    return index


def retrieve(*, domain: Domain, query: str, k: int = 20, embedder: Embedder | None = None,
             superseded: int = 0) -> list[Candidate]:
    """Top-k hybrid candidates of the domain's current chunks for a query, followed by the top ``superseded``
    candidates among superseded versions (for questions about the past and for version conflicts)."""
    index = domain_index(domain=domain)
    old = domain_index(domain=domain, status=DocumentVersion.Status.SUPERSEDED) if superseded else None
    if not len(index) and not (old and len(old)):
        return []
    vector = (embedder or default_embedder()).embed([query])[0]
    found = index.search(query, vector, k=k) if len(index) else []
    if old is not None and len(old):
        found += old.search(query, vector, k=superseded)
    return found
