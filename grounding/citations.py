"""Inline citation markers in model answers: recognising them in text (whole or streamed) and removing them.

The model cites sources with markers that refer to labels the application assigned ("S1".."Sn"). The model text is
not trusted: a marker is only a pattern in the text, and a label resolves only through the application's own set of
known labels, never by position in a list (so "[0]" or "[7]" never mean "the first/seventh source").

Recognised marker forms (all offsets below are character offsets into the full answer text):

* ``[S1]``; two adjacent markers ``[S1][S3]`` are two markers;
* lists ``[S1, S3]``, ``[S1,S3]``, ``[S1; S3]`` (also the fullwidth separators "，", "；", "、"), spaces or tabs
  allowed around tokens;
* doubled brackets ``[[S1]]`` (one marker; its raw text includes both bracket pairs);
* fullwidth brackets ``【S1】``;
* bare numbers ``[0]``, ``[7]``, ``[2, 9]`` (1-3 ASCII digits per token), kept as given so they can be reported as
  invalid.

A token is ``S`` or ``s`` followed by 1-3 ASCII digits (normalised to upper-case ``S``), or 1-3 ASCII digits.
Anything else inside the brackets (``[note]``, ``[see below]``, ``[2024]``, ``[S1a]``) means "not a marker". An
ASCII-bracket marker immediately followed by "(" is a Markdown link (``[1](https://...)``), not a marker. A marker is
at most :data:`MAX_MARKER_CHARS` characters long, which is also the most the streaming parser
(:class:`grounding.citation_stream.CitationStreamParser`) ever holds back.

Recognition at a position only looks forward, at most ``MAX_MARKER_CHARS + 1`` characters, so the streaming parser
(which reads with :func:`scan_markers`) and :func:`parse_markers` agree for any split of the text into pieces.

Code is never read for markers (B09): a look-alike inside a Markdown code span or fenced or indented code block
(``values[0]``, ``cfg[S2]``, ``row[2]``) is code, not a citation; where code is comes from
:mod:`grounding.code_regions` (markdown-it-py's block structure, CommonMark's backtick rule), read on the text with
every look-alike masked, which is what the renderer parses. Only a caller that must see every look-alike
(grounding.prompt_sources.neutralise_markers, for source text sent to the model) asks for code too
(``include_code=True``).

Resolving the cited labels against the application's source map is :mod:`grounding.citation_labels`; passing a
streamed answer through without partial markers is :mod:`grounding.citation_stream`; removing the markers from a text
is :mod:`grounding.citation_strip`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from grounding.code_regions import in_ranges, markdown_code_ranges, may_hold_code

__all__ = [
    "MAX_MARKER_CHARS",
    "Marker",
    "mask_markers",
    "parse_markers",
    "scan_markers",
]

#: Longest marker recognised, in characters, brackets included. Longer bracketed lists are not markers, which bounds
#: how much text the stream parser holds back.
MAX_MARKER_CHARS = 32

#: Most digits in one label token ("S999", "999").
_MAX_DIGITS = 3

_SEPARATORS = frozenset(",;，；、")
_SPACES = frozenset(" \t")
#: Where a marker could start in a complete text: an opener, perhaps "[[", spaces, perhaps "S", then a digit
#: (:func:`_scan_at` reads nothing else as a marker); the rest is a look-ahead, so overlapping places ("[[S1]") are
#: all found, and the opener first lets the regular expression engine skip to openers. A whole text is tried only there; a stream tries every opener (``_OPENERS``) and holds back one at its end, since
#: the rest may follow.
_PLAUSIBLE = re.compile(r"[\[【](?=\[?[ \t]*[Ss]?[0-9])")
#: ``_PLAUSIBLE`` for a text without "【": the same places, found several times faster (a one-character literal
#: prefix lets the engine skip to each "[", where a class holding a non-Latin-1 character is tested at every character).
_PLAUSIBLE_ASCII = re.compile(r"\[(?=\[?[ \t]*[Ss]?[0-9])")
_OPENERS = re.compile(r"[\[【]")


@dataclass(frozen=True)
class Marker:
    """One citation marker found in an answer.

    Attributes:
        start: offset of the marker's first character in the full text (characters, 0-based).
        end: offset just past the marker's last character (characters), so ``text[start:end] == raw``.
        raw: the marker exactly as written, brackets included ("[S1, S3]", "[[S2]]", "【S4】", "[0]").
        labels: the normalised label tokens in order: "s2" becomes "S2", bare numbers stay as given ("0", "7").
    """

    start: int
    end: int
    raw: str
    labels: tuple[str, ...]


class _NeedMore(Exception):
    """Raised inside :func:`_scan_at` when the decision depends on characters not received yet."""


_Match = tuple[int, tuple[str, ...]]


def _scan_at(text: str, i: int, at_eof: bool) -> _Match | None:
    """Try to read one marker starting exactly at ``text[i]``.

    Returns ``(end, labels)`` for a marker spanning ``text[i:end]``, or None when no marker starts at ``i``. When
    ``at_eof`` is False and the answer depends on characters past the end of ``text``, raises :class:`_NeedMore`.
    The decision depends only on ``text[i:i + MAX_MARKER_CHARS + 1]`` (never on text before ``i``), which is what
    makes streaming and whole-text parsing agree.
    """
    n = len(text)
    limit = i + MAX_MARKER_CHARS  # a marker must end at or before this offset

    def char(k: int) -> str:
        # "" stands for "nothing here": past the length limit, or past the end of the whole text.
        if k >= limit:
            return ""
        if k < n:
            return text[k]
        if at_eof:
            return ""
        raise _NeedMore

    def is_digit(c: str) -> bool:
        return c != "" and "0" <= c <= "9"

    opener = text[i]
    if opener == "【":
        closer, double, k = "】", False, i + 1
    elif opener == "[":
        closer = "]"
        double = char(i + 1) == "["
        k = i + 2 if double else i + 1
    else:
        return None

    labels: list[str] = []
    while char(k) in _SPACES:
        k += 1
    while True:
        c = char(k)
        prefix = ""
        if c == "S" or c == "s":
            prefix = "S"
            k += 1
        digits_start = k
        while is_digit(char(k)):
            k += 1
            if k - digits_start > _MAX_DIGITS:
                return None
        if k == digits_start:
            return None
        labels.append(prefix + text[digits_start:k])
        while char(k) in _SPACES:
            k += 1
        c = char(k)
        if c in _SEPARATORS:
            k += 1
            while char(k) in _SPACES:
                k += 1
            continue
        if c == closer:
            k += 1
            break
        return None
    if double:
        if char(k) != "]":
            return None
        k += 1
    if closer == "]":
        # Lookahead: "[1](url)" is a Markdown link. The character at ``k`` may sit exactly at ``limit``.
        if k < n:
            following = text[k]
        elif at_eof:
            following = ""
        else:
            raise _NeedMore
        if following == "(":
            return None
    return k, tuple(labels)

def scan_markers(text: str, base: int, at_eof: bool, openers: re.Pattern[str] = _OPENERS) -> tuple[list[Marker], int]:
    """Scan ``text`` for markers, code included; return them (offsets shifted by ``base``) and the offset where
    scanning stopped.

    Args:
        text: the text to scan (the whole answer, or the part of a stream not released yet).
        base: offset of ``text`` in the full text (characters); added to every marker's offsets.
        at_eof: True when nothing follows ``text``; False while more may arrive (streaming).
        openers: where a marker is tried: every opener by default; a whole text (``at_eof``) may pass
            ``_PLAUSIBLE``, the openers a label follows, as no other can start a marker.

    Returns:
        ``(markers, stop)``: the markers in text order, and ``stop``, an offset into ``text`` (characters) that is
        ``len(text)`` unless ``at_eof`` is False and a marker might start at ``stop`` (its text must be held back).
        Look-alikes inside code are returned too: telling code from citations is the caller's job (B09).
    """
    markers: list[Marker] = []
    pos = 0
    while True:
        found = openers.search(text, pos)
        if found is None:
            return markers, len(text)
        i = found.start()
        try:
            result = _scan_at(text, i, at_eof)
        except _NeedMore:
            return markers, i
        if result is None:
            pos = i + 1
            continue
        end, labels = result
        markers.append(Marker(start=base + i, end=base + end, raw=text[i:end], labels=labels))
        pos = end


#: Private-use characters a masked marker is made of (:func:`mask_markers`): opening, middle, closing.
_MASK_OPEN, _MASK_MID, _MASK_CLOSE = "\ue000", "\ue002", "\ue001"


def mask_markers(text: str, markers: Sequence[Marker], base: int = 0) -> str:
    """``text`` with each marker replaced by private-use characters of the same length (offsets unchanged).

    A masked marker is plain text to Markdown, as the placeholder the renderer puts in its place is, so the block
    structure read on the masked text is the one the answer is rendered with ("[S2]: x" at a line start is not a
    link reference definition). ``base`` is the offset of ``text`` in the text the markers' offsets refer to.
    """
    chars = list(text)
    for m in markers:
        a, b = m.start - base, m.end - base
        chars[a:b] = _MASK_OPEN + _MASK_MID * (b - a - 2) + _MASK_CLOSE
    return "".join(chars)


def parse_markers(text: str, *, include_code: bool = False) -> list[Marker]:
    """Find the citation markers in a complete answer.

    Args:
        text: the whole answer text (Markdown).
        include_code: also return look-alikes inside Markdown code spans and code blocks (for neutralising every
            look-alike in text that is not rendered, such as sources sent to the model). By default code is never
            read for markers (B09).

    Returns:
        Markers in text order, non-overlapping, with character offsets into ``text`` (``text[m.start:m.end] ==
        m.raw``). Markdown links, bracketed words ("[note]") and numbers longer than 3 digits are not markers.

    Raises:
        TypeError: when ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    # only where a label follows an opener can a marker start (Markdown links and "[note]" are not tried)
    markers, _ = scan_markers(text, 0, at_eof=True, openers=_PLAUSIBLE if "【" in text else _PLAUSIBLE_ASCII)
    if include_code or not markers or not may_hold_code(text, markers[-1].start):
        return markers
    code = markdown_code_ranges(mask_markers(text, markers))
    return [m for m in markers if not in_ranges(code, m.start)]
