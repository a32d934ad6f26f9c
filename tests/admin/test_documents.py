"""Documents in the admin: upload with per-file status, versions, supersede, delete and re-index; retrieval sees
every change at once."""

from __future__ import annotations

import numpy as np
import pytest

from knowledge.models import Chunk, Document, DocumentVersion, Domain, IngestJob
from knowledge.selectors import retrieve
from knowledge.services import domain_get_or_create, ingest_path

from .conftest import markdown, upload

pytestmark = pytest.mark.django_db

MEALS = "The daily meal allowance is $65 per day while travelling on company business."
PARKING = "Visitors park in the north lot; the parking badge is collected at reception."


def test_uploading_several_files_ingests_each_with_its_own_status_and_errors(admin_client, inline_uploads):
    domain = domain_get_or_create(slug="office", name="Office")
    page = admin_client.get(f"/admin/knowledge/document/upload/?domain={domain.pk}").content.decode()
    assert 'multiple' in page and f'<option value="{domain.pk}" selected>' in page
    files = [upload("meals.md", markdown("Meals", MEALS, doc_id="meals", version="v1", date="2025-01-01")),
             upload("parking.md", markdown("Parking", PARKING)),
             upload("broken.md", b"---\ntitle: [unclosed\n---\nBody"),
             upload("image.png", b"\x89PNG\r\n")]
    response = inline_uploads(admin_client, domain, files)
    job = IngestJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/admin/knowledge/document/upload/{job.pk}/"

    status = admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/status/").json()
    assert (status["status"], status["finished"], status["total"], status["done"], status["failed"]) == \
        ("done", True, 4, 4, 2)
    by_name = {f["name"]: f for f in status["files"]}
    assert by_name["meals.md"]["status"] == "new" and by_name["meals.md"]["version"] == "v1"
    assert by_name["meals.md"]["chunks"] >= 1 and by_name["meals.md"]["tokens"] > 10
    assert by_name["parking.md"]["status"] == "new" and by_name["parking.md"]["title"] == "Parking"
    assert by_name["broken.md"]["status"] == "failed" and by_name["broken.md"]["error"].startswith("broken.md")
    assert by_name["image.png"]["status"] == "failed" and "unsupported file type .png" in by_name["image.png"]["error"]
    assert "grounded-upload-" not in str(status)  # errors name the file, never the temporary folder

    page = admin_client.get(f"/admin/knowledge/document/upload/{job.pk}/").content.decode()
    assert "meals.md" in page and "unsupported file type .png" in page and "4 of 4 files" in page
    assert retrieve(domain=domain, query="daily meal allowance")[0].chunk.text.endswith(MEALS)

    # the same content again is unchanged; a changed file becomes a new version of the same document
    newer = markdown("Meals", MEALS.replace("$65", "$70"), doc_id="meals", version="v2", date="2025-06-01")
    inline_uploads(admin_client, domain, [upload("meals.md", markdown("Meals", MEALS, doc_id="meals", version="v1",
                                                                      date="2025-01-01")),
                                          upload("meals-2025-06.md", newer)])
    statuses = {f["name"]: f["status"] for f in
                admin_client.get(f"/admin/knowledge/document/upload/{IngestJob.objects.first().pk}/status/").json()[
                    "files"]}
    assert statuses == {"meals.md": "unchanged", "meals-2025-06.md": "new_version"}
    meals = Document.objects.get(domain=domain, key="meals")
    assert [(v.label, v.status) for v in meals.versions.all()] == [("v2", "current"), ("v1", "superseded")]


def test_an_upload_without_files_is_refused_on_the_form(admin_client):
    domain = domain_get_or_create(slug="office")
    response = admin_client.post("/admin/knowledge/document/upload/", {"domain": domain.pk})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not IngestJob.objects.exists()


