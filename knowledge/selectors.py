"""Reads for the knowledge app: the per-domain retrieval index and retrieval itself; upload progress for the admin."""

from __future__ import annotations

import datetime as dt
import functools
import logging
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from grounding.claim_readings import ClaimReading, known_readings
from grounding.embeddings import Embedder, default_embedder
from grounding.contact_lookup import asks_contact
from grounding.heading_lookup import with_looked_up
from grounding.index_store import StoredIndex
from grounding.ranking import demote_near_duplicates, drop_off
from grounding.respelling import respelled
from grounding.scheduled import ScheduledVersion
from grounding.table_lookup import promote_looked_up_rows
from grounding.types import Candidate
from grounding.types import Chunk as GChunk
from knowledge.indexing import index_path
from knowledge.models import Chunk, DocumentVersion, Domain, IngestJob, IngestJobFile
from knowledge.records import chunk_from_record, chunk_to_grounding

log = logging.getLogger("grounded.index")

#: Opened indexes per (domain id, status): (token, index). Kept per process; a worker maps each index once.
_cache: dict[tuple[int, str], tuple[str, StoredIndex]] = {}
_lock = threading.Lock()


def domain_token(*, domain: Domain) -> str:
    """The token of the domain's published index (read from the database: a change committed by an ingestion in
    another process is seen at once)."""
    return Domain.objects.filter(pk=domain.pk).values_list("index_token", flat=True).first() or ""


#: The earliest date of a scheduled version per domain id, for the index token it was read with: (token, date).
_next_scheduled: dict[int, tuple[str, dt.date | None]] = {}


def version_next_scheduled(*, domain: Domain, token: str) -> dt.date | None:
    """The earliest effective date among the domain's scheduled versions (dated after the day they were ingested or
    last decided on; knowledge.services.versions), None when it has none. Read from the database once per published
    index token and process: every change of statuses publishes a new token, so an ask costs a lookup."""
    known = _next_scheduled.get(domain.pk)
    if known is not None and known[0] == token:
        return known[1]
    first = (DocumentVersion.objects.filter(document__domain=domain, status=DocumentVersion.Status.SCHEDULED)
             .order_by("effective_date").values_list("effective_date", flat=True).first())
    _next_scheduled[domain.pk] = (token, first)
    return first


#: The scheduled versions of a domain with their chunks' vectors, per domain id, for the index token they were read
#: with: (token, versions).
_scheduled_versions: dict[int, tuple[str, tuple[ScheduledVersion, ...]]] = {}


def domain_scheduled_versions(*, domain: Domain, token: str) -> tuple[ScheduledVersion, ...]:
    """The domain's scheduled (future-dated) versions, each with its title, effective date and its chunks' unit
    vectors (float32 (chunks, dim)), oldest date first; () when it has none. Read from the database once per
    published index token and process, like :func:`version_next_scheduled` (a refusal reads them to say that a
    matching version is not yet in effect, grounding.scheduled)."""
    known = _scheduled_versions.get(domain.pk)
    if known is not None and known[0] == token:
        return known[1]
    versions = (DocumentVersion.objects.filter(document__domain=domain, status=DocumentVersion.Status.SCHEDULED)
                .order_by("effective_date", "pk"))
    out = []
    for v in versions:
        vectors = [c.vector() for c in Chunk.objects.filter(version=v).only("embedding").order_by("ordinal")]
        if vectors and v.effective_date is not None:
            out.append(ScheduledVersion(title=v.title, date=v.effective_date.isoformat(),
                                        vectors=np.stack(vectors).astype(np.float32)))
    _scheduled_versions[domain.pk] = (token, tuple(out))
    return tuple(out)


def domain_vocabulary(*, domain: Domain | int, token: str | None = None) -> dict[str, int] | None:
    """The terms of the domain's published BM25 index over current chunks (term -> id, grounding.lexical.bm25_tokens
    terms), None when the index has no lexical part."""
    bm25 = domain_index(domain=domain, token=token).bm25
    return None if bm25 is None else bm25.vocab_dict


def respelled_query(*, domain: Domain | int, token: str | None, question: str, query: str) -> tuple[str, str] | None:
    """(question, query) with each word the domain's documents never use read as the one document word it misspells by
    a letter ("how many vacaton days" -> "how many vacation days"; grounding.respelling), None when no word is."""
    found = domain_index(domain=domain, token=token).respellings(
        f"{question} {query}", getattr(default_embedder(), "count_tokens", None))
    return (respelled(question, found), respelled(query, found)) if found else None


