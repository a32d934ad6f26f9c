"""The real upload path: the job runs in a background thread after the request commits, and the progress page's JSON
shows each file's status until the job is finished (transactional: the thread needs committed rows)."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

from knowledge.models import Document, IngestJob
from knowledge.selectors import retrieve
from knowledge.services import domain_get_or_create

from .conftest import markdown, upload


@pytest.mark.django_db(transaction=True)
def test_an_upload_ingests_in_the_background_and_reports_each_file(client, embedder):
    admin = get_user_model().objects.create_superuser("boss", password="pw")
    client.force_login(admin)
    domain = domain_get_or_create(slug="facilities", name="Facilities")
    files = [upload(f"room-{i}.md", markdown(f"Room {i}", f"Meeting room {i} seats {i + 4} people and has a "
                                                           f"screen numbered R{i}00.")) for i in range(3)]
    files.append(upload("notes.txt", b""))
    response = client.post("/admin/knowledge/document/upload/", {"domain": domain.pk, "files": files})
    job = IngestJob.objects.get()
    assert response["Location"] == f"/admin/knowledge/document/upload/{job.pk}/"

    deadline = time.monotonic() + 120  # a bound on the wait, not a speed check
    while True:
        status = client.get(f"/admin/knowledge/document/upload/{job.pk}/status/").json()
        if status["finished"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert status["status"] == "done" and status["done"] == status["total"] == 4
    assert [f["status"] for f in status["files"]] == ["new", "new", "new", "failed"]
    assert status["files"][3]["name"] == "notes.txt" and status["files"][3]["error"]
    assert Document.objects.filter(domain=domain).count() == 3
    assert "Meeting room 2 seats 6 people" in retrieve(domain=domain, query="Which room has screen R200?")[0].chunk.text


@pytest.mark.django_db
def test_an_upload_a_stopped_server_left_running_ends_failed_when_the_server_starts(client, settings, tmp_path):
    """The s44 breaker restarted the server while an upload was ingesting: `GET /api/v1/jobs/2` then said "running"
    forever, files "running" and "queued", and the upload folder stayed. Without a task queue a job runs in a thread
    of the one server process, so when a server worker starts such a job is marked failed with a reason, its files
    not yet ingested say so, a finished file keeps its outcome, and the leftover folder is removed."""
    from knowledge.models import IngestJobFile
    from knowledge.services import ingest_jobs_abandoned

    settings.UPLOAD_DIR = str(tmp_path)
    left = tmp_path / "upload-abc123" / "0"
    left.mkdir(parents=True)
    (left / "leave.md").write_text("# Leave\n")
    domain = domain_get_or_create(slug="facilities", name="Facilities")
    stuck = IngestJob.objects.create(domain=domain, status=IngestJob.Status.RUNNING)
    IngestJobFile.objects.create(job=stuck, name="a.md", status="new", chunks=2)
    IngestJobFile.objects.create(job=stuck, name="b.md", status="running")
    IngestJobFile.objects.create(job=stuck, name="c.md", status="queued")
    done = IngestJob.objects.create(domain=domain, status=IngestJob.Status.DONE)
    assert ingest_jobs_abandoned() == 1
    stuck.refresh_from_db()
    assert stuck.status == "failed" and stuck.finished and stuck.finished_at is not None
    assert stuck.error == "not ingested: the server stopped while this upload was running; add the files again"
    assert list(stuck.files.values_list("name", "status")) == [("a.md", "new"), ("b.md", "failed"), ("c.md", "failed")]
    assert stuck.files.get(name="c.md").error == stuck.error
    done.refresh_from_db()
    assert done.status == "done"
    assert not (tmp_path / "upload-abc123").exists()
