"""Whether the value a quoted sentence states holds over the period a question asks about (s20 near-miss pass, issue 18
point 3; written on the 18F calibration half, the development set and the fresh19r near misses, never on a test
half).

A question asking how much of something per period ("How many credit hours can I earn *in a single pay period*?",
"How much annual leave do I build up *every pay period*?") asks a rate. A sentence stating a value of the asked type
over another frame ("You can have up to 24 credit hours accrued, *at any given time*", a cap; "15 days *per fiscal
year*" for a question per pay period) states a value about a neighbouring thing: the documents cover the topic, not
the asked rate. The test reads the value's own frame in its sentence against the question's, and counts a clash only
when the sentence states another frame and never the asked one; a sentence stating no frame is left alone (a table
row, "up to 7 days" under a yearly heading). grounding.periods does the like for amounts priced per a period (a
filter of the typed sentences, not a refusal); this module reads rates of any checked type, pay periods and caps
"at any time" too.

No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms
from grounding.subject_check import ACTIONS, subject_terms

__all__ = ["asked_period", "clashing_frame", "stated_periods"]

#: Period nouns, each with the words that name the same period.
_PERIODS = {
    "pay period": r"pay\s+periods?|bi-?weekly|every\s+(?:two|2)\s+weeks",
    "hour": r"hours?|hourly",
    "day": r"days?|daily|nights?|nightly",
    "week": r"weeks?|weekly|work\s*weeks?",
    "month": r"months?|monthly",
    "quarter": r"quarters?|quarterly",
    "year": r"(?:calendar\s+|fiscal\s+|leave\s+)?years?|annual(?:ly)?|yearly|per\s+annum",
}
_ANY = r"(?:calendar|fiscal|leave|single|given|work|whole|full)"
#: A question's rate frame: "per / each / every / in a (single) / within a / during a" + period.
_ASKED = re.compile(
    rf"\b(?:per|each|every|(?:in|within|during|over)\s+(?:a|an|one)(?:\s+single)?|a\s+single)\s+(?:{_ANY}\s+)?"
    rf"(pay\s+period|day|week|month|quarter|year|night|hour)s?\b|\b(bi-?weekly|daily|weekly|monthly|quarterly|"
    rf"yearly|annually)\b", re.I)
#: A sentence's frame: the same frames, "a / an / the" + period ("8 hours a day"), or "at any (given / one) time".
_STATED = re.compile(
    rf"\b(?:per|each|every|an?|(?:in|within|during|over|for)\s+(?:a|an|one|the|each)(?:\s+single)?)\s+"
    rf"(?:{_ANY}\s+)?(pay\s+periods?|days?|weeks?|months?|quarters?|years?|nights?|hours?)\b"
    rf"|\b(bi-?weekly|daily|nightly|weekly|monthly|quarterly|yearly|annually|per\s+annum)\b"
    rf"|\b(at\s+any\s+(?:given\s+|one\s+)?time)\b", re.I)
#: Unit and period words, which say how a value is counted, not what it is about.
_UNITS = content_terms("hour hours day days week weeks month months year years pay period periods time single "
                       "many much long")


def _period(word: str) -> str:
    """The period a frame word names ("biweekly" -> "pay period", "annually" -> "year"), or "any" for "at any time"."""
    word = " ".join(word.lower().split())
    if word.startswith("at any"):
        return "any"
    return next((name for name, pattern in _PERIODS.items() if re.fullmatch(pattern, word, re.I)), word)


def asked_period(question: str) -> str | None:
    """The period the asking clause of ``question`` asks a rate over ("in a single pay period" -> "pay period",
    "every year" -> "year"); None when it asks none."""
    m = _ASKED.search(question_sentence(question))
    return _period(m.group(1) or m.group(2)) if m else None


def stated_periods(sentence: str) -> set[str]:
    """The periods ``sentence`` states values over ("4 hours per pay period" -> {"pay period"}, "accrued, at any
    given time" -> {"any"}, "8 hours a day" -> {"day"})."""
    return {_period(next(g for g in m.groups() if g)) for m in _STATED.finditer(sentence)}


def clashing_frame(question: str, chosen: Sequence[str]) -> str | None:
    """The asked period when the first of the ``chosen`` sentences (the answer's sentences stating a value,
    grounding.typed_values) states its value over another frame and never the asked one, and no other chosen
    sentence naming a word of what is asked (beyond units and the asker's actions) states the asked period; None
    otherwise."""
    period = asked_period(question)
    if not period or not chosen:
        return None
    first = stated_periods(chosen[0])
    if not first or period in first:
        return None
    own = subject_terms(question_sentence(question)) - ACTIONS - _UNITS
    if any(period in stated_periods(s) and content_terms(s) & own for s in chosen[1:]):
        return None
    return period
