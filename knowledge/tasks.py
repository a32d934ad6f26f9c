"""Background tasks of the knowledge app (Django's tasks framework through the django-tasks backport; with REDIS_URL
they run on RQ workers: `manage.py rqworker --job-class django_tasks_rq.Job default`)."""

from __future__ import annotations

from pathlib import Path

from django_tasks import task

from knowledge.services.jobs import ingest_job_run


@task()
def ingest_job_task(*, job_id: int, files: list[list], workdir: str) -> str:
    """Ingest an upload job's saved files (knowledge.services.jobs.ingest_job_run); returns the job's final status.

    Args:
        job_id: the IngestJob primary key.
        files: [[IngestJobFile primary key, path of the saved file], ...] (JSON-serialisable for the queue).
        workdir: the upload's folder under settings.UPLOAD_DIR, removed when the job ends.
    """
    job = ingest_job_run(job_id=job_id, files=[(int(row), Path(path)) for row, path in files], workdir=Path(workdir))
    return job.status
