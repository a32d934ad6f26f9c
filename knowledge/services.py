"""Writes for the knowledge app: domains and ingestion (HackSoft styleguide: services are keyword-only functions)."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Protocol, Sequence

from django.conf import settings as django_settings
from django.db import transaction

from grounding.chunking import ChunkDraft, chunk_blocks
from grounding.embeddings import Embedder, default_embedder
from grounding.prompt import ABSTAIN_TOKEN, DEFAULT_SYSTEM_PROMPT
from grounding.parsing import SUPPORTED_SUFFIXES, ParsedDocument, ParseError, parse_document
from grounding.retrieve import index_text, input_limit
from grounding.sentence_data import SentenceData, sentence_data
from grounding.tokens import counter_for
from grounding.types import Chunk as GChunk
from knowledge.models import Chunk, Document, DocumentVersion, Domain, IngestJob, IngestJobFile, SystemPrompt

log = logging.getLogger("grounded.ingest")


class IngestError(ValueError):
    """The ingestion request itself is unusable (missing path, no supported files)."""


@dataclass
class FileReport:
    """What happened to one file: status is "new", "new_version", "unchanged", "restored" (an earlier version's
    content came back and is current again) or "failed"."""

    path: str
    status: str
    title: str = ""
    version: str = ""
    chunks: int = 0
    tokens: int = 0
    error: str = ""


@dataclass
class IngestReport:
    """Per-file results of one ingestion run."""

    files: list[FileReport] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]

    def summary(self) -> str:
        restored = f", {self.count('restored')} restored" if self.count("restored") else ""
        return (f"{len(self.files)} files: {self.count('new')} new, {self.count('new_version')} new versions, "
                f"{self.count('unchanged')} unchanged{restored}, {self.count('failed')} failed")


def domain_get_or_create(*, slug: str, name: str = "", description: str = "") -> Domain:
    """The domain with this slug, created (named after the slug unless ``name`` is given) when missing."""
    domain, _ = Domain.objects.get_or_create(
        slug=slug, defaults={"name": name or slug.replace("-", " ").title(), "description": description})
    return domain


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
class _Pending:
    path: Path
    rel: str
    parsed: ParsedDocument
    key: str
    label: str
    date: dt.date | None
    content_hash: str
    drafts: list[ChunkDraft]


#: Largest file accepted (bytes); larger ones are reported as failed instead of stalling ingestion.
MAX_FILE_BYTES = 10 * 1024 * 1024


def _document_key(domain: Domain, rel: str, single_file: bool, meta: dict) -> str:
    """A document's identity: front matter doc_id, else its path (suffix included) relative to the ingested folder.

    A single file ingested on its own takes the key of the domain's existing document with that file name, when
    exactly one exists (so re-ingesting one page of a previously ingested folder updates that document).
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
        if len(matches) == 1:
            return matches[0]
    return rel


