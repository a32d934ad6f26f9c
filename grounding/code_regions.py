"""Where a text shows code: the character ranges that a reader sees as code and that must be kept literally.

Two formats:

* Markdown (:func:`markdown_code_ranges`): fenced and indented code blocks and code spans, as markdown-it-py parses
  them (CommonMark with GFM tables, the dialect the application renders answers and ingests documents with). The
  block structure comes from markdown-it-py's own block parser (containers, lists, block quotes, tables); code spans
  are found inside each paragraph, heading and table cell with CommonMark's backtick rule (a run of n backticks opens
  a span closed by the next run of exactly n; an unmatched run is literal; a backslash escapes a backtick outside
  code), which is markdown-it-py's ``backticks`` rule. markdown-it-py's inline tokens carry no source offsets, hence
  this one rule is re-read here (tests/grounding/test_code_regions.py checks it against markdown-it-py's rendering).
  Not modelled: a backtick inside a link's destination or an autolink (``[a](x`y)``, ``<http://x`y>``), which
  markdown-it-py reads as part of the link before any code span; such text is rare in answers and documents.
* HTML (:func:`html_code_ranges`): the content of ``<pre>``, ``<code>``, ``<kbd>`` and ``<samp>`` elements, with
  positions from the standard library's ``html.parser``.

Used where text inside code must not be interpreted: citation markers in answers (grounding.citations, B09) and
Liquid tags in source documents (grounding.liquid, B11).

Offsets are character offsets into the text given; ranges are half-open ``(start, end)``, sorted, non-overlapping.
"""

from __future__ import annotations

import bisect
import re
import string
from dataclasses import dataclass
from html.parser import HTMLParser

from markdown_it import MarkdownIt

__all__ = ["Leaf", "code_spans", "html_code_ranges", "in_ranges", "line_starts", "markdown_code_ranges",
           "markdown_leaves", "may_hold_code", "unclosed_backtick"]

Range = tuple[int, int]

_ESCAPABLE = frozenset(string.punctuation)
_NEWLINE = re.compile(r"\r\n?|\n")
#: What every Markdown code block or span starts with: a backtick or tilde, or an indentation (four spaces or a tab,
#: also after a list or block-quote marker). Text without any of these holds no code.
_MAYBE_CODE = re.compile(r"[`~\t]| {4}")


def _block_parser(html: bool) -> MarkdownIt:
    """markdown-it-py's block stage only (no inline parsing: code spans are found here, with offsets)."""
    md = MarkdownIt("commonmark", {"html": html}).enable("table")
    md.core.ruler.disable(["inline", "text_join"])
    return md


_BLOCKS = {False: _block_parser(False), True: _block_parser(True)}


@dataclass(frozen=True)
class Leaf:
    """One leaf block of a Markdown text, in character offsets.

    Attributes:
        kind: "code" (a fenced or indented code block, all of it code), "inline" (a paragraph, heading or table row:
            text with possible code spans) or "html" (a raw HTML block, only with ``html=True``).
        start: offset of the block's first line.
        end: offset just past its last line (before that line's line break).
        first_line, last_line: line indexes (0-based) of its first and last line.
        fence: True for a fenced code block (its first line is the opening fence, info string included).
        code: the code ranges inside it (the whole block for kind "code").
        cells: for a table row, its cells (each a range whose code spans are read on their own); else ().
    """

    kind: str
    start: int
    end: int
    first_line: int
    last_line: int
    fence: bool
    code: tuple[Range, ...]
    cells: tuple[Range, ...] = ()


def line_starts(text: str) -> list[int]:
    """Offsets where each line of ``text`` starts ("\\n", "\\r\\n" and "\\r" end a line, as markdown-it reads them)."""
    return [0] + [m.end() for m in _NEWLINE.finditer(text)]


def _line_end(text: str, starts: list[int], line: int) -> int:
    """Offset just past the content of ``line`` (before its line break)."""
    if line + 1 < len(starts):
        end = starts[line + 1] - 1
        if end > 0 and text[end] == "\n" and text[end - 1] == "\r":
            end -= 1
        return end
    return len(text)


def _spans(text: str, start: int, end: int) -> tuple[list[Range], bool]:
    """Code spans in ``text[start:end]`` and whether a backtick run in it found no closing run there."""
    out: list[Range] = []
    unmatched = False
    i = start
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2 if i + 1 < end and text[i + 1] in _ESCAPABLE else 1
            continue
        if c != "`":
            stops = [p for p in (text.find("`", i, end), text.find("\\", i, end)) if p >= 0]
            if not stops:
                break
            i = min(stops)
            continue
        j = i
        while j < end and text[j] == "`":
            j += 1
        length, k, close = j - i, j, -1
        while True:
            k = text.find("`", k, end)
            if k < 0:
                break
            m = k
            while m < end and text[m] == "`":
                m += 1
            if m - k == length:
                close = m
                break
            k = m
        if close < 0:
            unmatched = True
            i = j  # an unmatched run is literal
            continue
        out.append((i, close))
        i = close
    return out, unmatched


