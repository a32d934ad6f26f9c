"""Quantity conditions: a rule that applies to one range of a quantity ("Requests of three days or fewer need ...",
"Requests longer than three days need ..."), and whether the quantity a question states ("How much notice do I need
for a 5-day vacation?") falls in that range.

Policies write tiers as comparisons on a quantity; a question states its own case. MiniLM and word overlap do not
compare numbers: the question's "5" matched the "5 business days' notice" of the three-days-or-fewer tier. Only
comparisons that bound a case are read ("N units or fewer", "more than N units", "over N units"); a cap or a
requirement ("up to 5 days carry over", "at least 4 weeks' notice") states a value, not the case it applies to, and
is left alone. Quantities are compared in the same unit only (days with days, weeks with weeks). No Django imports.
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Callable

from grounding.sentence_cues import NUMBER_WORDS

__all__ = ["asked_quantity", "case_fit", "only_bounds"]

_NUMBER = r"(\d+(?:\.\d+)?|" + "|".join(NUMBER_WORDS) + r")"
_UNIT = (r"(?:(?:business|working|work|calendar|consecutive|full)[\s-]+){0,2}"
         r"(minute|hour|day|night|week|month|year|mile)s?")

#: A quantity the question states as its case: "a 5-day vacation", "for 10 days", "a two-week trip", "more than three
#: weeks" (just above three weeks), "fewer than 2 years" (just below); "up to 10 days" or "within 30 days" state a
#: limit, not a case (group 1: the comparison, if any).
_ASKED = re.compile(r"(?:\b(more than|longer than|over|beyond|fewer than|less than|shorter than|under|up to|at most|"
                    r"within|no more than)\s+(?:(?:its|the|my|your|a|an)\s+)?(?:first\s+)?)?"
                    rf"\b{_NUMBER}[\s-]+{_UNIT}\b", re.I)
_ABOVE, _BELOW = frozenset({"more than", "longer than", "over", "beyond"}), \
    frozenset({"fewer than", "less than", "shorter than", "under"})
#: How far past its bound a quantity asked as "more than N" or "fewer than N" is read (in its unit).
_STRICT = 1e-6

#: Comparisons that bound the case a rule applies to, each with the test of a value against the bound.
_BOUNDS: tuple[tuple[re.Pattern, Callable[[float, float], bool]], ...] = (
    (re.compile(rf"\b{_NUMBER}\s+{_UNIT}\s+or\s+(?:fewer|less|shorter|under)\b", re.I), operator.le),
    (re.compile(rf"\b{_NUMBER}\s+{_UNIT}\s+or\s+(?:more|longer|greater|over)\b", re.I), operator.ge),
    (re.compile(rf"\b(?:more|longer|greater)\s+than\s+{_NUMBER}\s+{_UNIT}\b", re.I), operator.gt),
    (re.compile(rf"\b(?:fewer|less|shorter)\s+than\s+{_NUMBER}\s+{_UNIT}\b", re.I), operator.lt),
    (re.compile(rf"\b(?:over|exceeding|beyond)\s+{_NUMBER}\s+{_UNIT}\b", re.I), operator.gt),
    (re.compile(rf"\bunder\s+{_NUMBER}\s+{_UNIT}\b", re.I), operator.lt),
    (re.compile(rf"\b{_NUMBER}\+\s*{_UNIT}\b", re.I), operator.ge),  # "15+ years"
)
#: A case given as a range ("Between 3 and 15 years: 6 hours per pay period", "3-15 years", "3 to 15 years"), both
#: ends included.
_RANGE = re.compile(rf"\b(?:between\s+{_NUMBER}\s+and\s+|{_NUMBER}\s*(?:-|–|to)\s*){_NUMBER}\s+{_UNIT}\b", re.I)


def _value(word: str) -> float:
    return float(NUMBER_WORDS.get(word.lower(), word))


def asked_quantity(question: str) -> tuple[float, str] | None:
    """The quantity a question states as its case, as (value, unit in the singular), or None when it states none or
    more than one ("Do I need 5 business days' notice for a 3-day trip?" states two: which is the case is not read).

    >>> asked_quantity("How much notice do I need for a 5-day vacation?")
    (5.0, 'day')
    """
    found: set[tuple[float, str]] = set()
    for m in _ASKED.finditer(question):
        compared = " ".join((m.group(1) or "").lower().split())
        if compared and compared not in _ABOVE | _BELOW:
            return None  # a limit asked about, not the asker's case
        value = _value(m.group(2)) + (_STRICT if compared in _ABOVE else -_STRICT if compared in _BELOW else 0.0)
        found.add((value, m.group(3).lower()))
    return found.pop() if len(found) == 1 else None


#: Days in a unit, as (fewest, most): business or calendar days (a week is 5 or 7 days). A quantity in another unit
#: than the bound's is compared only when both readings give the same verdict ("2 weeks" is longer than three days
#: either way; "1 week" against "six days or fewer" is not decided).
_DAYS = {"day": (1, 1), "week": (5, 7), "month": (20, 31), "year": (250, 366)}


def _verdict(test: Callable[[float, float], bool], value: float, unit: str, bound: float, bound_unit: str
             ) -> bool | None:
    """``test(value, bound)`` with the value in the bound's unit; None when the units cannot be compared or the
    business-day and calendar-day readings disagree."""
    if unit == bound_unit:
        return test(value, bound)
    if unit not in _DAYS or bound_unit not in _DAYS:
        return None
    readings = {test(value * _DAYS[unit][k], bound * _DAYS[bound_unit][k]) for k in (0, 1)}
    return readings.pop() if len(readings) == 1 else None


@functools.lru_cache(maxsize=20_000)
def case_fit(sentence: str, value: float, unit: str, *, convert: bool = True) -> bool | None:
    """Whether a sentence's case bounds admit ``value`` ``unit``: True when every bound the sentence puts on the
    quantity admits it ("longer than three days" for 5 days, or for 2 weeks), False when one excludes it ("three
    days or fewer"), None when the sentence bounds no case that can be compared (another kind of unit, a conversion
    that depends on business or calendar days; a cap or a requirement is not a bound, see the module docstring).
    ``convert`` False: bounds in another unit than ``unit`` are not read (a tier of "3 weeks or longer" out of office
    says nothing of "six months" of service: the same dimension does not make the same quantity)."""
    verdicts = [(_verdict(test, value, unit, _value(m.group(1)), m.group(2).lower()), m.group(2).lower())
                for pattern, test in _BOUNDS for m in pattern.finditer(sentence)]
    for m in _RANGE.finditer(sentence):
        low, high, bound_unit = _value(m.group(1) or m.group(2)), _value(m.group(3)), m.group(4).lower()
        verdicts += [(_verdict(operator.ge, value, unit, low, bound_unit), bound_unit),
                     (_verdict(operator.le, value, unit, high, bound_unit), bound_unit)]
    verdicts = [v for v, u in verdicts if v is not None and (convert or u == unit)]
    return None if not verdicts else all(verdicts)


_DIGIT = re.compile(r"\d|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.I)


@functools.lru_cache(maxsize=20_000)
def only_bounds(sentence: str) -> bool:
    """True when every number of ``sentence`` is part of a case bound ("If you are sick for more than 3 consecutive
    working days, ... may ask for a doctor's note"): it states when a rule applies, not a quantity one is given."""
    rest = sentence
    for pattern, _ in _BOUNDS:
        rest = pattern.sub(" ", rest)
    rest = _RANGE.sub(" ", rest)
    return rest != sentence and not _DIGIT.search(rest)
