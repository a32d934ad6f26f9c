"""Removing inline citation markers from an answer (grounding.citations finds them), for comparing its sentences
with the sources' and with other answers: the text without "[S1]", its whitespace tidied. No Django imports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from grounding.citations import Marker, parse_markers

__all__ = ["strip_markers"]

#: Characters that a removed marker's preceding whitespace should not stand before (see :func:`strip_markers`).
_CLOSING_PUNCTUATION = frozenset(".,;:!?)]}…»”’。，、；：！？）」』")


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
