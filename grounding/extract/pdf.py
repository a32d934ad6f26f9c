"""PDF documents: page-aware text with pypdfium2 (PDFium), OCR for pages without a text layer.

Every block carries its page (Location(format="pdf", pages=(n,))); a paragraph that runs from the foot of one page
onto the next is one block over both pages. A page without a text layer is rendered and read by OCR
(grounding.extract.ocr) and its blocks say so (``ocr_pages``); a page that gives no text either way is reported in
the document's notes, never skipped silently. Password-protected, damaged and page-less PDFs raise ParseError with
what to do.
"""

from __future__ import annotations

import re
from typing import Callable

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from grounding.extract.assemble import Outline, assemble
from grounding.extract.ocr import OcrUnavailable, ocr_page
from grounding.extract.pdf_layout import Paragraph, body_style, drop_running_lines, heading_levels, page_lines, \
    paragraphs
from grounding.location import Location
from grounding.parsing import Block, ParsedDocument, ParseError

#: A page with fewer visible characters than this in its text layer is treated as scanned (read by OCR).
MIN_TEXT_CHARS = 20

Progress = Callable[[int, int], None]


def _open(data: bytes, filename: str) -> pdfium.PdfDocument:
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if re.search(rb"/Encrypt\b", data):
            raise ParseError(f"{filename}: the PDF is password-protected; open it with its password, save or print "
                             "it as a PDF without one, and add that copy") from exc
        if _empty_page_tree(data):
            raise ParseError(f"{filename}: the PDF has no pages; export the document again and add the new "
                             "file") from exc
        raise ParseError(f"{filename}: the PDF is damaged and cannot be opened ({exc}); export or save it again "
                         "and add the new file") from exc
    if len(pdf) == 0:
        raise ParseError(f"{filename}: the PDF has no pages; export the document again and add the new file")
    return pdf


def _empty_page_tree(data: bytes) -> bool:
    """True when the file's page tree objects (those of /Type /Pages) all count 0 pages (PDFium refuses such a file
    with an unrelated error code). Page trees inside compressed object streams are not seen: then False."""
    counts = [re.search(rb"/Count\s+(\d+)", obj) for obj in data.split(b"endobj")
              if re.search(rb"/Type\s*/Pages\b", obj)]
    return bool(counts) and all(c is not None and int(c.group(1)) == 0 for c in counts)


def extract_pdf(data: bytes, filename: str, *, progress: Progress | None = None, ocr: bool = True,
                ocr_languages: str = "eng") -> ParsedDocument:
    """Blocks of a PDF with their pages.

    Args:
        data: the file's bytes.
        filename: for messages and the fallback title.
        progress: called as progress(pages done, pages total) after each page.
        ocr: read pages without a text layer with Tesseract (False: report them as having no text).
        ocr_languages: Tesseract language codes ("eng", "eng+deu").
    Returns:
        ParsedDocument: title from the PDF's Title property, else its first heading, else the file name; ``pages``
        the page count; ``notes`` one line per page without text.
    Raises:
        ParseError: password-protected, damaged or without pages, or no text on any page.
    """
    pdf = _open(data, filename)
    total = len(pdf)
    texts: list[list] = []  # per page: text-layer lines, or None for a page read by OCR
    scanned: dict[int, list[tuple[str, bool]]] = {}
    notes: list[str] = []
    try:
        for i in range(total):
            page = pdf[i]
            lines = page_lines(page.get_textpage())
            if sum(len(ln.text.strip()) for ln in lines) >= MIN_TEXT_CHARS or not ocr:
                texts.append(lines)
                if not lines:
                    notes.append(f"Page {i + 1} has no text layer and OCR is off; it was not read.")
            elif not any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects(max_depth=4)):
                texts.append(lines)  # a few characters and no image: the page's text is what it has
                if not lines:
                    notes.append(f"Page {i + 1} is blank (no text and no image); nothing to read there.")
            else:
                texts.append([])
                try:
                    scanned[i] = ocr_page(page, languages=ocr_languages)
                except OcrUnavailable as exc:
                    scanned[i] = []
                    notes.append(f"Page {i + 1} has no text layer: {exc}.")
                else:
                    if not scanned[i]:
                        notes.append(f"Page {i + 1} is a scanned page on which OCR found no text (blank, or an "
                                     "image without words).")
            if progress:
                progress(i + 1, total)
        read = [i + 1 for i, found in sorted(scanned.items()) if found]
        if read:  # the s28 new user's scanned PDF: its report said nothing of OCR, and OCR misread bullets and words
            which = (f"Page {read[0]}" if len(read) == 1 else f"Pages {read[0]}-{read[-1]}"
                     if read == list(range(read[0], read[-1] + 1)) else "Pages " + ", ".join(map(str, read)))
            notes.append(f"{which} of {total} had no text layer and {'was' if len(read) == 1 else 'were'} read by "
                         "OCR: words and numbers may be misread; check a quote against the original.")
        # a converter's stamp is not a title ("Microsoft Word - leave.docx")
        title = re.sub(r"^Microsoft \w+ - .*", "", pdf.get_metadata_dict().get("Title", "").strip())
    finally:
        pdf.close()
    texts = drop_running_lines(texts)
    body = body_style(texts)
    levels = heading_levels(texts, body)
    outline = Outline()
    blocks: list[Block] = []
    for i, lines in enumerate(texts):
        number = i + 1
        if i in scanned:
            here = Location("pdf", pages=(number,), ocr_pages=(number,))
            page_paragraphs = [Paragraph(text, item=item) for text, item in scanned[i]]
        else:
            here = Location("pdf", pages=(number,))
            page_paragraphs = paragraphs(lines, body, levels)
        for j, para in enumerate(page_paragraphs):
            if para.level:
                outline.heading(para.level, para.text)
                continue
            text = ("- " if para.item else "") + para.text
            if j == 0 and blocks and _continues(blocks[-1], para, number):
                prev = blocks[-1]
                merged = Location("pdf", pages=prev.location.pages + (number,),
                                  ocr_pages=prev.location.ocr_pages + here.ocr_pages)
                blocks[-1] = Block(prev.section, prev.text + " " + para.text, merged)
                continue
            blocks.append(Block(outline.path, text, here))
    return assemble(filename, blocks, title=title, heading=outline.first, notes=notes, pages=total)


def _continues(previous: Block, para: Paragraph, number: int) -> bool:
    """True when ``para``, the first paragraph of page ``number``, goes on with the last block of the page before
    (that block does not end a sentence and ``para`` is body text)."""
    loc = previous.location
    return (loc is not None and loc.pages[-1] == number - 1 and not para.item and not previous.text.startswith("- ")
            and not re.search(r"[.!?:;\"\u201d)]\s*$", previous.text) and bool(para.text[:1].strip()))
