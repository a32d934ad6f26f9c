"""Helpers for the office-format tests: the shared 18F office files and bad files made from them in memory (never
copies of shared data in the repository)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from tests.conftest import SHARED

OFFICE = SHARED / "corpora" / "18f-office"
PAGES = SHARED / "corpora" / "18f-handbook" / "current" / "pages"

_MACRO_MAIN = {
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml":
        (b"application/vnd.ms-word.document.macroEnabled.main+xml", "word/vbaProject.bin"),
    b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml":
        (b"application/vnd.ms-excel.sheet.macroEnabled.main+xml", "xl/vbaProject.bin"),
    b"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml":
        (b"application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml", "ppt/vbaProject.bin"),
}


def manifest() -> list[tuple[str, str]]:
    """(office file name, Markdown page path under PAGES) from the corpus's MANIFEST.tsv."""
    rows = []
    for line in (OFFICE / "MANIFEST.tsv").read_text().splitlines()[1:]:
        name, page = line.split("\t")
        rows.append((name, page.split(" ")[0]))
    return rows


def office(name: str) -> bytes:
    return (OFFICE / name).read_bytes()


def macro_enabled(data: bytes) -> bytes:
    """The OOXML package as its macro-enabled kind (.docm/.xlsm/.pptm): the main content type switched and a macro
    part added (inert bytes standing for VBA code)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        vba = ""
        for info in source.infolist():
            content = source.read(info)
            if info.filename == "[Content_Types].xml":
                for plain, (macro, part) in _MACRO_MAIN.items():
                    if plain in content:
                        content, vba = content.replace(plain, macro), part
                content = re.sub(rb"(<Types[^>]*>)", rb'\1<Default Extension="bin" '
                                 rb'ContentType="application/vnd.ms-office.vbaProject"/>', content, count=1)
            target.writestr(info, content)
        target.writestr(vba, b"Attribute VB_Name = \"AutoOpen\"\nSub AutoOpen(): Shell \"rm -rf /\": End Sub\n")
    return out.getvalue()


def encrypted_pdf(data: bytes) -> bytes:
    """The PDF protected by a user password (pypdf; PDFium cannot write encrypted files)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password="secret", owner_password="owner-secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pageless_pdf(data: bytes) -> bytes:
    """The PDF with every page removed (a valid file with an empty page tree)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    while len(writer.pages):
        del writer.pages[0]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def page_texts(data: bytes) -> list[str]:
    """Each page's text as PDFium extracts it (the test's own reading, independent of the extractor)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def squeeze(text: str) -> str:
    """Text without whitespace, hyphens, bullets and PDFium's line-end hyphen marks, for comparing extracted text."""
    return re.sub(r"[\s\x02\-\u00ad\ufffe\u2022\u25cf\u25e6\u25aa\u25a0]+", "", text)


def write(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path
