"""Yes/no questions asking whether something happens at a rate or during hours that the sentence states otherwise:
"Do fully remote employees visit an office once per month?" / "... at least once per quarter", "Are core hours 9 to
5?" / "Core hours are 10:00 a.m. to 3:00 p.m. Central". The s44 new-user run on the demo handbook got "Yes." for
both: a rate and a range of hours are values, as an amount is (grounding.yesno_count.value_differs), but neither is a
number of a unit.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms

__all__ = ["hours_differ", "rate_differs", "stated_rates", "weekday_differs"]

#: A period's length in days.
_PERIOD_DAYS = {"day": 1, "night": 1, "week": 7, "fortnight": 14, "month": 30, "quarter": 91, "year": 365}
_ADVERB_RATES = {"daily": (1, 1), "nightly": (1, 1), "weekly": (1, 7), "biweekly": (1, 14), "fortnightly": (1, 14),
                 "monthly": (1, 30), "quarterly": (1, 91), "annually": (1, 365), "yearly": (1, 365)}
_TIMES = {"once": 1, "twice": 2, "one": 1, "two": 2, "three": 3, "four": 4}
_PERIOD = r"(?P<period>day|night|week|fortnight|month|quarter|year)s?"
#: "once per month", "twice a year", "3 times a week", "every quarter", "every 2 weeks", "monthly".
_RATE = re.compile(rf"\b(?:(?P<times>once|twice|(?:one|two|three|four|\d+) times?)\s+(?:a|an|per|every|each)\s+"
                   rf"{_PERIOD}|(?:every|each)\s+(?P<every>\d+\s+|other\s+)?(?P<alone>day|night|week|fortnight|month|"
                   rf"quarter|year)s?|(?P<adverb>daily|nightly|weekly|biweekly|fortnightly|monthly|quarterly|"
                   rf"annually|yearly))\b", re.I)


def stated_rates(text: str) -> set[float]:
    """The rates ``text`` states, in times per day (floats): "once per quarter" -> {1/91}, "twice a year" -> {2/365},
    "every 2 weeks" -> {1/14}, "monthly" -> {1/30}. A month is 30 days, a quarter 91, a year 365."""
    out: set[float] = set()
    for m in _RATE.finditer(text):
        if m["adverb"]:
            times, days = _ADVERB_RATES[m["adverb"].lower()]
        elif m["times"]:
            number = m["times"].split()[0].lower()
            times = int(number) if number.isdigit() else _TIMES[number]
            days = _PERIOD_DAYS[m["period"].lower()]
        else:
            every = (m["every"] or "").strip().lower()
            times, days = 1, _PERIOD_DAYS[m["alone"].lower()] * (2 if every == "other" else int(every or 1))
        out.add(round(times / days, 6))
    return out


#: A question ending on the rate it asks about ("... visit an office once per month?", "Is the survey sent
#: quarterly?"): the rate is what it asks, not the case it is asked in ("If I travel twice a year, ...").
_ENDS_ON_RATE = re.compile(rf"{_RATE.pattern}\s*\??$", re.I)
_YES_NO_WORDS = r"(?:is|are|was|were|do|does|did|will|would|should|must|can|could|may|have|has)\b"
_YES_NO = re.compile(rf"^{_YES_NO_WORDS}", re.I)
#: Where a yes/no sentence of a question starts: its first word, or after a full stop ("I'm in Denver. Are core
#: hours 9 to 5?"); not after the stop of "p.m.", which grounding.answer_types.question_sentence reads as one.
_YES_NO_START = re.compile(rf"(?:^|(?<=[.!?]\s)){_YES_NO_WORDS}", re.I)


def rate_differs(question: str, sentence: str) -> bool:
    """True when a yes/no question ends on a rate (:data:`_ENDS_ON_RATE`) and ``sentence`` states rates, none of them
    the asked one: "Do fully remote employees visit an office once per month?" / "Fully remote employees visit an
    office at least once per quarter" is a No. Whether the sentence is about what is asked is the caller's to check
    (grounding.yesno.opener)."""
    q = question_sentence(question).strip()
    m = _ENDS_ON_RATE.search(q)
    if not _YES_NO.match(q) or not m:
        return False
    asked, stated = stated_rates(m.group(0)), stated_rates(sentence)
    return bool(asked and stated) and not asked & stated


#: A range of hours: "9 to 5", "9-5", "9 a.m. to 5 p.m.", "10:00 a.m. – 3:00 p.m.", "from 8 until 4".
_HOUR = r"(?P<{n}>[01]?\d|2[0-3])(?::(?P<{n}m>[0-5]\d))?\s*(?P<{n}p>a\.?m\.?|p\.?m\.?)?"
_RANGE = re.compile(rf"\b{_HOUR.format(n='a')}\s*(?:to|until|till|-|–|—)\s*{_HOUR.format(n='b')}(?![\w:])", re.I)
#: What may follow the range a question ends on: a time zone ("Are core hours 9 to 5 Central?").
_ZONE = [[w] for w in ("Central", "Eastern", "Pacific", "Mountain", "local", "time", "ET", "CT", "PT", "MT")]
_ASKS_HOURS = re.compile(r"\b(?:hours?|shift|open|opens|closed?|staffed|available|schedule)\b", re.I)


def _hours(m: re.Match) -> tuple[tuple[int, int], tuple[int, int]]:
    """A range's two times as (hour on a 12-hour clock, minutes): "10:00 a.m. to 3:00 p.m." -> ((10, 0), (3, 0))."""
    return ((int(m["a"]) % 12, int(m["am"] or 0)), (int(m["b"]) % 12, int(m["bm"] or 0)))


