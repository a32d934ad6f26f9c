"""Tables in chunking (grounding.chunking): a table longer than a chunk is split into rows that each carry its header,
and a table too wide for a chunk to hold its header and a row is split by columns too, each piece led by the row's
key. No Django imports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from grounding.parsing import Block
from grounding.tokens import TokenCounter

__all__ = ["rows_of_long_tables"]


def rows_of_long_tables(blocks: Sequence[Block], counter: TokenCounter, max_tokens: int) -> list[Block]:
    """The blocks, with a table written as one block ("a | b" lines, the first its header: HTML and Markdown tables)
    that is longer than ``max_tokens`` split into one block per row carrying the header line, so every chunk of it
    starts with its header (as the office formats' rows do) instead of reading its first row as one. A table too
    wide for a chunk to hold its header and a row (rows of one block each, or rows the office formats give with
    their header) is split by columns too (:func:`_column_groups`)."""
    rows: list[Block] = []
    for block in blocks:
        lines = block.text.split("\n")
        if block.header or len(lines) < 3 or not all(" | " in line for line in lines) \
                or counter.raw(block.text) <= max_tokens:
            rows.append(block)
        else:
            rows += [replace(block, text=line, header=lines[0], first_row=k == 0) for k, line in enumerate(lines[1:])]
    out: list[Block] = []
    i = 0
    while i < len(rows):
        j = i + 1
        while rows[i].header and j < len(rows) and rows[j].header == rows[i].header:
            j += 1
        run = rows[i:j]
        groups = _column_groups(run[0].header, [b.text for b in run], counter, max_tokens // 2) \
            if run[0].header else None
        if groups is None:
            out += run
        else:
            head_line, _, separator = run[0].header.partition("\n")
            head, piped = _cells(head_line)
            for group in groups:  # every row's cells of one group of columns, then the next group's
                header = _row([head[c] for c in group if c < len(head)], piped)
                if separator:
                    header += "\n|" + "---|" * len([c for c in group if c < len(head)])
                for b in run:
                    cells, _ = _cells(b.text)
                    out.append(replace(b, text=_row([cells[c] for c in group if c < len(cells)], piped),
                                       header=header))
        i = j
    return out


def _cells(line: str) -> tuple[list[str], bool]:
    """The cells of a table row, and whether it is written as a Markdown pipe row ("| a | b |") rather than as rows
    are stored from HTML and Markdown tables ("a | b")."""
    piped = line.strip().startswith("|")
    body = line.strip()[1:].removesuffix("|") if piped else line
    return [c.strip() for c in body.split("|" if piped else " | ")], piped


def _row(cells: Sequence[str], piped: bool) -> str:
    """A table row of ``cells`` in the form :func:`_cells` read it in."""
    return "| " + " | ".join(cells) + " |" if piped else " | ".join(cells)


def _column_groups(header: str, rows: Sequence[str], counter: TokenCounter, budget: int) -> list[list[int]] | None:
    """Groups of column indexes for a table too wide for a chunk to hold its header and a row, each group led by
    the first column (the row's key, so every piece says which row it is) and holding the columns whose header and
    widest cells fit ``budget`` tokens together; None when the header and every row fit ``budget`` (no split).

    A 60-column table otherwise filled each chunk with its header and the rows were cut off (nothing of them was
    indexed)."""
    head = _cells(header.partition("\n")[0])[0]
    cells = [_cells(row)[0] for row in rows]
    if len(head) < 3 or all(counter.raw(header) + counter.raw(row) <= budget for row in rows):
        return None
    width = [counter.raw(head[c]) + max((counter.raw(r[c]) for r in cells if c < len(r)), default=0) + 2
             for c in range(len(head))]
    groups: list[list[int]] = []
    group, used = [0], width[0]
    for c in range(1, len(head)):
        if used + width[c] > budget and len(group) > 1:
            groups.append(group)
            group, used = [0], width[0]
        group.append(c)
        used += width[c]
    groups.append(group)
    return groups
