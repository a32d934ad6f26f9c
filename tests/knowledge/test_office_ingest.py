"""Ingesting office files: each bad file gets its own clear error and nothing else is lost, originals are kept per
version and served only to readers of the domain, and a changed upload becomes a new version (issue 21)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from knowledge.models import Chunk, Document, DocumentVersion
from knowledge.originals import original_path
from knowledge.services import document_ingest, domain_get_or_create, ingest_path, version_delete
from tests.office_files import OFFICE, encrypted_pdf, macro_enabled, office, pageless_pdf, write

pytestmark = pytest.mark.django_db

FMLA_PDF = "travel-and-leave__fmla.pdf"
FMLA_DOCX = "travel-and-leave__fmla.docx"


def test_each_bad_file_gets_its_own_error_and_the_good_ones_are_ingested(tmp_path, embedder, settings, capsys):
    settings.MAX_UPLOAD_BYTES = 100_000  # a small limit (the scanned PDF is 872 KB): never write 100 MB in a test
    write(tmp_path, "fmla.pdf", office(FMLA_PDF))
    write(tmp_path, "locked.pdf", encrypted_pdf(office(FMLA_PDF)))
    write(tmp_path, "empty.pdf", pageless_pdf(office(FMLA_PDF)))
    docx = office(FMLA_DOCX)
    write(tmp_path, "broken.docx", docx[:len(docx) // 2])
    write(tmp_path, "renamed.docx", office(FMLA_PDF))
    write(tmp_path, "macros.docm", macro_enabled(docx))
    write(tmp_path, "scan.pdf", office("travel-and-leave__overtime.scanned.pdf"))
    call_command("ingest", str(tmp_path), "--domain", "bad-files")
    out = capsys.readouterr().out
    report = {line.split(":")[0].split(" ", 1)[1]: line for line in out.splitlines() if line.startswith("FAILED ")}
    assert set(report) == {"locked.pdf", "empty.pdf", "broken.docx", "renamed.docx", "scan.pdf"}
    assert "locked.pdf: the PDF is password-protected; open it with its password" in report["locked.pdf"]
    assert "empty.pdf: the PDF has no pages" in report["empty.pdf"]
    assert "broken.docx: the file is damaged" in report["broken.docx"]
    assert ("renamed.docx: the extension .docx says a Word document (.docx), but the content is a PDF document; "
            "rename it to .pdf and add it again") in report["renamed.docx"]
    assert ("scan.pdf: file too large (871,712 bytes; the limit is 100,000 bytes, 0.1 MB); split it into smaller "
            "files, or ask an administrator to raise GROUNDED_MAX_UPLOAD_MB") in report["scan.pdf"]
    assert "new macros.docm" in out and ("  note: Macro-enabled document: its text was ingested; its macros were not "
                                         "run (they never are).") in out
    assert "7 files: 2 new, 0 new versions, 0 unchanged, 5 failed" in out
    assert sorted(Document.objects.filter(domain__slug="bad-files").values_list("key", flat=True)) == [
        "fmla.pdf", "macros.docm"]


def test_one_uploaded_file_over_the_limit_is_refused_without_being_read(embedder, settings):
    settings.MAX_UPLOAD_BYTES = 1_000
    domain = domain_get_or_create(slug="limit")
    report = document_ingest(domain=domain, name="leave.pdf", data=office("travel-and-leave__leave.pdf"))
    assert (report.status, report.path) == ("failed", "leave.pdf")
    assert report.error.startswith("leave.pdf: file too large (123,621 bytes; the limit is 1,000 bytes")
    assert not Document.objects.filter(domain=domain).exists()


def test_chunks_store_their_location_and_the_version_its_original(embedder):
    domain = domain_get_or_create(slug="stored")
    report = document_ingest(domain=domain, name="leave.pdf", data=office("travel-and-leave__leave.pdf"))
    assert (report.status, report.pages, report.chunks > 5) == ("new", 9, True)
    version = DocumentVersion.objects.get(pk=report.version_id)
    assert (version.original_name, version.original_type, version.original_size) == (
        "leave.pdf", "application/pdf", 123_621)
    assert original_path(content_hash=version.original_hash).read_bytes() == office("travel-and-leave__leave.pdf")
    advanced = version.chunks.get(text__contains="240 hours of advanced sick leave")
    assert advanced.location["format"] == "pdf" and 4 in advanced.location["pages"]
    assert all(c.location["pages"] for c in version.chunks.all())


def test_a_changed_upload_of_the_same_file_becomes_a_new_version_with_its_own_original(
        embedder, django_capture_on_commit_callbacks):
    domain = domain_get_or_create(slug="versions")
    first = document_ingest(domain=domain, name="policy.pdf", data=office(FMLA_PDF))
    again = document_ingest(domain=domain, name="policy.pdf", data=office(FMLA_PDF))
    changed = document_ingest(domain=domain, name="policy.pdf",
                              data=office("travel-and-leave__advanced-sick-leave.pdf"))
    assert [first.status, again.status, changed.status] == ["new", "unchanged", "new_version"]
    document = Document.objects.get(domain=domain, key="policy.pdf")
    old, new = document.versions.order_by("pk")
    assert (old.status, new.status) == ("superseded", "current") and old.original_hash != new.original_hash
    assert original_path(content_hash=old.original_hash).read_bytes() == office(FMLA_PDF)
    new_file = original_path(content_hash=new.original_hash)
    with django_capture_on_commit_callbacks(execute=True):
        version_delete(version=new)  # the deleted version's original goes with it (once committed); the older stays
    assert not new_file.exists() and original_path(content_hash=old.original_hash).exists()
    assert document.versions.get().status == "current"


def test_a_file_uploaded_again_without_its_doc_id_is_a_new_version_of_its_document(tmp_path, embedder):
    """The s48 breaker ingested a folder whose office-london.md had front matter "doc_id: office-london", then uploaded
    a changed office-london.md without front matter: it became a second document, and answers said "sources
    disagree: £20 vs £15". It is a new version of the document ingested from that file."""
    write(tmp_path, "office-london.md", b"---\ntitle: London Office\ndoc_id: office-london\n---\n# London Office\n\n"
                                        b"Parking at the London office costs 15 pounds per day.\n")
    call_command("ingest", str(tmp_path), "--domain", "offices")
    domain = domain_get_or_create(slug="offices")
    changed = document_ingest(domain=domain, name="office-london.md",
                              data=b"# London Office\n\nParking at the London office now costs 20 pounds per day.\n")
    assert changed.status == "new_version"
    document = Document.objects.get(domain=domain)
    assert document.key == "office-london"
    assert [v.status for v in document.versions.order_by("pk")] == ["superseded", "current"]