def _files_under(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
                  and not any(part.startswith(".") for part in p.relative_to(path).parts))


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
    """Ingest a file or a folder (recursively: .md, .markdown, .txt, .html, .htm) into a domain.

    A document is identified by its front matter ``doc_id``, else its path relative to the folder (suffix
    included; a single file ingested on its own joins the existing document of the same file name).
    Unchanged content (same normalised text hash) is a no-op; changed content becomes a new version of the same
    document, and the version with the latest effective date is current, older ones superseded. A broken file is
    reported as failed and skipped; the rest is ingested.

    Args:
        path: file or folder.
        domain: target domain.
        version: version label for every file (default: front matter ``version``, else the date, else a hash prefix).
        date: effective date for every file (default: front matter ``date``/``effective_date``, else none).
        embedder: embedding model (default: the bundled MiniLM).
        progress: called with one line per file.
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
    files = _files_under(path)
    if not files:
        raise IngestError(f"{path}: no supported files (.md, .markdown, .txt, .html, .htm)")
    if path.is_file() and path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise IngestError(f"{path}: unsupported file type {path.suffix or '(none)'}; expected .md, .txt or .html")
    counter = counter_for("extractive")
    embedder = embedder or default_embedder()
    report = IngestReport()
    pending: list[_Pending] = []
    for f in files:
        rel = f.name if path.is_file() else f.relative_to(path).as_posix()
        try:
            size = f.stat().st_size
            if size > MAX_FILE_BYTES:
                raise ParseError(f"{rel}: file too large ({size:,} bytes; the limit is {MAX_FILE_BYTES:,} bytes)")
            parsed = parse_document(f.read_bytes(), rel)
            doc_key = key or _document_key(domain, rel, path.is_file(), parsed.metadata)
        except (ParseError, OSError) as exc:
            msg = str(exc) if isinstance(exc, ParseError) else f"{rel}: cannot read: {exc.strerror or exc}"
            report.files.append(FileReport(rel, "failed", error=msg))
            log.info("ingest failed: %s", msg)
            if progress:
                progress(f"FAILED {rel}: {msg}")
            continue
        meta = parsed.metadata
        eff = date or _parse_date(meta.get("effective_date")) or _parse_date(meta.get("date"))
        digest = hashlib.sha256((parsed.title + "\n" + parsed.text).encode()).hexdigest()
        label = version or str(meta.get("version") or (eff.isoformat() if eff else digest[:8]))
        # chunks the embedder sees whole: none longer than its input, title and section included (B13)
        pending.append(_Pending(f, rel, parsed, doc_key, label, eff, digest,
                                chunk_blocks(parsed.blocks, counter,
                                             limit=input_limit(embedder, title=parsed.title))))

    # Older versions first, so the newest content ends up current whatever the file order.
    pending.sort(key=lambda p: (p.date or dt.date.max, p.rel))
    to_embed: list[tuple[_Pending, FileReport]] = []
    for p in pending:
        existing = DocumentVersion.objects.filter(document__domain=domain, document__key=p.key,
                                                  content_hash=p.content_hash).first()
        if existing is not None:
            status = "unchanged"
            if existing.status != DocumentVersion.Status.CURRENT and not _older_than_current(existing, p.date):
                # the content of an earlier version came back: it is the current content again
                _reactivate(existing, p.date)
                domain.touch_index()
                status = "restored"
            report.files.append(FileReport(p.rel, status, p.parsed.title, existing.label))
            if progress:
                progress(f"{status} {p.rel}")
            continue
        has_doc = Document.objects.filter(domain=domain, key=p.key).exists()
        to_embed.append((p, FileReport(p.rel, "new_version" if has_doc else "new", p.parsed.title, p.label,
                                       len(p.drafts), sum(d.tokens for d in p.drafts))))
    if to_embed:
        texts = [index_text(GChunk(0, 0, p.parsed.title, " > ".join(d.section), "", "", d.text, d.tokens))
                 for p, _ in to_embed for d in p.drafts]
        vectors = embedder.embed(texts)
        # each chunk's sentences, their vectors and values, computed once here (grounding.sentence_data)
        units = sentence_data([[(d.text, d.section[-1] if d.section else "") for d in p.drafts]
                               for p, _ in to_embed], embedder)
        offset = 0
        with transaction.atomic():
            for (p, fr), sentences in zip(to_embed, units):
                n = len(p.drafts)
                _store_version(domain, p, vectors[offset:offset + n], sentences)
                offset += n
                report.files.append(fr)
                if progress:
                    progress(f"{fr.status} {p.rel}: {fr.chunks} chunks, {fr.tokens} tokens")
            domain.touch_index()
    report.files.sort(key=lambda r: r.path)
    return report


def _sentence_fields(data: SentenceData) -> dict[str, object]:
    """The knowledge.Chunk fields holding a chunk's sentence data."""
    meta, vectors, context, values = data.stored()
    return {"sentences": meta, "sentence_vectors": vectors, "context_vectors": context, "values": values}


