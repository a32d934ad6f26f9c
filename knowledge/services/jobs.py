"""An upload job's work: its saved files ingested one at a time (knowledge.services.ingestion.document_ingest), each
file's pages done and outcome written to its row as it goes; run in a thread or by a queue worker (knowledge.tasks)."""

from __future__ import annotations

import logging
import shutil
import threading
import time
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from grounding.embeddings import Embedder
from knowledge.models import Domain, IngestJob, IngestJobFile
from knowledge.services.ingestion import document_ingest

log = logging.getLogger("grounded.ingest")

#: One upload ingests at a time in this process (two jobs writing the same document would race).
_INGEST_JOB_LOCK = threading.Lock()


def ingest_job_run(*, job_id: int, files: list[tuple[int, Path]], workdir: Path,
                   embedder: Embedder | None = None) -> IngestJob:
    """Ingest a job's saved files one at a time (document_ingest on each), recording each file's pages done as they
    are read and its outcome as it finishes; the temporary folder is removed afterwards. A file that fails is
    recorded and the others go on; the job fails as a whole only when something outside the files broke (the message
    is on the job)."""

    try:
        with _INGEST_JOB_LOCK:
            job = IngestJob.objects.select_related("domain").get(pk=job_id)
            IngestJob.objects.filter(pk=job_id).update(status=IngestJob.Status.RUNNING)
            for row_id, path in files:
                IngestJobFile.objects.filter(pk=row_id).update(status="running")
                IngestJobFile.objects.filter(pk=row_id).update(**_ingest_one(job.domain, row_id, path, embedder))
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


#: What an upload job the server stopped in the middle of says (its files not yet ingested say the same).
ABANDONED = "not ingested: the server stopped while this upload was running; add the files again"


def ingest_jobs_abandoned() -> int:
    """Mark failed the upload jobs a stopped server left queued or running, with their files not yet ingested, and
    remove the upload folders no job is using any more; returns how many jobs were marked. Called when a server
    worker starts (chat.warmup) and only without a task queue: there a job runs in a thread of the one server process
    (knowledge.services.uploads.ingest_job_launch), so at start no job of an earlier process can still be running.
    (Before, such a job said "running" forever and its folder stayed.)"""
    stale = list(IngestJob.objects.filter(status__in=(IngestJob.Status.QUEUED, IngestJob.Status.RUNNING))
                 .values_list("pk", flat=True))
    if stale:
        IngestJobFile.objects.filter(job_id__in=stale, status__in=IngestJobFile.PENDING).update(
            status="failed", error=ABANDONED)
        IngestJob.objects.filter(pk__in=stale).update(status=IngestJob.Status.FAILED, error=ABANDONED,
                                                      finished_at=timezone.now())
        log.warning("upload jobs %s were left unfinished by a stopped server: marked failed", stale)
    for folder in Path(settings.UPLOAD_DIR).glob("upload-*"):
        shutil.rmtree(folder, ignore_errors=True)
    return len(stale)


#: Least time between two progress writes of one file (seconds); the last page is always written.
PROGRESS_INTERVAL = 0.5


def _ingest_one(domain: Domain, row_id: int, path: Path, embedder: Embedder | None) -> dict[str, object]:
    """The IngestJobFile fields of one file's outcome (errors name the file, never the temporary folder); pages done
    of pages total are written to the row while the file is read."""
    last = [0.0]

    def pages(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= PROGRESS_INTERVAL:
            last[0] = now
            IngestJobFile.objects.filter(pk=row_id).update(pages_done=done, pages_total=total)

    try:
        data = path.read_bytes()
        f = document_ingest(domain=domain, name=path.name, data=data, embedder=embedder, progress=pages)
    except Exception as exc:
        log.exception("ingesting upload %s failed", path.name)
        return {"status": "failed", "error": f"{path.name}: ingestion failed: {exc}"}
    return {"status": f.status, "title": f.title, "version": f.version, "chunks": f.chunks, "tokens": f.tokens,
            "error": f.error, "notes": "\n".join(f.notes), "pages_total": f.pages, "pages_done": f.pages}
