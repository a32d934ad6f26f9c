"""List items read with their lead-in, for the sentence ranking (grounding.sentence_rank).

A list item under a lead-in often states the value and leaves the subject to the lead-in: "Annual leave accrues based
on how long you've worked for the federal government:" / "Fewer than 3 years: 4 hours per pay period". Ranked on its
own words, such an item matched nothing of "How much annual leave do I earn?" and never came near the top, while a
worked example naming "annual leave hours" did (the s16 round). The heading a sentence sits under says what it is
about: under "Annual leave", not under "Advanced annual leave". No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.sentence_data import SentenceData, section_heading


def lead_of(data: SentenceData, i: int) -> int | None:
    """The index of the lead-in (a sentence ending with ":") that list item ``i`` of ``data`` belongs to: the lead
    right before the run of items holding it; None when ``i`` is not an item or its list has no lead-in."""
    if data.kinds[i] != "item":
        return None
    j = i - 1
    while j >= 0 and data.kinds[j] == "item":
        j -= 1
    return j if j >= 0 and data.kinds[j] == "lead" else None


def heading_of(data: SentenceData, i: int, section: str = "",
               sections: tuple[tuple[int, str], ...] = ()) -> str:
    """The heading sentence ``i`` of ``data`` sits under: the last heading before it in ``data`` within its chunk's
    part of the text, else the last part of the section path of that part (``sections``: a merged source's
    (character offset, section path) per chunk, grounding.source_types.Source.sections) or of ``section``.

    Of a source merged from chunks of several sections ("Day 2 (Tuesday)" for a source holding the first week's Day 1
    to Day 5, whose chunks do not repeat their heading lines), each part's own section names its heading: reading the
    source's one section path gave every sentence before the first heading line the heading "Day 2 (Tuesday)" (the
    s22 round's new-user run). Without ``sections`` the whole text is one part and ``section`` its path (of merged
    chunks "A > B · C", the first one's: "B")."""
    start = data.spans[i][0] if sections and i < len(data.spans) else 0
    part_start = max((offset for offset, _ in sections if offset <= start), default=0)
    for j in range(i - 1, -1, -1):
        if sections and data.spans[j][0] < part_start:
            break
        if data.kinds[j] == "heading":
            return data.texts[j]
    if sections:
        section = next((path for offset, path in reversed(sections) if offset <= start), section)
    names = [name.strip() for name in section_heading(section).split(" · ")]
    if len(names) > 1 and _heading_follows(data, i, names[0], sections, start):
        return section_heading(section.rpartition(" > ")[0])
    return names[0]


def _heading_follows(data: SentenceData, i: int, name: str, sections: tuple[tuple[int, str], ...],
                     start: int) -> bool:
    """True when the heading line ``name`` comes after sentence ``i`` in its chunk's part of ``data``: the sentence
    sits before the first of a merged path's sections ("A > B · C"), under the path's prefix ("A"), as
    grounding.source_types.merged_section reads a citation's place."""
    part_end = min((offset for offset, _ in sections if offset > start), default=None)
    for j in range(i + 1, len(data.texts)):
        if part_end is not None and j < len(data.spans) and data.spans[j][0] >= part_end:
            return False
        if data.kinds[j] == "heading" and data.texts[j].strip() == name:
            return True
    return False


#: The typed values (grounding.sentence_data.SentenceData.values, "type:value") that make a lead-in worth quoting.
_VALUE_TYPES = ("amount:", "duration:", "percent:")


def states_value(values: tuple[str, ...]) -> bool:
    """True when a sentence's typed values hold an amount, a duration or a percentage (a count alone, "the 3 most
    common scenarios:", names no answer)."""
    return any(v.startswith(_VALUE_TYPES) for v in values)


#: Most words a lead-in quoted with its items runs to; the items past it are left to an ellipsis.
ITEMS_WORDS = 60


def with_items(data: SentenceData, i: int, ok, limit: int = ITEMS_WORDS) -> str:
    """Lead-in ``i`` of ``data`` quoted with the items of its list, joined with "; ": "FMLA entitles you to take up to
    12 weeks of unpaid leave per 12 month period for the following: The birth or care of a child; An adoption ...;
    Your serious health condition." (a whole sentence, ending with a full stop), as many items as fit in ``limit``
    words (at least the first), items past them or past the first one ``ok(text)`` refuses marked with "; …". Quoting
    only the first item made a longer lead-in a fragment, cut back to its colon (the s16 FMLA answer in the DOCX and
    PDF: "... for the following … [S1]."), and a list of conditions read as one condition. "" when the item after the
    lead-in is not quotable."""
    lead = data.texts[i].rstrip(" :;")
    items: list[str] = []
    words = len(lead.split())
    j = i + 1
    while j < len(data.texts) and data.kinds[j] == "item":
        text = data.texts[j].rstrip(" ;,")
        n = len(text.split())
        if not ok(text) or (items and words + n > limit):
            break
        items.append(text.rstrip("."))
        words += n
        j += 1
    if not items:
        return ""
    more = j < len(data.texts) and data.kinds[j] == "item"
    return f"{lead}: {'; '.join(items)}" + ("; …" if more else ".")


#: A numbered part named by a word and its number: "Day 3", "Step 2", "Phase 4", "Part 1" (not "3 days").
_NUMBERED = re.compile(r"\b([A-Za-z]{3,})\s+(\d{1,3})\b(?![:.,]\d)")


def numbered_parts(text: str) -> set[tuple[str, str]]:
    """The numbered parts ``text`` names, as (word in lower case, number): {("day", "3")} for "What happens on Day
    3?"; a clock time ("at 3:00") or a decimal is not a part's number."""
    return {(m.group(1).lower(), m.group(2)) for m in _NUMBERED.finditer(text)}


def other_part(question: str, heading: str, asked: set[tuple[str, str]] | None = None) -> bool:
    """True when ``heading`` names a numbered part of the kind ``question`` names, with another number, and not the
    asked one ("Day 5 (Friday)" for "What happens on Day 3?"): a sentence under it is about another part. ``asked``:
    numbered_parts(question) when the caller has it already (it asks of every sentence)."""
    asked = numbered_parts(question) if asked is None else asked
    named = numbered_parts(heading)
    words = {w for w, _ in asked}
    return bool(asked) and not asked & named and any(w in words for w, _ in named)


def written_parts(question: str) -> set[tuple[str, str]]:
    """The numbered parts ``question`` names with a capital, as a name ("Phase 2", "Day 3"), as numbered_parts gives
    them; not a word that happens to stand before a number ("within 30 days")."""
    return {(w, n) for w, n in numbered_parts(question) if re.search(rf"\b{w.capitalize()}\s+{n}\b", question)}


def part_elsewhere(question: str, texts: Sequence[str]) -> str:
    """The numbered part ``question`` asks about, as it writes it ("Phase 2"), when none of ``texts`` (the quoted
    sentences and their sections) names it and one names another part of its kind ("Phase 3 should take two weeks"):
    they are about another part. "" otherwise."""
    asked = written_parts(question)
    if not asked or any(asked & numbered_parts(t) for t in texts) \
            or not any(other_part(question, t, asked) for t in texts):
        return ""
    word, number = sorted(asked)[0]
    return f"{word.capitalize()} {number}"