def _store_version(domain: Domain, p: _Pending, vectors, sentences: Sequence[SentenceData]) -> DocumentVersion:
    document, created = Document.objects.get_or_create(
        domain=domain, key=p.key, defaults={"title": p.parsed.title, "source_path": p.rel})
    # a revision that names no title of its own (a plain text file) keeps the document's title, not its file name
    title = document.title if p.parsed.title_from_name and not created else p.parsed.title
    version = DocumentVersion.objects.create(document=document, title=title, label=p.label,
                                             effective_date=p.date,
                                             content_hash=p.content_hash, metadata=p.parsed.metadata)
    Chunk.objects.bulk_create([
        Chunk(version=version, ordinal=i, section=" > ".join(d.section), text=d.text, tokens=d.tokens,
              embedding=vectors[i].astype("<f4").tobytes(), **_sentence_fields(sentences[i]))
        for i, d in enumerate(p.drafts)
    ])
    _refresh_statuses(document)
    return version


def _newest(versions: list[DocumentVersion]) -> DocumentVersion:
    """The version that is current: the latest effective date, ties to the later ingestion.

    A version without an effective date is taken to be at least as new as every version ingested before it (its
    effective date is the latest of theirs): an undated upload replaces what was there, a dated revision replaces an
    undated original, and a dated older version ingested later (a backfill) stays superseded.
    """
    latest = dt.date.min
    keyed = []
    for v in sorted(versions, key=lambda v: (v.created_at, v.pk)):  # in ingestion order
        effective = v.effective_date or latest
        latest = max(latest, effective)
        keyed.append(((effective, v.created_at, v.pk), v))
    return max(keyed, key=lambda kv: kv[0])[1]


def _older_than_current(version: DocumentVersion, date: dt.date | None) -> bool:
    """True when the incoming content (an existing version, dated ``date``) is older than the current version."""
    current = version.document.versions.filter(status=DocumentVersion.Status.CURRENT).first()
    if current is None:
        return False
    return date is not None and current.effective_date is not None and date < current.effective_date


def _reactivate(version: DocumentVersion, date: dt.date | None) -> None:
    from django.utils import timezone

    version.effective_date = date
    version.created_at = timezone.now()
    version.save(update_fields=["effective_date", "created_at"])
    _refresh_statuses(version.document)


def _refresh_statuses(document: Document) -> None:
    """The non-draft version with the latest effective date (then latest ingestion) is current; others superseded."""
    versions = list(document.versions.exclude(status=DocumentVersion.Status.DRAFT))
    if not versions:
        return
    newest = _newest(versions)
    for v in versions:
        status = DocumentVersion.Status.CURRENT if v.pk == newest.pk else DocumentVersion.Status.SUPERSEDED
        if v.status != status:
            v.status = status
            v.save(update_fields=["status"])
    if document.title != newest.title:
        document.title = newest.title
        document.save(update_fields=["title"])


# --- system prompts -------------------------------------------------------------------------------------------------

def system_prompt_warnings(text: str) -> list[str]:
    """Problems of a system prompt text that would weaken grounding (empty list: none). Warnings, not errors: an
    admin may still save the prompt.

    Checks that the text keeps the citation rule (mentions the [S1]-style markers) and the abstention token
    (grounding.prompt.ABSTAIN_TOKEN), without which abstentions cannot be recognised."""
    warnings = []
    if not re.search(r"\[S\d*\]|\[S#\]|\[S[nN]\]", text):
        warnings.append("The prompt lacks the citation rule: it never shows the [S1] marker format, so answers may "
                        "come without citations the application can render.")
    if ABSTAIN_TOKEN not in text:
        warnings.append(f"The prompt lacks the abstention token {ABSTAIN_TOKEN}: an answer that cannot be grounded "
                        "will not be recognised as an abstention.")
    return warnings


@transaction.atomic
def system_prompt_save(*, text: str, user=None, note: str = "", activate: bool = True) -> SystemPrompt:
    """Store ``text`` as a new system prompt version (versions are never edited in place).

    With ``activate`` the new version becomes the active one and the previous active version is kept, inactive.
    Raises:
        ValueError: the text is empty.
    """
    if not text or not text.strip():
        raise ValueError("The system prompt is empty.")
    last = SystemPrompt.objects.select_for_update().order_by("-version").first()
    if activate:
        SystemPrompt.objects.filter(is_active=True).update(is_active=False)
    return SystemPrompt.objects.create(version=(last.version + 1) if last else 1, text=text.strip(), note=note[:200],
                                       is_active=activate, created_by=user if getattr(user, "pk", None) else None)


