"""Periods in questions and sentences, read two ways:

- the period an amount is paid or counted per ("annual", "a month", "24-hour", "per hour"; :func:`periods`,
  :func:`other_period`): a sentence pricing something per another period than the one a question asks for does not
  state the asked amount ("How much does an annual membership cost?" / "$15 buys a 24-hour pass."). Written on the
  development set's close-but-unanswerable questions; the offline answerer filters typed sentences with it;
- the frame a rate is asked or stated over ("in a single pay period", "per fiscal year", "at any given time";
  :func:`asked_period`, :func:`stated_periods`), pay periods and caps included, read for values of any checked type
  by grounding.asked_frame (the s20 near-miss pass).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence

__all__ = ["asked_period", "other_period", "periods", "stated_periods"]

#: Words that say per what period an amount is paid or counted, with their period.
_PERIODS = ((re.compile(r"\b(?:annual(?:ly)?|yearly|per year|a year|each year|per annum)\b", re.I), "year"),
            (re.compile(r"\b(?:monthly|per month|a month|each month)\b", re.I), "month"),
            (re.compile(r"\b(?:weekly|per week|a week|each week)\b", re.I), "week"),
            (re.compile(r"\b(?:daily|per day|a day|each day|day pass|24-hour|one-day)\b", re.I), "day"),
            (re.compile(r"\b(?:hourly|per hour|an hour)\b", re.I), "hour"))


def periods(text: str) -> frozenset[str]:
    """The periods ("year", "month", "week", "day", "hour") a text prices or counts something per ("a monthly
    pass" -> {"month"}; "a 24-hour pass" -> {"day"})."""
    return frozenset(period for pattern, period in _PERIODS if pattern.search(text))


def other_period(question: str, text: str) -> bool:
    """True when ``question`` asks for an amount per one period and ``text`` states amounts per another only ("How
    much does an annual membership cost?" / "$15 buys a 24-hour pass."): the text does not state what is asked."""
    asked, stated = periods(question_sentence(question)), periods(text)
    return bool(asked) and bool(stated) and not asked & stated


# --- rate frames (grounding.asked_frame) ---------------------------------------------------------------------------

#: Period nouns, each with the words that name the same period.
_FRAME_PERIODS = {
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


def _period(word: str) -> str:
    """The period a frame word names ("biweekly" -> "pay period", "annually" -> "year"), or "any" for "at any time"."""
    word = " ".join(word.lower().split())
    if word.startswith("at any"):
        return "any"
    return next((name for name, pattern in _FRAME_PERIODS.items() if re.fullmatch(pattern, word, re.I)), word)


def asked_period(question: str) -> str | None:
    """The period the asking clause of ``question`` asks a rate over ("in a single pay period" -> "pay period",
    "every year" -> "year"); None when it asks none."""
    m = _ASKED.search(question_sentence(question))
    return _period(m.group(1) or m.group(2)) if m else None


def stated_periods(sentence: str) -> set[str]:
    """The periods ``sentence`` states values over ("4 hours per pay period" -> {"pay period"}, "accrued, at any
    given time" -> {"any"}, "8 hours a day" -> {"day"})."""
    return {_period(next(g for g in m.groups() if g)) for m in _STATED.finditer(sentence)}
