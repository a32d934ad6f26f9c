"""The offline answerer's own sentences on the notes, left out where the note box shows those notes.

The extractive answerer ends an answer with its word on a note that concerns what it quotes
(grounding.compose.note_lines): "Note that this changed: S1 (the current version) says ... but S2 (a superseded
version) says $300 [S1][S2]." for a version note, "Note that the sources disagree: ... [S1][S2]." for a
contradiction. The chat page shows the same note in its note box, with the dates, so the reader saw it twice (the
s19 new-user run: "What is the nightly hotel limit in New York?"). The note box is where a reader looks for notes
(the chips point to it, "note 1"): the page's answer leaves the sentence out when the box shows a note of its kind.
The stored answer text, `ask --json` and the API keep it. No Django imports.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

__all__ = ["NOTE_SENTENCE", "without_note_sentences"]

#: One such sentence: its lead, the note's text (its markers neutralised, so the first run of markers ends it), the
#: markers of the sources it names and the full stop; with the space or line breaks before it.
NOTE_SENTENCE = re.compile(r"\s*Note that (this changed|the sources disagree): .*?(?:\[S\d+\])+\.(?=\s|$)", re.S)


def without_note_sentences(text: str, notes: Iterable[Mapping[str, Any]]) -> str:
    """``text`` without its "Note that this changed: ..." sentences when ``notes`` (the notes shown with the answer,
    JSON form: ``kind``, ...) hold a version note (kind "version_superseded"), and without its "Note that the
    sources disagree: ..." sentences when they hold a contradiction note (any other kind but "injection"); the text
    unchanged when it has no such sentence or the box shows no note of its kind."""
    kinds = {str(n.get("kind", "")) for n in notes}
    shown = {"this changed": "version_superseded" in kinds,
             "the sources disagree": bool(kinds - {"version_superseded", "injection", ""})}
    cut = NOTE_SENTENCE.sub(lambda m: "" if shown[m.group(1)] else m.group(0), text)
    return cut.rstrip() if cut != text else text
