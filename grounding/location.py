"""Where a passage sits in its original file: PDF pages, slides, a sheet's rows, a Word document's paragraphs; and the
source label built from it.

A ``Location`` travels with a block from extraction (grounding.extract), through chunking (a chunk's location covers
every block it holds), into the stored chunk, the planned source (adjacent chunks merged into one source merge their
locations) and the citation. ``source_label`` is the one function that turns it into the text a reader sees
("Leave, p. 4"; "IDP, slide 3"; "Work schedules, sheet Schedules, rows 2-14"; "FMLA, para. 3").

JSON shape (``Location.as_dict``; keys with no value are left out, a Markdown or plain-text passage has ``{}``; a
stored chunk's JSON may add "parts", see ``stored_location``)::

    {"format": "pdf", "pages": [4, 5], "ocr_pages": [5]}
    {"format": "pptx", "slides": [3]}
    {"format": "xlsx", "sheet": "Schedules", "rows": [2, 14]}
    {"format": "csv", "rows": [2, 14]}
    {"format": "docx", "paragraphs": [3, 4]}

A Word file has no fixed pages (they depend on the printer and the fonts), so its place is the paragraph: the
document's non-empty paragraphs counted from 1 in reading order, headings and list items included, a table counting
as one paragraph (every row of it carries the table's number).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

#: File formats a location can name (the format of the original file, which tells a reader how to open it there).
FORMATS = ("pdf", "docx", "pptx", "xlsx", "csv")


@dataclass(frozen=True)
class Location:
    """A place in an original file. Frozen and hashable (sources carrying it are cached by value).

    Attributes:
        format: the original's format, one of FORMATS.
        pages: 1-based PDF page numbers covered, ascending, no repeats.
        slides: 1-based slide numbers covered, ascending.
        sheet: the worksheet name ("" for CSV and for formats without sheets).
        rows: (first, last) 1-based row numbers as the spreadsheet numbers them, or None.
        ocr_pages: the pages among ``pages`` whose text was read by OCR (no text layer).
        paragraphs: 1-based numbers of a Word document's paragraphs covered, ascending (see the module docstring).
    Raises:
        ValueError: unknown format, numbers below 1, unsorted pages, slides or paragraphs, or a row range that runs
            backwards.
    """

    format: str
    pages: tuple[int, ...] = ()
    slides: tuple[int, ...] = ()
    sheet: str = ""
    rows: tuple[int, int] | None = None
    ocr_pages: tuple[int, ...] = ()
    paragraphs: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"unknown location format {self.format!r}; expected one of {', '.join(FORMATS)}")
        for name in ("pages", "slides", "ocr_pages", "paragraphs"):
            numbers = getattr(self, name)
            if any(n < 1 for n in numbers) or list(numbers) != sorted(set(numbers)):
                raise ValueError(f"location {name} must be ascending numbers from 1, got {numbers!r}")
        if self.rows is not None and not (1 <= self.rows[0] <= self.rows[1]):
            raise ValueError(f"location rows must be (first, last) with 1 <= first <= last, got {self.rows!r}")
        if not set(self.ocr_pages) <= set(self.pages):
            raise ValueError(f"OCR pages {self.ocr_pages!r} are not among the pages {self.pages!r}")

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape in the module docstring (stored on the chunk, sent with sources and citations)."""
        out: dict[str, Any] = {"format": self.format}
        if self.pages:
            out["pages"] = list(self.pages)
        if self.slides:
            out["slides"] = list(self.slides)
        if self.sheet:
            out["sheet"] = self.sheet
        if self.rows is not None:
            out["rows"] = list(self.rows)
        if self.ocr_pages:
            out["ocr_pages"] = list(self.ocr_pages)
        if self.paragraphs:
            out["paragraphs"] = list(self.paragraphs)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Location | None:
        """The location of a stored JSON value (None for ``{}`` or None: a passage without a location).

        Raises:
            ValueError: a value that is not the shape above.
        """
        if not data:
            return None
        rows = data.get("rows")
        return cls(format=str(data.get("format", "")), pages=tuple(int(p) for p in data.get("pages", ())),
                   slides=tuple(int(s) for s in data.get("slides", ())), sheet=str(data.get("sheet", "")),
                   rows=(int(rows[0]), int(rows[1])) if rows else None,
                   ocr_pages=tuple(int(p) for p in data.get("ocr_pages", ())),
                   paragraphs=tuple(int(p) for p in data.get("paragraphs", ())))


