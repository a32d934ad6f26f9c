"""PowerPoint presentations (.pptx, .pptm) with python-pptx: one slide at a time, cited by slide number.

A slide's title opens its section; a paragraph wholly in bold that does not end like a sentence is a sub-heading
below it; bulleted paragraphs (a body placeholder's paragraphs unless they switch bullets off, or any paragraph with
its own bullet) become list items indented by level; tables become Markdown tables; speaker notes are kept under
"Speaker notes". Shapes are read in the slide's order, groups included. Every block carries its slide number.
"""

from __future__ import annotations

import io
import zipfile
from typing import Callable, Iterator

from lxml import etree
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.exc import PackageNotFoundError

from grounding.extract.assemble import Outline, assemble, cell_text, clean_text, table_blocks
from grounding.extract.ooxml import MACRO_NOTE, hidden_note, with_plain_content_types
from grounding.location import Location
from grounding.parsing import Block, ParsedDocument, ParseError

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_BODY = {PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT}
_TITLES = {PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE}


def _shapes(shapes) -> Iterator:
    """Shapes in the slide's own order (the order they were placed in, which authoring tools keep as the reading
    order; positions mislead on two-column layouts), the shapes of a group in place of the group."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _placeholder_type(shape):
    return shape.placeholder_format.type if shape.is_placeholder else None


def _bulleted(paragraph, in_body: bool) -> bool:
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.find(f"{_A}buNone") is not None:
        return False
    if ppr is not None and (ppr.find(f"{_A}buChar") is not None or ppr.find(f"{_A}buAutoNum") is not None):
        return True
    return in_body


def _all_bold(paragraph) -> bool:
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(r.font.bold for r in runs)


def _slide_blocks(slide, number: int) -> tuple[list[Block], str]:
    """The blocks of one slide and its title ("" when it has none)."""
    here = Location("pptx", slides=(number,))
    outline = Outline()
    title = clean_text(slide.shapes.title.text_frame.text) if slide.shapes.title is not None else ""
    if title:
        outline.heading(1, title)
    blocks: list[Block] = []
    for shape in _shapes(slide.shapes):
        kind = _placeholder_type(shape)
        if kind in _TITLES:
            continue
        if shape.has_table:
            rows = [[cell_text(cell.text) for cell in row.cells] for row in shape.table.rows]
            blocks += table_blocks(rows, outline.path, [here] * len(rows))
            continue
        if not shape.has_text_frame:
            continue
        for paragraph in shape.text_frame.paragraphs:
            text = clean_text(paragraph.text)
            if not text:
                continue
            if _all_bold(paragraph) and len(text) <= 100 and not text.endswith((".", ":", ";", ",")):
                outline.heading(2, text)
                continue
            if _bulleted(paragraph, kind in _BODY):
                text = "  " * paragraph.level + "- " + text
            blocks.append(Block(outline.path, text, here))
    if slide.has_notes_slide:
        notes = clean_text(slide.notes_slide.notes_text_frame.text) if slide.notes_slide.notes_text_frame else ""
        if notes:
            blocks.append(Block(outline.path[:1] + ("Speaker notes",), notes, here))
    return blocks, title


def extract_pptx(data: bytes, filename: str, *, macros: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> ParsedDocument:
    """Blocks of a presentation, each with its slide number (hidden slides left out and named in the notes:
    grounding.extract.ooxml.hidden_note).

    Args:
        data: the file's bytes (a .pptx or .pptm package; sniffed before).
        filename: for messages and the fallback title.
        macros: the package is macro-enabled: its text is read, its macros never run, and the notes say so.
        progress: called as progress(slides done, slides total) after each slide.
    Returns:
        ParsedDocument titled by the Title property, else the first slide's title, else the file name; ``pages`` is
        the number of slides.
    Raises:
        ParseError: a damaged package, no slides or no text.
    """
    try:
        presentation = Presentation(io.BytesIO(with_plain_content_types(data) if macros else data))
        slides = list(presentation.slides)
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:
        raise ParseError(f"{filename}: the presentation is damaged and cannot be read ({exc}); open it in "
                         "PowerPoint, save it again and add the new file") from exc
    if not slides:
        raise ParseError(f"{filename}: the presentation has no slides")
    blocks: list[Block] = []
    first_title = ""
    hidden: list[int] = []
    for i, slide in enumerate(slides):
        if slide._element.get("show") in ("0", "false"):  # a hidden slide: not shown when the deck is presented
            hidden.append(i + 1)
        else:
            slide_blocks, title = _slide_blocks(slide, i + 1)
            blocks += slide_blocks
            first_title = first_title or title
        if progress:
            progress(i + 1, len(slides))
    notes = [MACRO_NOTE] if macros else []
    if hidden:
        notes.append(hidden_note(f"hidden slide{'s' if len(hidden) > 1 else ''} " + ", ".join(map(str, hidden))))
    return assemble(filename, blocks, title=presentation.core_properties.title or "", heading=first_title,
                    notes=notes, pages=len(slides))
