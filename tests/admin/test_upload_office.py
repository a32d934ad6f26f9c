"""Office files through the admin upload: pages done of pages total while a file is read, each bad file's error on its
own row, a file over the size limit refused before it is saved, and macro notes (issue 21)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from knowledge.services import jobs, uploads
from knowledge.models import Document, IngestJob, IngestJobFile
from knowledge.services import domain_get_or_create
from tests.office_files import encrypted_pdf, macro_enabled, office

pytestmark = pytest.mark.django_db


def test_the_progress_page_shows_pages_done_of_pages_total_as_a_large_file_is_read(admin_client, inline_uploads,
                                                                                   monkeypatch):
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0)  # write every page (the default writes twice a second)
    seen = []
    ingest = jobs.document_ingest

    def watching(**kwargs):
        progress = kwargs["progress"]

        def record(done, total):
            progress(done, total)
            row = IngestJobFile.objects.get(name="leave.pdf")
            seen.append((row.status, row.pages_done, row.pages_total))
        return ingest(**{**kwargs, "progress": record})

    monkeypatch.setattr(jobs, "document_ingest", watching)
    domain = domain_get_or_create(slug="hr", name="HR")
    inline_uploads(admin_client, domain, [SimpleUploadedFile("leave.pdf", office("travel-and-leave__leave.pdf"))])
    assert seen == [("running", n, 9) for n in range(1, 10)]
    job = IngestJob.objects.get()
    status = admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/status/").json()
    [row] = status["files"]
    assert (row["status"], row["pages_done"], row["pages_total"], row["title"]) == ("new", 9, 9, "Leave types")
    page = admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/").content.decode()
    assert "9 of 9" in page
    version = Document.objects.get(domain=domain).versions.get()
    page = admin_client.get(f"/admin/knowledge/documentversion/{version.pk}/change/").content.decode()
    assert f'<a href="/documents/{version.pk}/original">leave.pdf</a>' in page and "application/pdf" in page
    assert "<td>p. 4</td>" in page  # each chunk's location beside its text


def test_bad_uploads_fail_on_their_own_rows_and_an_oversized_one_is_never_saved(admin_client, inline_uploads,
                                                                             settings, tmp_path):
    settings.MAX_UPLOAD_BYTES = 200_000
    settings.UPLOAD_DIR = tmp_path
    domain = domain_get_or_create(slug="hr", name="HR")
    files = [SimpleUploadedFile("fmla.pdf", office("travel-and-leave__fmla.pdf")),
             SimpleUploadedFile("locked.pdf", encrypted_pdf(office("travel-and-leave__fmla.pdf"))),
             SimpleUploadedFile("slides.pptm", macro_enabled(office("training-and-development__idp.pptx"))),
             SimpleUploadedFile("scan.pdf", office("travel-and-leave__overtime.scanned.pdf")),
             SimpleUploadedFile("renamed.xlsx", office("travel-and-leave__fmla.docx"))]
    saved = []
    launch = uploads.ingest_job_launch

    def spy(**kwargs):
        saved.extend(path.name for _, path in kwargs["files"])
        return launch(**kwargs)

    uploads.ingest_job_launch = spy  # inline_uploads' own patch is below this one
    try:
        inline_uploads(admin_client, domain, files)
    finally:
        uploads.ingest_job_launch = launch
    assert saved == ["fmla.pdf", "locked.pdf", "slides.pptm", "renamed.xlsx"]  # the oversized file was not stored
    job = IngestJob.objects.get()
    rows = {f["name"]: f for f in admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/status/").json()["files"]}
    assert {name: r["status"] for name, r in rows.items()} == {
        "fmla.pdf": "new", "locked.pdf": "failed", "slides.pptm": "new", "scan.pdf": "failed", "renamed.xlsx": "failed"}
    assert rows["locked.pdf"]["error"].startswith("locked.pdf: the PDF is password-protected")
    assert rows["scan.pdf"]["error"].startswith("scan.pdf: file too large (871,712 bytes; the limit is 200,000 bytes")
    assert "but the content is a Word document (.docx); rename it to .docx" in rows["renamed.xlsx"]["error"]
    assert rows["slides.pptm"]["notes"] == [
        "Macro-enabled document: its text was ingested; its macros were not run (they never are)."]
    assert (rows["fmla.pdf"]["pages_done"], rows["fmla.pdf"]["pages_total"]) == (2, 2)
    page = admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/").content.decode()
    assert "its macros were not run" in page and "file too large" in page
    assert sorted(Document.objects.filter(domain=domain).values_list("key", flat=True)) == ["fmla.pdf", "slides.pptm"]


def test_the_upload_form_accepts_office_files(admin_client):
    page = admin_client.get("/admin/knowledge/document/upload/").content.decode()
    assert 'accept=".md,.markdown,.txt,.html,.htm,.pdf,.csv,.docx,.docm,.pptx,.pptm,.xlsx,.xlsm"' in page
