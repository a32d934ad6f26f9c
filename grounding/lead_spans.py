"""The cited span of a lead-in the extractive answerer wrote itself, which quotes no sentence of its source.

A list answer without a lead-in of its own is introduced by "<title>, <heading>:" (grounding.section_lists,
grounding.list_answers): "Your First Week at Tallgrass, Day 1 (Monday) [S3]:". Matched by shared words against the
source's sentences, that claim highlighted an unrelated one ("Your manager and your onboarding buddy will also check
in with you every day this week.", the s19 new-user run). Its chip stands for the section it names: the text written
under that heading (the part of a merged source whose section it is, or the heading's own line when a chunk holds it),
or the whole passage when the source is that section. No Django imports.
"""

from __future__ import annotations

from grounding.source_rendering import subheadings
from grounding.types import Source

__all__ = ["lead_in_span"]


def _named_heading(claim: str, title: str) -> str:
    """The heading a made-up lead-in names: ``claim`` without its colon and without "<title>, " before it."""
    head = claim.strip().rstrip(":").strip()
    if title and head.lower().startswith(f"{title.lower()},"):
        head = head[len(title) + 1:].strip()
    return head


def _last_heading(section: str) -> str:
    """The last heading of a section path ("A > B" -> "B")."""
    return section.split(" > ")[-1].strip() if section else ""


def lead_in_span(claim: str, source: Source) -> str | None:
    """The span of ``source`` a lead-in naming one of its sections stands for, or None when ``claim`` is not such a
    lead-in ("<title>, <heading>" or "<heading>", its colon optional, the heading compared without case):

    - a source merged from chunks of several sections (``source.sections``): the text of the part written in the
      section whose last heading it names, up to the next part of another section;
    - a heading line inside the text (a chunk covering "Day 4 (Thursday) · Day 5 (Friday)"): that line;
    - a source whose own section ends with that heading: its whole text;
    - else the parts (or the source) whose section path holds that heading at any level: the text written under it.

    The span is taken from ``source.text`` as written, so Source.section_of and Source.chunk_of find its part."""
    head = _named_heading(claim, source.title).lower()
    if not head:
        return None
    text = source.text
    parts = list(source.sections)
    for k, (start, section) in enumerate(parts):
        if _last_heading(section).lower() != head:
            continue
        end = next((s for s, other in parts[k + 1:] if other != section), len(text))
        span = text[start:end].strip()
        if span:
            return span
    for line in text.splitlines():
        if line.strip().lower() == head:
            return line.strip()
    if _last_heading(source.section).lower() == head and not parts and text.strip():
        return text.strip()
    # a heading the parts nest in ("Day 3 (Wednesday)" over "Robot safety training · Security training",
    # grounding.section_lists.section_passage): the parts written under it, up to the first that is not
    for k, (start, section) in enumerate(parts or [(0, source.section)]):
        if head not in _headings(section):
            continue
        end = next((s for s, other in parts[k + 1:] if head not in _headings(other)), len(text))
        span = text[start:end].strip()
        if span:
            return span
    return None


def _headings(section: str) -> set[str]:
    """Every heading of a section path, lower case (grounding.source_rendering.subheadings)."""
    return {h.lower() for h in subheadings(section)}
