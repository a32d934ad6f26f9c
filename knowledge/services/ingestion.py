"""Ingestion: files (a path, or an upload's bytes) extracted, chunked, embedded and stored as document versions,
with one report per file; the retrieval index is published in the same transaction (knowledge.indexing)."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path
from typing import Any, Callable

from django.db import transaction
from django.utils.text import Truncator

from grounding.list_answers import outline_of
from grounding.dedup import value_key
from grounding.embeddings import Embedder, default_embedder
from grounding.extract import SUFFIXES, supported_suffixes
from grounding.injection import DETECTOR_VERSION, injection_signals
from grounding.location import stored_location
from grounding.parsing import ParseError
from grounding.retrieve import index_text
from grounding.support_store import chunk_values
from grounding.types import Chunk as GChunk
from knowledge.indexing import index_publish
from knowledge.models import Chunk, Document, DocumentVersion, Domain
from knowledge.originals import original_content_type, original_save
from knowledge.sentences import embed_reporting, sentences_embed
from knowledge.services.preparing import Pending, folder_files, prepare
from knowledge.services.reports import FileReport, IngestError, IngestReport, max_file_bytes, too_large_error
from knowledge.services.versions import (document_statuses_refresh, version_next_label, version_older_than_current,
                                         version_reactivate, version_schedule_notes, version_undated_notes)

log = logging.getLogger("grounded.ingest")


def ingest_path(
    *,
    path: Path,
    domain: Domain,
    version: str | None = None,
    date: dt.date | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[str], None] | None = None,
    key: str | None = None,
) -> IngestReport:
    """Ingest a file or a folder (recursively: Markdown, text, HTML, PDF, Word, PowerPoint, Excel and CSV files, see
    grounding.extract.SUFFIXES) into a domain.

    A document is identified by its front matter ``doc_id``, else its path relative to the folder (suffix
    included; a single file ingested on its own joins the existing document of the same file name).
    Unchanged content (same normalised text hash) is a no-op; changed content becomes a new version of the same
    document, and the version with the latest effective date is current, older ones superseded (one dated after
    today is scheduled: it becomes current on its date, knowledge.services.versions; its report says so). Each new version
    keeps its original file (knowledge.originals) and each chunk its location (page, slide, sheet and rows). A file
    that cannot be ingested (damaged, password-protected, over the size limit, an extension that lies about the
    content, no text) is reported as failed with what to do, and the rest is ingested. A file of the folder that is
    no supported document type (a MANIFEST.tsv, an image) is reported as skipped, with why
    (knowledge.services.preparing.folder_files); it does not count as a failure.

    Args:
        path: file or folder.
        domain: target domain.
        version: version label for every file (default: front matter ``version``, else the date, else "v1", "v2",
            ... numbered per document; the content hash is kept apart as the version's identity).
        date: effective date for every file (default: front matter ``date``/``effective_date``, else none).
        embedder: embedding model (default: the bundled MiniLM).
        progress: called with one line per file (and one per note of a file); a failed file's line ("FAILED
            name: reason") is then its only report outside the returned report (not logged again above DEBUG), and
            so is a skipped file's ("SKIPPED name: skipped: ...").
        key: document identity for every file (e.g. to ingest dated revisions saved under different names as
            versions of one document); overrides doc_id and the path.
    Returns:
        IngestReport with one FileReport per file.
    Raises:
        IngestError: the path does not exist or holds no supported file.
    """
    path = Path(path)
    if not path.exists():
        raise IngestError(f"{path}: no such file or folder")
    if path.is_file() and path.suffix.lower() not in SUFFIXES:
        raise IngestError(f"{path}: unsupported file type {path.suffix or '(none)'}; expected one of "
                          f"{', '.join(supported_suffixes())}")
    files, skipped = folder_files(path)
    if not files:
        raise IngestError(f"{path}: no supported files ({', '.join(supported_suffixes())})")
    report = IngestReport(files=list(skipped))
    for other in skipped:  # said like a failure, but not one: the folder's documents are still ingested
        if progress:
            progress(f"SKIPPED {other.error}")
        else:
            log.info("ingest skipped: %s", other.error)
    embedder = embedder or default_embedder()
    pending: list[Pending] = []
    for f in files:
        rel = f.name if path.is_file() else f.relative_to(path).as_posix()
        try:
            size = f.stat().st_size
            if size > max_file_bytes():
                raise ParseError(too_large_error(rel, size))
            pending.append(prepare(domain=domain, rel=rel, data=f.read_bytes(), original=f,
                                    single_file=path.is_file(), version=version, date=date, key=key,
                                    embedder=embedder))
        except Exception as exc:  # one broken file never stops the others (its report says what failed)
            if isinstance(exc, ParseError):
                msg = str(exc)
            elif isinstance(exc, OSError):
                msg = f"{rel}: cannot read: {exc.strerror or exc}"
            else:
                msg = f"{rel}: ingestion failed: {exc}"
            report.files.append(FileReport(rel, "failed", error=msg))
            # each failure is said once: to the caller's progress (the ingest command prints it) when there is
            # one, else to the log; an unexpected error keeps its traceback in the log at DEBUG in the first case
            if progress:
                progress(f"FAILED {msg}" if msg.startswith(f"{rel}: ") else f"FAILED {rel}: {msg}")
                log.debug("ingest of %s failed", rel, exc_info=not isinstance(exc, (ParseError, OSError)))
            elif isinstance(exc, (ParseError, OSError)):
                log.info("ingest failed: %s", msg)
            else:
                log.exception("ingest of %s failed", rel)
    _commit(domain=domain, pending=pending, report=report, embedder=embedder, progress=progress)
    report.files.sort(key=lambda r: r.path)
    return report


def document_ingest(
    *,
    domain: Domain,
    name: str,
    data: bytes,
    version: str | None = None,
    date: dt.date | None = None,
    key: str | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FileReport:
    """Ingest one file given as bytes (an upload: the admin's, and the HTTP API's) into a domain, exactly as
    ``ingest_path`` ingests a single file: same formats, identity (a file of the same name as an existing document
    becomes its new version when its content changed), original kept, locations, size limit and per-file errors.

    Args:
        domain: target domain.
        name: the file's name (its extension says which format it should be; the content is checked).
        data: the file's bytes.
        version, date, key: as for ingest_path.
        embedder: embedding model (default: the bundled MiniLM).
        progress: called as progress(pages done, pages total) while a PDF's pages, a presentation's slides or a
            workbook's sheets are read.
    Returns:
        FileReport (status "failed" with the error for a file that cannot be ingested; never raises for bad files).
    """
    if len(data) > max_file_bytes():
        return FileReport(name, "failed", error=too_large_error(name, len(data)))
    embedder = embedder or default_embedder()
    try:
        pending = prepare(domain=domain, rel=name, data=data, original=data, single_file=True, version=version,
                           date=date, key=key, embedder=embedder, progress=progress)
    except ParseError as exc:
        log.info("ingest failed: %s", exc)
        return FileReport(name, "failed", error=str(exc))
    report = IngestReport()
    _commit(domain=domain, pending=[pending], report=report, embedder=embedder)
    return report.files[0]


def _commit(*, domain: Domain, pending: list[Pending], report: IngestReport, embedder: Embedder | None,
            progress: Callable[[str], None] | None = None) -> None:
    """Store the prepared files: unchanged ones are no-ops (or restored), the others are embedded and stored as new
    versions in one transaction; one FileReport each is appended to ``report``."""
    # Older versions first, so the newest content ends up current whatever the file order.
    pending.sort(key=lambda p: (p.date or dt.date.max, p.rel))
    to_embed: list[tuple[Pending, FileReport]] = []
    restored = False
    keys_before: set[str] = set()  # the documents an earlier file of this run adds a version to
    for p in pending:
        notes = list(p.parsed.notes)
        existing = DocumentVersion.objects.filter(document__domain=domain, document__key=p.key,
                                                  content_hash=p.content_hash).first()
        if existing is not None:
            status = "unchanged"
            if existing.status != DocumentVersion.Status.CURRENT and not version_older_than_current(existing, p.date):
                # the content of an earlier version came back: it is the current content again (or, dated after
                # today, scheduled again for that date)
                version_reactivate(existing, p.date)
                existing.refresh_from_db()
                restored = True
                status = "restored" if existing.status == DocumentVersion.Status.CURRENT else "unchanged"
                notes += version_schedule_notes(version=existing)
            report.files.append(FileReport(p.rel, status, p.parsed.title, existing.label, notes=notes,
                                           pages=p.parsed.pages, version_id=existing.pk))
            if progress:
                progress(f"{status} {p.rel}")
            continue
        doc = Document.objects.filter(domain=domain, key=p.key).only("title").first()
        # a second file of one document in this run (two dated revisions with one doc_id) is its new version, though
        # the document is stored only below (the s48 breaker's leave-2025.md was reported "new" after leave-2023.md)
        has_doc = doc is not None or p.key in keys_before
        keys_before.add(p.key)
        if doc is not None and _retitled(doc.title, p.parsed.title):
            # a file of the same name replaces a document titled otherwise: said, never silent (the s45 breaker's
            # unrelated "shuttle.md" made "Path" the current version of "Shuttle", and its answers went)
            notes.append(f'This file is a new version of "{doc.title}" (the document of the same file name in this '
                         f'domain), now titled "{p.parsed.title}". If it is another document, rename the file and '
                         'upload it again.')
        to_embed.append((p, FileReport(p.rel, "new_version" if has_doc else "new", p.parsed.title, p.label,
                                       len(p.drafts), sum(d.tokens for d in p.drafts), notes=notes,
                                       pages=p.parsed.pages)))
    if not to_embed:
        if restored:
            index_publish(domain=domain)
        return
    embedder = embedder or default_embedder()
    texts = [index_text(GChunk(0, 0, p.parsed.title, " > ".join(d.section), "", "", d.text, d.tokens))
             for p, _ in to_embed for d in p.drafts]
    vectors = embed_reporting(embedder, texts, _counting(progress, "chunks"))
    sentences = sentences_embed(texts=[d.text for p, _ in to_embed for d in p.drafts], embedder=embedder,
                                sections=[" > ".join(d.section) for p, _ in to_embed for d in p.drafts],
                                progress=_counting(progress, "sentences"))
    # what each chunk's record derives from its text is made before the write transaction opens: the transaction
    # (a write lock on SQLite, where every ask and login waits behind it) only stores rows and publishes the index
    derived = [_derived(d.text) for p, _ in to_embed for d in p.drafts]
    offset = 0
    with transaction.atomic():
        for p, fr in to_embed:
            n = len(p.drafts)
            stored = _store_version(domain, p, vectors[offset:offset + n], sentences[offset:offset + n],
                                    derived[offset:offset + n])
            fr.version_id, fr.version = stored.pk, stored.label
            fr.notes += version_schedule_notes(version=stored) + version_undated_notes(version=stored)
            offset += n
            report.files.append(fr)
            if progress:
                progress(f"{fr.status} {p.rel}: {fr.chunks} chunks, {fr.tokens} tokens")
                for note in fr.notes:
                    progress(f"  note: {note}")
        index_publish(domain=domain)


def _derived(text: str) -> dict[str, Any]:
    """What a chunk's row stores derived from its text alone: the values the support check reads
    (grounding.support_store.chunk_values), whether it holds text addressed to an AI assistant
    (grounding.injection.injection_signals) and its value key (grounding.dedup.value_key); Chunk field ->
    value. CPU work, done before the write transaction."""
    return {"support_values": chunk_values(text), "injection": bool(injection_signals(text)),
            "injection_version": DETECTOR_VERSION, "value_key": value_key(text)}


def _store_version(domain: Domain, p: Pending, vectors, sentences, derived: list[dict[str, Any]]) -> DocumentVersion:
    document, created = Document.objects.get_or_create(
        domain=domain, key=p.key, defaults={"title": _clip(p.parsed.title, Document, "title"),
                                            "source_path": _clip(p.rel, Document, "source_path")})
    # a revision that names no title of its own (a plain text file) keeps the document's title, not its file name
    title = document.title if p.parsed.title_from_name and not created else p.parsed.title
    data = p.original if isinstance(p.original, bytes) else p.original.read_bytes()
    name = Path(p.rel).name
    version = DocumentVersion.objects.create(document=document, title=_clip(title, DocumentVersion, "title"),
                                             label=p.label or version_next_label(document=document),
                                             effective_date=p.date,
                                             content_hash=p.content_hash, metadata=p.parsed.metadata,
                                             outline=list(outline_of(b.section for b in p.parsed.blocks)),
                                             original_name=_clip(name, DocumentVersion, "original_name"),
                                             original_hash=original_save(data=data),
                                             original_type=original_content_type(name=name),
                                             original_size=len(data))
    Chunk.objects.bulk_create([
        Chunk(version=version, ordinal=i, section=_clip(" > ".join(d.section), Chunk, "section"), text=d.text,
              tokens=d.tokens,
              embedding=vectors[i].astype("<f4").tobytes(), location=stored_location(d.location, d.parts),
              sentences=sentences[i].claims, sentence_vectors=sentences[i].claim_vectors,
              units=sentences[i].units, unit_vectors=sentences[i].unit_vectors, layout=sentences[i].layout,
              readings=sentences[i].readings, **derived[i])
        for i, d in enumerate(p.drafts)
    ])
    document_statuses_refresh(document)
    return version


def _counting(progress: Callable[[str], None] | None, what: str) -> Callable[[int, int], None] | None:
    """A progress(done, total) that writes "embedding: 2,048 of 7,500 chunks" lines to ``progress``; None without
    one."""
    if progress is None:
        return None
    return lambda done, total: progress(f"embedding: {done:,} of {total:,} {what}")


def _clip(text: str, model, field: str) -> str:
    """``text`` cut to what ``model``'s column ``field`` holds, its end marked with "…" (Django's Truncator): a title,
    a section path or a file name longer than that (a 2,000-character heading) is shown cut rather than failing the
    ingestion on PostgreSQL (SQLite stored it whole)."""
    return Truncator(text).chars(model._meta.get_field(field).max_length)


def _retitled(was: str, now: str) -> bool:
    """True when a new version's title is another than its document's ("Shuttle" -> "Path"), case and spacing aside."""
    was, now = " ".join(was.split()).casefold(), " ".join(now.split()).casefold()
    return bool(was and now) and was != now
