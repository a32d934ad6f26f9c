"""One file made ready for ingestion, nothing stored yet: which files of a folder are read (and which are skipped,
with why), and each file extracted, identified and chunked (knowledge.services.ingestion stores what this
prepares)."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from django.conf import settings as django_settings
from django.db import models

from grounding.chunking import ChunkDraft, chunk_blocks
from grounding.embeddings import Embedder
from grounding.extract import SUFFIXES, extract_document, supported_suffixes
from grounding.parsing import ParsedDocument, ParseError
from grounding.retrieve import input_limit
from grounding.tokens import counter_for
from knowledge.models import Document, DocumentVersion, Domain
from knowledge.services.reports import FileReport


def folder_files(path: Path) -> tuple[list[Path], list[FileReport]]:
    """The files under ``path`` that ingestion reads (a file: itself), sorted, and a "skipped" report for each other
    file of the folder, saying why (a MANIFEST.tsv, a .zip, an image: not a supported document type). Files and
    folders whose name starts with "." (.git, .DS_Store) are neither read nor reported. A symbolic link to a file
    outside the folder is skipped, and reported (never read: it would publish any file the server can read)."""
    if path.is_file():
        return [path], []
    root = path.resolve()
    found = sorted(p for p in path.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(path).parts))
    # a link to a file outside the folder (``docs/passwd.md -> /etc/passwd``) is not read: ingesting it would publish
    # whatever the server may read to every reader of the domain (the s48 breaker's symlink.md)
    outside = {p for p in found if not p.resolve().is_relative_to(root)}
    found = [p for p in found if p not in outside]
    files = [p for p in found if p.suffix.lower() in SUFFIXES]
    skipped = [FileReport(rel, "skipped", error=skipped_reason(rel)) for rel in
               (p.relative_to(path).as_posix() for p in found if p.suffix.lower() not in SUFFIXES)]
    skipped += [FileReport(rel, "skipped", error=f"{rel}: a link to a file outside the folder; not read (copy the file "
                                                  "into the folder to have it ingested)")
                for rel in sorted(p.relative_to(path).as_posix() for p in outside)]
    return files, skipped


def skipped_reason(rel: str) -> str:
    """Why a file of a folder was not read: "MANIFEST.tsv: not a supported document type (.tsv; supported: .md,
    ...); convert it to one of them to have it ingested"."""
    suffix = Path(rel).suffix.lower() or "no extension"
    return (f"{rel}: not a supported document type ({suffix}; supported: {', '.join(supported_suffixes())}); "
            "convert it to one of them to have it ingested")


def _parse_date(value: object) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and value.strip():
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


@dataclass
class Pending:
    """One file extracted and chunked, not stored yet: its original, path, parsed document, document key, version
    label and date, content hash and chunks."""

    original: Path | bytes  # the file as given (stored with the version as its original)
    rel: str
    parsed: ParsedDocument
    key: str
    label: str
    date: dt.date | None
    content_hash: str
    drafts: list[ChunkDraft]


def _content_hash(parsed: ParsedDocument) -> str:
    """Identity of a version's content: its title and text, and for formats with pages, slides or rows also where
    each block is (the same text on other pages is another version). Markdown, HTML and text hash as before."""
    digest = hashlib.sha256((parsed.title + "\n" + parsed.text).encode())
    if any(b.location is not None for b in parsed.blocks):
        for b in parsed.blocks:
            digest.update(repr((b.location.as_dict() if b.location else {}, b.header)).encode())
    return digest.hexdigest()


def prepare(*, domain: Domain, rel: str, data: bytes, original: Path | bytes, single_file: bool,
            version: str | None, date: dt.date | None, key: str | None, embedder: Embedder,
            progress: Callable[[int, int], None] | None = None) -> Pending:
    """Extract and chunk one file (nothing stored yet): chunks the embedder sees whole, none longer than its input,
    title and section included (B13). Raises ParseError with the file's own message (as well for a document id or a
    version label longer than its column holds)."""
    parsed = extract_document(data, rel, progress=progress, ocr=django_settings.OCR_ENABLED,
                              ocr_languages=django_settings.OCR_LANGUAGES)
    doc_key = key or document_key(domain, rel, single_file, parsed.metadata)
    meta = parsed.metadata
    eff = date or _parse_date(meta.get("effective_date")) or _parse_date(meta.get("date"))
    digest = _content_hash(parsed)
    # no label given, in front matter or by a date: numbered per document when stored (version_next_label)
    label = version or str(meta.get("version") or (eff.isoformat() if eff else ""))
    for what, value, limit in (("document id", doc_key, Document._meta.get_field("key").max_length),
                               ("version label", label, DocumentVersion._meta.get_field("label").max_length)):
        if len(value) > limit:  # SQLite stored it whole; PostgreSQL failed the whole ingestion on it
            raise ParseError(f"{rel}: its {what} has {len(value)} characters; the limit is {limit}. Give a shorter "
                             f"one (front matter doc_id or version, or the ingest command's --doc-id or --version).")
    return Pending(original, rel, parsed, doc_key, label, eff, digest,
                   chunk_blocks(parsed.blocks, counter_for("extractive"),
                                limit=input_limit(embedder, title=parsed.title)))


def document_key(domain: Domain, rel: str, single_file: bool, meta: dict) -> str:
    """A document's identity: front matter doc_id, else its path (suffix included) relative to the ingested folder.

    A single file ingested on its own takes the key of the domain's existing document with that file name, when
    exactly one exists (so re-ingesting one page of a previously ingested folder updates that document), or else of
    the one ingested from a file of that name, when exactly one was: a document keyed by its front matter doc_id,
    uploaded again without its front matter, is a new version of it, not a second document (the s48 breaker's
    office-london.md answered "sources disagree: £20 vs £15").
    Raises ParseError for a doc_id that is not a string or number.
    """
    doc_id = meta.get("doc_id")
    if doc_id is not None:
        if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool) or not str(doc_id).strip():
            raise ParseError(f"{rel}: doc_id must be a non-empty string, got {doc_id!r}")
        return str(doc_id).strip()
    if single_file:
        matches = list(Document.objects.filter(domain=domain, key__endswith="/" + rel)
                       .values_list("key", flat=True)[:2])
        if not matches and not Document.objects.filter(domain=domain, key=rel).exists():
            # a document keyed by its doc_id, ingested from a file of that name ("office-london.md")
            matches = list(Document.objects.filter(domain=domain).filter(
                models.Q(source_path=rel) | models.Q(source_path__endswith="/" + rel)).values_list("key", flat=True)[:2])
        if len(matches) == 1:
            return matches[0]
    return rel
