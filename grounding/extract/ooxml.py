"""Office Open XML helpers: opening a macro-enabled document with the libraries that read the plain formats.

python-docx and python-pptx refuse a main part whose content type is the macro-enabled one (.docm, .pptm). Their text
is the same XML as in .docx and .pptx, so the content type is rewritten to the plain one in a copy of the package held
in memory. The macro part (vbaProject.bin) stays in that copy as inert bytes: nothing here or in those libraries ever
runs it, and the stored original is the file as uploaded.
"""

from __future__ import annotations

import io
import zipfile

#: Macro-enabled main-part content type -> the plain one.
_PLAIN_TYPES = {
    "application/vnd.ms-word.document.macroEnabled.main+xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml":
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml":
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
}

#: What the report of a macro-enabled file says.
MACRO_NOTE = "Macro-enabled document: its text was ingested; its macros were not run (they never are)."


def with_plain_content_types(data: bytes) -> bytes:
    """A copy of an OOXML package whose macro-enabled main content type is the plain one (see the module docstring).

    Raises:
        zipfile.BadZipFile: ``data`` is not a readable zip.
    """
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename == "[Content_Types].xml":
                text = content.decode("utf-8")
                for macro, plain in _PLAIN_TYPES.items():
                    text = text.replace(macro, plain)
                content = text.encode("utf-8")
            target.writestr(info, content)
    return out.getvalue()


def hidden_note(what: str) -> str:
    """The report's note on content a reader of the file does not see, left out of the document: ``what`` names it
    ("hidden text in paragraphs 3, 7", "hidden sheet 'Rates'", "hidden slide 4"). Hidden content is a way to plant
    text a reviewer never sees (the s44 breaker: a Word run in hidden type saying "Hot desks are free of charge" was
    quoted as the answer); an answer must rest on what a reader who opens the file can check."""
    return (f"Left out {what}: a reader opening the file does not see it, so answers never rest on it; unhide it "
            "and add the file again to include it.")
