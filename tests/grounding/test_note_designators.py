"""grounding.conflict.note_text: a short designator is named with its word ("lot D", not "D")."""

from __future__ import annotations

from dataclasses import replace

from grounding.contradictions import detect_conflicts
from tests.grounding.test_contradictions import src


def test_a_note_names_a_designator_with_its_word(embedder):
    """The s45 breaker: "Where do visitors park?" over "Visitors park in lot C." / "Visitors park in lot D." noted
    "S1 says "Visitors park in lot C" but S2 says D."; the reader sees "S2 says lot D"."""
    a = replace(src("S1", "Visitors park in lot C.", doc=1), title="Parking Rules")
    b = replace(src("S2", "Visitors park in lot D.", doc=2), title="Parking Rules")
    (note,) = detect_conflicts([a, b], embedder)
    assert note.text.endswith("but S2 says lot D."), note.text
