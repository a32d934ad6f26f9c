"""Word documents (.docx, .docm) with python-docx: headings, lists and tables kept as Markdown structure.

Paragraphs are read in document order with the tables between them (``Document.iter_inner_content``). A paragraph in a
"Heading n" (or "Title") style, or with an outline level, opens a section; a numbered or bulleted paragraph becomes a
list item ("- ", indented by its level); a table becomes a Markdown table whose first row is its header. A Word file has
no fixed pages (they depend on the printer and fonts), so its blocks' location names the paragraph: the document's
non-empty paragraphs counted from 1 in reading order, headings and list items included, a table counting as one
(grounding.location); a citation of a Word file gives its section and paragraph ("FMLA, para. 3"), and links to the
file.
"""

from __future__ import annotations

import io
import re
import zipfile

import docx
from docx.opc.exceptions import OpcError
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from grounding.extract.assemble import Outline, assemble, cell_text, clean_text, table_blocks
from grounding.extract.ooxml import MACRO_NOTE, with_plain_content_types
from grounding.location import Location
from grounding.parsing import Block, ParsedDocument, ParseError

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.I)


def _heading_level(paragraph: Paragraph) -> int:
    """1.. for a heading paragraph (its style, or its outline level), 0 for body text."""
    style = paragraph.style
    name = style.name if style is not None else ""
    match = _HEADING_STYLE.match(name or "")
    if match:
        return int(match.group(1))
    if (name or "").lower() == "title":
        return 1
    ppr = paragraph._p.pPr
    outline = ppr.find(docx.oxml.ns.qn("w:outlineLvl")) if ppr is not None else None
    if outline is not None:
        value = outline.get(docx.oxml.ns.qn("w:val"))
        if value is not None and value.isdigit() and int(value) < 9:
            return int(value) + 1
    return 0


def _list_depth(paragraph: Paragraph) -> int | None:
    """The list level (0 = outermost) of a numbered or bulleted paragraph, None for other paragraphs."""
    ppr = paragraph._p.pPr
    numpr = ppr.numPr if ppr is not None else None
    if numpr is None and paragraph.style is not None and paragraph.style.element.pPr is not None:
        numpr = paragraph.style.element.pPr.numPr
    if numpr is not None:
        ilvl = numpr.ilvl.val if numpr.ilvl is not None else 0
        return int(ilvl or 0)
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    return 0 if name.lower().startswith("list") else None


def _table_rows(table: Table) -> list[list[str]]:
    """Cell texts per row; a cell merged over several columns is given once."""
    rows = []
    for row in table.rows:
        cells, seen = [], set()
        for cell in row.cells:
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(cell_text(cell.text))
        rows.append(cells)
    return rows


def extract_docx(data: bytes, filename: str, *, macros: bool = False) -> ParsedDocument:
    """Blocks of a Word document.

    Args:
        data: the file's bytes (a .docx or .docm package; sniffed before).
        filename: for messages and the fallback title.
        macros: the package is macro-enabled: its text is read, its macros never run, and the notes say so.
    Returns:
        ParsedDocument titled by the document's Title property, else its first heading, else the file name.
    Raises:
        ParseError: a damaged package or no text.
    """
    try:
        document = docx.Document(io.BytesIO(with_plain_content_types(data) if macros else data))
    except (OpcError, KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:
        raise ParseError(f"{filename}: the Word document is damaged and cannot be read ({exc}); open it in Word, "
                         "save it again and add the new file") from exc
    outline = Outline()
    blocks: list[Block] = []
    number = 0  # the paragraph's number (grounding.location): non-empty paragraphs and tables in reading order
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            rows = _table_rows(item)
            if any(any(cells) for cells in rows):
                number += 1
                blocks += table_blocks(rows, outline.path, [Location("docx", paragraphs=(number,))] * len(rows))
            continue
        text = clean_text(item.text)
        if not text:
            continue
        number += 1
        here = Location("docx", paragraphs=(number,))
        level = _heading_level(item)
        if level:
            outline.heading(level, text)
            continue
        depth = _list_depth(item)
        blocks.append(Block(outline.path, text if depth is None else "  " * depth + "- " + text, here))
    return assemble(filename, blocks, title=document.core_properties.title or "", heading=outline.first,
                    notes=[MACRO_NOTE] if macros else [])
