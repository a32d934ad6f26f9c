"""With REDIS_URL, admin uploads are ingested by queue workers (Django's tasks framework on RQ), not in the web
process: the job waits queued until a worker takes it, then each file gets its outcome (issue 11 point 3).

Runs in the suite's PostgreSQL + Redis pass (scripts/test), where the RQ apps are installed; the SQLite pass does
not collect it (tests/scale/conftest.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from knowledge.models import IngestJob
from knowledge.services import domain_get_or_create, ingest_job_start

assert settings.REDIS_URL, "collected only with REDIS_URL (tests/scale/conftest.py)"

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_waits_on_the_queue_until_a_worker_ingests_it(embedder, tmp_path):
    import django_rq
    from django_tasks_rq import Job
    from rq import SimpleWorker

    queue = django_rq.get_queue("default", job_class=Job)
    queue.empty()
    domain = domain_get_or_create(slug="queued-uploads")
    files = [SimpleUploadedFile("parking.md", b"---\ntitle: Parking\n---\n\n# Parking\n\nStaff park in lot B.\n"),
             SimpleUploadedFile("broken.pdf", b"%PDF-1.4 not a supported format")]
    with override_settings(INGEST_QUEUE=True, UPLOAD_DIR=tmp_path):
        job = ingest_job_start(domain=domain, files=files)
    job.refresh_from_db()
    assert job.status == "queued" and queue.count == 1  # nothing ran in this (web) process
    assert list(job.files.values_list("status", flat=True)) == ["queued", "queued"]

    worker = django_rq.get_worker("default", job_class=Job, worker_class=SimpleWorker)
    worker.work(burst=True)  # what `manage.py rqworker --job-class django_tasks_rq.Job default` does, once

    job.refresh_from_db()
    assert job.status == IngestJob.Status.DONE and queue.count == 0
    outcomes = {f.name: (f.status, f.error) for f in job.files.all()}
    assert outcomes["parking.md"] == ("new", "")
    assert outcomes["broken.pdf"][0] == "failed" and "broken.pdf" in outcomes["broken.pdf"][1]
    assert not any(tmp_path.iterdir())  # the saved upload is removed when the job ends
