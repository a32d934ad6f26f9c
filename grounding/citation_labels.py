"""Resolving the labels an answer cites against the application's own labels ("S1".."Sn" of its source map):
valid and invalid citations. Exact membership only, never position (so "[0]" or "[7]" never mean "the first/seventh
source")."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from grounding.citations import Marker, parse_markers

__all__ = ["CitationCheck", "check_labels", "labels_as_footnotes"]


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


#: A source label named in an answer's note prose, not as a marker: "S1 (the current version) says", "S2 says",
#: "S3 lists", "which S1 no longer states" (grounding.notes' wording).
_NAMED_LABEL = re.compile(r"(?<![\w\[])S(\d+)\b(?=\s+(?:\(|says\b|lists\b|no\s+longer\b))")


def labels_as_footnotes(text: str, known: Collection[str]) -> tuple[str, tuple[str, ...]]:
    """An answer's [S#] markers as numbered footnote references, for a copy of the answer outside the application
    (where its labels mean nothing): each known label gets the next number in order of first citation, a marker
    becomes its labels' numbers ("[S1]" -> "[1]", "[S1][S3]" or "[S1, S3]" -> "[1][2]"), an unknown label is
    removed; markers inside code are left as written (grounding.citations.parse_markers). A known label a note names
    in prose ("S1 (the current version) says", "S2 says") becomes "source [n]" too.

    Returns:
        (the text with footnote references, the known labels in footnote order: label of [1], of [2], ...).
    """
    order: dict[str, int] = {}
    out, pos = [], 0
    for m in parse_markers(text):
        out.append(text[pos:m.start])
        numbers = [order.setdefault(lab, len(order) + 1) for lab in m.labels if lab in known]
        if numbers:
            out.append("".join(f"[{n}]" for n in dict.fromkeys(numbers)))
        elif out and text[m.end:m.end + 1] in ("", " ", "\t", "\n", ".", ",", ";", ":", "!", "?"):
            out[-1] = out[-1].rstrip(" \t")  # a removed marker leaves no space before what follows it
        pos = m.end
    out.append(text[pos:])
    # a label the notes name in their prose ("S1 (the current version) says ...") is that footnote too: "source [1]"
    # (the s44 new-user trial's copy read "Note that this changed: S1 (the current version) says ... [1][2]")
    joined = _NAMED_LABEL.sub(lambda m: f"source [{order.setdefault(m.group(0), len(order) + 1)}]"
                              if m.group(0) in known else m.group(0), "".join(out))
    return joined, tuple(order)
