"""Office formats without Django: what each reader takes out of the shared 18F office files, where it says the text
is, and the error a bad file gets (the message names the file and what to do)."""

from __future__ import annotations

import io
import re

import pytest

from grounding.extract import extract_document
from grounding.extract.ocr import ocr_paragraphs
from grounding.extract.sniff import sniff
from grounding.location import Location
from grounding.parsing import ParseError
from tests.office_files import OFFICE, encrypted_pdf, macro_enabled, manifest, office, page_texts, pageless_pdf, \
    squeeze

TEXT_PDFS = sorted(p.name for p in OFFICE.glob("*.pdf") if "scanned" not in p.name)


def test_every_manifest_file_is_recognised_by_its_content():
    kinds = {name: sniff(office(name), name).format for name, _ in manifest()}
    assert {k for n, k in kinds.items() if n.endswith(".pdf")} == {"pdf"}
    assert {k for n, k in kinds.items() if n.endswith(".docx")} == {"docx"}
    assert kinds["training-and-development__idp.pptx"] == "pptx"
    assert kinds["general-information-and-resources__employee-resources-policies__work-schedules.xlsx"] == "xlsx"


@pytest.mark.parametrize("name", TEXT_PDFS)
def test_every_pdf_block_is_on_the_pages_its_location_names(name):
    """The test reads each page with PDFium itself and finds the start of each block on the block's first page and
    its end on its last page."""
    data = office(name)
    pages = [squeeze(t) for t in page_texts(data)]
    seen = []
    doc = extract_document(data, name, progress=lambda done, total: seen.append((done, total)))
    assert doc.pages == len(pages) and seen[-1] == (len(pages), len(pages)) and not doc.notes
    for block in doc.blocks:
        loc = block.location
        assert loc.format == "pdf" and not loc.ocr_pages and len(loc.pages) <= 2
        words = block.text.split()
        assert squeeze(" ".join(words[:6])) in pages[loc.pages[0] - 1], (block.text, loc)
        assert squeeze(" ".join(words[-6:])) in pages[loc.pages[-1] - 1], (block.text, loc)


def test_pdf_headings_become_sections_like_the_markdown_page():
    doc = extract_document(office("travel-and-leave__leave.pdf"), "leave.pdf")
    assert doc.title == "Leave types"
    sections = {b.section for b in doc.blocks}
    assert ("Types of leave", "Taking advanced leave", "Advanced sick leave") in sections
    assert ("Types of leave", "Sick leave", "For bereavement purposes", "Civilian") in sections
    advanced = next(b for b in doc.blocks if "240 hours of advanced sick leave" in b.text)
    assert advanced.location == Location("pdf", pages=(4,))
    bullets = next(b for b in doc.blocks if "Fewer than 3 years" in b.text)
    assert bullets.text.split("\n") == ["- Fewer than 3 years: 4 hours per pay period",
                                        "- Between 3 and 15 years: 6 hours per pay period",
                                        "- 15+ years: 8 hours per pay period"]
    assert any("opt-in via HRLinks" in b.text for b in doc.blocks)  # a hyphen at a line end stays in the word


def test_a_range_broken_after_its_hyphen_at_a_pdf_line_end_is_joined_without_a_space():
    # the s28 new user: "(slides 4- 7)" where the page says "(slides 4-7)"
    doc = extract_document(office("general-information-and-resources__reasonable-accommodations.pdf"), "ra.pdf")
    text = "\n".join(b.text for b in doc.blocks)
    assert "All Hands, July 2021 (slides 4-7)" in text and "4- 7" not in text


def test_a_paragraph_running_onto_the_next_page_is_one_block_over_both_pages():
    doc = extract_document(office("travel-and-leave__leave.pdf"), "leave.pdf")
    both = [b for b in doc.blocks if len(b.location.pages) == 2]
    assert both and all(b.location.pages[1] == b.location.pages[0] + 1 for b in both)


