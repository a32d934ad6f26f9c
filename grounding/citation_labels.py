"""Resolving the labels an answer cites against the application's own labels ("S1".."Sn" of its source map):
valid and invalid citations. Exact membership only, never position (so "[0]" or "[7]" never mean "the first/seventh
source")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from grounding.citations import Marker

__all__ = ["CitationCheck", "check_labels"]


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
