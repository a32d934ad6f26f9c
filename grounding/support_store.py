"""The values of a planned source read from what ingestion stored with its chunks (issue 20 point 3), for the support
check (grounding.support: is each value an answer sentence states in a source it cites?).

At ingestion each chunk gets a values row (:func:`chunk_values`): the value keys of its whole text
(grounding.support_values.source_keys) and, when its text reads as its lines read one by one (no value, date or
citation marker runs across a line break: grounding.values.value_spans), the keys of each line. At ask time
(:func:`plan_values`):

* a source that is one chunk's text unchanged has that chunk's values;
* a source of adjacent chunks joined (grounding.context_merge.joined_text: newlines between them, the chunker's
  overlap cut from each chunk after the first) has the union of the lines it keeps of each chunk, when every chunk
  reads by lines, every cut falls at a line's start (only white space between the line break and the cut), and no
  value can run across a join (:func:`_join_apart`);
* any other source (a passage withheld, a join a value could cross, a chunk stored without values: an index built
  before they were stored, or by another VALUES_VERSION) is left out, and the support check finds its values in its
  text as before.

Why the union is exact: the value pattern (grounding.values) is scanned left to right; its lookarounds see a line
break as they see the end or start of a string, and no match begins or ends with white space. So when no match runs
across a line break, a text's matches are those of its lines, and the keys of the text are the union of its lines'.
Inside a chunk this is checked at ingestion. At a join it is decided from the characters on either side of the
white space around the line break (:func:`_may_cross`): a match can run across white space only where the pattern
has white space between two of its parts, and there a letter or digit stands on the left and a letter, digit, "%" or
"]" on the right ("March 5", "5 million", "two weeks", "5 %", "[12 ]"), or a ".", ",", "[" or currency sign on the left
and a digit on the right ("Jan. 5", "5, 2020", "$ 5", "[ 12"). A citation marker is blanked before values are read, so
a "]" on the left or a "[" on the right may hide what really borders the white space: any right, or any left, may
then cross. A sentence's end and the next sentence's capital ("... per day.\nHotels") is read apart.
tests/knowledge/test_support_values_index.py holds the result equal to reading the text over every chunk and every
run of adjacent chunks of the 18F handbook; tests/grounding/test_support_store.py over random joins of value pieces.

Pure Python; no Django.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from grounding.context_merge import joined_text
from grounding.lexical import nfkc_fold
from grounding.sentence_store import source_run
from grounding.support_values import SourceValues, source_keys, unlabelled, values_of_keys
from grounding.types import Chunk, ContextPlan
from grounding.values import value_spans

__all__ = ["VALUES_VERSION", "chunk_values", "joined_values", "plan_values", "reads_by_lines", "values_current"]

#: The version of a stored values row, counted up when grounding.values or grounding.support_values read a text
#: differently: a row of another version is not read (the source's values are found in its text), and the index is
#: built again when a worker starts (grounding.index_files.ANSWER_DATA).
VALUES_VERSION = 1

#: Besides letters and digits, what may stand just before white space a value runs across (then with a digit after
#: it: "Jan. 5", "5, 2020", "$ 5", "[ 12"), and what may stand just after it (then with a letter or digit before it).
_LEFT = frozenset(".,[$€£¥")
_RIGHT = frozenset("%]")


def reads_by_lines(text: str) -> bool:
    """True when no value, date or citation marker of ``text`` (as the support check reads it, source labels blanked)
    runs across a line break: the text's value keys are then the union of its lines'."""
    plain = unlabelled(text)
    return not any("\n" in plain[a:b] for a, b in value_spans(plain))


def chunk_values(text: str) -> dict[str, Any]:
    """What ingestion stores of a chunk's values, JSON-ready: {"v": VALUES_VERSION, "all": the sorted value keys of
    the text (grounding.support_values.source_keys), "lines": [[line number (0-based, lines split at "\\n"), its
    sorted keys], ...] for the lines that have any, only when the text :func:`reads_by_lines`}.

    A text that reads by lines is read once, line by line: its keys are then the union of its lines' (the module's
    argument; tests/knowledge/test_support_values_index.py holds it over every 18F chunk). Stored with the chunk
    (knowledge Chunk.support_values), so an index build reads it instead of reading the text again."""
    if not reads_by_lines(text):
        return {"v": VALUES_VERSION, "all": sorted(source_keys(text))}
    lines = [[i, sorted(keys)] for i, line in enumerate(text.split("\n")) if (keys := source_keys(line))]
    return {"v": VALUES_VERSION, "all": sorted({k for _, keys in lines for k in keys}), "lines": lines}


def values_current(row: Any) -> bool:
    """True when ``row`` is a values row of this VALUES_VERSION (:func:`chunk_values`), as stored with a chunk or in
    an index; any other value (None: never made; a row of another version) is not read."""
    return isinstance(row, dict) and row.get("v") == VALUES_VERSION and isinstance(row.get("all"), list)


def _side(text: str, at: int, step: int) -> str:
    """The first character from ``at`` going ``step`` (-1 or 1) that is not white space once NFKC-folded ("" at
    the text's end)."""
    while 0 <= at < len(text):
        c = nfkc_fold(text[at])
        if not c.isspace():
            return c
        at += step
    return ""


def _may_cross(left: str, right: str) -> bool:
    """Whether a value (or a citation marker) may run across white space between the characters ``left`` and
    ``right`` (NFKC-folded, "" for the text's edge; module docstring)."""
    may_left = left.isalnum() or left in _LEFT
    may_right = right.isalnum() or right in _RIGHT
    if not left or not right:
        return False
    if left == "]" or right == "[":  # a citation marker, blanked before values are read, may hide the real border
        return (left == "]" or may_left) and (right == "[" or may_right)
    return may_left and may_right and (left.isalnum() or right.isdigit())


def _join_apart(text: str, newline: int) -> bool:
    """True when no value can run across the join at ``text[newline]`` (a line break): the characters on either side
    of the white space around it cannot border white space inside a value (:func:`_may_cross`)."""
    return not _may_cross(_side(text, newline, -1), _side(text, newline, 1))


def joined_values(texts: Sequence[str], rows: Sequence[Any]) -> tuple[str, frozenset[str]] | None:
    """The joined text of consecutive chunks (grounding.context_merge.joined_text) and its value keys from the
    chunks' stored ``rows`` (:func:`chunk_values`, parsed), equal to grounding.support_values.source_keys of that
    text; None when they cannot be read so (a row missing or of another version, a chunk that does not read by
    lines, a cut inside a line, a join a value could cross)."""
    if len(texts) != len(rows) or not all(values_current(r) and isinstance(r.get("lines"), list) for r in rows):
        return None
    text, starts, cuts = joined_text(tuple(texts))
    keys: set[str] = set()
    for k, (chunk, row, start, cut) in enumerate(zip(texts, rows, starts, cuts)):
        first = 0
        if cut:
            line_start = chunk.rfind("\n", 0, cut) + 1
            if chunk[line_start:cut].strip():
                return None  # the overlap ended inside a line: the part's first line is not a line of the chunk
            first = chunk.count("\n", 0, cut)
        if k and not _join_apart(text, start - 1):
            return None
        keys.update(key for line, found in row["lines"] if line >= first for key in found)
    return text, frozenset(keys)


def plan_values(plan: ContextPlan, chunks: Mapping[int, Chunk], rows: Mapping[int, Any]) -> dict[str, SourceValues]:
    """label -> (normalised values, their bare numbers) of each planned source whose values can be read from what
    ingestion stored (``chunks``: chunk id -> Chunk; ``rows``: chunk id -> its stored values row); equal to
    grounding.support_values.source_values of the source's text. Sources left out are read from their text by the
    support check (old indexes carry no rows: every source is then left out)."""
    out: dict[str, SourceValues] = {}
    for source in plan.sources:
        run = source_run(source, chunks)
        if not run or not all(c.chunk_id in rows for c in run):
            continue
        if len(run) == 1:
            row = rows[run[0].chunk_id]
            if values_current(row):
                out[source.label] = values_of_keys(row["all"])
            continue
        joined = joined_values([c.text for c in run], [rows[c.chunk_id] for c in run])
        if joined is not None and joined[0] == source.text:
            out[source.label] = values_of_keys(joined[1])
    return out