def stored_location(location: Location | None, parts: Iterable[tuple[int, Location]] = ()) -> dict[str, Any]:
    """The JSON stored with a chunk: ``location.as_dict()`` ({} for None) plus, when the chunk covers several places,
    "parts": [[character offset in the chunk text, location JSON], ...] (read back by ``stored_parts``)."""
    out = location.as_dict() if location is not None else {}
    parts = [[offset, loc.as_dict()] for offset, loc in parts]
    if parts:
        out["parts"] = parts
    return out


def stored_parts(data: Mapping[str, Any] | None) -> tuple[tuple[int, Location], ...]:
    """The parts of a chunk's stored location JSON (``stored_location``); () when it has none."""
    out = []
    for offset, loc in (data or {}).get("parts", ()):
        found = Location.from_dict(loc)
        if found is not None:
            out.append((int(offset), found))
    return tuple(out)


def merge_locations(locations: Iterable[Location | None]) -> Location | None:
    """One location covering all of ``locations`` (None entries are skipped; None when none is left).

    Pages, slides, OCR pages and paragraphs are united; rows become the smallest range holding every range. Locations of
    different formats or sheets do not merge into one honest place: the first one's format and sheet are kept and
    the others' rows are left out (the chunker never puts two sheets in one chunk, so this does not arise there).
    """
    found = [loc for loc in locations if loc is not None]
    if not found:
        return None
    first = found[0]
    if len(found) == 1:
        return first
    same = [loc for loc in found if loc.format == first.format and loc.sheet == first.sheet]
    ranges = [loc.rows for loc in same if loc.rows is not None]
    return Location(format=first.format,
                    pages=tuple(sorted({p for loc in found for p in loc.pages})),
                    slides=tuple(sorted({s for loc in found for s in loc.slides})),
                    sheet=first.sheet,
                    rows=(min(r[0] for r in ranges), max(r[1] for r in ranges)) if ranges else None,
                    ocr_pages=tuple(sorted({p for loc in found for p in loc.ocr_pages})),
                    paragraphs=tuple(sorted({p for loc in found for p in loc.paragraphs})))


def _numbers(values: tuple[int, ...]) -> str:
    """"4", "4-6" for a run, "4, 6-7" otherwise."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _pages(pages: tuple[int, ...]) -> str:
    return ("p. " if len(pages) == 1 else "pp. ") + _numbers(pages)


def location_text(location: Location | None) -> str:
    """The place alone: "p. 4", "pp. 4-5", "slide 3", "slides 3-4", "sheet Schedules, rows 2-14", "rows 2-14",
    "para. 3", "paras. 3-9" (the first to the last paragraph), or "" when the location names no page, slide, row or
    paragraph (Markdown, HTML, text). Pages read by OCR say so, since OCR text may differ from the page: "p. 2, read
    by OCR"; "pp. 1-3 (p. 2 read by OCR)"."""
    if location is None:
        return ""
    parts = []
    if location.pages:
        text = _pages(location.pages)
        if location.ocr_pages == location.pages:
            text += ", read by OCR"
        elif location.ocr_pages:
            text += f" ({_pages(location.ocr_pages)} read by OCR)"
        parts.append(text)
    if location.slides:
        parts.append(("slide " if len(location.slides) == 1 else "slides ") + _numbers(location.slides))
    if location.sheet:
        parts.append(f"sheet {location.sheet}")
    if location.rows is not None:
        first, last = location.rows
        parts.append(f"row {first}" if first == last else f"rows {first}-{last}")
    if location.paragraphs:  # the span: headings between a passage's paragraphs are part of it, not gaps in it
        first, last = location.paragraphs[0], location.paragraphs[-1]
        parts.append(f"para. {first}" if first == last else f"paras. {first}-{last}")
    return ", ".join(parts)


def source_label(title: str, location: Location | None) -> str:
    """The reader's name for a passage: its document title and, when it has one, its place
    ("Leave, p. 4"; "IDP, slide 3"; "Work schedules, sheet Schedules, rows 2-14"; "FMLA, para. 3"; just "Leave"
    without a place)."""
    place = location_text(location)
    return f"{title}, {place}" if place and title else (place or title)
