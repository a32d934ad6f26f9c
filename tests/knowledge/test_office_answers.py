"""Office files answer like the Markdown pages they were made from, and their citations name the right page, slide or
row (issue 21). The 18F office corpus and its Markdown pages are ingested once for this module (the scanned PDF read
by OCR), each kind in its own domain, with the offline extractive answerer.

For each question the key value must be in the answer from the Markdown page and in the answer from the office
file; the office answer's citation of that value must name where it is, which the test checks by reading the cited
original itself: the PDF page's text with pypdfium2, the slide with python-pptx, the sheet row with openpyxl.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from chat.persistence import answer_unsaved
from chat.serializers import answer_payload
from tests.chat.helpers import answer_once
from grounding.extractive import ExtractiveAnswerer
from knowledge.models import Chunk, Domain
from knowledge.originals import original_path
from knowledge.services import document_ingest, domain_get_or_create, ingest_path
from tests.office_files import PAGES, manifest, office, page_texts, squeeze

pytestmark = pytest.mark.django_db

#: Markdown page -> (question, the answer's key value), each read on the page.
QUESTIONS = {
    "travel-and-leave/paid-parental-leave.md": [
        ("How many weeks of paid parental leave am I entitled to?", "12 weeks")],
    "travel-and-leave/leave.md": [
        ("How many annual leave hours can I carry over to the next year?", "240"),
        ("How many days of sick leave can I use for bereavement?", "13 days")],
    "travel-and-leave/overtime.md": [
        ("What is the maximum salary to receive overtime or comp time?", "$191,900"),
        ("How many credit hours can I have accrued at any given time?", "24 credit hours")],
    "travel-and-leave/fmla.md": [
        ("How many weeks of unpaid FMLA can I take to care for an ill servicemember?", "26 weeks")],
    "travel-and-leave/advanced-sick-leave.md": [
        ("How many hours of advanced sick leave can I request?", "240 hours")],
    "travel-and-leave/travel-and-leave-policies/travel-guide-4-reimbursement.md": [
        ("How long does it take to review my travel voucher?", "3-5 business days")],
    "hiring-staying-or-changing-jobs/promotions.md": [
        ("How long do I have to meet the time-in-grade requirement after a job posting closes?", "30 days")],
    "general-information-and-resources/reasonable-accommodations.md": [
        ("Within how many days are reasonable accommodation requests acknowledged?", "three calendar days")],
    "training-and-development/idp.md": [
        ("What form is required for most conference, event and training requests?", "SF-182")],
    "general-information-and-resources/employee-resources-policies/work-schedules.md": [
        # the workbook holds the page's tables only (not its headings), so the question names the row, not the
        # example's heading ("Variable Week"), which the workbook does not have
        ("What is the week 2 total when the week 1 total is 37 hours?", "43")],
}

#: Office file kind -> the domain its files are ingested into (one kind per domain: a PDF and a DOCX of one page in
#: one domain would be near-duplicates of each other).
DOMAINS = {".pdf": "office-pdf", ".docx": "office-docx", ".pptx": "office-slides", ".xlsx": "office-slides"}

CASES = [(name, page, question, key) for name, page in manifest() if "scanned" not in name
         for question, key in QUESTIONS[page]]


@pytest.fixture(scope="module")
def office_domains(django_db_setup, django_db_blocker, embedder):
    """The domains office-md (the Markdown pages), office-pdf, office-docx, office-slides (PPTX and XLSX) and
    office-scan (the image-only PDF), readable only by a group (so no other test sees them), removed afterwards."""
    with django_db_blocker.unblock():
        readers, _ = Group.objects.get_or_create(name="office-readers")
        slugs = ["office-md", *sorted(set(DOMAINS.values())), "office-scan"]
        domains = {slug: domain_get_or_create(slug=slug) for slug in slugs}
        for domain in domains.values():
            domain.groups.add(readers)
        for page in sorted({page for _, page in manifest()}):
            assert ingest_path(path=PAGES / page, domain=domains["office-md"]).failed == []
        reports = {}
        for name, _ in manifest():
            slug = "office-scan" if "scanned" in name else DOMAINS["." + name.rsplit(".", 1)[1]]
            reports[name] = document_ingest(domain=domains[slug], name=name, data=office(name))
        yield domains, reports
        for domain in domains.values():
            domain.delete()
        readers.delete()


_asked: dict[tuple[int, str], dict] = {}


def ask(domain: Domain, question: str) -> dict:
    """`ask --json`'s answer (kept for the module: the Markdown domain is asked each question once)."""
    if (domain.pk, question) not in _asked:
        prepared, verified = answer_once(domain=domain, question=question, provider=ExtractiveAnswerer())
        _asked[domain.pk, question] = answer_payload(answer_unsaved(prepared=prepared, verified=verified))
    return _asked[domain.pk, question]