@transaction.atomic
def system_prompt_activate(*, prompt: SystemPrompt) -> SystemPrompt:
    """Make ``prompt`` the one active version (to roll back to an earlier version)."""
    SystemPrompt.objects.filter(is_active=True).exclude(pk=prompt.pk).update(is_active=False)
    prompt.is_active = True
    prompt.save(update_fields=["is_active"])
    return prompt


def system_prompt_active() -> tuple[str, SystemPrompt | None]:
    """The system prompt text answers use now and its version row (None: no version is active, the built-in
    grounding.prompt.DEFAULT_SYSTEM_PROMPT is used)."""
    active = SystemPrompt.objects.filter(is_active=True).first()
    return (active.text, active) if active else (DEFAULT_SYSTEM_PROMPT, None)


# --- domains: instruction presets -----------------------------------------------------------------------------------

#: Sensible domain instructions per kind of documents (the admin's preset select fills Domain.instructions with one;
#: the admin may edit them after). Each line is a rule the model follows on top of the evidence contract.
DOMAIN_PRESETS: dict[str, tuple[str, str]] = {
    "legal": ("Legal", "\n".join([
        "- Quote the operative wording of a clause exactly when it decides the answer, and name its document, "
        "section and version.",
        "- Do not give legal advice or predict outcomes: say what the documents state, and refer decisions about a "
        "specific case to the legal team.",
        "- Keep defined terms with their defined meaning and capitalisation.",
        "- Give the effective date of the provision you rely on, and say when it was amended or superseded.",
        "- If the documents do not cover the jurisdiction, party or situation asked about, say so.",
    ])),
    "medical": ("Medical", "\n".join([
        "- Never diagnose, prescribe or suggest a dose that a source does not state word for word.",
        "- Keep doses, units, thresholds and intervals exactly as written, and cite the source of each number.",
        "- Mention the contraindications, warnings and exceptions the sources attach to the answer.",
        "- For an urgent or individual medical situation, tell the reader to contact a qualified clinician or the "
        "emergency services.",
        "- Say when a source is dated or superseded by a newer guideline.",
    ])),
    "financial": ("Financial", "\n".join([
        "- Give figures exactly as written, with their currency, unit and period, and cite the source of each "
        "figure.",
        "- Do not project, forecast or give investment, tax or accounting advice; when you combine figures, show the "
        "arithmetic.",
        "- Name the fiscal year, reporting period or effective date each figure applies to.",
        "- When figures from different sources or periods differ, give both with their dates.",
        "- Say when a limit or an approval depends on a role or an amount the question does not give.",
    ])),
    "code": ("Code and engineering", "\n".join([
        "- Quote code, commands, configuration keys and identifiers exactly, in code blocks, citing the source that "
        "shows them.",
        "- Name the version of the software, API or library a source describes; do not assume the behaviour of "
        "other versions.",
        "- Do not invent functions, flags, endpoints or options the sources do not show.",
        "- Point out the deprecations, breaking changes and security warnings the sources attach to the answer.",
        "- Prefer the smallest complete example the sources support.",
    ])),
    "hr": ("HR", "\n".join([
        "- Explain the policy as written for employees in general; do not decide individual cases (eligibility, "
        "pay, discipline) and refer those to HR.",
        "- State eligibility conditions, notice periods, amounts and limits exactly, with their effective dates.",
        "- Mention differences by location, contract type or seniority where the sources make them.",
        "- Use neutral, respectful language; do not ask for or repeat personal data.",
        "- Point to the contact or process the sources name for requests and exceptions.",
    ])),
}


# --- documents and versions (admin) ---------------------------------------------------------------------------------
# Every change to which chunks are retrievable ends with Domain.touch_index(), so the next retrieval rebuilds the
# in-process index (knowledge.selectors.domain_index) and never returns a deleted or superseded chunk as current.

@transaction.atomic
def version_supersede(*, version: DocumentVersion) -> DocumentVersion:
    """Mark a version superseded (it leaves current retrieval at once; questions about the past may still see it).

    Superseding the current version leaves its document without a current version; no older version is promoted
    (use version_make_current for that).
    """
    version.status = DocumentVersion.Status.SUPERSEDED
    version.save(update_fields=["status"])
    version.document.domain.touch_index()
    return version


