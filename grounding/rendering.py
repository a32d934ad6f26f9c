"""Render an answer's Markdown to safe HTML with citation chips built from the source map.

Model text is rendered with markdown-it-py (CommonMark + GFM tables, raw HTML off) and sanitised with nh3, so only
our own markup survives. Citation markers are swapped for placeholders before Markdown renders and for chips after,
so Markdown never sees a marker and a marker can never be mistaken for Markdown (a link reference "[S2]: url", a
bracket written as an HTML entity). Look-alikes inside code are not markers (grounding.citations) and stay code.

Every marker is shown exactly once, beside what it supports, whatever the answer's Markdown structure (B10):

* a marker after a table row's last pipe (``| Plus | 15 | [S1]``) sits in a cell beyond the header's columns, which
  GFM drops: it moves into the row's last cell;
* a line without a pipe right after a table (``[S1]``, ``Total 3 [S1]``), which GFM would make a one-cell row, ends
  the table and is shown as the paragraph after it;
* a marker in a link's destination or title, or in an image (which the sanitiser removes), is shown right after the
  link or image;
* anything Markdown still swallows is shown at the end of the answer rather than lost.
"""

from __future__ import annotations

import bisect
import html
import re
from urllib.parse import unquote

import nh3
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from grounding.citations import Marker, parse_markers

__all__ = ["render_html"]

_OPEN_MARK, _CLOSE_MARK = "\ue000", "\ue001"  # private-use characters standing for markers while Markdown renders
_PLACEHOLDER = re.compile(_OPEN_MARK + r"(\d+)" + _CLOSE_MARK)
_ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "pre", "br", "blockquote", "button", "span",
                 "table", "thead", "tbody", "tr", "th", "td", "h3", "h4"}
_ALLOWED_ATTRS = {"button": {"class", "type", "data-label", "data-span", "aria-label", "title"},
                  "span": {"class", "title", "data-label"}}
#: What stands before a table row's first cell: indentation and block-quote markers.
_ROW_PREFIX = re.compile(r"^(?:[ \t]*>)*[ \t]*")