def code_spans(text: str, start: int, end: int) -> list[Range]:
    """Code spans in ``text[start:end]`` (one paragraph, heading or table cell), backticks included.

    CommonMark: a backtick run not escaped by a backslash opens a span that the next run of exactly the same length
    closes (escapes do not apply inside, so the closer is any run); without such a run the opener is literal text
    and scanning goes on after it.
    """
    return _spans(text, start, end)[0]


def unclosed_backtick(text: str, start: int, end: int) -> bool:
    """True when a backtick run in ``text[start:end]`` (read as in :func:`code_spans`) has no closing run there: text
    arriving later could still close it, turning what follows it into code."""
    return _spans(text, start, end)[1]


def _cells(text: str, start: int, end: int) -> list[Range]:
    """The cell ranges of a table row ``text[start:end]``, split at pipes not preceded by a backslash (markdown-it's
    ``escapedSplit``; backticks do not protect a pipe)."""
    out, last = [], start
    for i in range(start, end):
        if text[i] == "|" and not (i > start and text[i - 1] == "\\"):
            out.append((last, i))
            last = i + 1
    out.append((last, end))
    return out


def markdown_leaves(text: str, *, html: bool = False) -> list[Leaf]:
    """The leaf blocks of a Markdown text in document order (blank lines, thematic breaks, table delimiter rows and
    link reference definitions belong to none), each with its code ranges.

    Args:
        text: Markdown source.
        html: parse raw HTML as markdown-it-py does with ``{"html": True}`` (documents); answers are parsed without.
    """
    starts = line_starts(text)
    leaves: list[Leaf] = []

    def add(kind: str, first: int, last: int, fence: bool = False, code: tuple[Range, ...] = (),
            cells: tuple[Range, ...] = ()) -> None:
        start, end = starts[first], _line_end(text, starts, last)
        if kind == "code":
            code = ((start, end),)
        leaves.append(Leaf(kind, start, end, first, last, fence, code, cells))

    for tok in _BLOCKS[html].parse(text):
        if not tok.map:
            continue
        first, last = tok.map[0], tok.map[1] - 1
        if last < first or first >= len(starts):
            continue
        last = min(last, len(starts) - 1)
        if tok.type in ("fence", "code_block"):
            add("code", first, last, fence=tok.type == "fence")
        elif tok.type in ("paragraph_open", "heading_open"):
            add("inline", first, last, code=tuple(code_spans(text, starts[first], _line_end(text, starts, last))))
        elif tok.type == "tr_open":
            cells = _cells(text, starts[first], _line_end(text, starts, first))
            add("inline", first, first, code=tuple(s for a, b in cells for s in code_spans(text, a, b)),
                cells=tuple(cells))
        elif tok.type == "html_block":
            start, end = starts[first], _line_end(text, starts, last)
            add("html", first, last, code=tuple((start + a, start + b) for a, b in html_code_ranges(text[start:end])))
    return leaves


def may_hold_code(text: str, end: int | None = None) -> bool:
    """False when ``text[:end]`` cannot hold or open Markdown code (no backtick, tilde, tab or four spaces in a
    row): a cheap test before :func:`markdown_leaves`."""
    return _MAYBE_CODE.search(text, 0, len(text) if end is None else end) is not None


def markdown_code_ranges(text: str, *, html: bool = False) -> list[Range]:
    """Character ranges of ``text`` that Markdown shows as code (code blocks, fence lines included, and code spans
    with their backticks; with ``html=True`` also <pre>/<code> inside raw HTML blocks). Sorted, non-overlapping.

    Raises:
        TypeError: when ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not may_hold_code(text) and not (html and "<" in text):
        return []
    return sorted(r for leaf in markdown_leaves(text, html=html) for r in leaf.code)


def in_ranges(ranges: list[Range], offset: int) -> bool:
    """True when ``offset`` lies inside one of the sorted, non-overlapping ``ranges``."""
    k = bisect.bisect_right(ranges, (offset, float("inf"))) - 1
    return k >= 0 and ranges[k][0] <= offset < ranges[k][1]


_HTML_CODE = frozenset({"pre", "code", "kbd", "samp"})


class _CodeFinder(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        # html.parser counts lines by "\n" only
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.open: list[str] = []  # code elements open, outermost first
        self.open_at = 0
        self.ranges: list[Range] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _HTML_CODE:
            if not self.open:
                self.open_at = self._offset() + len(self.get_starttag_text() or "")
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:  # closes it and any code element left open inside it ("<pre><code>x</pre>")
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]
            if not self.open:
                self.ranges.append((self.open_at, self._offset()))


def html_code_ranges(text: str) -> list[Range]:
    """Character ranges of an HTML text inside <pre>, <code>, <kbd> and <samp> elements (nested ones merged into the
    outermost; an element left open runs to the end of the text). Sorted, non-overlapping."""
    if "<" not in text:
        return []
    finder = _CodeFinder(text)
    finder.feed(text)
    finder.close()
    if finder.open:
        finder.ranges.append((finder.open_at, len(text)))
    return finder.ranges
