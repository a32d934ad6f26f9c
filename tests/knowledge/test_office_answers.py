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
    """The citation whose cited sentence holds the key value: a label's citation, or, for a label cited again for
    another sentence, that marker's span (its cited text, location and section) over the label's citation."""
    found = [c for c in answer["citations"] if squeeze(key) in squeeze(c["cited_text"])]
    by_label = {c["label"]: c for c in answer["citations"]}
    found += [{**by_label[s["label"]], **s} for s in answer.get("spans", ())
              if squeeze(key) in squeeze(s["cited_text"]) and s["label"] in by_label]
    assert found, (key, answer["answer"], answer["citations"])
    return found[0]


def original_of(citation: dict) -> bytes:
    version = Chunk.objects.select_related("version").get(pk=citation["chunk_id"]).version
    return original_path(content_hash=version.original_hash).read_bytes()


def docx_paragraphs(data: bytes) -> list[str]:
    """The Word document's non-empty paragraphs in reading order, a table as one (all its cells' text): the test's
    own reading of what a DOCX location's paragraph numbers count (python-docx, independent of the extractor)."""
    import docx
    from docx.table import Table

    out = []
    for item in docx.Document(io.BytesIO(data)).iter_inner_content():
        text = " ".join(c.text for row in item.rows for c in row.cells) if isinstance(item, Table) else item.text
        if text.strip():
            out.append(text.strip())
    return out


def test_every_office_file_was_ingested_with_its_pages(office_domains):
    _, reports = office_domains
    assert {name: r.status for name, r in reports.items()} == {name: "new" for name, _ in manifest()}
    assert reports["travel-and-leave__leave.pdf"].pages == 9
    assert reports["training-and-development__idp.pptx"].pages == 2
    assert all(r.notes == [] for name, r in reports.items() if name != "travel-and-leave__overtime.scanned.pdf")


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
        # Word has no fixed pages: the place is the paragraph (non-empty ones counted from 1, a table as one)
        assert location["format"] == "docx" and location["paragraphs"], location
        paragraphs = docx_paragraphs(original)
        on_paragraphs = squeeze(" ".join(paragraphs[n - 1] for n in location["paragraphs"]))
        assert squeeze(key) in on_paragraphs and squeeze(cited["cited_text"])[:40] in on_paragraphs
        first, last = location["paragraphs"][0], location["paragraphs"][-1]
        assert cited["source_label"].endswith(f"para. {first}" if first == last else f"paras. {first}-{last}")
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
    assert report.status == "new" and report.pages == 3
    # the report says the pages were read by OCR (the s28 new user's report said nothing of it)
    assert report.notes == ["Pages 1-3 of 3 had no text layer and were read by OCR: words and numbers may be "
                            "misread; check a quote against the original."]
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


def test_the_workbook_third_table_is_read_with_its_own_header(office_domains):
    """The user saw the work-schedules workbook's third table (rows 15-21) lose its header and run into the second
    one, and its rows read with a data row as their header, so a question on it found no "column: value" row: each
    table keeps its header, every stored row is read as pairs, and the third table's total answers by its row."""
    domains, _ = office_domains
    chunks = Chunk.objects.filter(version__document__domain=domains["office-slides"],
                                  version__document__key__endswith=".xlsx")
    units = [u for c in chunks for u in c.units]
    assert "Day: Monday; Hours: 8; Day: Monday; Hours: Off" in units  # the third table's first row
    assert "Day: Monday; Hours: 10" in units and not any(u.startswith("| Monday:") for u in units)
    answer = ask(domains["office-slides"], "What is the week 2 total when the week 1 total is 46 hours?")
    cited = citation_of(answer, "34")
    assert cited["location"]["rows"] == [21, 21] and cited["source_label"].endswith("row 21")


def test_ask_json_gives_a_word_citation_its_paragraph_in_citations_and_the_source_map(office_domains, capsys):
    """The user saw a DOCX citation carry no place beyond its section ({"format": "docx"}), where a PDF's names its
    page: the citation and its source in the source map now name the paragraph."""
    call_command("ask", "How many hours of advanced sick leave can I request?", "--domain", "office-docx", "--json")
    out = json.loads(capsys.readouterr().out)
    cited = citation_of(out, "240 hours")
    [number] = cited["location"]["paragraphs"]
    assert "240 hours" in docx_paragraphs(original_of(cited))[number - 1]
    assert cited["source_label"].endswith(f", para. {number}")
    source = next(s for s in out["sources"] if s["chunk_id"] == cited["chunk_id"])
    assert source["location"]["format"] == "docx" and number in source["location"]["paragraphs"]
    assert ", para" in source["source_label"]


@pytest.mark.parametrize("domain, question", [
    ("office-pdf", "How many hours of advanced sick leave can I request?"),
    ("office-docx", "How many hours of advanced sick leave can I request?"),
    ("office-slides", "What form is required for most conference, event and training requests?"),
    ("office-slides", "What is the week 2 total when the week 1 total is 37 hours?")])
def test_plain_ask_names_each_citations_page_slide_row_or_paragraph(office_domains, capsys, domain, question):
    """The user saw `manage.py ask` without --json list its citations by title and section only, while --json gave
    their page, slide and row: each plain citation line names the same place as the JSON's citation."""
    from grounding.location import Location, location_text

    call_command("ask", question, "--domain", domain, "--json")
    out = json.loads(capsys.readouterr().out)
    call_command("ask", question, "--domain", domain)
    lines = capsys.readouterr().out.splitlines()
    assert out["citations"]
    for c in out["citations"]:
        place = location_text(Location.from_dict(c["location"]))
        assert place and any(line.startswith(f"  [{c['label']}] ") and f", {place} (version" in line
                             for line in lines), (place, lines)


def test_fmla_weeks_are_answered_by_the_rule_not_by_its_worked_example(office_domains):
    """The user asked "How many weeks of leave does FMLA give?" and got the page's worked example ("For example: you
    went on FMLA for 4 weeks in March 2022 ...") as the answer instead of the rule (12 weeks): the example's
    sentences no longer outrank the sentence stating the asked subject's own value."""
    domains, _ = office_domains
    for slug in ("office-docx", "office-pdf"):
        answer = ask(domains[slug], "How many weeks of leave does FMLA give?")
        # the rule, or the entitlement's lead-in with its items (which states the same 12 weeks), whole: never the
        # lead-in cut back to its colon ("... for the following … [S1].", the s16 round's DOCX and PDF answer)
        assert answer["answer"].startswith((
            "You can use 12 unpaid weeks of FMLA every 52 weeks",
            "FMLA entitles you to take up to 12 weeks of unpaid leave per 12 month period for the following: The birth "
            "or care of a child;")), answer["answer"]
        assert "following …" not in answer["answer"]
        assert "4 weeks" not in answer["answer"] and "For example" not in answer["answer"]
