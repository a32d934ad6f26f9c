"""``Source``: a labelled source of a context plan, what the model sees as [S#] and what a citation resolves to (the
passage's text, its document, version and section, where its chunks' parts start, its places in the original file).
Re-exported by grounding.types, which every stage imports its data types from. No Django imports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grounding.location import Location, merge_locations, source_label

if TYPE_CHECKING:
    from grounding.sentence_data import SentenceData

__all__ = ["Source", "merged_section"]


@dataclass(frozen=True)
class Source:
    """A labelled source in the context plan: what the model sees as [S#] and what a citation resolves to.

    Attributes:
        label: "S1", "S2", ... unique within one answer.
        chunk_ids: ids of the chunks whose text this source carries (the first is the primary one; exact
            duplicates merged into it are listed too).
        document_id: id of the document.
        title, section, version, date, status: metadata shown in the prompt header and the source panel.
        text: the text the model is given.
        score: relevance used for ranking (dense cosine of the best chunk).
        tokens: token count of the formatted source block (header and delimiters included).
        status: "current", "draft" or "superseded".
        position: ordinal of the first chunk in its document version (document order).
        version_id: id of the document version.
        withheld: the kinds of injection signal (grounding.injection.KINDS) of the passages withheld from ``text``
            because they address an AI assistant (grounding.quarantine); () when nothing was withheld.
        location: the place in the original file all of the source's chunks cover (merged), None without one.
        parts: ((character offset in ``text``, location), ...) in text order, one per block of its chunks, so a
            citation can name the page, slide or row of the sentence it cites (``location_of``); () when the source
            covers one place or none.
        sentences: the sentence data of ``text`` (grounding.sentence_data.SentenceData: its sentences as the answerer
            quotes them, with kinds and vectors; vectors of the sentences embedded at ingestion are reused, see
            grounding.sentence_rank.with_sentences), read by the extractive answerer and the support check; None when not
            made. Not part of equality nor of as_dict.
        outline: the outline of the document around its primary chunk (grounding.types.Chunk.outline): the section
            paths below its section, so a list of sub-sections written across several chunks can be named; () when
            not known. Not part of equality nor of as_dict.
        keywords: its document's keywords (grounding.types.Chunk.keywords); () when none. Not part of equality nor
            of as_dict.
        sections: for a source merged from adjacent chunks of more than one section, ((character offset in ``text``,
            section path), ...) in text order, one per chunk: where each chunk's part starts and the section it was
            written in (``section_of``; the rendered passage shows the headings between them); () otherwise, when
            ``section`` is every sentence's section.
        chunk_starts: for a source merged from adjacent chunks, ((character offset in ``text``, chunk id), ...) in
            text order, one per chunk: where each chunk's part starts (``chunk_of``: the chunk a citation quotes); ()
            for a source of one chunk.
    """

    label: str
    chunk_ids: tuple[int, ...]
    document_id: int
    title: str
    section: str
    version: str
    date: str
    text: str
    score: float
    tokens: int
    status: str = "current"
    position: int = 0
    version_id: int = 0
    withheld: tuple[str, ...] = ()
    location: Location | None = None
    parts: tuple[tuple[int, Location], ...] = ()
    sentences: SentenceData | None = field(default=None, compare=False, repr=False)
    outline: tuple[str, ...] = field(default=(), compare=False, repr=False)
    keywords: tuple[str, ...] = field(default=(), compare=False, repr=False)
    sections: tuple[tuple[int, str], ...] = ()
    chunk_starts: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if not self.label.startswith("S") or not self.label[1:].isdigit():
            raise ValueError(f"source label must look like S<number>, got {self.label!r}")
        if not self.chunk_ids:
            raise ValueError(f"source {self.label} has no chunk ids")

    @property
    def chunk_id(self) -> int:
        """The primary chunk id (the one with the best score)."""
        return self.chunk_ids[0]

    def location_of(self, span: str) -> Location | None:
        """The location of ``span`` (a sentence of this source's text): the location of the block(s) whose text it
        lies in, else the source's whole location (span "" or not found, or a source of one place)."""
        at = self.text.find(span) if span and self.parts else -1
        if at < 0:
            return self.location
        end = at + len(span)
        starts = [start for start, _ in self.parts] + [len(self.text) + 1]
        covered = [loc for i, (start, loc) in enumerate(self.parts) if start < end and starts[i + 1] > at]
        return merge_locations(covered) or self.location

    def section_of(self, span: str) -> str:
        """The section path of ``span`` (a sentence of this source's text): the section of the chunk whose part of
        the text it starts in, else ``section`` (span "" or not found, or a source of one section). Of a chunk
        spanning several sections ("Travel > Meals · Hotels"), the one whose heading line comes last before the span
        (:func:`merged_section`)."""
        path = self._part_at(span, self.sections, self.section)
        at = self.text.find(span) if span and " · " in path else -1
        if at < 0:
            return path
        start = max((offset for offset, _ in self.sections if offset <= at), default=0)
        end = next((offset for offset, _ in self.sections if offset > at), len(self.text))
        return merged_section(path, self.text[start:at], self.text[at:end])

    def chunk_of(self, span: str) -> int:
        """The id of the chunk whose part of the text ``span`` (a sentence of this source's text) starts in, else the
        primary chunk id (span "" or not found, or a source of one chunk)."""
        return self._part_at(span, self.chunk_starts, self.chunk_id)

    def _part_at(self, span: str, parts: tuple, default):
        """The value of the part of ``parts`` ((character offset in ``text``, value), ... in text order) that
        ``span`` starts in; ``default`` when ``span`` is "" or not in the text, or there are no parts."""
        at = self.text.find(span) if span and parts else -1
        if at < 0:
            return default
        return next((value for start, value in reversed(parts) if start <= at), default)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form used by `ask --json`, the plan frame and the frozen snapshot stored with an answer.

        ``location`` is grounding.location's JSON shape ({} without one); ``source_label`` the reader's name for the
        passage ("Leave, p. 4", or the title alone); ``version_id`` names the version whose original file it is;
        ``sections`` is [[character offset, section path], ...] ([] for a source of one section), ``chunk_starts``
        [[character offset, chunk id], ...] ([] for a source of one chunk).
        """
        return {
            "label": self.label,
            "chunk_id": self.chunk_id,
            "chunk_ids": list(self.chunk_ids),
            "document_id": self.document_id,
            "version_id": self.version_id,
            "title": self.title,
            "section": self.section,
            "version": self.version,
            "date": self.date,
            "status": self.status,
            "text": self.text,
            "score": round(self.score, 4),
            "tokens": self.tokens,
            "position": self.position,
            "location": self.location.as_dict() if self.location else {},
            "source_label": source_label(self.title, self.location),
            "sections": [[start, section] for start, section in self.sections],
            "chunk_starts": [[start, chunk] for start, chunk in self.chunk_starts],
        }


def merged_section(path: str, before: str, after: str = "") -> str:
    """The section of a place in a chunk spanning several sections, whose ``path`` names them by its last step
    ("Travel > Meals · Hotels", grounding.chunking.section_label): the one whose heading line (a line holding the
    heading alone, as ingestion stores it) is the last in ``before`` (the chunk's text before the place). Before
    any of them: the first one when its heading line is not in the text (the chunk starts inside it), else the
    path's prefix ("" for text before a document's first heading, which the label leaves out: "Snacks cost $1.50"
    before "Refunds" in a chunk labelled "Refunds · Restocking"). ``path`` itself when it names one section or no
    heading line of it is found (``after``: the text from the place to the end of the chunk)."""
    prefix, _, last = path.rpartition(" > ")
    names = [name.strip() for name in last.split(" · ")]
    if len(names) < 2:
        return path
    lines = [line.strip() for line in before.split("\n")]
    seen = next((line for line in reversed(lines) if line in names), None)
    if seen is not None:
        return f"{prefix} > {seen}" if prefix else seen
    later = {line.strip() for line in after.split("\n")}
    if not later & set(names):
        return path
    if names[0] in later:
        return prefix
    return f"{prefix} > {names[0]}" if prefix else names[0]