@pytest.fixture
def restricted(embedder):
    """A domain readable by the group hr only, holding the FMLA PDF and DOCX; (domain, pdf version, docx version)."""
    domain = domain_get_or_create(slug="hr-only")
    domain.groups.add(Group.objects.create(name="hr"))
    pdf = document_ingest(domain=domain, name="fmla.pdf", data=office(FMLA_PDF))
    word = document_ingest(domain=domain, name="fmla.docx", data=office(FMLA_DOCX))
    return domain, pdf.version_id, word.version_id


def test_the_original_is_served_to_readers_of_its_domain_only(client, restricted):
    _, pdf, word = restricted
    users = get_user_model().objects
    reader = users.create_user("reader", password="pw")
    reader.groups.add(Group.objects.get(name="hr"))
    client.force_login(reader)
    response = client.get(f"/documents/{pdf}/original")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="fmla.pdf"'
    assert b"".join(response.streaming_content) == office(FMLA_PDF)
    response = client.get(f"/documents/{word}/original")
    assert response["Content-Type"] == ("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    assert response["Content-Disposition"] == 'attachment; filename="fmla.docx"'

    client.force_login(users.create_user("outsider", password="pw"))
    assert client.get(f"/documents/{pdf}/original").status_code == 404  # like a version that does not exist
    assert client.get("/documents/999999/original").status_code == 404
    client.logout()
    assert client.get(f"/documents/{pdf}/original")["Location"] == f"/login/?next=/documents/{pdf}/original"


def test_a_version_ingested_before_originals_were_kept_has_none(client, restricted):
    _, pdf, _ = restricted
    DocumentVersion.objects.filter(pk=pdf).update(original_hash="")
    client.force_login(get_user_model().objects.create_superuser("root", password="pw"))
    assert client.get(f"/documents/{pdf}/original").status_code == 404


def test_markdown_originals_are_served_as_text_never_as_a_page(client, tmp_path, embedder):
    page = write(tmp_path, "alert.html", b"<h1>Alert</h1><p>Fire drill at noon.</p><script>alert(1)</script>")
    domain = domain_get_or_create(slug="html-original")
    ingest_path(path=page, domain=domain)
    version = DocumentVersion.objects.get(document__domain=domain)
    client.force_login(get_user_model().objects.create_user("reader2", password="pw"))
    response = client.get(f"/documents/{version.pk}/original")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert Chunk.objects.filter(version=version).get().location == {}  # HTML has no pages: no location


def test_a_file_of_no_supported_type_in_the_folder_is_reported_as_skipped_and_the_run_succeeds(tmp_path, embedder,
                                                                                                  capsys):
    """The user ingested the 18F office folder and its MANIFEST.tsv was left out without a word (the summary counted
    only the documents): the report names it as skipped and why, the summary counts it, and the command succeeds."""
    write(tmp_path, "MANIFEST.tsv", (OFFICE / "MANIFEST.tsv").read_bytes())
    write(tmp_path, "policy.md", b"# Leave\n\nYou can carry over 240 hours of annual leave.\n")
    write(tmp_path, ".hidden.tsv", b"a\tb\n")  # a dot-file (an editor's, the system's) is neither read nor reported
    call_command("ingest", str(tmp_path), "--domain", "skips")
    out = capsys.readouterr().out
    assert ("SKIPPED MANIFEST.tsv: not a supported document type (.tsv; supported: .md, .markdown, .txt, .html, "
            ".htm, .pdf, .csv, .docx, .docm, .pptx, .pptm, .xlsx, .xlsm); convert it to one of them to have it "
            "ingested") in out.splitlines()
    assert "hidden" not in out
    assert "2 files: 1 new, 0 new versions, 0 unchanged, 0 failed, 1 skipped" in out
    assert list(Document.objects.filter(domain__slug="skips").values_list("key", flat=True)) == ["policy.md"]


def test_a_skipped_file_beside_only_failed_ones_still_fails_the_run(tmp_path, embedder):
    """Skipped files do not count as ingested: a folder whose only document fails still exits non-zero."""
    write(tmp_path, "MANIFEST.tsv", b"file\tsource_page\n")
    write(tmp_path, "empty.md", b"")
    with pytest.raises(CommandError, match=r"no file could be ingested \(2 files: 0 new, 0 new versions, 0 "
                                           r"unchanged, 1 failed, 1 skipped\)"):
        call_command("ingest", str(tmp_path), "--domain", "skips-failed")


def test_a_link_to_a_file_outside_the_folder_is_skipped_not_read(tmp_path, embedder, capsys):
    """The s48 breaker's folder held ``symlink.md -> /etc/passwd``: ``ingest`` stored the system file in the domain,
    readable by every reader of it. The link is skipped and reported; a link to a file inside the folder is read."""
    docs = tmp_path / "docs"
    docs.mkdir()
    secret = tmp_path / "secret.md"
    secret.write_text("# Root password\n\nThe server's root password is hunter2.\n")
    write(docs, "policy.md", b"# Leave\n\nYou can carry over 240 hours of annual leave.\n")
    (docs / "passwd.md").symlink_to(secret)
    (docs / "alias.md").symlink_to(docs / "policy.md")
    call_command("ingest", str(docs), "--domain", "links")
    out = capsys.readouterr().out
    assert ("SKIPPED passwd.md: a link to a file outside the folder; not read (copy the file into the folder to have "
            "it ingested)") in out.splitlines()
    assert "1 skipped" in out
    assert sorted(Document.objects.filter(domain__slug="links").values_list("key", flat=True)) == [
        "alias.md", "policy.md"]
    assert not Chunk.objects.filter(text__contains="hunter2").exists()


def test_two_files_of_one_document_in_a_folder_are_reported_as_new_and_new_version(tmp_path, embedder, capsys):
    """The s48 breaker's folder held leave-2023.md and leave-2025.md, both "doc_id: annual-leave": the run reported
    both "new" (and "2 new, 0 new versions"), though the second became a new version of the first."""
    for year, days in (("2023", 20), ("2025", 25)):
        write(tmp_path, f"leave-{year}.md", (f'---\ntitle: Annual Leave\ndoc_id: annual-leave\nversion: "{year}"\n'
                                              f"date: {year}-01-01\n---\n# Annual Leave\n\nFull-time employees "
                                              f"receive {days} days of paid annual leave.\n").encode())
    call_command("ingest", str(tmp_path), "--domain", "leave-runs")
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("new leave-2023.md") for line in out)
    assert any(line.startswith("new_version leave-2025.md") for line in out)
    assert "2 files: 1 new, 1 new version, 0 unchanged, 0 failed" in out
    document = Document.objects.get(domain__slug="leave-runs")
    assert [v.status for v in document.versions.order_by("effective_date")] == ["superseded", "current"]
