"""Uploading documents through the HTTP API (issue 21: "the same command, admin upload and API"): a staff token with
the permission to add documents starts a background ingestion job; the job's progress and each file's outcome are
read back; a bad file fails on its own row."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile

from api.services import token_create
from knowledge.models import Document
from tests.api.helpers import error_of


@pytest.fixture
def staff_upload(alice, monkeypatch, django_capture_on_commit_callbacks, embedder):
    """Alice as staff with the add-document permission; upload(client headers, files) runs the job inline."""
    from knowledge.services import jobs, uploads

    alice.is_staff = True
    alice.save()
    alice.user_permissions.add(Permission.objects.get(codename="add_document"))
    monkeypatch.setattr(uploads, "ingest_job_launch", lambda **kw: jobs.ingest_job_run(**kw))

    def upload(api, slug, files):
        with django_capture_on_commit_callbacks(execute=True):
            return api.client.post(f"/api/v1/domains/{slug}/documents", {"files": files},
                                   headers=api._headers(None))
    return upload


def md(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/markdown")


def test_a_staff_token_uploads_files_and_follows_the_job(demo_domain, api, staff_upload):
    r = staff_upload(api, "handbook", [md("desks.md", "# Desk booking\n\nDesks are booked a day ahead.\n"),
                                       md("broken.pdf", "this is not a PDF")])
    assert r.status_code == 202, r.content
    job = r.json()
    assert job["domain"] == "handbook" and job["total"] == 2
    status = api.get(f"/api/v1/jobs/{job['id']}").json()
    assert status["finished"] and status["status"] == "done" and status["done"] == 2 and status["failed"] == 1
    files = {f["name"]: f for f in status["files"]}
    assert files["desks.md"]["status"] == "new" and files["desks.md"]["chunks"] == 1
    assert files["broken.pdf"]["status"] == "failed" and "broken.pdf" in files["broken.pdf"]["error"]
    assert Document.objects.filter(domain=demo_domain, title="Desk booking").exists()


def test_without_the_permission_nothing_is_uploaded(demo_domain, api, alice):
    r = api.client.post("/api/v1/domains/handbook/documents", {"files": [md("desks.md", "# Desks\n\nx.\n")]},
                        headers=api._headers(None))
    assert error_of(r) == (403, "forbidden") and "permission to add documents" in r.json()["error"]["message"]
    assert not Document.objects.filter(title="Desks").exists()


def test_an_unknown_domain_and_another_users_job_are_not_found(demo_domain, api, bob, staff_upload):
    assert error_of(staff_upload(api, "nope", [md("a.md", "# A\n\nText.\n")])) == (404, "unknown_domain")
    assert error_of(staff_upload(api, "hand%00book", [md("a.md", "# A\n\nText.\n")])) == (404, "unknown_domain")
    job = staff_upload(api, "handbook", [md("a.md", "# A\n\nSome text.\n")]).json()
    from tests.api.helpers import ApiClient

    other = ApiClient(token_create(user=bob, name="b")[1])
    assert error_of(other.get(f"/api/v1/jobs/{job['id']}")) == (404, "not_found")
    assert error_of(api.get("/api/v1/jobs/999999")) == (404, "not_found")


def test_no_files_is_a_clear_error(demo_domain, api, staff_upload):
    r = staff_upload(api, "handbook", [])
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_request"
    # an empty body (no content type at all) is an upload without files too, not a JSON error
    empty = api.client.post("/api/v1/domains/handbook/documents", headers=api._headers(None),
                            content_type="")
    assert empty.status_code == 400 and empty.json()["error"] == {
        "code": "invalid_request", "message": "Send one or more files as multipart/form-data fields named 'files'."}


def test_a_job_id_that_is_not_a_number_is_an_unknown_upload_job(demo_domain, api):
    r = api.get("/api/v1/jobs/abc")
    assert r.status_code == 404 and r.json()["error"] == {"code": "not_found", "message": "Upload job not found."}
