"""What a file really is, from its bytes (magic numbers and zip members), checked against its name's extension.

The extension only says what the user expects: a PDF renamed ".docx", a Word file renamed ".pdf" or a PDF saved as
".txt" is refused with a message naming both the claimed and the real type (never parsed as the wrong format, and
never silently parsed as something else). Office Open XML files are zips whose ``[Content_Types].xml`` names the main
part; a macro-enabled document (.docm, .xlsm, .pptm, or a macro part inside any of them) is recognised so that its
text can be taken while its macros are never run. Old binary Office files and password-protected Office files share
the OLE2 container and are refused with what to do.
"""

from __future__ import annotations

import codecs
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import PurePath

from grounding.parsing import ParseError

#: Extension -> the format its content must have (.docm/.pptm/.xlsm: the macro-enabled kinds of the same formats).
SUFFIXES: dict[str, str] = {
    ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html", ".htm": "html",
    ".pdf": "pdf", ".csv": "csv",
    ".docx": "docx", ".docm": "docx", ".pptx": "pptx", ".pptm": "pptx", ".xlsx": "xlsx", ".xlsm": "xlsx",
}

#: What each format is called in messages.
NAMES = {"markdown": "Markdown text", "text": "plain text", "html": "HTML", "pdf": "a PDF document",
         "csv": "a CSV table", "docx": "a Word document (.docx)", "pptx": "a PowerPoint presentation (.pptx)",
         "xlsx": "an Excel workbook (.xlsx)"}

#: The text formats: any of them may hold the others' text (a .txt of Markdown is fine), none holds binary content.
TEXT_FORMATS = frozenset({"markdown", "text", "html", "csv"})

#: Largest total a zip may unpack to (bytes): a small file that unpacks to more is a zip bomb, not a document.
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024

_OOXML_MAIN = {"word/document.xml": "docx", "ppt/presentation.xml": "pptx", "xl/workbook.xml": "xlsx"}
_SUFFIX_OF = {"docx": ".docx", "pptx": ".pptx", "xlsx": ".xlsx", "pdf": ".pdf"}


@dataclass(frozen=True)
class Sniffed:
    """The real type of a file.

    Attributes:
        format: "markdown", "text", "html", "csv", "pdf", "docx", "pptx" or "xlsx".
        macros: True for a macro-enabled Office document (its macros are never run; the report says so).
    """

    format: str
    macros: bool = False


def supported_suffixes() -> tuple[str, ...]:
    """Every extension ingestion takes, in a stable order (".md", ".markdown", ..., ".xlsm")."""
    return tuple(SUFFIXES)


def _ooxml_kind(data: bytes, filename: str) -> Sniffed:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        unpacked = sum(info.file_size for info in archive.infolist())
        types = archive.read("[Content_Types].xml").decode("utf-8", "replace") if "[Content_Types].xml" in names \
            else ""
    except (zipfile.BadZipFile, EOFError, KeyError, OSError, ValueError) as exc:
        raise ParseError(f"{filename}: the file is damaged (its zip container cannot be read: {exc}); open it in its "
                         "application, save it again and add the new file") from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise ParseError(f"{filename}: the file would unpack to {unpacked:,} bytes, more than the "
                         f"{MAX_UNPACKED_BYTES:,} a document may hold; it was not opened")
    kind = next((k for part, k in _OOXML_MAIN.items() if part in names), None)
    if kind is None:
        raise ParseError(f"{filename}: a zip archive, not a Word, PowerPoint or Excel file; add the documents "
                         "themselves")
    macros = bool(re.search(r"macroEnabled", types, re.I)) or any(n.lower().endswith("vbaproject.bin") for n in names)
    return Sniffed(kind, macros)


def _is_text(data: bytes) -> bool:
    """True when the first 4 KiB of ``data`` read as UTF-8 text with no NUL byte (a character the 4 KiB cut in two
    is read as begun, by the codec's incremental decoder)."""
    head = data[:4096]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=len(data) <= len(head))
    except UnicodeDecodeError:
        return False
    return b"\x00" not in head


def sniff(data: bytes, filename: str) -> Sniffed:
    """The real format of ``data``, checked against the extension of ``filename``.

    Returns:
        Sniffed(format, macros).
    Raises:
        ParseError: an unsupported extension; an empty file (0 bytes); content of another type than the extension
            says (naming both and what to do); a damaged zip container; an old binary or password-protected Office
            file.
    """
    suffix = PurePath(filename).suffix.lower()
    expected = SUFFIXES.get(suffix)
    if expected is None:
        raise ParseError(f"{filename}: unsupported file type {suffix or '(none)'}; expected one of "
                         f"{', '.join(supported_suffixes())}")
    if not data:
        raise ParseError(f"{filename}: the file is empty (0 bytes): it was probably cut off while being copied; "
                         "add the original file again")
    head = data[:8]
    if head.startswith(b"%PDF-") or (b"%PDF-" in data[:1024] and expected == "pdf"):
        real = Sniffed("pdf")
    elif head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        real = _ooxml_kind(data, filename)
    elif head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise ParseError(f"{filename}: the document is password-protected; remove the password in its "
                             "application (save a copy without one) and add that copy")
        raise ParseError(f"{filename}: an old binary Office file (.doc, .xls or .ppt), which is not supported; save "
                         "it as .docx, .xlsx or .pptx and add that file")
    elif expected in TEXT_FORMATS:
        return Sniffed(expected)  # text is checked as such by its parser (encoding, NUL bytes)
    elif _is_text(data):
        # a text file behind a binary format's extension (the s43 breaker's realmd.pdf, a Markdown file): name what it
        # is and the renaming that makes it readable
        raise ParseError(f"{filename}: the content is plain text, not {NAMES[expected]} (its extension {suffix} says "
                         "it should be); if it is Markdown or text, rename it to .md or .txt and add it again, else "
                         "add the original file")
    else:
        raise ParseError(f"{filename}: the content is not {NAMES[expected]} (its extension {suffix} says it "
                         "should be); add the original file")
    if real.format != expected:
        fix = (f"rename it to {_SUFFIX_OF[real.format]} and add it again" if real.format in _SUFFIX_OF
               else "add the original file")
        raise ParseError(f"{filename}: the extension {suffix} says {NAMES[expected]}, but the content is "
                         f"{NAMES[real.format]}; {fix}")
    return real
