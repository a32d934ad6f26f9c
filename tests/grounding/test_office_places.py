"""The places the office formats give their text, without Django: a workbook's stacked tables each with its own
header, read as "column: value" pairs, and a Word document's paragraphs (the s14 office round)."""

from __future__ import annotations

import io

from grounding.chunking import chunk_blocks
from grounding.extract import extract_document
from grounding.location import Location, location_text, merge_locations, source_label
from grounding.sentence_data import segment
from grounding.tokens import counter_for
from tests.office_files import office

SCHEDULES = "general-information-and-resources__employee-resources-policies__work-schedules.xlsx"
FMLA_DOCX = "travel-and-leave__fmla.docx"


def test_each_stacked_table_of_the_workbook_keeps_its_own_header_and_its_rows_read_as_column_value_pairs():
    """The user saw the work-schedules workbook's third table (rows 15-21) lose its header row: its rows ran on
    under the second table's rows in one Markdown table, and every row of the workbook was read with the wrong
    header ("Monday: | Tuesday; 10 |: 9 |": the "|---|" line under a header broke the table, so the first row was
    taken for the header)."""
    doc = extract_document(office(SCHEDULES), SCHEDULES)
    chunks = chunk_blocks(doc.blocks, counter_for("extractive"))
    text = "\n".join(c.text for c in chunks)
    header = "| **Day** | **Hours** | **Day** | **Hours** |\n|---|---|---|---|"
    # the third table starts with its own header, after a blank line that ends the second one
    week_1 = "| **Week 1 Total** | **37** | **Week 2 Total** | **43** |"
    assert week_1 + "\n\n" + header + "\n| Monday | 8 | Monday | Off |" in text
    rows, open_header = [], ""
    for chunk in chunks:
        units, open_header = segment(chunk.text, open_header)
        rows += [quoted for _, _, kind, quoted in units if kind == "row"]
    assert "Day: Monday; Hours: 10" in rows  # the first table, read with its own header
    assert "Day: Week 1 Total; Hours: 37; Day: Week 2 Total; Hours: 43" in rows
    assert "Day: Monday; Hours: 8; Day: Monday; Hours: Off" in rows  # the third table's first row
    assert len(rows) == 18 and all(r.startswith("Day: ") for r in rows)


def test_a_new_table_under_one_with_the_same_header_gets_its_header_in_a_chunk_of_its_own_rows_too():
    """The stacked-table fix holds for any chunk size: every chunk holding rows of the third table has its header,
    and no chunk runs the third table's rows under the second's."""
    doc = extract_document(office(SCHEDULES), SCHEDULES)
    for max_tokens in (60, 90, 140, 320):
        for chunk in chunk_blocks(doc.blocks, counter_for("extractive"), min_tokens=20, max_tokens=max_tokens):
            lines = chunk.text.split("\n")
            for i, line in enumerate(lines):
                if line == "| Monday | 8 | Monday | Off |":
                    assert lines[i - 2].startswith("| **Day**") and lines[i - 1].startswith("|---"), chunk.text


def test_a_word_passage_names_its_paragraph():
    """The user saw a DOCX citation name only the document and section ("Family Medical Leave Act (FMLA)"), where a
    PDF's names its page, a slide its number, a sheet its rows: each Word block now carries its paragraph number
    (non-empty paragraphs counted from 1, headings included), which the citation label shows."""
    import docx

    doc = extract_document(office(FMLA_DOCX), FMLA_DOCX)
    paragraphs = [p.text.strip() for p in docx.Document(io.BytesIO(office(FMLA_DOCX))).paragraphs if p.text.strip()]
    for block in doc.blocks:
        assert block.location.format == "docx" and block.location.paragraphs
        first = block.location.paragraphs[0]
        assert paragraphs[first - 1].split()[:4] == block.text.lstrip("- ").split()[:4], (first, block.text)
    rule = next(b for b in doc.blocks if b.text.startswith("You can use 12 unpaid weeks of FMLA"))
    assert location_text(rule.location) == "para. 15"
    listed = next(b for b in doc.blocks if b.text.startswith("- The birth or care of a child"))
    assert listed.location == Location("docx", paragraphs=(5, 6, 7, 8, 9))  # a list stays one block
    assert source_label("FMLA", merge_locations([rule.location, listed.location])) == "FMLA, paras. 5-15"
    assert Location.from_dict(rule.location.as_dict()) == rule.location