def domain_index(*, domain: Domain | int, status: str = DocumentVersion.Status.CURRENT,
                 token: str | None = None) -> StoredIndex:
    """The published retrieval index over the domain's chunks of one version status ("current" or "superseded").

    Never builds (knowledge.indexing builds at ingestion and when a worker starts): ``token`` (default: the
    domain's current one, read from the database) names the directories to map; a token whose directory is missing
    falls back to the index this process had open for the domain (the previous one), else to an empty index, and
    the miss is logged. Indexes are memory-mapped (grounding.index_store), so each is resident once per machine.
    """
    pk = domain if isinstance(domain, int) else domain.pk
    if token is None:
        token = Domain.objects.filter(pk=pk).values_list("index_token", flat=True).first() or ""
    with _lock:
        hit = _cache.get((pk, status))
    if hit and hit[0] == token:
        return hit[1]
    path = index_path(domain=pk, status=status, token=token)
    try:
        index = StoredIndex(path)
    except (FileNotFoundError, ValueError) as exc:
        if hit is not None:
            log.warning("index %s is not there (%s); using the previous one", path.name, exc)
            return hit[1]
        log.error("domain %s has no built %s index (%s): run manage.py ingest or restart a worker", pk, status, exc)
        return _empty()
    with _lock:
        _cache[(pk, status)] = (token, index)
    return index


@functools.lru_cache(maxsize=1)
def _empty() -> StoredIndex:
    """An empty index (a domain whose index is missing answers nothing rather than failing)."""
    path = Path(tempfile.mkdtemp(prefix="grounded-empty-index-"))
    return StoredIndex.build(path / "empty", [], np.zeros((0, 384), dtype=np.float32), [], records=[])


def domain_chunks(*, keys: Sequence[int]) -> dict[int, GChunk]:
    """The framework-free chunks for these primary keys (one query), keyed by key; unknown keys are absent."""
    rows = Chunk.objects.filter(pk__in=list(keys)).select_related("version__document")
    return {c.pk: chunk_to_grounding(c) for c in rows}


def retrieve_vector(*, domain: Domain | int, query: str, vector: np.ndarray, token: str, k: int = 20,
                    superseded: int = 0) -> list[Candidate]:
    """Top-k hybrid candidates of the domain's current chunks for a query and its unit vector (float32 (dim,)),
    followed by the top ``superseded`` candidates among superseded versions (questions about the past, version
    conflicts). Reads the index only (records and the chunks' sentence vectors included): no database query, no
    embedding; CPU-bound.

    Chunks are ranked by the fusion of their dense, BM25 and best-sentence rankings (grounding.index_store,
    grounding.ranking: each chunk's best sentence from the sentence vectors stored at ingestion); the list is cut
    where the best-sentence relevance drops off (so how many sources an answer gets follows what was found and the
    token budget, not ``k``), passages that repeat a higher-ranked passage of another document are moved behind
    the distinct ones, and a chunk holding the table row the query looks up by its row and column is moved up behind
    the first candidate (grounding.table_lookup), as is a chunk under a numbered heading the query names ("Day 3",
    grounding.heading_lookup), found among all the chunks, and for a question asking whom to contact, the contact
    sections of the best three candidates' pages (grounding.contact_lookup).
    """
    index = domain_index(domain=domain, token=token)
    old = domain_index(domain=domain, status=DocumentVersion.Status.SUPERSEDED, token=token) if superseded else None
    hits = index.search(query, vector, k=k, tables=True) if len(index) else []
    # a numbered section the question names ("Day 3") is looked up by its heading (grounding.heading_lookup), a table
    # row by its row and column among the best by BM25 (grounding.index_search)
    tables, hits = [h for h in hits if h.looked_up], [h for h in hits if not h.looked_up]
    # ... and the contact sections of the best three candidates' pages for a question asking whom to contact
    # (grounding.contact_lookup)
    contacts = index.contact_hits(query, vector, list(dict.fromkeys(
        index.made(h.row, chunk_from_record).document_id for h in hits[:3]))) if asks_contact(query) and hits else []
    hits = with_looked_up(hits, [*(index.label_hits(query, vector) if len(index) else []), *tables, *contacts],
                          key=lambda h: h.row)
    found = [(index, h) for h in hits]
    if old is not None and len(old):
        found += [(old, h) for h in old.search(query, vector, k=superseded)]
    candidates = [Candidate(chunk=idx.made(h.row, chunk_from_record), score=h.score, dense=h.dense,
                            lexical=h.lexical, rank=h.rank, vector=np.asarray(idx.vector(h.row)),
                            sentence_vectors=idx.sentence_vectors(h.row), unit_vectors=idx.unit_vectors(h.row),
                            sentence=h.sentence, sentence_pos=h.sentence_pos, looked_up=h.looked_up)
                  for idx, h in found]
    return promote_looked_up_rows(query, demote_near_duplicates(drop_off(candidates)), lambda c: c.chunk.text)


def chunk_layouts(*, domain: Domain | int, chunk_ids: Sequence[int], token: str | None = None) -> dict[int, list]:
    """The layouts ingestion stored for chunks of the domain's published index (current and superseded): chunk id ->
    layout (grounding.sentence_store.chunk_layout); chunks without one are left out. Read from the index, only for
    the chunks asked for (an answer's planned sources), never from the database."""
    return _stored_rows(domain, chunk_ids, token, StoredIndex.layout)