def _lift_from_links(state: StateCore) -> None:
    """Core rule: placeholders in a link's destination or title, or anywhere in an image, become text right after
    the link or image (an attribute is not shown, and the sanitiser removes images)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        out: list[Token] = []
        lifted: list[str] = []  # placeholders of the open link's destination and title
        shown_inside = ""  # the open link's text (an autolink shows its destination as its text)
        for tok in block.children:
            if lifted and tok.type == "text":
                shown_inside += tok.content
            if tok.type == "link_open":
                for name in ("href", "title"):
                    value = tok.attrs.get(name)
                    value = unquote(value) if isinstance(value, str) else ""  # a destination is percent-encoded
                    if _OPEN_MARK in value:
                        lifted += _PLACEHOLDER.findall(value)
                        tok.attrs[name] = _PLACEHOLDER.sub("", value)
            out.append(tok)
            if tok.type == "image":
                found = [k for value in tok.attrs.values() if isinstance(value, str)
                         for k in _PLACEHOLDER.findall(unquote(value))]
                found += _PLACEHOLDER.findall(tok.content)  # the alt text
                if found:
                    out.append(_text(list(dict.fromkeys(found))))
            elif tok.type == "link_close" and lifted:
                lifted = [k for k in lifted if f"{_OPEN_MARK}{k}{_CLOSE_MARK}" not in shown_inside]
                if lifted:
                    out.append(_text(lifted))
                lifted, shown_inside = [], ""
        block.children = out


def _text(placeholders: list[str]) -> Token:
    token = Token("text", "", 0)
    token.content = " " + " ".join(f"{_OPEN_MARK}{k}{_CLOSE_MARK}" for k in placeholders)
    return token


_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_md.core.ruler.after("inline", "lift_markers_from_links", _lift_from_links)
_blocks = MarkdownIt("commonmark", {"html": False}).enable("table")
_blocks.core.ruler.disable(["inline", "text_join"])


def _pipes(line: str, start: int) -> list[int]:
    """Offsets of the pipes that split cells in ``line[start:]`` (not escaped by a backslash; markdown-it's rule)."""
    return [i for i in range(start, len(line)) if line[i] == "|" and not (i > start and line[i - 1] == "\\")]


def _mend_row(line: str, columns: int) -> str:
    """A table row whose cells beyond the header's ``columns`` hold placeholders, with those placeholders moved to
    the end of its last cell (GFM drops the extra cells and what is in them); other rows unchanged."""
    start = _ROW_PREFIX.match(line).end()
    end = len(line.rstrip(" \t"))
    pipes = _pipes(line, start)
    bounds = [start - 1, *pipes, end]
    if pipes and pipes[0] == start:  # a leading pipe opens the first cell
        bounds = bounds[1:]
    cells = [(a + 1, b) for a, b in zip(bounds, bounds[1:])]
    if cells and cells[-1][0] >= cells[-1][1]:  # a trailing pipe closes the last cell
        cells.pop()
    if len(cells) <= columns:
        return line
    cut = cells[columns - 1][1]  # end of the last cell that is shown
    extra = _PLACEHOLDER.findall(line, cut)
    if not extra:
        return line
    moved = " " + " ".join(f"{_OPEN_MARK}{k}{_CLOSE_MARK}" for k in extra)
    return line[:cut].rstrip(" \t") + moved + " " + _PLACEHOLDER.sub("", line[cut:])


def _mend_tables(src: str) -> str:
    """Keep every placeholder of a table where it is shown: see the module docstring (B10)."""
    if "|" not in src:
        return src
    src = re.sub(r"\r\n?", "\n", src)
    lines = src.split("\n")
    breaks: set[int] = set()
    columns, in_body = 0, False
    tokens = _blocks.parse(src)
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            columns = 0
            for t in tokens[i + 1:]:
                if t.type == "tr_close":
                    break
                columns += t.type == "th_open"
            in_body = False
        elif tok.type == "tbody_open":
            in_body = True
        elif tok.type == "table_close":
            in_body = False
        elif tok.type == "tr_open" and in_body and tok.map:
            row = tok.map[0]
            line = lines[row]
            if not _pipes(line, _ROW_PREFIX.match(line).end()):
                breaks.add(row)  # not a row: the table ends before it
                in_body = False
            else:
                lines[row] = _mend_row(line, columns)
    if not breaks:
        return "\n".join(lines)
    out = []
    for n, line in enumerate(lines):
        if n in breaks:
            quote = re.match(r"^(?:[ \t]*>)*", line).group(0)  # stay inside a block quote
            out.append(quote.strip() if quote else "")
        out.append(line)
    return "\n".join(out)


#: What ends a sentence: a full stop, question or exclamation mark (closing quotes or brackets may follow) before a
#: space, the end, or a marker right after it ("replaced.[S1]"); or a line break (a list item, a row, a paragraph).
_SENTENCE_END = re.compile(r"[.!?。！？][\"'”’)\]]*(?:\s|$|(?=[\[【]))|\n")
_END_CHARS = ".!?。！？"


def _repeats(text: str, markers: list[Marker], known: set[str]) -> list[set[int]]:
    """For each marker, the positions (among its known labels) of the labels already shown as a chip in the same
    sentence, so that each distinct chip is shown once per sentence ("A [S1] and B [S1]." and "A [S1][S1]." show
    one S1 chip; "A [S1]. B [S1]." shows two).

    A marker belongs to the sentence it closes: the one ending right before it when the text before it ends with a
    full stop ("... months. [S1]"), else the one it stands in; a marker right after another one (only whitespace
    between) shares that one's sentence.
    """
    ends = [(e.start(), e.end()) for e in _SENTENCE_END.finditer(text)]
    starts = [a for a, _ in ends]
    out: list[set[int]] = []
    seen: set[str] = set()
    sentence, previous = -1, None
    for m in markers:
        if previous is None or text[previous.end:m.start].strip():
            before = text[:m.start].rstrip()
            cut = len(before) - 1 if before and before[-1] in _END_CHARS else m.start
            k = bisect.bisect_left(starts, cut)  # the sentence ends that start before the cut
            begins = ends[k - 1][1] if k else 0
            if begins != sentence:
                sentence, seen = begins, set()
        hidden = set()
        for j, lab in enumerate(lab for lab in m.labels if lab in known):
            if lab in seen:
                hidden.add(j)
            seen.add(lab)
        out.append(hidden)
        previous = m
    return out


def _chips(marker: Marker, first_span: int, known: set[str], hidden: set[int] = frozenset()) -> str:
    good = [lab for lab in marker.labels if lab in known]
    bad = [lab for lab in marker.labels if lab not in known]
    out = [f'<button type="button" class="cite" data-label="{lab}" data-span="{first_span + j}" '
           f'aria-label="Show source {lab}">{lab}</button>' for j, lab in enumerate(good) if j not in hidden]
    if bad:
        out.append(f'<span class="cite-invalid" title="Not a source of this answer">'
                   f'{html.escape(marker.raw if not good else "[" + ", ".join(bad) + "]")}</span>')
    return "".join(out)


#: What may stand between two markers of one list of citations ("[S1], [S2]", "[S1]; [S1]").
_LIST_SEPARATOR = re.compile(r"[ \t]*[,;][ \t]*")
#: What may follow a marker with no space before it (and the end of the text, "").
_CLOSING = frozenset(("", ".", ",", ";", ":", "!", "?", ")"))


def render_html(text: str, known: set[str]) -> str:
    """Markdown -> HTML with [S#] markers turned into chips for known labels; unknown labels stay plain text.

    Chips are numbered (``data-span``) in the order of the markers in ``text``, one number per known label, the
    order of finalize_answer's ``spans``; each marker is shown exactly once (module docstring), and each distinct
    label once per sentence: a label repeated in the same sentence ("[S1][S1]", "A [S1] and B [S1].") keeps its
    span number but shows no second chip, nor the comma or semicolon that joined it to the marker before ("[S1],
    [S1]." shows "S1."). Look-alikes inside code
    (grounding.citations) are code text, never chips. The result is sanitised with nh3: model-supplied HTML or
    script is inert text.

    Args:
        text: the answer (Markdown with markers).
        known: the labels of this answer's source map.
    Returns:
        Sanitised HTML.
    """
    text = text.replace(_OPEN_MARK, "").replace(_CLOSE_MARK, "")
    markers = parse_markers(text)
    repeats = _repeats(text, markers, known)
    first_span, count = [], 0
    held, pos = [], 0
    for k, m in enumerate(markers):
        first_span.append(count)
        good = sum(lab in known for lab in m.labels)
        count += good
        between = text[pos:m.start]
        if good == len(m.labels) == len(repeats[k]):  # shows no chip: nor the space or separator before it
            if k and _LIST_SEPARATOR.fullmatch(between):
                between = ""  # "[S1], [S1]." shows one chip, not "S1, ."
            elif text[m.end:m.end + 1] in _CLOSING:
                between = between.rstrip(" \t")  # "A [S1], B [S1]." shows "B.", not "B ."
        held += [between, f"{_OPEN_MARK}{k}{_CLOSE_MARK}"]
        pos = m.end
    rendered = _md.render(_mend_tables("".join(held) + text[pos:]))
    out, pos, shown = [], 0, set()
    for ph in _PLACEHOLDER.finditer(rendered):
        k = int(ph.group(1))
        out.append(rendered[pos:ph.start()])
        pos = ph.end()
        if rendered.rfind("<", 0, ph.start()) > rendered.rfind(">", 0, ph.start()):  # inside a tag's attribute
            continue
        if k in shown:
            continue  # Markdown repeated it (a reference definition's title used twice): shown once
        if rendered.count("<code", 0, ph.start()) > rendered.count("</code>", 0, ph.start()):
            out.append(html.escape(markers[k].raw))  # Markdown made it code after all: code text, chip at the end
            continue
        shown.add(k)
        out.append(_chips(markers[k], first_span[k], known, repeats[k]))
    out.append(rendered[pos:])
    lost = [k for k in range(len(markers)) if k not in shown]
    if lost:  # swallowed by Markdown: shown at the end rather than lost
        out.append("<p>" + " ".join(_chips(markers[k], first_span[k], known, repeats[k]) for k in lost) + "</p>\n")
    return nh3.clean("".join(out), tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRS, link_rel=None)
