"""OCR of scanned PDF pages: the page rendered by pypdfium2, read by Tesseract through pytesseract.

Tesseract (Debian's tesseract-ocr and tesseract-ocr-eng, installed by scripts/run and scripts/test) separates
paragraphs with blank lines and keeps each paragraph's wrapped lines; the lines are joined back into paragraphs, and a
bullet glyph Tesseract misreads (¢, «, ©, *) at the start of a paragraph becomes a list item. OCR text is never as
exact as a text layer: every location of an OCR page says so (Location.ocr_pages), and the reader is told.
"""

from __future__ import annotations

import functools
import re

#: Render resolution for OCR (dots per inch): Tesseract reads best at about 300 dpi.
OCR_DPI = 300

_BULLET = re.compile(r"^(?:[\u2022\u25cf\u25aa\u25a0\u00a2\u00ab\u00bb\u00a9*+\u00b7\u00b0]|e(?=\s+[A-Z]))+\s+")


class OcrUnavailable(RuntimeError):
    """Tesseract is not installed (or its language data is missing)."""


@functools.lru_cache(maxsize=1)
def ocr_available() -> str:
    """"" when Tesseract can run, else why it cannot (a sentence naming what to install)."""
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
    except Exception as exc:  # ImportError, TesseractNotFoundError, a broken install
        return f"OCR is not available ({type(exc).__name__}); install Debian's tesseract-ocr and tesseract-ocr-eng"
    return ""


def ocr_page(page, *, languages: str = "eng", dpi: int = OCR_DPI) -> list[tuple[str, bool]]:
    """The paragraphs Tesseract reads on one pypdfium2 page.

    Args:
        page: a pypdfium2 PdfPage.
        languages: Tesseract language codes joined by "+" ("eng", "eng+deu").
        dpi: render resolution (dots per inch).
    Returns:
        [(paragraph text, is a list item)] in reading order; [] when Tesseract finds no text.
    Raises:
        OcrUnavailable: Tesseract cannot run.
    """
    why = ocr_available()
    if why:
        raise OcrUnavailable(why)
    import pytesseract

    image = page.render(scale=dpi / 72, grayscale=True).to_pil()
    try:
        text = pytesseract.image_to_string(image, lang=languages)
    except pytesseract.TesseractError as exc:
        raise OcrUnavailable(f"OCR failed: {exc}") from exc
    return ocr_paragraphs(text)


def ocr_paragraphs(text: str) -> list[tuple[str, bool]]:
    """Tesseract's plain-text output as paragraphs: blank lines separate them, wrapped lines are joined, a leading
    bullet glyph marks a list item."""
    out: list[tuple[str, bool]] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        if not lines:
            continue
        joined = lines[0]
        for ln in lines[1:]:
            # a line ending in a hyphen joins the next without a space; the hyphen stays ("high-" + "profile"): a
            # scan cannot tell a soft hyphen from a real one, and a kept hyphen never changes a value like GS-15
            joined = joined + ln if re.search(r"\w-$", joined) else joined + " " + ln
        bullet = _BULLET.match(joined)
        if bullet:
            joined = joined[bullet.end():]
        joined = re.sub(r"\s+", " ", joined).strip()
        if re.search(r"\w", joined):
            out.append((joined, bool(bullet)))
    return out
