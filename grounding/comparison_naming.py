"""Which side of a comparison a sentence names, read with where it stands: a list item under "##### Variable Day" is
about the Variable Day schedule though its words ("The maximum number of hours you can work in a single day is 12.")
name no schedule, and a sentence of the Chicago page is about Chicago ("Blue Line trains run from the airport to
downtown ... about 50 minutes."). grounding.comparison reads a side's candidates through these.

Also the limit a side asks for: "What's the longest single day I can work ...?" is answered by the sentence stating
a maximum ("The maximum number of hours ... is 12."), not by one stating a usual length.

Rules written on the development set and the calibration half of the 18F golden set (comparison kind: d024, d026),
never on its test half or the fresh4 set. No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms
from grounding.sentence_leads import heading_of as part_heading
from grounding.sentence_rank import ScoredSentence
from grounding.source_types import Source
from grounding.types import ContextPlan

__all__ = ["asks_limit", "heading_of", "named_terms", "states_limit", "under_side_heading"]


def heading_of(source: Source, position: int) -> str:
    """The heading the sentence at ``position`` (its index in ``source.sentences``) stands under: the last heading
    line before it within its chunk's part of the text (a heading absorbed into the chunk: "Variable Day"), else
    the last part of its section path ("Standard schedule" of "Schedule types ... > Standard schedule")
    (grounding.sentence_leads.heading_of). "" when the source has neither. Never raises: a position outside the
    sentence data reads the source's section."""
    data = source.sentences
    if data is None or not 0 <= position < len(data.texts):
        return source.section.split(" > ")[-1]
    return part_heading(data, position, source.section, source.sections)


def named_terms(plan: ContextPlan, s: ScoredSentence) -> frozenset[str]:
    """The content terms (grounding.lexical.content_terms, stemmed) a sentence names with where it stands: its own,
    its heading's (:func:`heading_of`) and its source's title's. Only the sentence's own when its source is not in
    the plan."""
    source = plan.source_map.get(s.label)
    if source is None:
        return content_terms(s.text)
    return content_terms(s.text) | content_terms(heading_of(source, s.position)) | content_terms(source.title)


def under_side_heading(plan: ContextPlan, s: ScoredSentence, query: str, own: frozenset[str]) -> bool:
    """True when the sentence stands under a heading that a side's question names whole and by one of the side's
    own terms ("Variable Day" under "... on a Variable Day schedule?", own terms {"variabl"}; not "Variable Week",
    whose "week" the question lacks)."""
    source = plan.source_map.get(s.label)
    if source is None:
        return False
    heading = content_terms(heading_of(source, s.position))
    return bool(heading & own) and heading <= content_terms(query)


#: A question asking for the upper or the lower end of what is allowed ("the longest single day", "the minimum
#: billable time"); "more" and "less" compare, they do not ask for a limit.
_ASKS_MAX = re.compile(r"\b(?:longest|maximum|max|highest|largest|biggest|greatest|the most|at most)\b", re.I)
_ASKS_MIN = re.compile(r"\b(?:shortest|minimum|min|lowest|smallest|fewest|the least|at least)\b", re.I)
#: A sentence stating such a limit ("The maximum number of hours ... is 12", "up to 80 hours", "not to exceed"; not
#: a total: "must add up to 40 hours per week").
_STATES_MAX = re.compile(r"\b(?:maximum|max|at most|(?<!\badd )(?<!\badds )(?<!\bsum )up to|no more than|"
                         r"not (?:to )?exceed|cannot exceed|may not exceed|capped|limited to)\b", re.I)
_STATES_MIN = re.compile(r"\b(?:minimum|min|at least|no (?:less|fewer) than)\b", re.I)


def asks_limit(question: str) -> str:
    """"max" when ``question`` asks for an upper limit ("What's the longest single day I can work ...?"), "min" for
    a lower one ("the minimum billable time"), "" otherwise (or when it asks for both)."""
    high, low = bool(_ASKS_MAX.search(question)), bool(_ASKS_MIN.search(question))
    return "max" if high and not low else "min" if low and not high else ""


def states_limit(limit: str, text: str) -> bool:
    """True when ``text`` states a limit of the kind ``limit`` ("max" / "min", :func:`asks_limit`); False for ""."""
    pattern = _STATES_MAX if limit == "max" else _STATES_MIN if limit == "min" else None
    return bool(pattern and pattern.search(text))
