"""Text and provenance out of any supported file: the one entry point ingestion calls.

``extract_document`` checks what the bytes really are (grounding.extract.sniff), then hands them to the format's
reader: Markdown, HTML and plain text to grounding.parsing; PDF to grounding.extract.pdf (pypdfium2, OCR by Tesseract
for scanned pages); Word, PowerPoint and Excel to grounding.extract.word / slides / sheets (python-docx, python-pptx,
openpyxl); CSV to the standard library. Each returns the same ParsedDocument, whose blocks carry their location
(page, slide, sheet and row) for chunking (grounding.chunking.chunk_blocks).
"""

from __future__ import annotations

import logging
from typing import Callable

from grounding.extract.sniff import SUFFIXES, Sniffed, sniff, supported_suffixes
from grounding.parsing import ParsedDocument, ParseError, parse_document

__all__ = ["ParseError", "SUFFIXES", "extract_document", "supported_suffixes"]

#: progress(units done, units total): pages of a PDF, slides of a presentation, worksheets of a workbook.
Progress = Callable[[int, int], None]

_log = logging.getLogger(__name__)


def extract_document(data: bytes, filename: str, *, progress: Progress | None = None, ocr: bool = True,
                     ocr_languages: str = "eng") -> ParsedDocument:
    """Parse one file's bytes, whatever its supported format.

    Args:
        data: the file's bytes.
        filename: its name (the extension says what it should be; the content decides what it is).
        progress: called as progress(done, total) while a PDF's pages, a presentation's slides or a workbook's sheets
            are read (not called for the other formats).
        ocr: read PDF pages that have no text layer with Tesseract.
        ocr_languages: Tesseract language codes joined by "+".
    Returns:
        ParsedDocument with at least one block; ``notes`` hold what the reader of the ingestion report should know
        (macros not run, pages without text), ``pages`` the page, slide or sheet count.
    Raises:
        ParseError: an unsupported extension, content that is not what the extension says, or a file that is
            damaged, password-protected, empty or without text (an unexpected failure of a reader's library on a
            malformed file included); the message names the file and what to do.
    """
    kind = sniff(data, filename)
    try:
        return _read(kind, data, filename, progress=progress, ocr=ocr, ocr_languages=ocr_languages)
    except ParseError:
        raise
    except Exception as exc:  # a malformed file can make a reader fail in ways its library does not document
        # the reader's own words ("'lxml.etree._Element' object has no attribute 'overrides'": the s46 breaker's
        # broken .docx) tell the uploader nothing: they go to the log, the message says what the file is
        _log.warning("%s: the %s reader failed: %s: %s", filename, kind.format, type(exc).__name__, exc)
        raise ParseError(f"{filename}: the file is damaged and could not be read as a {kind.format.upper()} file; open "
                         "it in its application, save it again and add the new file") from exc


def _read(kind: Sniffed, data: bytes, filename: str, *, progress: Progress | None, ocr: bool,
          ocr_languages: str) -> ParsedDocument:
    if kind.format == "pdf":
        from grounding.extract.pdf import extract_pdf

        return extract_pdf(data, filename, progress=progress, ocr=ocr, ocr_languages=ocr_languages)
    if kind.format == "docx":
        from grounding.extract.word import extract_docx

        return extract_docx(data, filename, macros=kind.macros)
    if kind.format == "pptx":
        from grounding.extract.slides import extract_pptx

        return extract_pptx(data, filename, macros=kind.macros, progress=progress)
    if kind.format == "xlsx":
        from grounding.extract.sheets import extract_xlsx

        return extract_xlsx(data, filename, macros=kind.macros, progress=progress)
    if kind.format == "csv":
        from grounding.extract.sheets import extract_csv

        return extract_csv(data, filename)
    return parse_document(data, filename)
