"""Retrieval of a message asking two things at once ("Who should I check with before enabling a plugin, and what does
TTS Ops focus on?"): the whole message is one query, so a passage answering only its second part can rank too low to
be planned; each part is retrieved on its own words too, and the passage that part matches best joins the
candidates near the top.

Rules written on the development sets (18f_fresh15: the second part's page missed) and checked on the calibration
half of the 18F golden set, never on its test half. No Django imports.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from grounding.question_parts import question_parts, with_ellipsis_filled
from grounding.ranking import relevance

C = TypeVar("C")

#: Where a part's own best passage is placed among the whole message's candidates (0-based): behind the message's
#: two best, which a planned answer always reads.
PART_SLOT = 2
#: How many of the whole message's first candidates are read as already holding a part's best passage (it is then
#: left where it is).
PART_SEEN = 4


def part_queries(question: str) -> list[str]:
    """The retrieval query of each part of a message asking several things (grounding.question_parts; an elided
    noun filled in from the part before: "..., and how many can I carry over?"), after the message's preamble,
    which says what a part's "it" is ("I pushed an API key to GitHub. How fast do I have to report it, ...?"); []
    when it asks one thing."""
    lead, parts = question_parts(question)
    return [f"{lead} {p}".strip() for p in with_ellipsis_filled(parts)] if len(parts) >= 2 else []


def with_part_candidates(whole: Sequence[C], per_part: Sequence[Sequence[C]],
                         key: Callable[[C], object]) -> list[C]:
    """``whole`` (the message's candidates, best first) with each part's most relevant candidate
    (grounding.ranking.relevance, among those its own query retrieved, ``per_part``) moved or added to
    :data:`PART_SLOT` (in part order) unless it is among the first :data:`PART_SEEN` already. ``key`` names a
    candidate's chunk (the same chunk found by two queries is one candidate)."""
    merged = list(whole)
    slot = PART_SLOT
    for found in per_part:
        if not found:
            continue
        best = max(found, key=relevance)
        seen = [key(c) for c in merged[:PART_SEEN + slot - PART_SLOT]]
        if key(best) in seen:
            continue
        merged = [c for c in merged if key(c) != key(best)]
        merged.insert(min(slot, len(merged)), best)
        slot += 1
    return merged
