"""Limits and requirements of time, money or a count that settle a yes/no question by its numbers: a limit the
question passes ("Can I carry over 10 unused PTO days?" / "Up to 5 unused PTO days carry over") and a requirement of
more time than the asker has ("I joined six months ago." / "You need to have been an employee for 12 months").
Split from grounding.yesno (grounding.yesno.opener reads them). No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence
from grounding.yesno_count import LIMIT as _LIMIT, NUMBER_WORDS as _WORDS, stated_numbers

__all__ = ["most_stated", "over_limit", "requirement_unmet"]


_REQUIREMENT = re.compile(r"\b(?:need|needs|must|at least|minimum|required|requires|in order to|only after|after)\b", re.I)
_AMOUNT_OF_TIME = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|"
                             r"twenty|thirty)\s+(day|week|month|year)s?\b", re.I)


def _durations(text: str) -> dict[str, float]:
    """The largest amount of time a text states per unit ("12 months" -> {"month": 12})."""
    out: dict[str, float] = {}
    for m in _AMOUNT_OF_TIME.finditer(text):
        n = float(_WORDS.get(m.group(1).lower(), 0) if not m.group(1).isdigit() else m.group(1))
        out[m.group(2).lower()] = max(out.get(m.group(2).lower(), 0.0), n)
    return out


#: "The maximum number of hours you can work in a single day is 12": the number's unit named before it.
_NUMBER_OF = re.compile(r"\b(?:number|amount) of (?P<unit>minutes|hours|days|weeks|months|years)\b[^.;:]*?"
                        r"\b(?:is|are)\s+(?P<n>\d+)\b(?!\s*[a-z%$])", re.I)


def most_stated(text: str) -> dict[str, float]:
    """The largest amount of time, money or a count a text states per unit (grounding.yesno_count.stated_numbers:
    "Up to 5 unused PTO days" -> {"day": 5}, "several years" -> {"year": 2}, "The maximum number of hours ... is 12"
    -> {"hour": 12})."""
    text += "".join(f" {m.group('n')} {m.group('unit')}" for m in _NUMBER_OF.finditer(text))
    return {unit: max(numbers) for unit, numbers in stated_numbers(text, kinds=_LIMITED).items()}


#: The kinds of value a limit holds: a limit in percent is left to the comparison rules.
_LIMITED = ("amount", "duration", "count")


def over_limit(question: str, sentence: str) -> bool:
    """True when ``sentence`` states a limit and the question asks about more than it of the same unit ("Can I carry
    over 10 unused PTO days?" / "Up to 5 unused PTO days carry over": 10 > 5 days; "a hotel at $300 a night" / "the
    limit is $225": $300 > $225)."""
    if not _LIMIT.search(sentence):
        return False
    asked, limits = most_stated(question_sentence(question)), most_stated(sentence)
    return any(unit in asked and asked[unit] > n for unit, n in limits.items())


def requirement_unmet(question: str, sentence: str) -> bool:
    """True when the sentence requires more time than the question says the asker has ("I joined six months ago." /
    "You need to have been an employee for 12 months", or "... at least one year of federal service")."""
    mine, required = _durations(question), _durations(sentence)
    if not _REQUIREMENT.search(sentence):
        return False
    if any(unit in mine for unit in required):
        return any(unit in mine and mine[unit] < n for unit, n in required.items())
    # another unit ("six months" against "at least one year of federal service"): compared in days, when the
    # question states one amount of time
    if len(mine) != 1:
        return False
    ((unit, n),) = mine.items()
    return any(n * _DAYS[unit] < m * _DAYS[u] for u, m in required.items())


#: Days in a unit of :data:`_AMOUNT_OF_TIME` (a month as a twelfth of a year).
_DAYS = {"day": 1.0, "week": 7.0, "month": 365.25 / 12, "year": 365.25}
