"""Inline citation markers in model answers: parsing, streaming without partial markers, label checking.

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
at most :data:`MAX_MARKER_CHARS` characters long, which is also the most :class:`CitationStreamParser` ever holds
back.

Recognition at a position only looks forward, at most ``MAX_MARKER_CHARS + 1`` characters, so the streaming parser
and :func:`parse_markers` agree for any split of the text into pieces.

Code is never read for markers (B09): a look-alike inside a Markdown code span or fenced or indented code block
(``values[0]``, ``cfg[S2]``, ``row[2]``) is code, not a citation; where code is comes from
:mod:`grounding.code_regions` (markdown-it-py's block structure, CommonMark's backtick rule), read on the text with
every look-alike masked, which is what the renderer parses. Only a caller that must see every look-alike
(grounding.prompt.neutralise_markers, for source text sent to the model) asks for code too (``include_code=True``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from grounding.code_regions import (in_ranges, line_starts, markdown_code_ranges, markdown_leaves, may_hold_code,
                                    unclosed_backtick)

__all__ = [
    "MAX_MARKER_CHARS",
    "CitationCheck",
    "CitationStreamParser",
    "Marker",
    "check_labels",
    "mask_markers",
    "parse_markers",
    "strip_markers",
]

#: Longest marker recognised, in characters, brackets included. Longer bracketed lists are not markers, which bounds
#: how much text the stream parser holds back.
MAX_MARKER_CHARS = 32

#: Most digits in one label token ("S999", "999").
_MAX_DIGITS = 3

_SEPARATORS = frozenset(",;，；、")
_SPACES = frozenset(" \t")
_OPENERS = re.compile(r"[\[【]")
#: Characters that a removed marker's preceding whitespace should not stand before (see :func:`strip_markers`).
_CLOSING_PUNCTUATION = frozenset(".,;:!?)]}…»”’。，、；：！？）」』")


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


@dataclass(frozen=True)
class CitationCheck:
    """Outcome of resolving the labels cited in an answer against the application's known labels.

    Attributes:
        valid: labels that are known, in first-seen order, without duplicates.
        invalid: label tokens that did not resolve ("S7", "0", "S9"), in first-seen order, without duplicates.
    """

    valid: tuple[str, ...]
    invalid: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when no cited label failed to resolve."""
        return not self.invalid


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


def _scan(text: str, base: int, at_eof: bool) -> tuple[list[Marker], int]:
    """Scan ``text`` for markers; return them (offsets shifted by ``base``) and the offset where scanning stopped.

    The stop offset is ``len(text)`` unless ``at_eof`` is False and a marker might start at the returned offset.
    """
    markers: list[Marker] = []
    pos = 0
    while True:
        found = _OPENERS.search(text, pos)
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
    markers, _ = _scan(text, 0, at_eof=True)
    if include_code or not markers or not may_hold_code(text, markers[-1].start):
        return markers
    code = markdown_code_ranges(mask_markers(text, markers))
    return [m for m in markers if not in_ranges(code, m.start)]


