"""An uploaded file without a version label of its own (no front matter, no --version, no date) gets a readable
label, "v1", "v2", ... per document (s6 new user: they were content hash prefixes like "3f9a1c0e"); the hash stays
the version's identity."""

import json
import re

import pytest
from django.core.management import call_command

from knowledge.models import DocumentVersion
from knowledge.services import document_ingest, domain_get_or_create, version_delete

pytestmark = pytest.mark.django_db

TEXT = "Parking\n\nStaff parking in the north garage costs {fee} a month, paid through payroll.\n"


def test_uploads_without_a_label_are_numbered_per_document_and_keep_their_hash(embedder, capsys):
    domain = domain_get_or_create(slug="labels")
    reports = [document_ingest(domain=domain, name="parking.txt", data=TEXT.format(fee=fee).encode())
               for fee in ("$40", "$45", "$45", "$50")]
    assert [(r.status, r.version) for r in reports] == [
        ("new", "v1"), ("new_version", "v2"), ("unchanged", "v2"), ("new_version", "v3")]
    other = document_ingest(domain=domain, name="badges.txt", data=b"Badges\n\nLost badges are replaced in a day.\n")
    assert (other.status, other.version) == ("new", "v1")  # numbered per document
    versions = DocumentVersion.objects.filter(document__key="parking.txt").order_by("pk")
    assert [v.label for v in versions] == ["v1", "v2", "v3"]
    assert all(re.fullmatch(r"[0-9a-f]{64}", v.content_hash) for v in versions)  # the identity is the hash

    # what the user sees: the answer cites the version by its label
    call_command("ask", "How much does staff parking cost a month?", "--domain", "labels", "--json")
    out = json.loads(capsys.readouterr().out)
    assert "$50" in out["answer"] and out["citations"][0]["version"] == "v3"

    # a deleted version's number is not given again
    version_delete(version=versions[0])
    again = document_ingest(domain=domain, name="parking.txt", data=TEXT.format(fee="$55").encode())
    assert (again.status, again.version) == ("new_version", "v4")


def test_a_label_given_in_front_matter_by_the_command_or_by_a_date_is_kept(embedder):
    domain = domain_get_or_create(slug="labels-given")
    front = document_ingest(domain=domain, name="a.md",
                            data=b"---\ntitle: A\nversion: 2025-Q3\n---\n\nDesks are booked a week ahead.\n")
    dated = document_ingest(domain=domain, name="b.md",
                            data=b"---\ntitle: B\ndate: 2025-02-01\n---\n\nLockers are free of charge.\n")
    given = document_ingest(domain=domain, name="c.txt", data=b"C\n\nBikes go in the basement.\n", version="r7")
    assert (front.version, dated.version, given.version) == ("2025-Q3", "2025-02-01", "r7")
