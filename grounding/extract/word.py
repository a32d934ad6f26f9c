"""Word documents (.docx, .docm) with python-docx: headings, lists and tables kept as Markdown structure.

Paragraphs are read in document order with the tables between them (``Document.iter_inner_content``). A paragraph in a
"Heading n" (or "Title") style, or with an outline level, opens a section; a numbered or bulleted paragraph becomes a
list item ("- ", indented by its level); a table becomes a Markdown table whose first row is its header. A Word file has
no fixed pages (they depend on the printer and fonts), so its blocks' location names the paragraph: the document's
non-empty paragraphs counted from 1 in reading order, headings and list items included, a table counting as one
(grounding.location); a citation of a Word file gives its section and paragraph ("FMLA, para. 3"), and links to the
file. Text in hidden type (``w:vanish``, set on the run, its character style or its paragraph style) is left out and
named in the report's notes (grounding.extract.ooxml.hidden_note).
"""

from __future__ import annotations

import io
import re
import zipfile

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.exceptions import OpcError
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from grounding.extract.assemble import Outline, assemble, cell_text, clean_text, table_blocks
from grounding.extract.ooxml import MACRO_NOTE, hidden_note, with_plain_content_types
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


_VANISH = docx.oxml.ns.qn("w:vanish")


def _hidden(font) -> bool | None:
    """A font's hidden property as Word reads it: True, False (``w:vanish w:val="0"``), or None (inherited)."""
    return font.hidden if font is not None else None


def _styles_that_may_hide(document) -> frozenset[str]:
    """The ids of the document's styles that set hidden type, themselves or through a base style (read once per
    document: a paragraph or run of any other style is hidden only by its own formatting)."""
    out = set()
    for style in document.styles:
        base = style
        while base is not None:
            if _hidden(getattr(base, "font", None)) is not None:
                out.add(style.style_id)
                break
            base = getattr(base, "base_style", None)  # a numbering style has none
    return frozenset(out)


def _run_hidden(run, paragraph: Paragraph) -> bool:
    """Whether a run is in hidden type: its own formatting, else its character style's, else its paragraph style's
    (and their base styles')."""
    if (own := _hidden(run.font)) is not None:
        return own
    for style in (run.style, paragraph.style):
        while style is not None:
            if (said := _hidden(style.font)) is not None:
                return said
            style = style.base_style
    return False


def _visible_text(paragraph: Paragraph, hiding: frozenset[str], default: str | None) -> tuple[str, bool]:
    """A paragraph's text without its runs in hidden type, and whether it had any with text. ``hiding``: the ids of
    the styles that may hide (:func:`_styles_that_may_hide`), ``default`` the default paragraph style's id. A
    paragraph with no hidden formatting of its own and no such style on it or its runs is its text as python-docx
    reads it."""
    p = paragraph._p
    styles = {p.style or default, *p.xpath("./w:r/w:rPr/w:rStyle/@w:val | ./w:hyperlink/w:r/w:rPr/w:rStyle/@w:val")}
    if p.find(".//" + _VANISH) is None and not (hiding & styles):
        return paragraph.text, False
    shown, hidden = [], False
    for item in paragraph.iter_inner_content():
        for run in (item.runs if hasattr(item, "runs") else [item]):
            if _run_hidden(run, paragraph):
                hidden = hidden or bool(run.text.strip())
            else:
                shown.append(run.text)
    return "".join(shown), hidden


def _table_rows(table: Table, hidden_cells: list[bool], hiding: frozenset[str], default: str | None
                ) -> list[list[str]]:
    """Cell texts per row (hidden text left out, :func:`_visible_text`: one True appended to ``hidden_cells`` per
    cell that had some); a cell merged over several columns is given once."""
    rows = []
    for row in table.rows:
        cells, seen = [], set()
        for cell in row.cells:
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            read = [_visible_text(p, hiding, default) for p in cell.paragraphs]  # cell.text, hidden type left out
            cells.append(cell_text("\n".join(t for t, _ in read)))
            if any(h for _, h in read):
                hidden_cells.append(True)
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
    hidden: list[str] = []  # where hidden text was left out: "in paragraph 3", "after paragraph 5" (wholly hidden)
    hiding = _styles_that_may_hide(document)
    default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    default = default.style_id if default is not None else None
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            hidden_cells: list[bool] = []
            rows = _table_rows(item, hidden_cells, hiding, default)
            if any(any(cells) for cells in rows):
                number += 1
                blocks += table_blocks(rows, outline.path, [Location("docx", paragraphs=(number,))] * len(rows))
            if hidden_cells:
                hidden.append(f"in paragraph {number}" if any(any(cells) for cells in rows)
                              else f"after paragraph {number}")
            continue
        shown, had_hidden = _visible_text(item, hiding, default)
        text = clean_text(shown)
        if had_hidden:
            hidden.append(f"in paragraph {number + 1}" if text else f"after paragraph {number}")
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
    notes = [MACRO_NOTE] if macros else []
    if hidden:
        places = list(dict.fromkeys(hidden))
        said = ", ".join(places[:-1]) + f" and {places[-1]}" if len(places) > 1 else places[0]
        notes.append(hidden_note(f"hidden text (Word's hidden type) {said}"))
    return assemble(filename, blocks, title=document.core_properties.title or "", heading=outline.first,
                    notes=notes)