def test_the_document_list_shows_versions_chunk_counts_and_token_totals(admin_client, demo_domain):
    travel = Document.objects.get(domain=demo_domain, key="travel-expenses")
    current = travel.versions.get(status="current")
    chunks = Chunk.objects.filter(version=current)
    listing = admin_client.get(f"/admin/knowledge/document/?domain__id__exact={demo_domain.pk}&q=travel")
    row = listing.content.decode()
    assert "Travel and Expenses Policy" in row and "2025-03" in row and "1 superseded" in row and "1 current" in row
    assert f">{chunks.count()}<" in row and f"{sum(c.tokens for c in chunks):,}" in row
    page = admin_client.get(f"/admin/knowledge/document/{travel.pk}/change/").content.decode()
    assert "2024-01" in page and "superseded" in page and "Re-index" in page and 'name="_save"' not in page
    versions = admin_client.get(f"/admin/knowledge/documentversion/?document__id__exact={travel.pk}").content.decode()
    assert "March 1, 2025" in versions and "Jan. 15, 2024" in versions  # effective dates of both versions
    assert versions.count("ax-badge ax-current") == 1 and versions.count("ax-badge ax-superseded") == 1
    # "Add document" leads to the upload page: documents come from ingestion
    assert admin_client.get("/admin/knowledge/document/add/")["Location"] == "/admin/knowledge/document/upload/"


def test_filters_find_documents_without_a_current_version(admin_client, demo_domain):
    travel = Document.objects.get(domain=demo_domain, key="travel-expenses")
    travel.versions.filter(status="current").update(status="superseded")
    listing = admin_client.get("/admin/knowledge/document/?versions=no_current").content.decode()
    assert "Travel and Expenses Policy" in listing and "Paid Time Off" not in listing


def texts(domain: Domain, query: str) -> list[str]:
    return [c.chunk.text for c in retrieve(domain=domain, query=query)]


def test_marking_the_current_version_superseded_takes_it_out_of_retrieval_at_once(admin_client, demo_domain):
    current = DocumentVersion.objects.get(document__key="travel-expenses", status="current")
    assert any("$65" in t for t in texts(demo_domain, "What is the daily meal allowance?"))  # warms the index cache
    page = admin_client.get(f"/admin/knowledge/documentversion/{current.pk}/change/").content.decode()
    assert "Mark superseded" in page and "Make current" not in page
    response = admin_client.post(f"/admin/knowledge/documentversion/{current.pk}/supersede/", follow=True)
    assert "no longer retrieved as current" in response.content.decode()
    current.refresh_from_db()
    assert current.status == "superseded"
    assert not any("$65" in t for t in texts(demo_domain, "What is the daily meal allowance?"))
    # and back: make it current again from the list's action
    admin_client.post("/admin/knowledge/documentversion/", {"action": "make_current_selected",
                                                            "_selected_action": [current.pk]})
    current.refresh_from_db()
    assert current.status == "current"
    assert any("$65" in t for t in texts(demo_domain, "What is the daily meal allowance?"))


def test_making_an_older_version_current_supersedes_the_newer_one(admin_client, demo_domain):
    old = DocumentVersion.objects.get(document__key="travel-expenses", status="superseded")
    admin_client.post(f"/admin/knowledge/documentversion/{old.pk}/make-current/")
    statuses = dict(DocumentVersion.objects.filter(document__key="travel-expenses").values_list("label", "status"))
    assert statuses == {"2024-01": "current", "2025-03": "superseded"}
    found = texts(demo_domain, "What is the daily meal allowance?")
    assert any("$50" in t for t in found) and not any("$65" in t for t in found)