@transaction.atomic
def version_make_current(*, version: DocumentVersion) -> DocumentVersion:
    """Make a version its document's current one (an admin override of "newest is current", e.g. to roll back a bad
    new version); the previously current version becomes superseded, drafts stay drafts. The override holds until
    the document is ingested again, when the newest version by effective date becomes current as usual."""
    (version.document.versions.filter(status=DocumentVersion.Status.CURRENT).exclude(pk=version.pk)
     .update(status=DocumentVersion.Status.SUPERSEDED))
    version.status = DocumentVersion.Status.CURRENT
    version.save(update_fields=["status"])
    document = version.document
    if document.title != version.title:
        document.title = version.title
        document.save(update_fields=["title"])
    document.domain.touch_index()
    return version


@transaction.atomic
def version_delete(*, version: DocumentVersion) -> Document | None:
    """Delete a version and its chunks (they leave retrieval at once).

    Deleting the current version makes the newest remaining non-draft version current (as if the deleted content had
    never been ingested); deleting the last version deletes the document. Returns the document, or None when it was
    deleted too.
    """
    document = version.document
    domain = document.domain
    was_current = version.status == DocumentVersion.Status.CURRENT
    version.delete()
    if not document.versions.exists():
        document.delete()
        document = None
    elif was_current:
        _refresh_statuses(document)
    domain.touch_index()
    return document


@transaction.atomic
def document_delete(*, document: Document) -> None:
    """Delete a document with all its versions and chunks (they leave retrieval at once). Answers already given keep
    their frozen source snapshots."""
    domain = document.domain
    document.delete()
    domain.touch_index()


def document_reindex(*, document: Document, embedder: Embedder | None = None) -> int:
    """Embed every chunk of every version of a document again from its stored text (e.g. after the embedding model
    or the index text recipe changed), with its sentence data (grounding.sentence_data: chunks ingested before it
    existed get it here), and refresh the retrieval index. Chunking and token counts are unchanged.

    Returns:
        the number of chunks re-embedded.
    """
    chunks = list(Chunk.objects.filter(version__document=document).select_related("version")
                  .order_by("version", "ordinal"))
    if chunks:
        embedder = embedder or default_embedder()
        vectors = embedder.embed(
            [index_text(GChunk(0, 0, c.version.title, c.section, "", "", c.text, c.tokens)) for c in chunks])
        by_version: dict[int, list[Chunk]] = {}
        for c in chunks:
            by_version.setdefault(c.version_id, []).append(c)
        units = sentence_data([[(c.text, c.section.split(" > ")[-1]) for c in run] for run in by_version.values()],
                              embedder)
        for run, data in zip(by_version.values(), units):
            for c, sentences in zip(run, data):
                for name, value in _sentence_fields(sentences).items():
                    setattr(c, name, value)
        for c, vector in zip(chunks, vectors):
            c.embedding = vector.astype("<f4").tobytes()
        with transaction.atomic():
            Chunk.objects.bulk_update(chunks, ["embedding", "sentences", "sentence_vectors", "context_vectors",
                                               "values"], batch_size=500)
            document.domain.touch_index()
    return len(chunks)


# --- uploads (admin): one background job per upload, files ingested one at a time with a status each ---------------

#: One upload ingests at a time in this process (two jobs writing the same document would race).
_INGEST_JOB_LOCK = threading.Lock()


class UploadedFileLike(Protocol):
    name: str
    size: int | None

    def chunks(self) -> Iterable[bytes]: ...


