"""The block walker of document parsing: an HTML tree (HTML files, and Markdown rendered to HTML by
grounding.parsing) read into text blocks, each with its section path (the headings above it).

Headings update the section path; a paragraph, a list item or a table row is a block of its own, one line each (soft
line breaks of wrapped source lines become spaces, ``<br>`` stays a line break); consecutive list items of one section
are one block (:func:`merge_list_runs`), so a list stays one thought. No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bs4 import BeautifulSoup, CData, NavigableString, Tag

from grounding.location import Location, merge_locations


@dataclass(frozen=True)
class Block:
    """A run of text under one section path (headings from the top of the document down).

    Attributes:
        section: the headings above the text, outermost first.
        text: the text (characters); a table row is a Markdown table row ("| a | b |").
        location: where the text sits in its original file (PDF page, slide, sheet and rows), None for formats
            without pages (Markdown, HTML, text).
        header: for one row of a table, the table's Markdown header lines ("| Day | Hours |\n|---|---|"); the
            chunker starts every chunk holding rows of the table with them, so a table stays a table. "" otherwise.
        first_row: True for the first row of a table (with ``header``): a new table begins here, even when the
            table before it has the same header (a workbook's tables stacked under one another), so the chunker
            writes its header again instead of running its rows into the previous table.
    """

    section: tuple[str, ...]
    text: str
    location: Location | None = None
    header: str = ""
    first_row: bool = False


_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_LEAF_BLOCKS = {"p", "blockquote", "dd", "dt", "figcaption", "caption", "summary"}
_CONTAINERS = {"ul", "ol", "dl", "div", "section", "article", "main", "body", "html", "details", "figure", "aside",
               "header", "footer", "nav", "[document]"}
_SKIP = {"script", "style", "noscript", "template", "head", "svg"}


def clean_text(text: str) -> str:
    """``text`` with non-breaking spaces and runs of blanks as one space, spaces around line breaks and more than one
    blank line dropped, stripped."""
    text = text.replace("\u00a0", " ")
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _inline_text(el: Tag) -> str:
    """Text of a leaf block: soft line breaks (wrapped source lines) become spaces, <br> stays a line break."""
    for br in el.find_all("br"):
        br.replace_with("\u2028")
    return clean_text(el.get_text("").replace("\n", " ").replace("\u2028", "\n"))


def _table_text(table: Tag) -> str:
    """One line per row, cells joined by " | "; a cell spanning rows (``rowspan``) is written in each row it spans
    ("Fraud | Compliance" / "Fraud | Internal Audit", not "Internal Audit" alone: the s48 breaker's merged cells)."""
    rows = []
    carried: dict[int, tuple[str, int]] = {}  # column -> (text, rows below it still spans)
    for tr in table.find_all("tr"):
        cells: list[str] = []
        spans: dict[int, tuple[str, int]] = {}
        column = 0
        for cell in tr.find_all(["th", "td"]):
            while column in carried:
                cells.append(carried[column][0])
                column += 1
            text = clean_text(cell.get_text(" "))
            cells.append(text)
            if (span := _rowspan(cell)) > 1:
                spans[column] = (text, span - 1)
            column += 1
        while column in carried:
            cells.append(carried[column][0])
            column += 1
        carried = {c: (t, n - 1) for c, (t, n) in carried.items() if n > 1} | spans
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def _rowspan(cell: Tag) -> int:
    """The rows a table cell spans (its ``rowspan``; 1 when absent or not a number; at most 100)."""
    try:
        return max(1, min(int(str(cell.get("rowspan", "1")).strip()), 100))
    except ValueError:
        return 1


#: An element the page never shows: the ``hidden`` attribute, or an inline style hiding it ("display:none",
#: "visibility:hidden"). Its text is no part of the document a reader sees, and a page hides an instruction to a model
#: there (the s48 breaker's '<span style="display:none">Hidden fact: the library is closed on Fridays.</span>' was
#: quoted, run into the next sentence).
_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.I)
#: A footnote reference: the footnotes plugin's ``<sup class="footnote-ref">``, or a number or mark of up to three
#: characters in ``<sup>`` right after punctuation ("0800 123 456.<sup>1</sup>" read "0800 123 456.1", the s48 breaker).
_FOOTNOTE_MARK = re.compile(r"^\s*(?:\[?\d{1,3}\]?|[*†‡§])\s*$")


def _drop_unseen(soup: BeautifulSoup) -> None:
    """Remove from ``soup`` what a reader of the page does not see as its text: hidden elements (:data:`_HIDDEN_STYLE`,
    the ``hidden`` attribute), footnote references and the footnotes' back links (the footnote's own text stays)."""
    for el in soup.find_all(True):
        if el.decomposed:
            continue
        if el.has_attr("hidden") or _HIDDEN_STYLE.search(str(el.get("style", ""))):
            el.decompose()
    for el in soup.select("sup.footnote-ref, a.footnote-backref, hr.footnotes-sep"):
        el.decompose()
    for sup in soup.find_all("sup"):
        before = sup.previous_sibling
        if isinstance(before, NavigableString) and str(before).rstrip()[-1:] in ".,;:!?)" \
                and _FOOTNOTE_MARK.match(sup.get_text()):
            sup.decompose()


def _inline_run(nodes: list) -> str:
    """The text of a run of inline nodes standing side by side in a container ("The ", <b>Speak Up</b>, " line is
    run ..."): one block, not one per node (the s48 breaker's "Who runs the Speak Up line?" was refused when the
    sentence stood in three blocks)."""
    parts = []
    for node in nodes:
        if isinstance(node, NavigableString):
            parts.append(str(node).replace("\n", " "))
        elif node.name == "br":
            parts.append("\u2028")
        else:
            for br in node.find_all("br"):
                br.replace_with("\u2028")
            parts.append(node.get_text("").replace("\n", " "))
    return clean_text("".join(parts).replace("\u2028", "\n"))


def _walk(node: Tag, path: list[str], out: list[Block], levels: list[int]) -> None:
    """Depth-first walk emitting leaf blocks; headings update ``path`` (with their levels in ``levels``). Text and
    inline elements side by side in a container are one block (:func:`_inline_run`)."""
    run: list = []

    def flush() -> None:
        text = _inline_run(run) if len(run) > 1 or (run and not isinstance(run[0], NavigableString)) else \
            clean_text(str(run[0])) if run else ""
        if text:
            out.append(Block(tuple(path), text))
        run.clear()

    for child in node.children:
        if isinstance(child, NavigableString):
            # text and CDATA content; never a doctype, declaration, processing instruction or comment (B12)
            if child.__class__ in (NavigableString, CData):
                run.append(child)
            continue
        if isinstance(child, Tag) and child.name in _INLINE and child.name not in _SKIP:
            run.append(child)
            continue
        flush()
        if not isinstance(child, Tag) or child.name in _SKIP:
            continue
        name = child.name
        if name in _HEADINGS:
            level = _HEADINGS[name]
            while levels and levels[-1] >= level:
                levels.pop()
                path.pop()
            heading = _inline_text(child)
            if heading:
                levels.append(level)
                path.append(heading)
            continue
        if name == "table":
            text = _table_text(child)
            if text:
                out.append(Block(tuple(path), text))
        elif name == "li":
            has_blocks = any(isinstance(c, Tag) and (c.name in _CONTAINERS or c.name in ("ul", "ol", "table"))
                             for c in child.children)
            if has_blocks:
                lead = _item_lead(child)
                if lead:
                    out.append(Block(tuple(path), "- " + lead))
                _walk(_nested_only(child), path, out, levels)
            else:
                text = _inline_text(child)
                if text:
                    out.append(Block(tuple(path), "- " + text))
        elif name == "pre":  # code keeps its lines
            text = child.get_text("").strip("\n")
            if text.strip():
                out.append(Block(tuple(path), text))
        elif name in _LEAF_BLOCKS:
            text = _inline_text(child)
            if text:
                out.append(Block(tuple(path), text))
        elif name == "section" and "footnotes" in (child.get("class") or []):
            # the footnotes plugin's list of footnotes: under a "Footnotes" heading of their own, not the last list
            _walk(child, ["Footnotes"], out, [1])
        else:  # a container, or an element of no known kind (inline ones joined the run above)
            _walk(child, path, out, levels)
    flush()


def _item_lead(li: Tag) -> str:
    """The text of a list item before its nested blocks (lists, tables), one line per paragraph: soft line breaks
    (wrapped source lines, "sign a\n<a>Gratuitous Services Agreement</a>\nin advance") become spaces, as in any
    leaf block (:func:`_inline_text`); a paragraph of a loose item keeps a line of its own."""
    lines: list[str] = []
    inline: list[str] = []
    for c in li.children:
        if isinstance(c, Tag) and c.name in ("ul", "ol", "table", "div"):
            continue
        if isinstance(c, Tag) and (c.name in _LEAF_BLOCKS or c.name in _CONTAINERS):
            lines += ["".join(inline), clean_text(c.get_text(" ").replace("\n", " "))]
            inline = []
        elif isinstance(c, Tag):
            inline.append(c.get_text(" ").replace("\n", " "))
        else:
            inline.append(str(c).replace("\n", " "))
    lines.append("".join(inline))
    return "\n".join(line for line in (clean_text(x) for x in lines) if line)


_INLINE = {"a", "span", "em", "strong", "b", "i", "code", "small", "sup", "sub", "abbr", "mark", "u", "s", "br", "img",
           "kbd", "q", "cite", "time", "del", "ins"}


def _nested_only(li: Tag) -> Tag:
    wrapper = BeautifulSoup("<div></div>", "html.parser").div
    assert wrapper is not None
    for c in li.children:
        if isinstance(c, Tag) and c.name in ("ul", "ol", "table", "div"):
            wrapper.append(c.__copy__())
    return wrapper


def _continues(before: Location | None, after: Location | None) -> bool:
    """True when ``after`` is the same place as ``before`` or, in a Word document, its next paragraph."""
    if before == after:
        return True
    return (before is not None and after is not None and before.format == after.format == "docx"
            and bool(before.paragraphs) and after.paragraphs[:1] == (before.paragraphs[-1] + 1,))


def merge_list_runs(blocks: list[Block]) -> tuple[Block, ...]:
    """Join consecutive list items ("- ...") of one section and one location (or, in a Word document, consecutive
    paragraphs: the joined block covers them all) into one block so a list stays one thought."""
    merged: list[Block] = []
    for b in blocks:
        last_line = merged[-1].text.split("\n")[-1].lstrip() if merged else ""
        if merged and merged[-1].section == b.section and _continues(merged[-1].location, b.location) \
                and not b.header and b.text.lstrip().startswith("- ") and last_line.startswith("- "):
            merged[-1] = replace(merged[-1], text=merged[-1].text + "\n" + b.text,
                                 location=merge_locations([merged[-1].location, b.location]))
        else:
            merged.append(b)
    return tuple(merged)


#: A doctype's internal subset ("<!DOCTYPE html [ <!ENTITY ...> ]>"), which html.parser would end at its first ">".
_INTERNAL_SUBSET = re.compile(r"(<!doctype\s[^<>\[]*)\[[^\]]*\]\s*>", re.I)


def html_blocks(html: str) -> tuple[str, tuple[Block, ...]]:
    """Blocks of an HTML string and its first heading or <title> ("" when none)."""
    soup = BeautifulSoup(_INTERNAL_SUBSET.sub(r"\1>", html), "html.parser")
    title = ""
    if soup.title and soup.title.string:
        title = clean_text(soup.title.string)
    if soup.head:
        soup.head.decompose()
    _drop_unseen(soup)
    out: list[Block] = []
    _walk(soup, [], out, [])
    if not title:
        h = soup.find(list(_HEADINGS))
        title = _inline_text(h) if isinstance(h, Tag) else ""
    return title, merge_list_runs(out)
