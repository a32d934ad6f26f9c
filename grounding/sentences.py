"""Sentence splitting with pysbd (rule-based, Golden Rules tested), for chunking, answers and checks.

pysbd is quadratic on very long runs of text, so longer lines are first cut at obvious sentence ends, and runs with
no sentence end at all at word boundaries; each line's split is cached. A full stop, question or exclamation mark
inside inline code (Markdown backticks: "leave a `.` or a note") ends no sentence, unless it closes the code before
a capital ("such as `wrong channel.` After 5 minutes"); nor does "a.m."/"p.m." before a time zone ("3:00 p.m.
Central Time").
"""

from __future__ import annotations

import functools
import re

import pysbd

__all__ = ["split_sentences"]


@functools.lru_cache(maxsize=1)
def _segmenter() -> pysbd.Segmenter:
    return pysbd.Segmenter(language="en", clean=False)


#: pysbd is quadratic on very long runs of text; longer lines are first cut at obvious sentence ends, and runs
#: with no sentence end at all at word boundaries, into pieces of at most this many characters.
_SEGMENT_CHARS = 2_000
_OBVIOUS_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


#: Inline code on one line (Markdown backticks), at most 80 characters between them.
_INLINE_CODE = re.compile(r"`[^`\n]{1,80}`")
#: Sentence punctuation inside inline code stands in for private-use characters while pysbd reads the line.
_MASK = str.maketrans({".": "\ue000", "?": "\ue001", "!": "\ue002"})
_UNMASK = str.maketrans({"\ue000": ".", "\ue001": "?", "\ue002": "!"})
#: Where masked code ending with its own sentence mark is followed by a capital: a sentence end.
_CODE_END = re.compile("(?<=[\ue000\ue001\ue002]`)\\s+(?=[A-Z])")


#: "a.m." or "p.m." before a time zone ("3:00 p.m. Central Time", "9 a.m. ET"): the time goes on, no sentence ends.
_TIME_ZONE = re.compile(r"\b([ap])\.m\.(?=\s+(?:Central|Eastern|Pacific|Mountain|Atlantic|Alaska|Hawaii|[ECMP][SD]?T|"
                        r"UTC|GMT)\b)", re.I)


@functools.lru_cache(maxsize=20_000)
def _segment(line: str) -> tuple[str, ...]:
    if ".m. " in line:
        masked = _TIME_ZONE.sub(lambda m: f"{m.group(1)}\ue000m\ue000", line)
        if masked != line:
            return tuple(s.translate(_UNMASK) for s in _segment(masked))
    if "`" in line:
        masked = _INLINE_CODE.sub(lambda m: m.group(0).translate(_MASK), line)
        if masked != line:
            # code ending with its own full stop before a capital ends the sentence too ("`wrong channel.` After")
            return tuple(part.translate(_UNMASK) for s in _segment(masked) for part in _CODE_END.split(s))
    pieces: list[str] = []
    for part in (_OBVIOUS_END.split(line) if len(line) > _SEGMENT_CHARS else [line]):
        while len(part) > _SEGMENT_CHARS:
            cut = part.rfind(" ", 0, _SEGMENT_CHARS)
            cut = cut if cut > 0 else _SEGMENT_CHARS
            pieces.append(part[:cut])
            part = part[cut:].lstrip()
        pieces.append(part)
    return tuple(s.strip() for piece in pieces for s in _segmenter().segment(piece) if s.strip())


def split_sentences(text: str) -> list[str]:
    """Split text into sentences with pysbd (rule-based, Golden Rules tested); newlines also end a sentence.

    Cached per line; lines over 2,000 characters are pre-cut so the cost stays linear in the text length.
    """
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            out.extend(_segment(line))
    return out