def _upload_name(name: str, index: int) -> str:
    """A safe file name for an uploaded file: its base name (both kinds of slash), no control characters; the name
    becomes the document's key when the file has no doc_id, so it is otherwise kept as the user named it."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    return base if base and base not in (".", "..") else f"upload-{index + 1}"


def ingest_job_start(*, domain: Domain, files: Sequence[UploadedFileLike], user=None) -> IngestJob:
    """Save uploaded files to a temporary folder and start ingesting them into ``domain`` in the background.

    The job and one IngestJobFile row per file (status "queued") exist when this returns; the work starts once the
    surrounding transaction commits (ingest_job_launch), and the rows then move to "running" and to their outcome
    one file at a time (see ingest_job_run). Raises IngestError when no file was given.
    """
    if not files:
        raise IngestError("no files to upload")
    upload_dir = Path(django_settings.UPLOAD_DIR)
    upload_dir.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="upload-", dir=upload_dir))  # shared with queue workers
    planned: list[tuple[int, Path]] = []
    try:
        with transaction.atomic():
            job = IngestJob.objects.create(domain=domain, created_by=user if getattr(user, "pk", None) else None)
            for i, upload in enumerate(files):
                name = _upload_name(upload.name, i)
                target = workdir / str(i) / name  # a folder per file: two uploads may share a name
                target.parent.mkdir()
                with target.open("wb") as out:
                    for piece in upload.chunks():
                        out.write(piece)
                row = IngestJobFile.objects.create(job=job, name=name, size=target.stat().st_size)
                planned.append((row.pk, target))
            transaction.on_commit(lambda: ingest_job_launch(job_id=job.pk, files=planned, workdir=workdir))
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return job


def ingest_job_launch(*, job_id: int, files: list[tuple[int, Path]], workdir: Path) -> None:
    """Start ingest_job_run: on the task queue when settings.INGEST_QUEUE (REDIS_URL set; knowledge.tasks, run by
    RQ workers), else in a daemon thread of this process (it closes its own database connection)."""
    from django.db import connection

    if django_settings.INGEST_QUEUE:
        from knowledge.tasks import ingest_job_task

        ingest_job_task.enqueue(job_id=job_id, files=[[row, str(path)] for row, path in files], workdir=str(workdir))
        return

    def work() -> None:
        try:
            ingest_job_run(job_id=job_id, files=files, workdir=workdir)
        finally:
            connection.close()

    threading.Thread(target=work, name=f"ingest-job-{job_id}", daemon=True).start()


def ingest_job_run(*, job_id: int, files: list[tuple[int, Path]], workdir: Path,
                   embedder: Embedder | None = None) -> IngestJob:
    """Ingest a job's saved files one at a time (ingest_path on each), recording each file's outcome as it finishes;
    the temporary folder is removed afterwards. A file that fails is recorded and the others go on; the job fails
    as a whole only when something outside the files broke (the message is on the job)."""
    from django.utils import timezone

    try:
        with _INGEST_JOB_LOCK:
            job = IngestJob.objects.select_related("domain").get(pk=job_id)
            IngestJob.objects.filter(pk=job_id).update(status=IngestJob.Status.RUNNING)
            for row_id, path in files:
                IngestJobFile.objects.filter(pk=row_id).update(status="running")
                IngestJobFile.objects.filter(pk=row_id).update(**_ingest_one(job.domain, path, embedder))
            IngestJob.objects.filter(pk=job_id).update(status=IngestJob.Status.DONE, finished_at=timezone.now())
    except Exception as exc:  # the job must end with an outcome the admin page can show
        log.exception("upload job %s failed", job_id)
        IngestJobFile.objects.filter(job_id=job_id, status__in=IngestJobFile.PENDING).update(
            status="failed", error="not ingested: the upload stopped")
        IngestJob.objects.filter(pk=job_id).update(status=IngestJob.Status.FAILED, error=str(exc) or repr(exc),
                                                   finished_at=timezone.now())
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return IngestJob.objects.get(pk=job_id)


def _ingest_one(domain: Domain, path: Path, embedder: Embedder | None) -> dict[str, object]:
    """The IngestJobFile fields of one file's outcome (errors name the file, never the temporary folder)."""
    try:
        report = ingest_path(path=path, domain=domain, embedder=embedder)
    except IngestError as exc:
        return {"status": "failed", "error": str(exc).replace(str(path), path.name)}
    except Exception as exc:
        log.exception("ingesting upload %s failed", path.name)
        return {"status": "failed", "error": f"{path.name}: ingestion failed: {exc}"}
    f = report.files[0]
    return {"status": f.status, "title": f.title, "version": f.version, "chunks": f.chunks, "tokens": f.tokens,
            "error": f.error}