def citation_of(answer: dict, key: str) -> dict:
    """The citation whose cited sentence holds the key value."""
    found = [c for c in answer["citations"] if squeeze(key) in squeeze(c["cited_text"])]
    assert found, (key, answer["answer"], answer["citations"])
    return found[0]


def original_of(citation: dict) -> bytes:
    version = Chunk.objects.select_related("version").get(pk=citation["chunk_id"]).version
    return original_path(content_hash=version.original_hash).read_bytes()


def test_every_office_file_was_ingested_with_its_pages(office_domains):
    _, reports = office_domains
    assert {name: r.status for name, r in reports.items()} == {name: "new" for name, _ in manifest()}
    assert reports["travel-and-leave__leave.pdf"].pages == 9
    assert reports["training-and-development__idp.pptx"].pages == 2
    assert all(r.notes == [] for r in reports.values())


@pytest.mark.parametrize("name, page, question, key", CASES, ids=[f"{c[0]}:{c[3]}" for c in CASES])
def test_the_office_file_answers_like_its_markdown_page_and_cites_where_the_answer_is(office_domains, name, page,
                                                                                       question, key):
    domains, _ = office_domains
    from_page = ask(domains["office-md"], question)
    from_office = ask(domains[DOMAINS["." + name.rsplit(".", 1)[1]]], question)
    assert key in from_page["answer"] and key in from_office["answer"], (from_page["answer"], from_office["answer"])
    cited = citation_of(from_office, key)
    location = cited["location"]
    original = original_of(cited)
    if name.endswith(".pdf"):
        texts = page_texts(original)
        assert location["format"] == "pdf" and 1 <= len(location["pages"]) <= 2
        on_pages = squeeze(" ".join(texts[p - 1] for p in location["pages"]))
        assert squeeze(key) in on_pages and squeeze(cited["cited_text"])[:40] in on_pages
        assert cited["source_label"].endswith(("p. " if len(location["pages"]) == 1 else "pp. ")
                                              + "-".join(map(str, location["pages"])))
    elif name.endswith(".docx"):
        assert location == {"format": "docx"}  # Word has no fixed pages: the section and the file are the place
        page_cited = citation_of(from_page, key)
        if cited["title"] == page_cited["title"]:  # the same document: the same section holds the answer
            assert cited["section"] == page_cited["section"]
        # (another handbook page stating the same value, e.g. "Leave types" on advanced sick leave, is as good a
        # citation: citation_of already found the key in its cited sentence)
    elif name.endswith(".pptx"):
        from pptx import Presentation

        [number] = location["slides"]
        slide = Presentation(io.BytesIO(original)).slides[number - 1]
        texts = [shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]
        assert key in " ".join(texts) and cited["source_label"] == f"Individual Development Plan, slide {number}"
    else:
        import openpyxl

        sheet = openpyxl.load_workbook(io.BytesIO(original), read_only=True)[location["sheet"]]
        first, last = location["rows"]
        values = [str(v) for row in sheet.iter_rows(min_row=first, max_row=last, values_only=True) for v in row]
        assert (first, last) == (14, 14) and any(key in v for v in values)
        assert cited["source_label"].endswith(f"sheet {location['sheet']}, row 14")


def test_the_scanned_pdf_answers_the_overtime_salary_question_through_ocr(office_domains):
    domains, reports = office_domains
    report = reports["travel-and-leave__overtime.scanned.pdf"]
    assert report.status == "new" and report.pages == 3 and report.notes == []
    answer = ask(domains["office-scan"], "What is the maximum salary to receive overtime or comp time?")
    assert "$191,900" in answer["answer"]
    cited = citation_of(answer, "$191,900")
    assert cited["location"] == {"format": "pdf", "pages": [1], "ocr_pages": [1]}
    assert cited["source_label"].endswith("p. 1, read by OCR")
    assert page_texts(original_of(cited))[0].strip() == ""  # the original has no text layer: only OCR reads it
    assert "$191,900" in page_texts(office("travel-and-leave__overtime.pdf"))[0]  # and the scan is of that page


def test_ask_json_carries_the_location_in_sources_and_citations(office_domains, capsys):
    call_command("ask", "How many hours of advanced sick leave can I request?", "--domain", "office-pdf", "--json")
    out = json.loads(capsys.readouterr().out)
    cited = citation_of(out, "240 hours")
    assert cited["location"]["format"] == "pdf" and cited["source_label"].startswith(("Advanced sick leave, p.",
                                                                                     "Leave types, p."))
    source = next(s for s in out["sources"] if s["chunk_id"] == cited["chunk_id"])
    assert source["location"]["pages"] and source["source_label"].startswith(source["title"] + ", p")