def hours_differ(question: str, sentence: str) -> bool:
    """True when a yes/no question about hours ("Are core hours 9 to 5?", "Is the help desk staffed 8 to 6?") ends on
    a range of hours and ``sentence`` states ranges, none of them the asked one (read on a 12-hour clock, so "9 to 5"
    is "9:00 a.m. to 5:00 p.m."): "Core hours are 10:00 a.m. to 3:00 p.m. Central" is a No. A range the sentence
    states must show it is one of hours (a colon or a.m./p.m.), so "5 to 10 days" is not read."""
    starts = [m.start() for m in _YES_NO_START.finditer(question.strip())]
    q = question.strip()[starts[-1]:] if starts else ""
    asked = [m for m in _RANGE.finditer(q) if q[m.end():].strip(" ?").split()[:1] in ([], *_ZONE)]  # ends on it
    if not asked or not _ASKS_HOURS.search(q):
        return False
    stated = [m for m in _RANGE.finditer(sentence) if m["am"] or m["bm"] or m["ap"] or m["bp"]]
    return bool(stated) and not {_hours(m) for m in asked} & {_hours(m) for m in stated}


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = (r"(?:(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|"
        r"(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?)")
#: A day of the week or a run of them ("Fridays", "Monday to Friday", "Monday through Thursday", "Mon-Fri").
_DAY_SPAN = re.compile(rf"\b(?P<a>{_DAY})(?!\w)(?:\s*(?i:to|through|thru|until|-|–|—)\s*(?P<b>{_DAY})(?!\w))?")
#: Words saying a rule holds on every day, whatever day a sentence names besides ("every day", "any day", "daily").
_ANY_DAY = re.compile(r"\b(?:every|any|each)\s+day\b|\bdaily\b|\bseven\s+days\b|\b7\s+days\b|\bweekends?\b",
                      re.I)


def _day(word: str) -> int:
    """The index of a day's name or abbreviation in _DAYS (Monday 0)."""
    w = word.lower()
    return next(k for k, d in enumerate(_DAYS) if d.startswith(w[:3]))


def _days(m: re.Match) -> set[int]:
    """The days a span names: one, or a run in week order ("Monday to Friday" -> {0, 1, 2, 3, 4})."""
    a = _day(m["a"])
    if not m["b"]:
        return {a}
    b = _day(m["b"])
    return {(a + k) % 7 for k in range((b - a) % 7 + 1)}


def _before(text: str, at: int, words: int) -> frozenset[str]:
    """The content terms of the ``words`` words before character ``at`` of ``text``."""
    return content_terms(" ".join(re.findall(r"[\w'’-]+", text[:at])[-words:]))


def weekday_differs(question: str, sentence: str) -> bool:
    """True when a yes/no question names days of the week ("Are dogs allowed in the office on Mondays?") and
    ``sentence`` states what the question says right before them (every content word of the question's three words
    before its day, among the sentence's ten before its own: "allowed in the office") of other days only ("... on
    Fridays", "The office is open Monday to Friday" for Saturday): a No. Not when the sentence also says every day
    ("daily", "any day") or the weekend."""
    q = question_sentence(question).strip()
    if not _YES_NO.match(q) or _ANY_DAY.search(sentence):
        return False
    asked = [(m, _days(m)) for m in _DAY_SPAN.finditer(q)]
    if not asked:
        return False
    said = set().union(*(d for _, d in asked))
    before = set().union(*(_before(q, m.start(), 3) for m, _ in asked))
    stated = [(m, _days(m)) for m in _DAY_SPAN.finditer(sentence)]
    # (ten words: "The London office is open from 8:30 to 18:00, Monday to Friday" states the hours between, the s48
    # breaker's "Is the London office open on Saturdays?" got "Yes.")
    slot = [d for m, d in stated if before and before <= _before(sentence, m.start(), 10)]
    return bool(slot) and not said & set().union(*slot) and not said & set().union(*(d for _, d in stated))
