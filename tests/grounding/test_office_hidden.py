"""Hidden content of office files (the s44 breaker): a Word run in hidden type ("Hot desks are free of charge for all
staff.") was ingested and quoted as the answer to "Are hot desks free?", with no note; hidden and very hidden Excel
sheets and hidden slides were ingested the same way. A reader who opens the file does not see such text, so it is
left out and the ingestion report names what was left out."""

from __future__ import annotations

import io

import docx
import openpyxl
from pptx import Presentation
from pptx.util import Inches

from grounding.extract import extract_document


def _texts(parsed) -> str:
    return "\n".join(b.text for b in parsed.blocks)


def test_hidden_word_text_is_left_out_and_named():
    document = docx.Document()
    document.add_heading("Desks", level=1)
    visible = document.add_paragraph("Hot desks are booked in the office app. ")
    visible.add_run("Hot desks are free of charge for all staff.").font.hidden = True
    document.add_paragraph("Lockers are assigned by facilities.")
    secret = document.styles.add_style("Secret", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    secret.font.hidden = True
    document.add_paragraph("Parking is free for everyone.", style="Secret")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Room"
    table.cell(0, 1).paragraphs[0].add_run("Gym").font.hidden = True
    buffer = io.BytesIO()
    document.save(buffer)
    parsed = extract_document(buffer.getvalue(), "desks.docx")
    text = _texts(parsed)
    assert "Hot desks are booked in the office app." in text and "Lockers are assigned" in text
    assert "free of charge" not in text and "Parking is free" not in text and "Gym" not in text
    [note] = parsed.notes
    assert note.startswith("Left out hidden text (Word's hidden type) in paragraph 2, after paragraph 3 and in "
                           "paragraph 4:"), note
    assert "answers never rest on it" in note


def test_a_word_file_without_hidden_text_reads_as_before():
    document = docx.Document()
    document.add_paragraph("Hot desks are booked in the office app.")
    buffer = io.BytesIO()
    document.save(buffer)
    parsed = extract_document(buffer.getvalue(), "desks.docx")
    assert _texts(parsed) == "Hot desks are booked in the office app." and parsed.notes == ()


def test_hidden_and_very_hidden_sheets_are_left_out_and_named():
    book = openpyxl.Workbook()
    shown = book.active
    shown.title = "Rates"
    shown.append(["Item", "Rate"])
    shown.append(["Desk", "$10"])
    for name, state in (("Secret", "hidden"), ("Deeper", "veryHidden")):
        sheet = book.create_sheet(name)
        sheet.append(["Item", "Rate"])
        sheet.append(["Desk", "free of charge"])
        sheet.sheet_state = state
    buffer = io.BytesIO()
    book.save(buffer)
    parsed = extract_document(buffer.getvalue(), "rates.xlsx")
    assert "$10" in _texts(parsed) and "free of charge" not in _texts(parsed)
    assert parsed.notes == ("Left out hidden sheets 'Secret', 'Deeper': a reader opening the file does not see it, "
                            "so answers never rest on it; unhide it and add the file again to include it.",)


def test_a_hidden_slide_is_left_out_and_named():
    deck = Presentation()
    for number, text in ((1, "Desks are booked in the app."), (2, "Desks are free of charge."),
                         (3, "Lockers are assigned by facilities.")):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = f"Slide {number}"
        slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = text
        if number == 2:
            slide._element.set("show", "0")
    buffer = io.BytesIO()
    deck.save(buffer)
    parsed = extract_document(buffer.getvalue(), "desks.pptx")
    assert "Desks are booked" in _texts(parsed) and "Lockers are assigned" in _texts(parsed)
    assert "free of charge" not in _texts(parsed)
    assert parsed.notes == ("Left out hidden slide 2: a reader opening the file does not see it, so answers never "
                            "rest on it; unhide it and add the file again to include it.",)


def test_hidden_type_from_a_character_style_or_a_base_style_is_left_out_too():
    """Hidden type set only by a run's character style, or by the base style of a paragraph's style, has no
    ``w:vanish`` in the paragraph itself: it was read as visible text."""
    document = docx.Document()
    secret_chars = document.styles.add_style("Secret chars", docx.enum.style.WD_STYLE_TYPE.CHARACTER)
    secret_chars.font.hidden = True
    hidden_base = document.styles.add_style("Hidden base", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    hidden_base.font.hidden = True
    derived = document.styles.add_style("Derived", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    derived.base_style = hidden_base
    shown = document.add_paragraph("Desks are booked in the app. ")
    shown.add_run("Desks are free of charge.", style="Secret chars")
    document.add_paragraph("Parking is free for everyone.", style="Derived")
    document.add_paragraph("Lockers are assigned by facilities.")
    buffer = io.BytesIO()
    document.save(buffer)
    parsed = extract_document(buffer.getvalue(), "desks.docx")
    text = _texts(parsed)
    assert "Desks are booked in the app." in text and "Lockers are assigned" in text
    assert "free of charge" not in text and "Parking is free" not in text
    assert parsed.notes[0].startswith("Left out hidden text (Word's hidden type) in paragraph 1 and after paragraph "
                                      "1:"), parsed.notes
