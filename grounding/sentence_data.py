"""Sentence data of a text: each sentence's boundaries, kind, quoted text, vector, "previous sentence + sentence"
context vector and typed values, what the extractive answerer ranks and quotes (grounding.sentence_rank).

A planned source that is one chunk's text unchanged gets it from what ingestion stored (grounding.sentence_store: the
chunk's layout and vectors). Any other source's is made from its text once per answer
(grounding.sentence_rank.with_sentences), the vectors from the embedder, which already holds those of the texts
embedded at ingestion (knowledge.sentences: the claims contradiction detection reads and the answer units;
grounding.embeddings.KnownVectors, remembered by the default embedder when an answer is planned), so nothing is
encoded unless the text differs from its chunks' (a passage withheld, chunks merged across a table). A text's
sentences are its lines (ingestion puts every paragraph, heading, list item
and table row on a line of its own) cut by pysbd (grounding.sentences); each has a kind:

    sentence   a sentence of running text
    heading    a short line without end punctuation (a heading absorbed into the chunk)
    lead       a sentence ending with ":" that introduces what follows (a list, a table)
    question   a sentence ending with "?" (an FAQ heading, a rhetorical question)
    item       (a sentence of) a list item; the "- " marker is not part of its text
    header     the first row of a table
    row        a table row; its text is read as "column: value" pairs with the header of its table
               ("Number of direct reports: 4; Utilization % target: 60%"), also when the table began in an earlier
               chunk of the document

No Django imports.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from grounding.answer_types import typed_values
from grounding.sentences import split_sentences

KINDS = ("sentence", "heading", "lead", "question", "item", "header", "row")
#: The kinds that may be quoted as (part of) an answer.
QUOTABLE = frozenset({"sentence", "item", "row"})


@dataclass(frozen=True, eq=False)
class SentenceData:
    """The sentences of one text (a chunk, or a source made of adjacent chunks).

    Attributes:
        texts: each sentence as it is quoted: its words as written, list marker removed; a table row as "column:
            value" pairs when its header is known.
        spans: (start, end) character offsets of each sentence in the text it was read from.
        kinds: one of KINDS per sentence.
        vectors: float32 (n, dim) unit vectors of ``texts``.
        context: float32 (n, dim) unit vectors of "previous sentence + sentence" (the re-normalised sum of the two
            vectors; for the first sentence of a chunk, its section heading + sentence), so a sentence such as "It
            must be longer than 14 characters." keeps its subject.
        values: the typed values of each sentence (grounding.answer_types.typed_values: "amount:$65", ...).
        screened: True when the text was scanned for text addressed to an AI assistant at ingestion and found free
            of it (grounding.types.Chunk.injection False for every chunk it was read from): its sentences need no
            scan when quoted (grounding.quotable.quotable).
    Raises:
        ValueError: the fields disagree in length.
    """

    texts: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    kinds: tuple[str, ...]
    vectors: np.ndarray = field(repr=False)
    context: np.ndarray = field(repr=False)
    values: tuple[tuple[str, ...], ...] = ()
    screened: bool = False

    def __post_init__(self) -> None:
        n = len(self.texts)
        if not (len(self.spans) == len(self.kinds) == self.vectors.shape[0] == self.context.shape[0] == n) or \
                (self.values and len(self.values) != n):
            raise ValueError(f"sentence data of {n} sentences with {len(self.spans)} spans, {len(self.kinds)} kinds, "
                             f"{self.vectors.shape[0]} vectors, {self.context.shape[0]} context vectors")
        if not self.values:
            object.__setattr__(self, "values", tuple(() for _ in self.texts))

    def __len__(self) -> int:
        return len(self.texts)


# --- reading a chunk ------------------------------------------------------------------------------------------------

def _is_table_line(line: str) -> bool:
    """A table row: cells between " | " ("a | b", Markdown and HTML tables), or a row of a piped Markdown table
    ("| a | b |", the office formats' tables; one cell too)."""
    return " | " in line or (len(line) > 2 and line.startswith("|") and line.endswith("|"))


#: The separator line under a piped Markdown table's header ("|---|---|", "| :--- | ---: |").
_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")


#: What ends a sentence, a list's lead-in or a parenthesis, in Latin and in CJK scripts (。！？：；）).
_CLOSING = ".!?:;)\"”。！？：；）」』"


#: A short line's closing parenthetical with no sentence punctuation in it: "Day 5 (Friday)", "Annual leave (AL)".
_TRAILING_ASIDE = re.compile(r"\s*\([^()]*\)$")


def _heading_like(s: str) -> bool:
    """A line read as a heading: under 8 words, with no closing punctuation; a closing parenthetical holding none
    either ("Day 5 (Friday)", a heading a packed chunk carries on its own line) is read past. Rejecting every line
    that ends with ")" read "Day 5 (Friday)" as a sentence, so the list under it stood under the chunk's first heading
    ("Day 4 (Thursday)") and "What happens on Day 3?" quoted Day 5's items (the s19 demo run)."""
    if len(s.split()) >= 8:
        return False
    aside = _TRAILING_ASIDE.search(s)
    if aside and not any(c in _CLOSING for c in aside.group(0)[:-1]) and aside.start() > 0:
        s = s[:aside.start()]
    return s[-1:] not in _CLOSING


_NEW_ITEM = re.compile(r"^(?:[-*+]\s|\d{1,3}[.)]\s)")


def logical_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a chunk text with hard-wrapped Markdown joined, each as (start offset, the raw text from its first
    to its last character, inner line breaks kept, so offsets still point into ``text``). A line continues the one
    before when neither is blank or a table row, it does not open a list item, and it is indented (a list item's
    continuation: "- Extended Out of Office - #1810: Intended for if you are Out of Office for" / "  3 weeks or longer
    ...") or starts with a lower-case letter, a digit or "(" after a line without closing punctuation."""
    out: list[tuple[int, str]] = []
    pos, previous = 0, ""
    for line in text.split("\n"):
        start = text.find(line, pos)
        pos = start + len(line)
        stripped = line.strip()
        joins = (out and previous.strip() and stripped and not _is_table_line(stripped)
                 and not _is_table_line(previous.strip()) and not _NEW_ITEM.match(stripped)
                 and (line[:2] == "  " or (stripped[0].islower() or stripped[0].isdigit() or stripped[0] == "(")
                      and previous.rstrip()[-1:] not in ".!?:;"))
        if joins:
            first, _ = out[-1]
            out[-1] = (first, text[first:start + len(line)])
        else:
            out.append((start, line))
        previous = line
    return out


def segment(text: str, header: str = "") -> tuple[list[tuple[int, int, str, str]], str]:
    """The sentences of a chunk text as (start, end, kind, quoted text), and the table header in force at its end.

    ``header`` is the header row of a table that an earlier chunk of the document began (so rows continuing it are
    read with their column names). Offsets are characters of ``text``.
    """
    out: list[tuple[int, int, str, str]] = []
    previous_table = bool(header)
    # a joined line's inner breaks and indentation as spaces of the same length: sentences are split and found in
    # it at the offsets they have in ``text``
    flat = re.sub(r"\n[ \t]*", lambda m: " " * len(m.group(0)), text)
    for start, line in logical_lines(text):
        line = flat[start:start + len(line)]
        stripped = line.strip()
        if not stripped:
            previous_table = False
            continue
        offset = start + (len(line) - len(line.lstrip()))
        if previous_table and _SEPARATOR.match(stripped):
            continue  # the line under a header row: neither a sentence nor a row
        if _is_table_line(stripped):
            if not previous_table:
                header = stripped
                out.append((offset, offset + len(stripped), "header", stripped))
            else:
                out.append((offset, offset + len(stripped), "row", _pairs(header, stripped)))
            previous_table = True
            continue
        previous_table = False
        item = stripped.startswith(("- ", "* "))
        body = stripped[2:].strip() if item else stripped
        cursor = offset + (stripped.find(body) if item else 0)
        for raw in split_sentences(body):
            at = flat.find(raw, cursor)
            at = at if at >= 0 else cursor
            cursor = at + len(raw)
            s = " ".join(raw.split())  # a wrapped line's break and indentation read as one space
            kind = ("item" if item else "heading" if _heading_like(s) else "question" if s.endswith(("?", "？"))
                    else "lead" if s.endswith((":", "：")) else "sentence")
            if item and s.endswith((":", "：")):
                kind = "lead"
            out.append((at, at + len(raw), kind, s))
    return out, header if previous_table else ""


def _cells(row: str) -> list[str]:
    """The cells of a table row, "a | b" or piped "| a | b |", each stripped, a cell written all bold ("**Day**")
    without its asterisks (the office formats keep the cell as written)."""
    body = row.strip()
    if body.startswith("|") and body.endswith("|") and len(body) > 1:
        body = body[1:-1]
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", body)] if row.strip().startswith("|") else \
        [c.strip() for c in body.split(" | ")]
    return [c[2:-2].strip() if len(c) > 4 and c.startswith("**") and c.endswith("**") else c for c in cells]


def _pairs(header: str, row: str) -> str:
    """A table row as "column: value" pairs ("Number of direct reports: 4; Utilization % target: 60%"); cells
    beyond the header, or a row without a header, as written. Piped rows ("| Day | Hours |") are read alike."""
    names = _cells(header) if header else []
    cells = _cells(row)
    if len(names) != len(cells):
        return row
    return "; ".join(f"{n}: {c}" if n else c for n, c in zip(names, cells))


_Plan = list[tuple[list[tuple[int, int, str, str]], list[str]]]


def _plan(chunks: Sequence[tuple[str, str]]) -> _Plan:
    """Per chunk of one document: its units (start, end, kind, quoted text) and, per unit, the text before it (the
    section heading for the first; for a table row, the last sentence before the table)."""
    header = ""
    doc = []
    for text, heading in chunks:
        units, header = segment(text, header)
        doc.append((units, texts_before(units, heading)))
    return doc


def texts_before(units: Sequence[tuple[int, int, str, str]], heading: str) -> list[str]:
    """Per unit of a chunk (start, end, kind, quoted text), the text its context vector joins: the section
    ``heading`` for the first ("" for none), then the previous sentence; a table row keeps the last sentence before
    its table."""
    previous, before = heading, []
    for _, _, kind, quoted in units:
        before.append(previous)
        if kind != "row":
            previous = quoted
    return before


def built(units: Sequence[tuple[int, int, str, str]], before: Sequence[str], vector_of,
          values: Sequence[tuple[str, ...]] | None = None) -> SentenceData:
    """The SentenceData of a chunk's units, with ``before`` (:func:`texts_before`); ``vector_of(text)`` gives a
    text's unit vector (float32, (dim,)); ``values`` are the units' typed values when known (else found here)."""
    quoted = tuple(u[3] for u in units)
    vectors = np.stack([vector_of(t) for t in quoted]).astype(np.float32, copy=False) if units else \
        np.zeros((0, 384), np.float32)
    context = vectors.copy()
    for i, b in enumerate(before):
        if b:
            window = vectors[i] + vector_of(b)
            norm = float(np.linalg.norm(window))
            context[i] = window / norm if norm > 0 else vectors[i]
    return SentenceData(quoted, tuple((u[0], u[1]) for u in units), tuple(u[2] for u in units), vectors, context,
                        tuple(values) if values is not None else tuple(typed_values(t) for t in quoted))


def section_heading(section: str) -> str:
    """The heading a chunk's first sentence is read with: the last part of its section path ("Leave > Annual" ->
    "Annual"; "" for none)."""
    return section.split(" > ")[-1].strip() if section else ""


def sentence_data(documents: Sequence[Sequence[tuple[str, str]]], embedder) -> list[list[SentenceData]]:
    """The sentence data of every chunk of every document, with one embedding call for all of them.

    A sentence's context vector is the re-normalised sum of its own vector and the vector of the sentence before it
    (for a table row, the last sentence before the table; for the first sentence of a chunk, the chunk's section
    heading): no extra model call, and on ExpertQA claims such windows rank as well as embedding the joined text
    (see grounding.support).
    Args:
        documents: per document, its chunks in order as (chunk text, section heading: the last heading of the
            chunk's section path, "" for none).
        embedder: grounding.embeddings.Embedder (unit vectors).
    Returns:
        per document, one SentenceData per chunk (a chunk without text gets an empty one).
    """
    plans = [_plan(chunks) for chunks in documents]
    texts = list(dict.fromkeys([t for doc in plans for units, _ in doc for *_, t in units]
                               + [b for doc in plans for _, before in doc for b in before if b]))
    dim = getattr(embedder, "dim", 384)
    matrix = np.asarray(embedder.embed(texts), dtype=np.float32) if texts else np.zeros((0, dim), np.float32)
    row = {t: i for i, t in enumerate(texts)}
    def vector_of(text: str) -> np.ndarray:
        return matrix[row[text]]

    return [[built(units, before, vector_of) if units else
             SentenceData((), (), (), np.zeros((0, matrix.shape[1]), np.float32),
                          np.zeros((0, matrix.shape[1]), np.float32))
             for units, before in doc] for doc in plans]
