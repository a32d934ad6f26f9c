"""Table lookups in retrieval: a retrieved chunk holding the table row a question looks up, by its row and its
column, moved up among the candidates so the plan reads it (issue 18 point 4). No Django imports.

A table lookup ("Which Tock code should 18F staff use for business development time?") names the row's key cell
("Business development") and a column ("18F") of a table whose rows say little else: the chunk holding it matches
the question's words (BM25) better than any other but its meaning less than prose about the same topic does, and
the fusion left it below the sources a plan reads (rank 13 of 20).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence, TypeVar

from grounding.lexical import content_terms

if TYPE_CHECKING:
    from grounding.scored_sentences import ScoredSentence

__all__ = ["looked_up_row", "looks_up_row", "names_row_column", "promote_looked_up_rows", "row_key", "with_row_first"]

T = TypeVar("T")

#: Where a candidate holding the looked-up row is moved to (0-based): behind the best candidate, whose order the
#: rest of the ranking decided; a candidate already at or above it stays.
PROMOTE_TO = 1


def _cells(line: str) -> list[str]:
    """The cells of a table line as chunks hold it ("a | b | c"; a piped Markdown row alike), emphasis stripped."""
    body = line.strip()
    if body.startswith("|") and body.endswith("|") and len(body) > 1:
        body = body[1:-1]
    return [c.strip().strip("*_").strip() for c in body.split("|")]


def _named(question: str, cell: str) -> bool:
    """True when ``question`` names ``cell`` as written (case-insensitive, whole words), the cell two characters or
    more and not a plain number (numbers name too many rows); a plural marker is left out ("Resource(s)" is named by
    "resource": fresh38's f38-t04, a development set)."""
    key = re.sub(r"\((?:e?s)\)$", "", cell.split(",")[0].strip().rstrip("."))
    if len(key) < 2 or key.replace(".", "").replace(" ", "").isdigit():
        return False
    return bool(re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", question, re.I))


def _names_column(question: str, column: str, others: Sequence[str]) -> bool:
    """True when ``question`` names the table column ``column`` (a header cell other than the key's): as written
    (:func:`_named`), or by every content word of it, in any form, that none of the ``others`` (the table's other
    header cells) has: "npm dependencies" names "Dependency analysis" beside "Code security analysis", "security
    static analysis ... for Python code" names "Code security analysis" (fresh39's f39-t02 and f39-t07, a development
    set, quoted the page's prose on the two kinds of analysis); "the Chicago office building" does not name "Office
    guide"."""
    if _named(question, column):
        return True
    own = content_terms(column).difference(*(content_terms(o) for o in others))
    return bool(own) and own <= content_terms(question)


def looked_up_row(question: str, text: str) -> str:
    """The first table row of a chunk ``text`` that ``question`` looks up: the question names the row's key (its
    first cell) and a column of the table's header line other than the key's (the table read from the line before
    its first row: lines of three cells or more, " | "-separated); "" when none. "Which Tock code should 18F staff
    use for business development time?" looks up "Business development | 1434 | 1811" under "Work type | CoE feds |
    18F"; a question naming the row but no column of it (a topic, not a cell) looks up nothing."""
    if "|" not in text:  # no table: most candidates of most questions (checked for each on every retrieval)
        return ""
    header: list[str] = []
    for line in text.split("\n"):
        cells = _cells(line) if " | " in line or line.strip().startswith("|") else []
        if len(cells) < 3:
            header = []
            continue
        if not header:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):  # a Markdown separator line
            continue
        if _named(question, cells[0]) and any(_names_column(question, name, [o for o in header if o != name])
                                              for name in header[1:]):
            return line
    return ""


def promote_looked_up_rows(question: str, candidates: Sequence[T], text_of, *, to: int = PROMOTE_TO) -> list[T]:
    """``candidates`` with the first one whose text (``text_of(candidate)``) holds a row ``question`` looks up
    (:func:`looked_up_row`) moved to position ``to`` when it stood below it; the others keep their order."""
    out = list(candidates)
    for i, c in enumerate(out):
        if looked_up_row(question, text_of(c)):
            return out if i <= to else out[:to] + [c] + out[to:i] + out[i + 1:]
    return out


def row_key(row: str) -> str:
    """The key cell of a table row read as "column: value" pairs: its first pair's value ("Work type: Business
    development; CoE feds: 1434" -> "Business development"), "" when the row has none."""
    return row.split("; ", 1)[0].partition(": ")[2].strip()


def names_row_column(question: str, row: str) -> bool:
    """True when ``question`` names a column of a table row read as "column: value" pairs other than its first (the
    key's): "... 18F staff ..." names "18F" of "Work type: Business development; CoE feds: 1434; 18F: 1811"."""
    names = [pair.partition(": ")[0] for pair in row.split("; ") if ": " in pair]
    return any(_names_column(question, column, [o for o in names if o != column]) for column in names[1:])


def looks_up_row(question: str, row: str) -> bool:
    """True when ``question`` looks up a table row read as "column: value" pairs: it names a column other than the
    key's (:func:`names_row_column`) and every content word of the row's key, in any order or form ("an extended out
    of office of more than 3 weeks" looks up "Work type: Extended out of office (more than 3 weeks); CoE feds: ?;
    18F: 1810"). The offline answerer then answers with the row, not with the list under a heading the question's
    other words name (grounding.extractive: "Tock" and "18F" name the Tock page's "18F" list; the calibration half's
    q121, fresh7's f7-a11)."""
    key = content_terms(row_key(row))
    return bool(key) and key <= content_terms(question) and names_row_column(question, row)


#: How far under the best sentence (score units of grounding.sentence_rank) a row the question looks up may rank and
#: still be read first (:func:`with_row_first`), and among how many of the best. 0.05 (s38 round, development sets):
#: fresh38's f38-t04 ranked its row 0.013 under a sentence on the same courses.
ROW_REACH = 0.05
ROW_LOOKS = 4


def with_row_first(ranked: Sequence[ScoredSentence], question: str) -> list[ScoredSentence]:
    """``ranked`` (best first) with the first row among the best :data:`ROW_LOOKS` that ``question`` looks up
    (:func:`looks_up_row`: it names the row's key and a column) moved first, when it scores within
    :data:`ROW_REACH` of the best sentence and the best is no row: "What's the resource for the 18F Staffing
    onboarding course?" looks up "Name: Staffing; ...; Resource(s): How Staffing Works Now video", which ranked just
    under "These courses are designed for 18F staff" (fresh38's f38-t04, a development set, quoted the courses'
    section). ``ranked`` unchanged otherwise."""
    if not ranked or ranked[0].kind == "row":
        return list(ranked)
    row = next((s for s in ranked[1:ROW_LOOKS] if s.kind == "row" and s.score >= ranked[0].score - ROW_REACH
                and looks_up_row(question, s.text)), None)
    return list(ranked) if row is None else [row, *(s for s in ranked if s is not row)]