class CitationStreamParser:
    """Pass a streamed answer through, never letting a partial citation marker out.

    Feed the model's pieces in order; each :meth:`feed` returns the text that is safe to show now, and :meth:`close`
    returns the rest. Markers are passed through as text, but only whole: a tail that could still become a marker
    ("[", "[S", "[S1", "[[S1]", "【S", "[S1, S") is held back until it is resolved, inside code as outside (so a
    code span or fence that is still open holds exactly as much). A complete ASCII-bracket marker is held until the
    next character shows it is not a Markdown link. The held tail is never longer than :data:`MAX_MARKER_CHARS`
    characters.

    Whether a released look-alike is a citation or code (B09) is decided as soon as the text received settles it,
    whatever the split into pieces (a fence or a backtick run split across pieces included):

    * at once when no backtick precedes it in its paragraph, heading or table row and it is not in a code block
      (the usual case: a chip can be shown at once);
    * inside a code block: as soon as the block is known to be code (a fence's own line once it is complete);
    * after a backtick in its paragraph: when the paragraph has ended (a complete line after it), since a code
      span opened before it may still close; at :meth:`close` at the latest.

    :attr:`markers` lists the decided citations in text order (always a prefix of the final list); for any split of
    a text, after :meth:`close` it equals ``parse_markers(text)``, and the concatenation of all :meth:`feed` outputs
    and :meth:`close` equals the text.
    """

    def __init__(self) -> None:
        self._held = ""
        self._held_start = 0  # offset of the held text's first character in the full text
        self._masked = ""  # the released text with its look-alikes masked (see mask_markers)
        self._pending: list[Marker] = []  # released look-alikes not decided yet (code or citation), in text order
        self._markers: list[Marker] = []
        self._analysed = (-1, -1)  # (complete lines, look-alikes) the last analysis of the text saw
        self._seen = 0  # look-alikes released so far
        self._closed = False

    @property
    def markers(self) -> list[Marker]:
        """Citation markers decided so far, with offsets into the full text (a copy; complete after close)."""
        return list(self._markers)

    @property
    def held(self) -> str:
        """Text received but not released yet (at most :data:`MAX_MARKER_CHARS` characters between calls)."""
        return self._held

    @property
    def released(self) -> int:
        """Characters released so far (the offset in the full text where the held text starts)."""
        return self._held_start

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    def citations_in(self, start: int, end: int) -> list[tuple[int, int]]:
        """The decided citation markers lying wholly in ``[start, end)`` of the full text, as (start, end) offsets
        relative to ``start`` (characters): what a client may show as chips in the piece of text released there."""
        return [(m.start - start, m.end - start) for m in self._markers if start <= m.start and m.end <= end]

    def feed(self, piece: str) -> str:
        """Add the next piece of the answer and return the text that can be shown now.

        Args:
            piece: the next piece of the answer, any length (may be "").

        Returns:
            A prefix of the not-yet-released text (possibly ""), never ending inside a marker.

        Raises:
            TypeError: when ``piece`` is not a str.
            RuntimeError: when called after :meth:`close`.
        """
        if not isinstance(piece, str):
            raise TypeError(f"piece must be str, not {type(piece).__name__}")
        if self._closed:
            raise RuntimeError("feed() called after close()")
        self._held += piece
        return self._release(at_eof=False)

    def close(self) -> str:
        """End the stream and return all text still held back (possibly "").

        Raises:
            RuntimeError: when called twice.
        """
        if self._closed:
            raise RuntimeError("close() called twice")
        self._closed = True
        return self._release(at_eof=True)

    def _release(self, at_eof: bool) -> str:
        markers, cut = _scan(self._held, self._held_start, at_eof)
        out, self._held = self._held[:cut], self._held[cut:]
        self._masked += mask_markers(out, markers, self._held_start)
        self._held_start += cut
        self._pending.extend(markers)
        self._seen += len(markers)
        if self._pending:
            self._decide(at_eof)
        return out

    def _decide(self, at_eof: bool) -> None:
        """Move the pending look-alikes whose status the text received so far settles to :attr:`markers`."""
        text = self._masked + self._held
        if at_eof:
            code = markdown_code_ranges(text)
            self._markers.extend(m for m in self._pending if not in_ranges(code, m.start))
            self._pending = []
            return
        if not may_hold_code(text, self._pending[-1].start):  # no code can hold any of them
            self._markers.extend(self._pending)
            self._pending = []
            return
        starts = line_starts(text)
        complete = len(starts) - 1  # lines 0 .. complete-1 end with a line break
        if self._analysed == (complete, self._seen):
            return  # nothing that could settle a pending look-alike has arrived since the last analysis
        self._analysed = (complete, self._seen)
        leaves = markdown_leaves(text)
        firsts = [leaf.start for leaf in leaves]
        decided = 0
        for m in self._pending:
            k = bisect.bisect_right(firsts, m.start) - 1
            leaf = leaves[k] if k >= 0 and m.start < leaves[k].end else None
            if leaf is None:
                break
            line = bisect.bisect_right(starts, m.start) - 1
            if leaf.kind == "code":
                # a code block stays code; only a fence's own line (its info string) waits for the line's end,
                # since a backtick later on it would make it a code span instead, and, when it holds a pipe, for
                # the next line, which could make it a table header (markdown-it tries tables before fences)
                if leaf.fence and line == leaf.first_line and (
                        line >= complete or (line + 1 >= complete and "|" in text[starts[line]:leaf.end])):
                    break
            else:
                cell = next((a for a, b in leaf.cells if a <= m.start <= b), leaf.start)
                line_start = starts[line]
                if "`" not in text[cell:m.start]:
                    self._markers.append(m)  # no code span can open before it
                elif leaf.last_line + 1 < complete:
                    # the paragraph has ended (a complete line after it), so its code spans are final
                    if not any(a <= m.start < b for a, b in leaf.code):
                        self._markers.append(m)
                else:
                    span = next(((a, b) for a, b in leaf.code if a <= m.start < b), None)
                    # Until the next line is complete, this line could still become a table header, which splits
                    # code spans at pipes: a pipe before the marker (or inside its span) leaves it undecided.
                    reach = m.start if span is None else max(m.start, span[1])
                    if not leaf.cells and line + 1 >= complete and "|" in text[line_start:reach]:
                        break
                    if span is None and unclosed_backtick(text, cell, m.start):
                        break  # a code span opened before it may still close after it
                    if span is not None and span[1] == len(text):
                        break  # its closing backticks may still grow into a longer run that closes nothing
                    if span is None:
                        self._markers.append(m)  # every code span before it has closed
            decided += 1
        del self._pending[:decided]


