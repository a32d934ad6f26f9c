"""Issue 22: the whole text of a document version, one anchored section per chunk (the source panel links to it at the
cited passage), rendered with its structure and sanitised, for readers of its domain only."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from knowledge.models import Chunk, DocumentVersion
from knowledge.services import domain_get_or_create, ingest_path

pytestmark = pytest.mark.django_db

PAGE = b"""---
title: Equipment
doc_id: equipment
version: "2025-02"
date: 2025-02-01
---
# Equipment

## Laptops

Every employee receives one laptop. The standard models are:

- Engineering: MacBook Pro
- Everyone else: MacBook Air

### Peripherals

| Item | Limit |
|---|---|
| Monitor | 1 |
| Keyboard | 1 |

Do not run <script>alert(1)</script> on it.
"""


@pytest.fixture
def version(tmp_path, embedder):
    (tmp_path / "equipment.md").write_bytes(PAGE)
    domain = domain_get_or_create(slug="it", name="IT handbook")
    domain.groups.add(Group.objects.create(name="it-readers"))
    ingest_path(path=tmp_path / "equipment.md", domain=domain)
    return DocumentVersion.objects.get(document__domain=domain)


def test_the_version_page_shows_every_chunk_anchored_with_its_structure(client, version):
    reader = get_user_model().objects.create_user("reader", password="pw")
    reader.groups.add(Group.objects.get(name="it-readers"))
    client.force_login(reader)
    body = client.get(f"/documents/{version.pk}/").content.decode()
    chunks = list(Chunk.objects.filter(version=version).order_by("ordinal"))
    assert chunks and all(f'id="chunk-{c.pk}"' in body for c in chunks)
    assert "<h1>Equipment</h1>" in body and "2025-02" in body and "IT handbook" in body
    assert re.search(r"<ul>\s*<li>Engineering: MacBook Pro</li>\s*<li>Everyone else: MacBook Air</li>\s*</ul>", body)
    assert re.search(r"<th>Item</th>\s*<th>Limit</th>", body) and "<td>Monitor</td>" in body
    assert "<h4>Peripherals</h4>" in body or "Laptops › Peripherals" in body  # the sub-heading is kept
    assert "<script>" not in body.split("<main", 1)[1].split("</main>")[0]  # document text never runs
    assert "<p>Do not run on it.</p>" in body  # (ingestion keeps the text of a page, never its script)


def test_the_version_page_is_404_outside_the_domain_and_asks_anonymous_users_to_log_in(client, version):
    client.force_login(get_user_model().objects.create_user("outsider", password="pw"))
    assert client.get(f"/documents/{version.pk}/").status_code == 404  # like a version that does not exist
    assert client.get("/documents/999999/").status_code == 404
    client.logout()
    assert client.get(f"/documents/{version.pk}/")["Location"] == f"/login/?next=/documents/{version.pk}/"
