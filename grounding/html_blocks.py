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
    rows = []
    for tr in table.find_all("tr"):
        cells = [clean_text(c.get_text(" ")) for c in tr.find_all(["th", "td"])]
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def _walk(node: Tag, path: list[str], out: list[Block], levels: list[int]) -> None:
    """Depth-first walk emitting leaf blocks; headings update ``path`` (with their levels in ``levels``)."""
    for child in node.children:
        if isinstance(child, NavigableString):
            # text and CDATA content; never a doctype, declaration, processing instruction or comment (B12)
            text = clean_text(str(child))
            if text and child.__class__ in (NavigableString, CData):
                out.append(Block(tuple(path), text))
            continue
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
        elif name in _CONTAINERS or name not in _INLINE:
            _walk(child, path, out, levels)
        else:  # inline element at block level (e.g. a bare <a> or <span> in HTML)
            text = _inline_text(child)
            if text:
                out.append(Block(tuple(path), text))


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
    out: list[Block] = []
    _walk(soup, [], out, [])
    if not title:
        h = soup.find(list(_HEADINGS))
        title = _inline_text(h) if isinstance(h, Tag) else ""
    return title, merge_list_runs(out)