def check_labels(markers: Sequence[Marker], known_labels: Collection[str]) -> CitationCheck:
    """Resolve every label cited by ``markers`` against the application's labels.

    Resolution is by exact label membership only ("S3" is valid iff "S3" is in ``known_labels``); the order of
    ``known_labels`` and the number of sources play no part, so bare numbers such as "0" or "7" are invalid unless
    the application itself uses those strings as labels.

    Args:
        markers: markers as returned by :func:`parse_markers` or :attr:`CitationStreamParser.markers`.
        known_labels: the labels the application assigned to the sources of this answer ("S1".."Sn").

    Returns:
        A :class:`CitationCheck` with valid and invalid labels, each in first-seen order without duplicates.

    Raises:
        TypeError: when ``known_labels`` is a single str (ambiguous: a str is a collection of characters).
    """
    if isinstance(known_labels, str):
        raise TypeError("known_labels must be a collection of labels, not a str")
    known = frozenset(known_labels)
    valid: dict[str, None] = {}
    invalid: dict[str, None] = {}
    for marker in markers:
        for label in marker.labels:
            (valid if label in known else invalid).setdefault(label, None)
    return CitationCheck(valid=tuple(valid), invalid=tuple(invalid))


def _join_around_removed(left: str, right: str) -> str:
    """Join the text either side of a removed marker, tidying the whitespace the marker leaves behind."""
    left_trimmed = left.rstrip(" \t")
    right_trimmed = right.lstrip(" \t")
    had_space = left_trimmed != left or right_trimmed != right
    if not right_trimmed or right_trimmed[0] in _CLOSING_PUNCTUATION or right_trimmed[0] in "\r\n":
        return left_trimmed + right_trimmed
    if not left_trimmed or left_trimmed[-1] in "\r\n":
        return left_trimmed + right_trimmed
    return left_trimmed + (" " if had_space else "") + right_trimmed


def strip_markers(text: str, markers: Sequence[Marker] | None = None, *, start: int = 0,
                  end: int | None = None) -> str:
    """Return ``text[start:end]`` without its citation markers, for comparing sentences.

    Whitespace left by a removed marker is tidied: none before punctuation ("blue [S1]." and "blue [S1] ." become
    "blue."), a single space between words ("A [S1] B" and "A [S1][S2] B" become "A B"), none at the start or end of
    a line. Text away from markers is unchanged; look-alikes in code are not markers and stay.

    Args:
        text: the whole answer text.
        markers: the markers of the whole ``text`` (offsets into it), default ``parse_markers(text)``. Pass them when
            stripping several slices of one answer: a slice cut inside a code block or span is still read as code.
        start, end: the slice of ``text`` to return (characters; default all of it). Markers not wholly inside it
            are left as they are.

    Raises:
        TypeError: when ``text`` is not a str.
    """
    if markers is None:
        markers = parse_markers(text)
    end = len(text) if end is None else end
    markers = [replace(m, start=m.start - start, end=m.end - start) for m in markers
               if start <= m.start and m.end <= end]
    text = text[start:end]
    if not markers:
        return text
    segments = [text[: markers[0].start]]
    for current, following in zip(markers, markers[1:]):
        between = text[current.end : following.start]
        if between:  # adjacent markers count as one removal
            segments.append(between)
    segments.append(text[markers[-1].end :])
    result = segments[0]
    for segment in segments[1:]:
        result = _join_around_removed(result, segment)
    return result
