"""A sentence holding the time case a question names, when the best one does not: "and after 5 years?" after "How
many PTO days do I get?" is answered by "After five full years of service, the accrual rate rises to 2 days per
month", not by "Up to 5 unused PTO days carry over ..." (the same number, said of days; the s47 demo conversation
got the carry-over sentence). A time case is a bound word, a number and a unit of time ("after 5 years", "within
30 days", "more than two weeks"); a sentence holds it when it states the same bound, number (number words read as
digits: grounding.sentence_cues.NUMBER_WORDS) and unit, up to two words between the number and the unit ("five full
years"). No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.phrase_match import PHRASE_LOOKS, PHRASE_REACH
from grounding.scored_sentences import ScoredSentence, promoted
from grounding.sentence_cues import NUMBER_WORDS

__all__ = ["time_case_first", "time_cases"]

_BOUND = r"after|within|before|beyond|over|under|past|more than|less than|at least|up to|longer than|fewer than"
_UNIT = r"(?P<unit>day|week|month|year|hour|minute)s?"
_NUMBER = r"(?P<number>\d+(?:\.\d+)?|" + "|".join(w for w in NUMBER_WORDS if w not in ("zero", "one")) + r")"
_CASE = re.compile(rf"\b(?P<bound>{_BOUND})\s+{_NUMBER}(?:[\s-]+[A-Za-z][\w-]*){{0,2}}?[\s-]+{_UNIT}\b", re.I)


def time_cases(text: str) -> frozenset[tuple[str, str, str]]:
    """The time cases ``text`` states, as (bound, number as digits, unit) in lower case: {("after", "5", "year")}
    for "After five full years of service"; empty when it states none."""
    return frozenset((" ".join(m["bound"].lower().split()), NUMBER_WORDS.get(m["number"].lower(), m["number"]),
                      m["unit"].lower()) for m in _CASE.finditer(text))


def time_case_first(ranked: Sequence[ScoredSentence], question: str) -> list[ScoredSentence]:
    """``ranked`` (best first) with the first of the best grounding.phrase_match.PHRASE_LOOKS sentences holding a
    time case of ``question`` (:func:`time_cases`) moved first with the best score (grounding.scored_sentences.
    promoted), when the best holds none of them and that sentence scores within grounding.phrase_match.PHRASE_REACH
    of it; ``ranked`` unchanged otherwise."""
    asked = time_cases(question)
    if not ranked or not asked or asked & time_cases(ranked[0].text):
        return list(ranked)
    found = next((s for s in ranked[1:PHRASE_LOOKS] if s.score >= ranked[0].score - PHRASE_REACH
                  and asked & time_cases(s.text)), None)
    return list(ranked) if found is None else promoted(ranked, found)
