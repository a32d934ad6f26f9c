"""Pieces every office extractor shares: the heading outline, Markdown tables of rows, and the finished document."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePath
from typing import Any, Iterable, Sequence

from grounding.location import Location
from grounding.parsing import Block, ParsedDocument, ParseError, merge_list_runs


class Outline:
    """The section path while walking a document: a heading of level n closes every open heading of level >= n.

    Attributes:
        first: the first heading seen ("" before any), the title candidate of a document without a stated title.
    """

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []
        self.first = ""

    def heading(self, level: int, text: str) -> None:
        """Enter a heading of ``level`` (1 = outermost)."""
        text = clean_text(text)
        if not text:
            return
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        self._open.append((level, text))
        self.first = self.first or text

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text in self._open)


def clean_text(text: str) -> str:
    """One line of text: non-breaking and other spaces become one space, control characters go."""
    text = text.replace("\u00a0", " ").replace("\u00ad", "")
    text = "".join(ch for ch in text if ch.isprintable() or ch in "\t\n")
    return re.sub(r"\s+", " ", text).strip()


def cell_text(value: Any) -> str:
    """A table cell as Markdown table text: None is empty, whole floats lose ".0", dates are ISO, a pipe is escaped
    and line breaks become spaces."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if hasattr(value, "isoformat"):
        text = value.isoformat()
        value = text[:-9] if text.endswith("T00:00:00") else text
    return clean_text(str(value)).replace("|", "\\|")


def markdown_row(cells: Sequence[str]) -> str:
    """"| a | b |" (cells already escaped with cell_text)."""
    return "| " + " | ".join(cells) + " |"


def markdown_header(cells: Sequence[str]) -> str:
    """The header row and its separator: "| Day | Hours |\\n|---|---|"."""
    return markdown_row(cells) + "\n|" + "---|" * len(cells)


def table_blocks(rows: Sequence[Sequence[str]], section: tuple[str, ...],
                 locations: Sequence[Location | None]) -> list[Block]:
    """Blocks of one table whose first row is its header: one block per data row carrying the header, so the
    chunker keeps the table a Markdown table in every chunk (grounding.chunking.chunk_blocks).

    Args:
        rows: cell texts (cell_text), the header first; short rows are padded, empty trailing columns dropped.
        section: the section path of the table.
        locations: one location per row of ``rows`` (None where the format has none).
    Returns:
        the data rows' blocks, the first marked ``first_row`` (a new table); a table of a single row gives that row
        as a plain block ([] for no rows).
    """
    placed = [(list(r), locations[i] if i < len(locations) else None) for i, r in enumerate(rows) if any(r)]
    if not placed:
        return []
    width = max(i + 1 for r, _ in placed for i, c in enumerate(r) if c)
    placed = [((r + [""] * width)[:width], loc) for r, loc in placed]
    if len(placed) == 1:
        return [Block(section, markdown_row(placed[0][0]), placed[0][1])]
    header = markdown_header(placed[0][0])
    return [Block(section, markdown_row(r), loc, header, first_row=i == 0) for i, (r, loc) in enumerate(placed[1:])]


def assemble(filename: str, blocks: Iterable[Block], *, title: str = "", heading: str = "",
             notes: Sequence[str] = (), pages: int = 0, metadata: dict[str, Any] | None = None) -> ParsedDocument:
    """The ParsedDocument of an office file, titled like a Markdown one: the file's own title property, else its first
    heading, else its file name; a leading section equal to the title is the title, not a section.

    Raises:
        ParseError: no text at all (the notes say why when they can, e.g. scanned pages OCR found nothing on).
    """
    blocks = merge_list_runs([b for b in blocks if b.text.strip()])
    if not blocks:
        why = f" ({' '.join(notes)})" if notes else ""
        raise ParseError(f"{filename}: no text found{why}; nothing in it could be searched or cited, so it was not "
                         "added (a document made only of pictures needs its text, or a scan readable by OCR)")
    fallback = clean_text(PurePath(filename).stem.replace("-", " ").replace("_", " "))
    chosen = clean_text(title) or clean_text(heading) or fallback
    if blocks[0].section[:1] == (chosen,):
        blocks = tuple(replace(b, section=b.section[1:] if b.section[:1] == (chosen,) else b.section)
                       for b in blocks)
    return ParsedDocument(title=chosen, metadata=dict(metadata or {}), blocks=tuple(blocks),
                          title_from_name=not (clean_text(title) or clean_text(heading)), notes=tuple(notes),
                          pages=pages)
