"""Render a source passage (a chunk's stored text) as safe HTML that keeps its structure: headings, lists, tables,
paragraphs, emphasis and code, sanitised with nh3 like answers (grounding.rendering).

A chunk's text is stored one block per line (ingestion puts every paragraph, heading, list item and table row on a
line of its own; grounding.parsing): list items start with "- ", rows of a table read from Markdown or HTML are
"cell | cell" lines, tables of office files are Markdown tables ("| Day | Hours |" then "|---|---|"), and the
headings of sub-sections merged into the chunk are lines holding the heading's text alone (their names are in the
chunk's section path: "Standard equipment > Laptops · Peripherals"; a short line without closing punctuation before
a paragraph is a heading too). A chunk's own heading is not in its text: in a source merged from adjacent chunks of
several sections (grounding.types.Source.sections) the headings where the section changes are put back between the
chunks' parts. This module turns that into CommonMark (a blank line between blocks, "####" before a sub-heading, pipe
tables completed with their delimiter row) and renders it with markdown-it-py (raw HTML off: a ``<script>`` in a
document is text).
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

import nh3
from markdown_it import MarkdownIt

__all__ = ["render_source_html", "source_markdown", "subheadings", "with_part_headings"]

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "pre", "br", "blockquote", "table", "thead",
                 "tbody", "tr", "th", "td", "h4", "h5", "hr"}
_LIST_ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])\s")
_PIPE_ROW = re.compile(r"^\|.*\|$")
_RULE_ROW = re.compile(r"^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*\|?$")


def subheadings(section: str) -> set[str]:
    """The names of the headings inside a chunk: every part of its section path ("A > B · C" -> {"A", "B", "C"})."""
    return {part.strip() for step in section.split(" > ") for part in step.split(" · ") if part.strip()}


def _looks_like_heading(line: str, following: str) -> bool:
    """A heading line absorbed into the text (of a chunk merged into the source, or of a sub-section the chunk's
    section path does not name): fewer than 8 words, no closing punctuation, and a paragraph or a table after it (the
    extractive answerer's rule for headings, grounding.providers). Before a list it is a lead-in."""
    return (bool(following) and len(line.split()) < 8 and line[-1:] not in ".!?:;,)\"”'’" and " | " not in line
            and not line.startswith("|") and not _LIST_ITEM.match(following))


def _cells(line: str) -> int:
    return line.count(" | ") + 1


def _escape_cell_row(line: str) -> str:
    """A "cell | cell" line as a Markdown table row."""
    return "| " + line.strip() + " |"


def _path(section: str, *, last: bool = False) -> list[str]:
    """A section path's headings, a step naming several sections ("Meals · Hotels") by its first (where a chunk's
    text starts) or, with ``last``, by its last (where its text ends)."""
    return [step.split(" · ")[-1 if last else 0].strip() for step in section.split(" > ") if step.strip()]


def with_part_headings(text: str, sections: Sequence[Sequence] = ()) -> tuple[str, set[str]]:
    """``text`` with the headings between the parts of a merged source put back, and the headings put back.

    Args:
        text: a source's text (characters).
        sections: ((character offset in ``text``, section path), ...) in text order (grounding.types.Source.sections);
            where a part's path differs from the part's before it, the headings of its path below the common prefix
            are inserted as lines of their own before the part (unless the part already opens with that line).
    Returns:
        (the text with those lines, the set of inserted headings).
    """
    out: list[str] = []
    added: set[str] = set()
    pos, previous = 0, None
    for start, section in sections:
        start = max(pos, min(int(start), len(text)))
        path = _path(str(section))
        if previous is not None and path != previous:
            common = 0
            while common < min(len(path), len(previous)) and path[common] == previous[common]:
                common += 1
            new = [h for h in path[common:] if h]
            opening = text[start:].lstrip("\n").split("\n", 1)[0].strip()
            if new and opening == new[-1]:
                new.pop()
            if new:
                head = text[pos:start]
                out.append(head if not head or head.endswith("\n") else head + "\n")
                out.append("".join(h + "\n" for h in new))
                added.update(new)
                pos = start
        previous = _path(str(section), last=True)
    out.append(text[pos:])
    return "".join(out), added


def source_markdown(text: str, section: str = "", sections: Sequence[Sequence] = ()) -> str:
    """The CommonMark form of a chunk's stored text (see the module docstring).

    Args:
        text: the chunk's text (lines are blocks).
        section: its section path; lines equal to one of its headings become "####" headings.
        sections: a merged source's ((character offset, section path), ...) (:func:`with_part_headings`): the
            headings between its chunks are put back as "####" headings.
    Returns:
        Markdown text (characters).
    """
    text, added = with_part_headings(text, sections)
    headings = subheadings(section) | added
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    kind = ""  # the kind of the previous block: "", "list", "pipe", "cells", "fence"
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if stripped.startswith("```"):
            kind = "" if kind == "fence" else "fence"
            out.append(line)
            i += 1
            continue
        if kind == "fence":
            out.append(line)
            i += 1
            continue
        if not stripped:
            out.append("")
            kind = ""
            i += 1
            continue
        if _PIPE_ROW.match(stripped):  # a Markdown table row (office files)
            if kind == "pipe" and i + 1 < len(lines) and _RULE_ROW.match(lines[i + 1].strip()):
                kind = ""  # a header line and its rule after rows: another table (a merged source's next chunk
                # starts its rows with the header again), not two rows of "---" cells in the table before it
            if kind != "pipe":
                out.append("")
                if not (i + 1 < len(lines) and _RULE_ROW.match(lines[i + 1].strip())):
                    out += [stripped, "|" + "---|" * max(1, stripped.count("|") - 1)]
                    kind = "pipe"
                    i += 1
                    continue
            out.append(stripped)
            kind = "pipe"
            i += 1
            continue
        if " | " in stripped and not _LIST_ITEM.match(stripped):
            # a run of "cell | cell" lines with the same number of cells is a table, its first line the header
            run = [stripped]
            while i + len(run) < len(lines) and " | " in lines[i + len(run)] and \
                    _cells(lines[i + len(run)].strip()) == _cells(stripped):
                run.append(lines[i + len(run)].strip())
            if len(run) >= 2:
                out += ["", _escape_cell_row(run[0]), "|" + "---|" * _cells(run[0])]
                out += [_escape_cell_row(r) for r in run[1:]] + [""]
                kind = ""
                i += len(run)
                continue
        if _LIST_ITEM.match(stripped):
            if kind != "list":
                out.append("")
            out.append(stripped)
            kind = "list"
            i += 1
            continue
        out.append("")
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if (stripped in headings and len(stripped) <= 200) or _looks_like_heading(stripped, following):
            out.append("#### " + stripped)
        else:
            out.append(re.sub(r"^(#{1,6})(?=\S)", r"\\\1", stripped))  # "#hashtag" stays text
        kind = ""
        i += 1
    return "\n".join(out).strip("\n") + "\n"


def render_source_html(text: str, section: str = "", sections: Sequence[Sequence] = ()) -> str:
    """A chunk's text as sanitised HTML with its structure (module docstring): ``<h4>`` sub-headings, ``<ul>``/
    ``<ol>`` lists, ``<table>`` with a header row, paragraphs, emphasis and code; raw HTML in the text is escaped and
    anything else is removed by nh3.

    Args:
        text: the chunk's stored text (characters).
        section: the chunk's section path (names its sub-headings).
        sections: a merged source's ((character offset, section path), ...) (grounding.types.Source.sections; lists
            from JSON are accepted): the headings between its chunks are shown.
    Returns:
        HTML (characters).
    Cached: every plan frame and stored snapshot renders its sources, and the same chunks are planned again and again.
    """
    return _render(text, section, tuple((int(start), str(path)) for start, path in sections))


@functools.lru_cache(maxsize=4_096)
def _render(text: str, section: str, sections: tuple[tuple[int, str], ...]) -> str:
    html = _md.render(source_markdown(text, section, sections))
    html = re.sub(r"<(/?)h[1-3]>", r"<\1h4>", html)
    return nh3.clean(html, tags=_ALLOWED_TAGS, attributes={}, link_rel=None)