def test_deleting_a_document_removes_its_chunks_from_retrieval_at_once(admin_client, demo_domain):
    travel = Document.objects.get(domain=demo_domain, key="travel-expenses")
    ids = set(Chunk.objects.filter(version__document=travel).values_list("pk", flat=True))
    assert ids & {c.chunk.chunk_id for c in retrieve(domain=demo_domain, query="daily meal allowance",
                                                     superseded=5)}
    confirm = admin_client.get(f"/admin/knowledge/document/{travel.pk}/delete/")
    assert confirm.status_code == 200
    response = admin_client.post(f"/admin/knowledge/document/{travel.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Document.objects.filter(pk=travel.pk).exists() and not Chunk.objects.filter(pk__in=ids).exists()
    after = retrieve(domain=demo_domain, query="daily meal allowance", superseded=5)
    assert after and not ids & {c.chunk.chunk_id for c in after}


def test_bulk_delete_of_documents_goes_through_the_service_too(admin_client, demo_domain):
    docs = list(Document.objects.filter(domain=demo_domain, key__in=["travel-expenses", "paid-time-off.md"]))
    ids = set(Chunk.objects.filter(version__document__in=docs).values_list("pk", flat=True))
    retrieve(domain=demo_domain, query="vacation days and meal allowance")
    admin_client.post("/admin/knowledge/document/", {"action": "delete_selected", "post": "yes",
                                                     "_selected_action": [d.pk for d in docs]})
    assert not Document.objects.filter(pk__in=[d.pk for d in docs]).exists()
    assert not ids & {c.chunk.chunk_id for c in retrieve(domain=demo_domain, query="vacation days and meal allowance",
                                                         superseded=5)}


def test_deleting_the_current_version_makes_the_previous_one_current(admin_client, demo_domain):
    current = DocumentVersion.objects.get(document__key="travel-expenses", status="current")
    texts(demo_domain, "What is the daily meal allowance?")
    response = admin_client.post(f"/admin/knowledge/documentversion/{current.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    remaining = DocumentVersion.objects.get(document__key="travel-expenses")
    assert (remaining.label, remaining.status) == ("2024-01", "current")
    found = texts(demo_domain, "What is the daily meal allowance?")
    assert any("$50" in t for t in found) and not any("$65" in t for t in found)
    # deleting the last version deletes the document
    admin_client.post(f"/admin/knowledge/documentversion/{remaining.pk}/delete/", {"post": "yes"})
    assert not Document.objects.filter(key="travel-expenses").exists()


def test_reindex_embeds_the_chunks_again_and_refreshes_the_index(admin_client, demo_domain):
    travel = Document.objects.get(domain=demo_domain, key="travel-expenses")
    chunks = Chunk.objects.filter(version__document=travel)
    before = {c.pk: c.vector().copy() for c in chunks}
    chunks.update(embedding=np.zeros(384, dtype="<f4").tobytes())  # a stale index, e.g. after a model change
    token = Domain.objects.get(pk=demo_domain.pk).index_token
    response = admin_client.post(f"/admin/knowledge/document/{travel.pk}/reindex/", follow=True)
    assert f"{len(before)} chunks embedded again" in response.content.decode()
    for c in Chunk.objects.filter(version__document=travel):
        assert np.allclose(c.vector(), before[c.pk], atol=1e-5)
    assert Domain.objects.get(pk=demo_domain.pk).index_token != token
    admin_client.post("/admin/knowledge/document/", {"action": "reindex_selected", "_selected_action": [travel.pk]})
    assert Domain.objects.get(pk=demo_domain.pk).index_token != token


def test_ingested_versions_through_the_service_and_the_admin_agree(admin_client, tmp_path, embedder):
    domain = domain_get_or_create(slug="agree")
    (tmp_path / "a.md").write_bytes(markdown("Alpha", "Alpha policy text about badges.", version="1"))
    ingest_path(path=tmp_path, domain=domain)
    listing = admin_client.get(f"/admin/knowledge/documentversion/?document__domain__id__exact={domain.pk}")
    assert "Alpha" in listing.content.decode() and listing.content.decode().count("ax-badge ax-current") == 1


def test_the_upload_form_has_the_only_domain_chosen_and_asks_when_there_are_several(admin_client):
    only = domain_get_or_create(slug="office", name="Office")
    Domain.objects.exclude(pk=only.pk).delete()  # (domains other tests left; rolled back after this test)
    page = admin_client.get("/admin/knowledge/document/upload/").content.decode()
    assert f'<option value="{only.pk}" selected>' in page  # a new admin with one domain need not pick it
    other = domain_get_or_create(slug="travel", name="Travel")
    page = admin_client.get("/admin/knowledge/document/upload/").content.decode()
    assert '<option value="" selected>' in page and f'<option value="{only.pk}" selected>' not in page  # choose
    page = admin_client.get(f"/admin/knowledge/document/upload/?domain={other.pk}").content.decode()
    assert f'<option value="{other.pk}" selected>' in page
