"""Text lines of a PDF page with their font size and position (pypdfium2), grouped into headings, list items and
paragraphs.

A PDF holds positioned glyphs, not paragraphs: PDFium's text page gives characters in reading order with generated
line breaks, and each character's font size and baseline. A line larger than the document's body size (the size
most characters have) is a heading (levels by size, largest first); a line opening with a bullet or a number is a list
item; a short line wholly in bold or in another font than the body's, at the body size, that does not end like a
sentence is a heading too (below the larger ones); otherwise a line continues the paragraph above it unless the gap between their baselines is wider than a
wrapped line's (1.45 x the font size) or it starts left of the paragraph's text. The same heuristics as text-layer
layout analysers such as pdfminer's LAParams (line margin relative to line height), kept small: tables in PDFs stay
lines of text.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass

import pypdfium2.raw as pdfium_c

#: A line whose size is at least this multiple of the body size is a heading.
HEADING_RATIO = 1.12
#: Baselines further apart than this multiple of the font size start a new paragraph.
PARAGRAPH_GAP = 1.45

_BULLET = re.compile(r"^(?:[\u2022\u25cf\u25e6\u25aa\u25a0\u2023\u2043\u2013\u2014*\u00b7\uf0b7-]|\(?\d{1,2}[.)]|"
                     r"\(?[a-z][.)])\s+")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?[-\u2013(]?\s*\d{1,4}\s*[-\u2013)]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)


@dataclass
class Line:
    """One text line of a page: its text as PDFium gives it (a trailing space kept), the font size of its first glyph
    (points), its baseline y and left x (points from the page's bottom-left), whether it ends with a soft hyphen
    PDFium marked, whether its first and last glyphs are bold, and the font of its first and last glyphs ("" when
    they differ: a line in more than one font is body text)."""

    text: str
    size: float
    baseline: float
    left: float
    hyphen: bool = False
    bold: bool = False
    font: str = ""


@dataclass
class Paragraph:
    """A heading (``level`` >= 1), a list item (``item``) or a paragraph of body text, on one page."""

    text: str
    level: int = 0
    item: bool = False


def page_lines(textpage) -> list[Line]:
    """The lines of a pypdfium2 PdfTextPage, in reading order (empty lines dropped)."""
    raw = textpage.raw
    n = pdfium_c.FPDFText_CountChars(raw)
    x, y = ctypes.c_double(), ctypes.c_double()
    lines: list[Line] = []
    chars: list[str] = []
    first = last = -1
    hyphen = False

    def close() -> None:
        text = "".join(chars)
        if text.strip() and first >= 0:
            pdfium_c.FPDFText_GetCharOrigin(raw, first, ctypes.byref(x), ctypes.byref(y))
            font = _font(raw, first)
            lines.append(Line(text, round(pdfium_c.FPDFText_GetFontSize(raw, first), 1), y.value, x.value, hyphen,
                              _bold(raw, first) and _bold(raw, last), font if _font(raw, last) == font else ""))

    for i in range(n):
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        if code in (10, 13):
            if code == 10:
                close()
                chars, first, hyphen = [], -1, False
            continue
        ch = chr(code) if code else ""
        if ch.strip():
            first = i if first < 0 else first
            last = i
        if ch in ("\u00ad", "\x02") and pdfium_c.FPDFText_IsHyphen(raw, i) == 1:
            # a hyphen at the line's end: the word goes on on the next line. PDFium gives a visible hyphen as \x02
            # (kept as "-": it may belong to the word, as in "opt-in"); a soft hyphen (U+00AD) goes
            hyphen = True
            if ch == "\u00ad":
                continue
            ch = "-"
        chars.append(ch)
    close()
    return lines


_FONT_NAME = ctypes.create_string_buffer(128)


def _font(raw, index: int) -> str:
    """The font name of the glyph at ``index``."""
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(raw, index, _FONT_NAME, len(_FONT_NAME), ctypes.byref(flags))
    return _FONT_NAME.value.decode("latin-1")


def _bold(raw, index: int) -> bool:
    """Whether the glyph at ``index`` is set in a bold face (weight >= 600 or a bold font name)."""
    return pdfium_c.FPDFText_GetFontWeight(raw, index) >= 600 or _is_bold_name(_font(raw, index))


def _family(font: str) -> str:
    """A font's family without its style ("DejaVuSerif-Italic" -> "dejavuserif"): italics are emphasis, not a
    heading."""
    return re.sub(r"[-,_ ]?(bold|italic|oblique|regular|medium|light|semibold|black|heavy|demi|mt|ps)+$", "",
                  font.split("+")[-1], flags=re.I).lower()


def _is_bold_name(font: str) -> bool:
    return bool(re.search(r"bold|black|heavy|semibold|demi", font, re.I))


@dataclass(frozen=True)
class Body:
    """The body text's font size (points) and font name: those most characters of the document have."""

    size: float
    font: str


def body_style(pages: list[list[Line]]) -> Body:
    """The Body of a document (size 0 for no text)."""
    sizes: Counter[float] = Counter()
    fonts: Counter[str] = Counter()
    for lines in pages:
        for line in lines:
            sizes[line.size] += len(line.text)
            fonts[line.font] += len(line.text)
    return Body(sizes.most_common(1)[0][0] if sizes else 0.0, fonts.most_common(1)[0][0] if fonts else "")


Style = tuple[float, str]  # (font size, font name) of a heading


def heading_style(line: Line, body: Body) -> Style | None:
    """The line's heading style, or None for body text: a line larger than the body size, or a short line wholly in
    bold or in another font family than the body's, at about the body size, that does not end like a sentence
    (``paragraphs`` also wants it to open a paragraph)."""
    text = line.text.strip()
    if not body.size or len(text) > 200:
        return None
    if line.size >= body.size * HEADING_RATIO:
        return (line.size, line.font)
    if (line.bold or (line.font and _family(line.font) != _family(body.font))) and line.size >= body.size * 0.95 \
            and len(text) <= 100 and not re.search(r"[.,;:!?]$", text):
        return (line.size, line.font)
    return None


def heading_levels(pages: list[list[Line]], body: Body) -> dict[Style, int]:
    """Heading style -> heading level: 1 for the largest size; at one size bold before the others, then in the order
    the styles first appear (a document's H3 comes before its first H4)."""
    first: dict[Style, int] = {}
    for lines in pages:
        for line in lines:
            style = heading_style(line, body)
            if style is not None and style not in first:
                first[style] = len(first)
    order = sorted(first, key=lambda s: (-s[0], not (_is_bold_name(s[1]) or _bold_lines(pages, s)), first[s]))
    return {style: i + 1 for i, style in enumerate(order)}


def _bold_lines(pages: list[list[Line]], style: Style) -> bool:
    return any(line.bold and (line.size, line.font) == style for lines in pages for line in lines)


def drop_running_lines(pages: list[list[Line]]) -> list[list[Line]]:
    """The pages without their running headers and footers: a first or last line that is the page's own number ("3",
    "Page 3 of 9", "- 3 -" on page 3), or whose text (digits ignored) opens or closes at least 60% of three or more
    pages."""
    def key(line: Line) -> str:
        return re.sub(r"\d+", "#", line.text.strip().lower())

    edges: Counter[str] = Counter()
    for lines in pages:
        for line in {id(l): l for l in (lines[:1] + lines[-1:])}.values():
            edges[key(line)] += 1
    repeated = {k for k, n in edges.items() if len(pages) >= 3 and n >= 0.6 * len(pages)}
    out = []
    for number, lines in enumerate(pages, 1):
        kept = list(lines)
        for pos in (0, -1):
            text = kept[pos].text.strip() if kept else ""
            own_number = _PAGE_NUMBER.match(text) and re.search(r"\d+", text).group(0) == str(number)
            if kept and (own_number or key(kept[pos]) in repeated):
                kept.pop(pos)
        out.append(kept)
    return out


def _join(text: str, line: Line, previous: Line) -> str:
    if previous.hyphen:
        return text + line.text.strip()
    if previous.text.endswith("-") and previous.text[-2:-1].isalnum():
        # a compound broken after its hyphen ("high-" + "profile"), or a range ("slides 4-" + "7)")
        return text + line.text.strip()
    return text + " " + line.text.strip()


def paragraphs(lines: list[Line], body: Body, levels: dict[Style, int]) -> list[Paragraph]:
    """Group one page's lines into headings, list items and paragraphs (see the module docstring)."""
    out: list[Paragraph] = []
    prev: Line | None = None
    indent = 0.0  # left x of the open paragraph's continuation lines
    for line in lines:
        text = line.text.strip()
        style = heading_style(line, body)
        level = levels.get(style, 0) if style else 0
        if level and prev is not None and not (prev.baseline - line.baseline > PARAGRAPH_GAP * max(line.size, prev.size)
                                               or prev.baseline < line.baseline) \
                and not (out and out[-1].level == level):
            level = 0  # a line in a heading's style inside a paragraph (a bold phrase wrapped onto its own line)
        bullet = _BULLET.match(text)
        gap = (prev.baseline - line.baseline) if prev is not None else 0.0
        wide = prev is None or gap < 0 or gap > PARAGRAPH_GAP * max(line.size, prev.size)
        current = out[-1] if out else None
        if level:
            if current is not None and current.level == level and not wide:
                current.text += " " + text  # a heading wrapped over two lines
            else:
                out.append(Paragraph(text, level=level))
        elif bullet:
            out.append(Paragraph(text[bullet.end():].strip(), item=True))
            indent = line.left + 1.0
        elif current is None or current.level or wide or (current.item and line.left < indent - 6):
            out.append(Paragraph(text))
            indent = line.left
        else:
            current.text = _join(current.text, line, prev)
        prev = line
    return out
