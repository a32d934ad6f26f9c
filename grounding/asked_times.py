"""What a question asks of time beyond a value's type: when an event is held, at what time of day, how long after an
event something happens; and a duration that is only a rate (an accrual), which answers neither. Read by
grounding.extractive_typed. No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import nfkc_fold
from grounding.typed_values import durations_in

__all__ = ["asks_clock", "asks_delay", "asks_held", "rates_only", "states_clock"]


#: A question asking when an event takes place ("What day of the month is the accessibility training held?").
_ASKS_HELD = re.compile(r"\b(?:held|scheduled|offered|hosted|take place|takes place|happen|happens|meet|meets)\b", re.I)


def asks_held(question: str) -> bool:
    """True when the asking sentence ``question`` asks when an event is held, offered or takes place (fresh38's
    f38-u08, a development set: "What day of the month is the accessibility training held?" was answered with a
    review request's lead time)."""
    return bool(_ASKS_HELD.search(question))


#: A duration stated as a rate ("4 hours per pay period", "8 hours a week"): how much accrues in a period.
_RATE_AFTER = re.compile(r"^\s*(?:per|a|an|each|every)\s+(?:pay\s+period|day|week|month|year|hour)\b", re.I)
#: A question asking how long after (or before, or until) something another thing happens ("How many weeks after my
#: last day does my leave payout arrive?", "How long until the number shows up?").
_ASKS_DELAY = re.compile(r"(?:^|[,:]\s*)how\s+(?:many\s+[\w-]+|long|soon)\s+(?:[\w'’-]+\s+){0,3}?"
                         r"(?:after|before|until|till)\b", re.I)


def asks_delay(question: str) -> bool:
    """True when the asking sentence ``question`` asks how long after (before, until) something another thing happens
    (:data:`_ASKS_DELAY`)."""
    return bool(_ASKS_DELAY.search(question.strip()))


def rates_only(text: str) -> bool:
    """True when ``text`` states durations and each is a rate ("Fewer than 3 years: 4 hours per pay period"): an
    accrual, which says nothing of how long after an event something happens (fresh38's f38-u04, a development set:
    "How many weeks after my last day does my annual leave payout arrive?" was answered with leave accrual rates).
    A duration naming the case of a keyed item ("Fewer than 3 years: ...") is no value the sentence states."""
    text = nfkc_fold(text)
    rates = [bool(_RATE_AFTER.match(text[m.end():])) for m in durations_in(text)
             if not text[m.end():].lstrip().startswith(":")]
    return bool(rates) and all(rates)


#: A question asking for a time of day ("What time does the travel team stop for the day?", "By what time of day do I
#: need to email them?"), not for a time frame, a time zone or a span ("what timeline").
_ASKS_CLOCK = re.compile(r"\bwhat\s+time\b(?!\s*(?:frame|frames|period|periods|zone|zones|span|limit|limits|off|"
                         r"line|table|sheet|card|slot|slots)\b)", re.I)
#: A time of day: a clock time ("3:30 PM", "1pm ET", "16:00"), noon or midnight, a part of the day ("Monday
#: mornings"), the close or the end of the business day.
_CLOCK = re.compile(r"\b\d{1,2}(?:[:.]\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b(?:[01]?\d|2[0-3]):[0-5]\d\b|"
                    r"\b(?:noon|midnight|midday|mornings?|afternoons?|evenings?|overnight)\b|"
                    r"\b(?:close|end|start|beginning) of (?:the )?(?:business |work )?day\b|\bCOB\b|\bEOD\b", re.I)


def asks_clock(question: str) -> bool:
    """True when the asking sentence ``question`` asks at what time of day (:data:`_ASKS_CLOCK`)."""
    return bool(_ASKS_CLOCK.search(question))


def states_clock(text: str) -> bool:
    """True when ``text`` states a time of day (:data:`_CLOCK`): a weekday alone ("This goes out on Tuesday’s") does
    not say at what time (fresh39's f39-u12, a development set, was answered with it)."""
    return bool(_CLOCK.search(nfkc_fold(text)))
