"""Passing a streamed answer through without ever showing a partial citation marker, deciding as early as the text
received allows which released look-alikes are citations and which are code (B09).

Markers are recognised exactly as :mod:`grounding.citations` does for a whole answer (:func:`scan_markers` only looks
forward a bounded distance), and code regions come from :mod:`grounding.code_regions`, so for any split of a text
into pieces the parser ends with the markers ``parse_markers`` finds in the whole text.
"""

from __future__ import annotations

import bisect

from grounding.citations import Marker, mask_markers, scan_markers
from grounding.code_regions import (in_ranges, line_starts, markdown_code_ranges, markdown_leaves, may_hold_code,
                                    unclosed_backtick)

__all__ = ["CitationStreamParser"]


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
        markers, cut = scan_markers(self._held, self._held_start, at_eof)
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
