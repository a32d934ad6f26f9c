"""Numbered sections looked up by their label in retrieval: a question naming "Day 3", "Step 2" or "Phase 1" asks
about the passage under the heading so numbered ("What happens on Day 3?"). The passage often never repeats its
label (under "Day 3 (Wednesday)" the demo handbook describes a robot safety course), so neither its vector nor its
words match the question, and the fusion ranked it 22nd of the 46 chunks, below four other "Day" sections; only its
heading says it is the one asked about. Like the table row lookup (grounding.table_lookup), the chunk whose section
heading carries the label the question names is brought in behind the best candidate.

A label is a word and a number opening a heading segment ("Day 3 (Wednesday)", "Step 1: Submit the software for an
IT Standards review", "Step 1 - Submit a time request"), the number in digits or as a word up to twelve; a question
names it as "Day 3", "day three", "my third day" or "the 3rd day". The offline answerer answers from the section so
found (grounding.section_lists), reading numbers the same way (:func:`numbered_terms`). Rules written on the demo
handbook's first-week page; no Django imports.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping, Sequence, TypeVar

from grounding.lexical import content_terms

__all__ = ["MAX_LOOKED_UP", "NUMBER_WORDS", "label_map", "looked_up_rows", "named_labels", "numbered_terms",
           "section_labels", "with_looked_up"]

T = TypeVar("T")

#: At most this many chunks are brought in for the labels one question names (the same label can head a section of
#: several documents: "Step 2" of two procedures).
MAX_LOOKED_UP = 2

_CARDINALS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve"
                                               .split())}
_ORDINALS = {w: str(i) for i, w in enumerate("zeroth first second third fourth fifth sixth seventh eighth ninth tenth "
                                             "eleventh twelfth".split())}
#: Number words and ordinals read as their digit ("day one", "the first day" -> "1").
NUMBER_WORDS = _CARDINALS | _ORDINALS
_CARDINAL = r"(\d{1,3}|" + "|".join(_CARDINALS) + r")"
_ORDINAL = r"(\d{1,2}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r")"
#: How a question names a numbered thing: a word and a number ("on Day 3", "in step two") or an ordinal and a word
#: ("my first day", "the 2nd week").
_NAMED = re.compile(r"\b([A-Za-z]{2,})\s+" + _CARDINAL + r"\b", re.I)
_NAMED_ORDINAL = re.compile(r"\b" + _ORDINAL + r"\s+([A-Za-z]{2,})\b", re.I)
#: A heading segment opening with a word and a number, then its end, a parenthesis, a colon, a dash or a full stop.
_OPENS = re.compile(r"^([A-Za-z]{2,})\s+" + _CARDINAL + r"(?=\s*$|\s*[(:.\-–—]|\s)", re.I)
#: How a section path joins its headings: " > " (nesting) and " · " (sections merged into one chunk).
_SEGMENTS = re.compile(r"\s+[>·]\s+")
_WORD = re.compile(r"[a-z]+")


def numbered_terms(text: str) -> frozenset[str]:
    """The content terms of ``text`` (grounding.lexical.content_terms) and the digit of each number word or ordinal
    in it: "What should I do on my first day?" -> {"first", "day", "1", ...}."""
    return content_terms(text) | {NUMBER_WORDS[w] for w in _WORD.findall(text.lower()) if w in NUMBER_WORDS}


def _digit(number: str) -> str:
    """A number as digits: "three" -> "3", "third" -> "3", "2nd" -> "2", "03" -> "3"."""
    number = number.lower()
    number = NUMBER_WORDS.get(number, re.sub(r"(?:st|nd|rd|th)$", "", number))
    return str(int(number))


def named_labels(question: str) -> frozenset[str]:
    """The labels a question names, lower case with the number in digits ("What happens on Day 3?" -> {"day 3"};
    "What is step two?" -> {"step 2"}; "my first day" -> {"day 1"})."""
    return frozenset({f"{m.group(1).lower()} {_digit(m.group(2))}" for m in _NAMED.finditer(question)
                      if _noun_like(m.group(1))}
                     | {f"{m.group(2).lower()} {_digit(m.group(1))}" for m in _NAMED_ORDINAL.finditer(question)
                        if _noun_like(m.group(2))})


def _noun_like(word: str) -> bool:
    """True for a word that can name what is numbered ("Day", "Step"): a content word
    (grounding.lexical.content_terms), not a function word ("in one year", "about ten", "the three rules")."""
    return bool(content_terms(word))


def section_labels(section: str) -> frozenset[str]:
    """The labels opening the headings of a section path ("Day 3 (Wednesday) > Robot safety training" ->
    {"day 3"}; "Day 4 (Thursday) · Day 5 (Friday)" -> {"day 4", "day 5"}); empty when no heading opens with one."""
    found = set()
    for segment in _SEGMENTS.split(section.strip()):
        m = _OPENS.match(segment.strip())
        if m and _noun_like(m.group(1)):
            found.add(f"{m.group(1).lower()} {_digit(m.group(2))}")
    return frozenset(found)


def label_map(sections: Iterable[str]) -> dict[str, list[int]]:
    """Label -> the rows (positions in ``sections``, ascending) whose section path carries it."""
    out: dict[str, list[int]] = {}
    for row, section in enumerate(sections):
        for label in section_labels(section or ""):
            out.setdefault(label, []).append(row)
    return out


def looked_up_rows(question: str, labels: Mapping[str, list[int]]) -> list[int]:
    """The rows whose section heading carries a label ``question`` names (``labels``: :func:`label_map`), ascending;
    [] when it names none or no heading carries one."""
    named = named_labels(question)
    return sorted({row for label in named for row in labels.get(label, ())})


def with_looked_up(ranked: Sequence[T], looked: Sequence[T], key: Callable[[T], object]) -> list[T]:
    """``ranked`` (best first) with the ``looked`` up items (in their order) moved or added behind the first item,
    where a planned answer always reads them (grounding.table_lookup.PROMOTE_TO); a looked-up item already first
    stays first. ``key`` names an item (the same chunk found twice is one item)."""
    if not looked:
        return list(ranked)
    keys = {key(item) for item in looked}
    if ranked and key(ranked[0]) in keys:
        head, keys = [ranked[0]], keys - {key(ranked[0])}
    else:
        head = list(ranked[:1])
    moved = [item for item in looked if key(item) in keys]
    return head + moved + [item for item in ranked[1:] if key(item) not in keys]
