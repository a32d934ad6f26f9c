"""Reads for the knowledge app: the per-domain retrieval index and retrieval itself; upload progress for the admin."""

from __future__ import annotations

import fcntl
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from django.conf import settings

from grounding.embeddings import Embedder, default_embedder
from grounding.index_store import StoredIndex
from grounding.ranking import demote_near_duplicates, drop_off
from grounding.types import Candidate
from grounding.types import Chunk as GChunk
from knowledge.models import Chunk, DocumentVersion, Domain, IngestJob, IngestJobFile

_cache: dict[tuple[int, str], tuple[str, StoredIndex]] = {}
_lock = threading.Lock()


def chunk_to_grounding(c: Chunk) -> GChunk:
    """Convert a stored chunk (with version and document selected) to the framework-free type."""
    v = c.version
    return GChunk(chunk_id=c.pk, document_id=v.document_id, title=v.title or v.document.title, section=c.section,
                  version=v.label, date=v.effective_date.isoformat() if v.effective_date else "", text=c.text,
                  tokens=c.tokens, status=v.status, ordinal=c.ordinal, version_id=v.pk)


def index_path(*, domain: Domain, status: str, token: str) -> Path:
    """The directory of one version of a domain's index for one version status (settings.INDEX_DIR)."""
    return Path(settings.INDEX_DIR) / f"domain-{domain.pk}-{status}-{token or 'initial'}"


def domain_index(*, domain: Domain, status: str = DocumentVersion.Status.CURRENT) -> StoredIndex:
    """The retrieval index over the domain's chunks of one version status ("current" or "superseded").

    The index lives on disk (grounding.index_store: memory-mapped vectors, BM25 arrays and, for large domains, an
    HNSW graph), keyed by ``domain.index_token``, which changes with any ingestion or version change. The first
    process to need a new token builds it (under a file lock, from the database); every other worker maps the same
    files, so the matrix is resident once per machine. Superseded index directories of the domain are removed
    (mappings other processes still hold stay valid until they move on).
    """
    token = Domain.objects.filter(pk=domain.pk).values_list("index_token", flat=True).first() or ""
    with _lock:
        hit = _cache.get((domain.pk, status))
        if hit and hit[0] == token:
            return hit[1]
    path = index_path(domain=domain, status=status, token=token)
    if not path.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.parent / f".domain-{domain.pk}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one builder per domain across processes; the others wait, then map
            if not path.is_dir():
                _build(domain=domain, status=status, path=path)
            for old in path.parent.glob(f"domain-{domain.pk}-{status}-*"):
                if old != path:
                    shutil.rmtree(old, ignore_errors=True)
    index = StoredIndex(path)
    with _lock:
        _cache[(domain.pk, status)] = (token, index)
    return index


