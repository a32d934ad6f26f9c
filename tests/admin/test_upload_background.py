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