def chunk_value_rows(*, domain: Domain | int, chunk_ids: Sequence[int], token: str | None = None) -> dict[int, dict]:
    """The values ingestion stored for chunks of the domain's published index (current and superseded): chunk id ->
    values row (grounding.support_store.chunk_values); chunks without one (an index built before they were stored)
    are left out. Read from the index, only for the chunks asked for (an answer's planned sources)."""
    return _stored_rows(domain, chunk_ids, token, StoredIndex.values)


def _stored_rows(domain: Domain | int, chunk_ids: Sequence[int], token: str | None, read) -> dict[int, Any]:
    """chunk id -> ``read(index, row)`` for the chunks of the domain's published indexes (current, then
    superseded) that have a non-empty one."""
    out: dict[int, Any] = {}
    for status in (DocumentVersion.Status.CURRENT, DocumentVersion.Status.SUPERSEDED):
        index = domain_index(domain=domain, status=status, token=token)
        for key in chunk_ids:
            row = index.row_of(key) if key not in out and len(index) else None
            found = read(index, row) if row is not None else None
            if found:
                out[key] = found
    return out


def chunk_readings(*, domain: Domain | int, chunks: Sequence[GChunk],
                   token: str | None = None) -> dict[str, ClaimReading]:
    """What ingestion stored of the sentences of ``chunks`` (grounding.types.Chunk, as retrieval returned them) for
    contradiction detection: sentence -> grounding.claim_readings.ClaimReading, read from the domain's published
    index (current and superseded), only for the chunks asked for (an answer's planned sources), never from the
    database; a sentence read on an earlier ask is not parsed again (grounding.claim_readings.known_readings). Chunks
    whose readings are not kept, or do not match their sentences, are left out (their sentences are read from the
    text)."""
    out: dict[str, ClaimReading] = {}
    indexes = [domain_index(domain=domain, status=s, token=token)
               for s in (DocumentVersion.Status.CURRENT, DocumentVersion.Status.SUPERSEDED)]
    for chunk in chunks:
        for index in indexes:
            row = index.row_of(chunk.chunk_id) if len(index) else None
            if row is not None:
                out.update(known_readings(chunk.sentences, functools.partial(index.readings, row)))
                break
    return out


def retrieve(*, domain: Domain, query: str, k: int = 20, embedder: Embedder | None = None,
             superseded: int = 0) -> list[Candidate]:
    """:func:`retrieve_vector` with the query embedded here and the domain's current token read from the database
    (one blocking call for the command line and tests; the chat embeds through its batcher instead).

    Only this domain's index is searched: the caller has already checked that the user may read the domain.
    """
    vector = (embedder or default_embedder()).embed([query])[0]
    return retrieve_vector(domain=domain, query=query, vector=vector, token=domain_token(domain=domain), k=k,
                           superseded=superseded)


# --- admin reads ----------------------------------------------------------------------------------------------------

def ingest_job_status(*, job: IngestJob) -> dict[str, Any]:
    """An upload job as JSON for the admin's progress page: status, counts and one row per file (name, size in
    bytes, status, title, version, chunks, tokens, error, pages_done and pages_total of a PDF, presentation or
    workbook, notes as a list of sentences)."""
    files = [{"name": f.name, "size": f.size, "status": f.status, "title": f.title, "version": f.version,
              "chunks": f.chunks, "tokens": f.tokens, "error": f.error, "pages_done": f.pages_done,
              "pages_total": f.pages_total, "notes": [n for n in f.notes.split("\n") if n]}
             for f in job.files.order_by("pk")]
    done = sum(1 for f in files if f["status"] not in IngestJobFile.PENDING)
    return {"id": job.pk, "domain": job.domain.slug, "status": job.status, "finished": job.finished,
            "error": job.error, "total": len(files), "done": done,
            "failed": sum(1 for f in files if f["status"] == "failed"), "files": files}


def version_readable(*, user, version_id: int) -> DocumentVersion:
    """A document version ``user`` may read (its domain is among Domain.objects.readable_by(user)), with its
    document and domain selected.

    Raises:
        DocumentVersion.DoesNotExist: unknown version or a domain the user may not read (not told apart).
    """
    return (DocumentVersion.objects.select_related("document__domain")
            .get(pk=version_id, document__domain__in=Domain.objects.readable_by(user)))


def version_original(*, user, version_id: int) -> tuple[DocumentVersion, Path]:
    """A document version whose original ``user`` may read, and the stored file's path.

    Readable means the version's domain is among Domain.objects.readable_by(user) (superusers: all).
    Raises:
        DocumentVersion.DoesNotExist: unknown version, a domain the user may not read, or no original kept (a
            version ingested before originals were stored, or whose file is missing): the caller answers 404 alike,
            so that nobody learns which versions exist in domains they cannot read.
    """
    from knowledge.originals import original_path

    version = version_readable(user=user, version_id=version_id)
    if not version.original_hash:
        raise DocumentVersion.DoesNotExist(f"version {version_id} has no original file")
    path = original_path(content_hash=version.original_hash)
    if not path.is_file():
        raise DocumentVersion.DoesNotExist(f"the original of version {version_id} is missing from {path.parent}")
    return version, path
