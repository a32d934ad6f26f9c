"""The verdict of a comparison answered side by side (grounding.comparison): "Higher: BART from SFO to Civic Center,
$8.65 [S1], against $5 [S2]." said only when it is safe to say:

- the question asks which side is higher, longer, bigger, larger or greater ("Which airport train fare is higher:
  ...?"), or which has more;
- each side is answered by one sentence stating exactly one value in one shared unit (an amount in dollars, or a
  number followed by the same word: "12 hours" / "8 hours"), with no bound or range around it ("longer than 14
  characters", "up to 7 days", "between 15 minutes and 20 minutes", "$4.50 to $2.00": what the value bounds is not
  the value);
- the two values differ.

Otherwise nothing is said beyond the two quoted sentences. Written in the s15 round after the side sentences were
right in 17 of 19 development and calibration comparisons (issue 18, point 4). No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.comparison_sides import Sides
from grounding.sentence_rank import ScoredSentence

__all__ = ["asks_which_is_higher", "verdict"]

#: "Which ... higher / longer / bigger / larger / greater" or "which ... more": the larger value wins.
_WHICH_HIGHER = re.compile(r"\bwhich\b[^?]*?\b(higher|longer|bigger|larger|greater|more)\b", re.I)
#: One value: an amount ("$8.65", "$1,200") or a number and the word after it ("12 hours", "35 minutes").
_VALUE = re.compile(r"(?<![\w.$])(?:\$(?P<amount>\d[\d,]*(?:\.\d+)?)|"
                    r"(?P<number>\d[\d,]*(?:\.\d+)?)\s+(?P<unit>[a-z]{3,}))", re.I)
#: Words that bound or range a value: the value is then a limit, not the side's value.
_BOUNDED = re.compile(r"\b(?:than|at least|at most|up to|no more|no less|minimum|maximum|between)\b|"
                      r"\b(?:under|over|about|around|approximately|roughly|nearly|almost)\s+\$?\d|~|"
                      r"\d\s*(?:-|–|to)\s*\$?\d", re.I)


def asks_which_is_higher(question: str) -> str:
    """The comparative a question asks the higher side by ("higher", "longer", "more", ...), lower-cased; "" when it
    asks no such thing ("Which is a quicker train ride ...?" asks the lower, and is not answered with a verdict)."""
    m = _WHICH_HIGHER.search(question)
    return m.group(1).lower() if m else ""


def _value(text: str) -> tuple[str, float, str] | None:
    """The one value of ``text`` as (unit, number, as written): unit "$" for an amount, else the word after the
    number without a plural s; None when it states none, several, or a bounded one."""
    if _BOUNDED.search(text):
        return None
    found = list(_VALUE.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    if m["amount"] is not None:
        return "$", float(m["amount"].replace(",", "")), m.group(0)
    return m["unit"].lower().removesuffix("s"), float(m["number"].replace(",", "")), m.group(0)


def verdict(question: str, sides: Sides, chosen: Sequence[ScoredSentence]) -> str:
    """The verdict sentence of a comparison ("Higher: BART from SFO to Civic Center, $8.65 [S1], against $5 [S2]."),
    or "" when it is not safe to say (see the module docstring). ``chosen`` are the two side sentences in the order
    of ``sides`` (grounding.comparison.side_sentences; three when a subject sentence precedes a value: then "").
    The comparative is the question's own word, capitalised."""
    word = asks_which_is_higher(question)
    if not word or len(chosen) != 2 or not all(sides.phrases):
        return ""
    values = [_value(s.text) for s in chosen]
    if any(v is None for v in values) or values[0][0] != values[1][0] or values[0][1] == values[1][1]:
        return ""
    win = 0 if values[0][1] > values[1][1] else 1
    lose = 1 - win
    return (f"{word.capitalize()}: {sides.phrases[win]}, {values[win][2]} [{chosen[win].label}], against "
            f"{values[lose][2]} [{chosen[lose].label}].")
