"""Sentence splitting with pysbd (rule-based, Golden Rules tested), for chunking, answers and checks.

pysbd is quadratic on very long runs of text, so longer lines are first cut at obvious sentence ends, and runs with
no sentence end at all at word boundaries; each line's split is cached.
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


@functools.lru_cache(maxsize=20_000)
def _segment(line: str) -> tuple[str, ...]:
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
