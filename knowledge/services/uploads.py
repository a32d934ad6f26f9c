"""Uploads (the admin's and the HTTP API's): files saved to a temporary folder and one background job started per
upload (knowledge.tasks on the queue, else a thread); knowledge.services.jobs ingests them."""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterable, Protocol, Sequence

from django.conf import settings as django_settings
from django.db import transaction

from knowledge import tasks
from knowledge.models import Domain, IngestJob, IngestJobFile
from knowledge.services.jobs import ingest_job_run
from knowledge.services.reports import IngestError, max_file_bytes, too_large_error


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
    surrounding transaction commits (ingest_job_launch), and the rows then move to "running" (with pages done of
    pages total for PDFs, presentations and workbooks) and to their outcome one file at a time (see ingest_job_run).
    A file over the size limit is not saved: its row is "failed" at once with the limit in its error. Raises
    IngestError when no file was given.
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
                if upload.size is not None and upload.size > max_file_bytes():
                    IngestJobFile.objects.create(job=job, name=name, size=upload.size, status="failed",
                                                 error=too_large_error(name, upload.size))
                    continue
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
        tasks.ingest_job_task.enqueue(job_id=job_id, files=[[row, str(path)] for row, path in files],
                                      workdir=str(workdir))
        return

    def work() -> None:
        try:
            ingest_job_run(job_id=job_id, files=files, workdir=workdir)
        finally:
            connection.close()

    threading.Thread(target=work, name=f"ingest-job-{job_id}", daemon=True).start()