def _build(*, domain: Domain, status: str, path: Path) -> StoredIndex:
    rows = (Chunk.objects.filter(version__document__domain=domain, version__status=status).order_by("pk")
            .values_list("pk", "embedding", "section", "text", "version__title", "version__document__title",
                         "sentence_vectors", "context_vectors"))
    ids, blobs, texts, sentence_blobs, context_blobs = [], [], [], [], []
    for pk, embedding, section, text, version_title, document_title, sentences, contexts in \
            rows.iterator(chunk_size=2_000):
        ids.append(pk)
        blobs.append(bytes(embedding))
        head = " > ".join(p for p in (version_title or document_title, section) if p)
        texts.append(f"{head}\n{text}" if head else text)  # the same text grounding.retrieve.index_text gives
        sentence_blobs.append(bytes(sentences or b""))
        context_blobs.append(bytes(contexts or b""))
    matrix = (np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(ids), -1) if ids
              else np.zeros((0, 384), dtype=np.float32))
    sentences = None
    if ids and all(sentence_blobs):  # every chunk has its sentence data (else: chunk-level retrieval only)
        dim = matrix.shape[1]
        offsets = np.concatenate([[0], np.cumsum([len(b) // (4 * dim) for b in sentence_blobs])])
        sentences = (offsets,
                     np.frombuffer(b"".join(sentence_blobs), dtype="<f4").reshape(-1, dim),
                     np.frombuffer(b"".join(context_blobs), dtype="<f4").reshape(-1, dim))
    return StoredIndex.build(path, ids, matrix, texts, ann_threshold=settings.RETRIEVAL_ANN_THRESHOLD,
                             sentences=sentences)


def domain_chunks(*, keys: Sequence[int]) -> dict[int, GChunk]:
    """The framework-free chunks for these primary keys (one query), keyed by key; unknown keys are absent."""
    rows = Chunk.objects.filter(pk__in=list(keys)).select_related("version__document")
    return {c.pk: chunk_to_grounding(c) for c in rows}


def domain_sentences(*, keys: Sequence[int]) -> dict[int, object]:
    """The stored sentence data (grounding.sentence_data.SentenceData, or None) of these chunks, keyed by key."""
    rows = Chunk.objects.filter(pk__in=list(keys)).only("sentences", "sentence_vectors", "context_vectors", "values")
    return {c.pk: c.sentence_data() for c in rows}


def retrieve(*, domain: Domain, query: str, k: int = 20, embedder: Embedder | None = None,
             superseded: int = 0) -> list[Candidate]:
    """Hybrid candidates of the domain's current chunks for a query (at most ``k``), followed by the top
    ``superseded`` candidates among superseded versions (for questions about the past and for version conflicts).

    Chunks are ranked by the fusion of their dense, BM25 and best-sentence rankings (grounding.index_store,
    grounding.ranking); the list is cut where the best-sentence relevance drops off (so how many sources an answer
    gets follows what was found and the token budget, not ``k``), and passages that repeat a higher-ranked passage
    of another document are moved behind the distinct ones. Each candidate carries its stored sentence data.
    Only this domain's index is searched: the caller has already checked that the user may read the domain.
    """
    index = domain_index(domain=domain)
    old = domain_index(domain=domain, status=DocumentVersion.Status.SUPERSEDED) if superseded else None
    if not len(index) and not (old is not None and len(old)):
        return []
    vector = (embedder or default_embedder()).embed([query])[0]
    found = [(index, h) for h in index.search(query, vector, k=k)] if len(index) else []
    if old is not None and len(old):
        found += [(old, h) for h in old.search(query, vector, k=superseded)]
    chunks = domain_chunks(keys=[h.key for _, h in found])
    units = domain_sentences(keys=[h.key for _, h in found])
    # a chunk deleted since the index was built is skipped (its domain's token changed; the next call rebuilds)
    candidates = [Candidate(chunk=chunks[h.key], score=h.score, dense=h.dense, lexical=h.lexical, rank=h.rank,
                            vector=np.asarray(idx.vector(h.row)), sentence=h.sentence, sentence_pos=h.sentence_pos,
                            sentences=units.get(h.key))
                  for idx, h in found if h.key in chunks]
    return demote_near_duplicates(drop_off(candidates))


# --- admin reads ----------------------------------------------------------------------------------------------------

def ingest_job_status(*, job: IngestJob) -> dict[str, Any]:
    """An upload job as JSON for the admin's progress page: status, counts and one row per file (name, size in
    bytes, status, title, version, chunks, tokens, error)."""
    files = [{"name": f.name, "size": f.size, "status": f.status, "title": f.title, "version": f.version,
              "chunks": f.chunks, "tokens": f.tokens, "error": f.error}
             for f in job.files.order_by("pk")]
    done = sum(1 for f in files if f["status"] not in IngestJobFile.PENDING)
    return {"id": job.pk, "domain": job.domain.slug, "status": job.status, "finished": job.finished,
            "error": job.error, "total": len(files), "done": done,
            "failed": sum(1 for f in files if f["status"] == "failed"), "files": files}