def test_word_headings_lists_and_tables_keep_their_structure():
    import docx

    document = docx.Document()
    document.add_heading("Travel rules", level=1)
    document.add_heading("Meals", level=2)
    document.add_paragraph("The daily meal allowance is $65.")
    document.add_paragraph("Breakfast", style="List Bullet")
    document.add_paragraph("Dinner", style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for row, values in zip(table.rows, [("City", "Rate"), ("Boston", "$79"), ("Denver | CO", "$74")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    out = io.BytesIO()
    document.save(out)
    doc = extract_document(out.getvalue(), "travel.docx")
    assert doc.title == "Travel rules"
    assert [(b.section, b.text) for b in doc.blocks[:2]] == [(("Meals",), "The daily meal allowance is $65."),
                                                             (("Meals",), "- Breakfast\n- Dinner")]
    rows = doc.blocks[2:]
    assert [b.text for b in rows] == ["| Boston | $79 |", "| Denver \\| CO | $74 |"]
    assert {b.header for b in rows} == {"| City | Rate |\n|---|---|"}
    # the paragraph numbers: the two headings are 1 and 2, the list items 4 and 5, the table (both rows) 6
    assert [b.location for b in doc.blocks] == [Location("docx", paragraphs=(3,)), Location("docx", paragraphs=(4, 5)),
                                                Location("docx", paragraphs=(6,)), Location("docx", paragraphs=(6,))]


def test_shared_word_file_has_the_markdown_pages_sections():
    doc = extract_document(office("travel-and-leave__overtime.docx"), "overtime.docx")
    assert doc.title == "Compensation for working extra hours"
    assert ("Credit hours, in flexible work schedules",) in {b.section for b in doc.blocks}
    assert any("- You can have up to 24 credit hours accrued" in b.text for b in doc.blocks)


def test_slides_are_cited_by_number_and_their_table_stays_a_table():
    doc = extract_document(office("training-and-development__idp.pptx"), "idp.pptx")
    assert doc.title == "Individual Development Plan" and doc.pages == 2
    sf182 = next(b for b in doc.blocks if "SF-182 is required" in b.text)
    assert sf182.location == Location("pptx", slides=(2,))
    assert sf182.section == ("IDPs and conference, event, and training requests",)
    table = [b for b in doc.blocks if b.header]
    assert table[0].header == "| Site | Description |\n|---|---|"
    assert table[0].text == "| Online University (OLU) | Site where IDPs are created |"
    assert {b.location.slides for b in table} == {(1,)}


def test_spreadsheet_rows_are_markdown_tables_cited_by_sheet_and_row():
    name = "general-information-and-resources__employee-resources-policies__work-schedules.xlsx"
    doc = extract_document(office(name), name)
    week = next(b for b in doc.blocks if "Week 2 Total" in b.text and "**43**" in b.text)
    assert week.location == Location("xlsx", sheet="general-information-and-resourc", rows=(14, 14))
    assert week.header == "| **Day** | **Hours** | **Day** | **Hours** |\n|---|---|---|---|"
    first = doc.blocks[0]
    assert first.header == "| **Day** | **Hours** |\n|---|---|" and first.text == "| Monday | 10 |"
    assert [b.location.rows[0] for b in doc.blocks] == [2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19,
                                                        20, 21]  # the three tables' headers are rows 1, 8, 15


def test_formulas_are_never_evaluated():
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Budget"
    sheet.append(["Item", "Cost"])
    sheet.append(["Hotel", 120])
    sheet.append(["Total", "=SUM(B2:B2)+WEBSERVICE(\"http://example.com\")"])
    out = io.BytesIO()
    book.save(out)
    doc = extract_document(out.getvalue(), "budget.xlsx")
    total = doc.blocks[-1]
    assert total.text == "| Total |  |"  # no cached value: shown empty, never computed (nor fetched)
    assert total.location == Location("xlsx", sheet="Budget", rows=(3, 3))


def test_csv_rows_with_their_numbers():
    doc = extract_document("city;rate\nBoston;79\nDenver;\"1,074\"\n".encode(), "rates.csv")
    assert [(b.text, b.location.rows) for b in doc.blocks] == [("| Boston | 79 |", (2, 2)),
                                                               ("| Denver | 1,074 |", (3, 3))]
    assert doc.blocks[0].header == "| city | rate |\n|---|---|"


@pytest.mark.parametrize("name", ["travel-and-leave__fmla.docx", "training-and-development__idp.pptx",
                                  "general-information-and-resources__employee-resources-policies__work-schedules"
                                  ".xlsx"])
def test_macro_enabled_documents_give_their_text_and_never_run_macros(name):
    suffix = {"docx": ".docm", "pptx": ".pptm", "xlsx": ".xlsm"}[name.rsplit(".", 1)[1]]
    data = macro_enabled(office(name))
    assert sniff(data, "x" + suffix).macros
    doc = extract_document(data, "policy" + suffix)
    plain = extract_document(office(name), name)
    assert [b.text for b in doc.blocks] == [b.text for b in plain.blocks]
    assert doc.notes == ("Macro-enabled document: its text was ingested; its macros were not run (they never are).",)


# --- bad files: each a clear error naming the file and what to do ----------------------------------------------------

def test_an_encrypted_pdf_says_it_is_password_protected():
    with pytest.raises(ParseError, match=r"^fmla\.pdf: the PDF is password-protected; .*without one"):
        extract_document(encrypted_pdf(office("travel-and-leave__fmla.pdf")), "fmla.pdf")


def test_a_pdf_without_pages_says_so():
    with pytest.raises(ParseError, match=r"^empty\.pdf: the PDF has no pages; export the document again"):
        extract_document(pageless_pdf(office("travel-and-leave__fmla.pdf")), "empty.pdf")


def test_a_truncated_word_file_is_reported_damaged():
    data = office("travel-and-leave__fmla.docx")
    with pytest.raises(ParseError, match=r"^fmla\.docx: the file is damaged .*save it again"):
        extract_document(data[:len(data) // 2], "fmla.docx")


def _without_sheet_parts(data: bytes) -> bytes:
    """The workbook ``data`` with its worksheets' XML parts left out (the package lists them, they are missing)."""
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            if not item.filename.startswith("xl/worksheets/"):
                dst.writestr(item, src.read(item))
    return out.getvalue()


def test_a_workbook_whose_sheets_are_missing_is_reported_damaged_not_as_pictures():
    """The s46 breaker's workbook without its sheet XML was refused as "no text found ... a document made only of
    pictures"; the uploader is told it is damaged."""
    name = "general-information-and-resources__employee-resources-policies__work-schedules.xlsx"
    with pytest.raises(ParseError, match=r"^book\.xlsx: the workbook is damaged and cannot be read \(it has no sheet "
                                         r"a reader can open\); open it in Excel, save it again"):
        extract_document(_without_sheet_parts(office(name)), "book.xlsx")


def test_a_word_file_whose_document_part_is_not_xml_is_reported_damaged_without_the_readers_words():
    """The s46 breaker's .docx (a package of two parts: "[Content_Types].xml" an empty "<Types/>",
    "word/document.xml" not XML) was refused with "the file could not be read (AttributeError:
    'lxml.etree._Element' object has no attribute 'overrides')"."""
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr("word/document.xml", "<<<not xml>>>")
    with pytest.raises(ParseError) as raised:
        extract_document(out.getvalue(), "fmla.docx")
    assert str(raised.value).startswith("fmla.docx: the file is damaged")
    assert "Error" not in str(raised.value) and "lxml" not in str(raised.value)


@pytest.mark.parametrize("data_name, name, says", [
    ("travel-and-leave__fmla.pdf", "fmla.docx",
     r"^fmla\.docx: the extension \.docx says a Word document \(\.docx\), but the content is a PDF document; rename "
     r"it to \.pdf and add it again$"),
    ("travel-and-leave__fmla.docx", "fmla.pdf",
     r"^fmla\.pdf: the extension \.pdf says a PDF document, but the content is a Word document \(\.docx\); rename "
     r"it to \.docx"),
    ("travel-and-leave__fmla.pdf", "fmla.md", r"^fmla\.md: .* but the content is a PDF document; rename it to \.pdf"),
    ("general-information-and-resources__employee-resources-policies__work-schedules.xlsx", "schedules.pptx",
     r"^schedules\.pptx: .* but the content is an Excel workbook \(\.xlsx\); rename it to \.xlsx"),
])
def test_an_extension_that_lies_about_the_content_is_refused(data_name, name, says):
    with pytest.raises(ParseError, match=says):
        extract_document(office(data_name), name)


def test_a_text_file_named_pdf_and_old_or_protected_office_files_are_refused():
    # text behind a binary format's extension: named as text, with the renaming that makes it readable (the s43
    # breaker's realmd.pdf said only "the content is not a PDF document ...; add the original file")
    with pytest.raises(ParseError, match=r"^notes\.pdf: the content is plain text, not a PDF document \(its extension "
                                         r"\.pdf says it should be\); if it is Markdown or text, rename it to \.md or "
                                         r"\.txt and add it again"):
        extract_document(b"# Notes\n\njust some notes", "notes.pdf")
    with pytest.raises(ParseError, match=r"^junk\.docx: the content is not a Word document \(\.docx\) \(its "):
        extract_document(bytes(range(256)) * 4, "junk.docx")
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512
    with pytest.raises(ParseError, match=r"old binary Office file .* save it as \.docx"):
        extract_document(ole, "old.docx")
    with pytest.raises(ParseError, match=r"^locked\.xlsx: the document is password-protected"):
        extract_document(ole + "EncryptedPackage".encode("utf-16-le"), "locked.xlsx")


@pytest.mark.parametrize("name", ["empty.docx", "empty.pdf", "empty.pptx", "empty.xlsx"])
def test_an_empty_office_file_is_reported_as_empty(name):
    """A 0-byte file (a copy cut off) was reported as "the content is not a Word document ... add the original
    file", as if it were another kind of file (s11 breaker): the user now reads that it is empty."""
    with pytest.raises(ParseError, match=rf"^{name}: the file is empty \(0 bytes\)"):
        extract_document(b"", name)


def test_ocr_text_becomes_paragraphs_and_list_items():
    text = ("Overtime, depending on your salary level\n\n¢ Ifyou make the maximum salary ($191,900 in 2024), you\n"
            "cannot receive overtime.\n\nYour total pay cannot exceed GS-\n15, step 10.\n\n  \n")
    assert ocr_paragraphs(text) == [
        ("Overtime, depending on your salary level", False),
        ("Ifyou make the maximum salary ($191,900 in 2024), you cannot receive overtime.", True),
        ("Your total pay cannot exceed GS-15, step 10.", False)]


def test_a_blank_page_is_reported_not_skipped_silently():
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(office("travel-and-leave__fmla.pdf"))
    pdf.new_page(612, 792)  # a third page with nothing on it
    out = io.BytesIO()
    pdf.save(out)
    doc = extract_document(out.getvalue(), "fmla.pdf")
    assert doc.pages == 3 and doc.notes == ("Page 3 is blank (no text and no image); nothing to read there.",)
    assert re.search(r"26 weeks", " ".join(b.text for b in doc.blocks))


def test_an_unexpected_failure_of_a_reader_is_the_files_own_error(monkeypatch):
    import grounding.extract.slides as slides

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setattr(slides, "extract_pptx", broken)
    # the uploader reads what the file is and what to do; the library's words ("list index out of range") go to the log
    with pytest.raises(ParseError, match=r"^idp\.pptx: the file is damaged and could not be read as a PPTX file; open "
                                         r"it in its application, save it again and add the new file$"):
        extract_document(office("training-and-development__idp.pptx"), "idp.pptx")


def test_running_headers_and_page_numbers_go_and_a_number_in_the_text_stays():
    from grounding.extract.pdf_layout import Line, drop_running_lines

    def page(number, body):
        return [Line("Acme handbook (confidential)", 9, 760, 72), Line(body, 12, 700, 72),
                Line(f"Page {number} of 3", 9, 40, 300)]

    kept = drop_running_lines([page(1, "Leave accrues monthly."), page(2, "Travel needs approval."),
                               page(3, "Laptops are replaced every 36 months.")])
    assert [[line.text for line in lines] for lines in kept] == [
        ["Leave accrues monthly."], ["Travel needs approval."], ["Laptops are replaced every 36 months."]]
    single = drop_running_lines([[Line("Budget for", 12, 700, 72), Line("2024", 12, 680, 72), Line("1", 9, 40, 300)]])
    assert [line.text for line in single[0]] == ["Budget for", "2024"]  # "1" is page 1's number, 2024 is text
