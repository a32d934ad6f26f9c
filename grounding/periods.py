"""The period an amount is paid or counted per ("annual", "a month", "24-hour", "per hour"): a sentence pricing
something per another period than the one a question asks for does not state the asked amount ("How much does an
annual membership cost?" / "$15 buys a 24-hour pass."). Written on the development set's close-but-unanswerable
questions; no Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence

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
