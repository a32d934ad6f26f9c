"""How sources and notes are written into the prompt as data: the source formats (basic, metadata, xml), tables and
key-value runs for questions that compare [18.4, 18.11], and the escaping that keeps document text from acting as
prompt structure.

Sources are data, not instructions (case C11): each source has exactly one real closing delimiter, and look-alike
delimiters inside chunk text are escaped. Template syntax in chunk text ("{{ user.password }}") stays literal: the
prompt is built by concatenation, never by a template engine. Each formatted source and note is one *unit* of the
prompt (ends with a newline), whose token count can be cached (see grounding.prompt).
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from typing import Literal

from grounding.citations import parse_markers
from grounding.location import location_text
from grounding.types import Note, Source

FormatStyle = Literal["basic", "metadata", "xml"]
FORMAT_STYLES: tuple[str, ...] = ("basic", "metadata", "xml")

# Tags our prompt uses; a look-alike inside document text is escaped so it cannot close or open a block.
_DELIMITER = re.compile(r"<(\s*/?\s*(?:sources?|documents?|notes?|instructions|system|question|context|quotes|"
                        r"conversation_summary)\b)",
                        re.I)
# Header lines of the basic and metadata styles; a look-alike line in document text is escaped with a backslash.
_HEADER_LINE = re.compile(r"^(\s*)(\[S\d+\]|Source S\d+ \|)", re.M | re.I)


def escape_source_text(text: str, style: str = "xml") -> str:
    """Make document text safe to place inside a source block.

    - Look-alike delimiters are escaped ("</source>" -> "&lt;/source>"); every "&" is escaped first ("&" ->
      "&amp;"), so distinct texts stay distinct (the transformation is injective).
    - Citation-marker look-alikes ("[S2]", "[3]") become parentheses ("(S2)"): a document cannot cite a source.
    - In the basic and metadata styles a line that looks like a source header ("[S9] ...", "Source S9 | ...") is
      prefixed with a backslash.
    """
    text = text.replace("&", "&amp;")
    if "<" in text:  # every look-alike delimiter starts with "<"
        text = _DELIMITER.sub(r"&lt;\1", text)
    text = neutralise_markers(text)
    if style != "xml" and ("[" in text or "|" in text):  # a header look-alike has one or the other
        text = _HEADER_LINE.sub(r"\1\\\2", text)
    return text


def neutralise_markers(text: str) -> str:
    """Citation-marker look-alikes in text become parenthesised ("[S2]" -> "(S2)", "【S1】" -> "(S1)"), inside code
    too: the model reads this text unrendered, where a look-alike in a code block looks like any other."""
    if "[" not in text and "【" not in text:  # every marker opens with one or the other
        return text
    out, pos = [], 0
    for m in parse_markers(text, include_code=True):
        out.append(text[pos:m.start])
        out.append("(" + ", ".join(m.labels) + ")")
        pos = m.end
    out.append(text[pos:])
    return "".join(out)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


# --- structured context [18.11] -------------------------------------------------------------------------------------

_COMPARATIVE = re.compile(r"\b(compare|comparison|differ|difference|versus|vs\.?|between|which (?:one|of)|"
                          r"more than|less than|better|cheaper|higher|lower|table|list (?:all|the))\b", re.I)
_ATTRIBUTE = re.compile(r"\b(what (?:is|are) the \w+ (?:of|for)|how (?:much|many)|limit|rate|amount|price|cost)\b",
                        re.I)


def wants_structure(question: str) -> bool:
    """True when the question compares entities or asks for attributes (so tables/key-values help) [18.11]."""
    return bool(_COMPARATIVE.search(question) or _ATTRIBUTE.search(question))


#: A "Key: value" line (a list marker allowed before it); multi-line, so a whole text can be searched for one.
_KEY_VALUE = re.compile(r"^-?[^\S\n]*[A-Z][\w /()-]{0,40}:[^\S\n]+\S", re.M)


def structure_text(text: str) -> str:
    """Rows of "a | b | c" become a Markdown table; runs of "Key: value" lines become a key-value block.

    Lines that already are Markdown table rows ("| a | b |") and other lines are unchanged. Returns the text unchanged when it has neither.
    """
    if " | " not in text and (":" not in text or not _KEY_VALUE.search(text)):  # neither a row nor a key-value line
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("|"):  # already a Markdown table row (office tables are extracted as such)
            out.append(lines[i])
            i += 1
            continue
        j = i
        cells = lines[i].count(" | ")
        while j < len(lines) and cells and lines[j].count(" | ") == cells:
            j += 1
        if j - i >= 2:
            rows = [[c.strip() for c in ln.split(" | ")] for ln in lines[i:j]]
            out.append("| " + " | ".join(rows[0]) + " |")
            out.append("|" + "---|" * len(rows[0]))
            out.extend("| " + " | ".join(r) + " |" for r in rows[1:])
            i = j
            continue
        j = i
        while j < len(lines) and _KEY_VALUE.match(lines[j]):
            j += 1
        if j - i >= 2:
            out.extend("- " + ln.lstrip("- ").strip() for ln in lines[i:j])
            i = j
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)

# --- sources ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SourceFormat:
    """How sources are formatted [18.4].

    Attributes:
        style: "basic" ([S1] and the text), "metadata" (a header line with title, section, version, date) or "xml"
            (<source label=... title=...>text</source>).
        show_scores: include the relevance score; only honoured when ``scores_calibrated`` is True, since an
            uncalibrated score misleads the model.
        scores_calibrated: whether scores are calibrated probabilities of relevance.
        structured: format tables and key-value runs as such (set per question by ``wants_structure``).
    Raises:
        ValueError: unknown style.
    """

    style: str = "xml"
    show_scores: bool = False
    scores_calibrated: bool = False
    structured: bool = False

    def __post_init__(self) -> None:
        if self.style not in FORMAT_STYLES:
            raise ValueError(f"unknown format style {self.style!r}; expected one of {', '.join(FORMAT_STYLES)}")


@functools.lru_cache(maxsize=4_096)
def format_source(source: Source, fmt: SourceFormat = SourceFormat()) -> str:
    """One source unit (ends with a newline): header with label and metadata, then the escaped text.

    Cached: planning formats each candidate to count it, and a server sees the same chunks again and again."""
    return "".join(source_frame(source, fmt))


def source_frame(source: Source, fmt: SourceFormat = SourceFormat()) -> tuple[str, str, str]:
    """The three parts of a source unit, (header, body, footer): the header ends with a newline, the body is the
    escaped (and, when ``fmt.structured``, structured) text, the footer starts with a newline. Their concatenation is
    :func:`format_source`; planning counts the parts apart so a body unchanged from the stored chunk text is not
    encoded again (grounding.tokens.TokenCounter.count_framed)."""
    text = structure_text(source.text) if fmt.structured else source.text
    body = escape_source_text(text, fmt.style)
    score = fmt.show_scores and fmt.scores_calibrated
    place = location_text(source.location)  # "p. 4", "slide 3", "sheet Schedules, rows 2-14"; "" without one
    if fmt.style == "basic":
        return f"[{source.label}]\n", body, "\n"
    if fmt.style == "metadata":
        meta = [source.title]
        if source.section:
            meta.append(source.section)
        if place:
            meta.append(place)
        meta.append(f"version {source.version or '-'}, {source.date or 'undated'}")
        if source.status != "current":
            meta.append(source.status)
        if score:
            meta.append(f"relevance {source.score:.2f}")
        header = " | ".join(escape_source_text(m.replace("\n", " "), "xml") for m in meta)
        return f"Source {source.label} | {header}\n", body, "\n"
    attrs = [f'label="{source.label}"', f'title="{_attr(source.title)}"']
    if source.section:
        attrs.append(f'section="{_attr(source.section)}"')
    if place:
        attrs.append(f'location="{_attr(place)}"')
    if source.version:
        attrs.append(f'version="{_attr(source.version)}"')
    if source.date:
        attrs.append(f'date="{_attr(source.date)}"')
    if source.status != "current":
        attrs.append(f'status="{_attr(source.status)}"')
    if score:
        attrs.append(f'relevance="{source.score:.2f}"')
    return f"<source {' '.join(attrs)}>\n", body, "\n</source>\n"


def format_note(note: Note) -> str:
    """One note unit: "- [S1, S2] text" (ends with a newline)."""
    return f"- [{', '.join(note.labels)}] {escape_source_text(note.text).replace(chr(10), ' ')}\n"
