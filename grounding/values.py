"""Values with units, the one value extractor: amounts with their currency, percentages, dates, years, durations,
ordinals, counts with their unit noun, codes ("GS-15"), times ("10:30") and other numbers.

    typed_values("The daily meal allowance is $65 per day.")
        -> (StatedValue(kind="amount:$", number=65.0, text="$65", context={"allow", "day"}, rate="day", ...),)
    value_keys("Pay is 5 percent, up to $3,000 by Feb. 19, 2014.") -> {"5%", "$3000", "19", "2014"}

``typed_values`` gives each value its kind, its number in a normalised unit (days for durations, base units for
"$1.2 million"), its precision, its hedge ("about", "over") and its slot (the content words beside it), which the
contradiction detector compares (grounding.contradictions, grounding.value_compare). ``value_keys`` gives the same values as normalised
strings for set comparisons: near-duplicates that differ in a value are not merged (grounding.dedup), and an answer
sentence's values must be in the source it cites (grounding.support). No Django imports.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from dataclasses import dataclass
from typing import Sequence

from grounding.lexical import STOP_WORDS, nfkc_fold, stem, tokens

__all__ = ["MONTHS", "StatedValue", "typed_values", "value_keys", "value_spans"]

#: Month names and their usual abbreviations -> month number.
MONTHS = {m: i + 1 for i, m in enumerate("january february march april may june july august september october "
                                          "november december".split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr" \
         r"|jun|jul|aug|sept|sep|oct|nov|dec)"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                            "thirteen fourteen fifteen sixteen seventeen eighteen nineteen "
                                            "twenty".split())}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_NUMBERS.update(_TENS)
_WORD_NUMBERS["hundred"] = 100
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
#: A number word other than "zero" and "one" (a pronoun or determiner as often as a count), compounds first
#: ("sixty-five", "twenty one").
_WORDNUM = (r"(?:(?:" + "|".join(_TENS) + r")[- ](?:" + _UNITS + r")|"
            + "|".join(sorted((w for w in _WORD_NUMBERS if w not in ("zero", "one")), key=len, reverse=True)) + r")")
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12}
_DURATION_DAYS = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 30.4375, "year": 365.25}
_VALUE_RE = re.compile(
    rf"(?P<iso>\b\d{{4}}-\d{{2}}-\d{{2}}\b)"
    rf"|(?P<mdy>\b(?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{{4}})\b)"
    rf"|(?P<dmy>\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\.?,?\s+(?P<y2>\d{{4}})\b)"
    rf"|(?P<my>\b(?P<m3>{_MONTH})\.?,?\s+(?P<y3>\d{{4}})\b)"
    rf"|(?P<amount>(?:\b[A-Z]{{1,2}})?(?P<cur>[$€£¥])\s?(?P<anum>{_NUM})"
    rf"(?:\s?(?P<ascale>thousand|million|billion|trillion|bn|mn|[kmb])\b)?)"
    rf"|(?P<pct>(?P<pnum>{_NUM})\s?(?:%|percent\b|per\s?cent\b))"
    rf"|(?P<dur>\b(?P<dnum>{_NUM}|one|{_WORDNUM})(?:\s|-)(?:(?:business|working|calendar)\s)?"
    rf"(?P<dunit>minute|hour|day|week|month|year)s?\b)"
    rf"|(?P<ord>\b(?P<onum>\d+)(?:st|nd|rd|th)\b)"
    rf"|(?P<code>\b[A-Za-z]{{1,5}}-?\d+[A-Za-z0-9-]*\b)"
    rf"|(?P<time>\b\d{{1,2}}:\d{{2}}(?::\d{{2}})?\b)"
    rf"|(?P<joined>\b\d+(?:[./:]\d+){{2,}}(?![\d/]|[.:]\d)|\b\d+[/:]\d+(?![\d/]|[.:]\d))"
    rf"|(?P<qty>(?P<qnum>(?<![\d.,])(?:{_NUM})(?![\d,]*\](?!\())|\b{_WORDNUM}\b)"
    rf"(?:\s?(?P<qscale>thousand|million|billion|trillion)\b)?(?:\s(?P<unit>[a-z][a-z-]{{2,}}))?)",
    re.I)
_HEDGES = frozenset("about approximately approx around roughly nearly almost over some estimated est circa "
                    "up under least most than".split())
#: What a value is counted per: "$65 per day", "$120 a person", "25 km/h" (the article needs a space after it, so
#: "2,000 meters above" is not "per bove").
_RATE = re.compile(r"\s*(?:(?:per|an?|each|every)\s+|/\s*)([A-Za-z]+)\b")
#: A value's slot stays inside its clause: "Jul 27, 2022 ... Facebook made a bid" does not tie the date to Facebook;
#: a value opening a parenthesis belongs to the words before it ("the maximum salary ($191,900 in 2024)").
_CLAUSE_BREAK = re.compile(r"\.\.\.|…|[;:|·•()\[\]{}]|\s[-–—]\s")
_CITATION_MARK = re.compile(r"\[\s*\d+\s*\](?!\()")  # reference markers "[12]" are not values (link text is)


@dataclass(frozen=True)
class StatedValue:
    """One value stated in a sentence.

    Attributes:
        kind: "amount:<currency>", "percent", "date", "year", "duration", "ordinal", "qty:<unit stem>", "number",
            "code" (letters and digits: "GS-15", "FY23"; numbers joined by dots or slashes: "1.2.3", "12/31/2024")
            or "time" ("10:30").
        number: the value in its normalised unit (days for durations, base units for "$1.2 million"; 0 for dates,
            codes and times).
        date: (year, month, day) with 0 for a missing field, for dates only.
        precision: log10 of the unit of its last digit, in the normalised unit ("4 hours" -> log10(1/24),
            "$19.3 billion" -> 8).
        text: the value as written.
        hedged: "about", "over", "nearly"... stands just before it.
        context: its slot, the stems of the nearest content word on each side.
        sides: the same two stems as (before, after), "" for a missing side.
        rate: what it is counted per ("$65 per day", "$120 a person", "25 km/h" -> "day", "person", "h"), or "".
        keys: the value as normalised strings (see value_keys): "$65", "5%", "2024-01-15", the day and the year of
            "Feb. 19, 2014", the number of "30 business days" or "two weeks" in digits ("30", "2"), "gs-15".
        span: (start, end) of the value in the sentence, in characters.
        clause: (start, end) of the clause the value stands in (its slot's reach), in characters.
    """

    kind: str
    number: float
    date: tuple[int, int, int] | None
    precision: float
    text: str
    hedged: bool
    context: frozenset[str]
    rate: str = ""
    keys: tuple[str, ...] = ()
    span: tuple[int, int] = (0, 0)
    clause: tuple[int, int] = (0, 0)
    sides: tuple[str, str] = ("", "")


def _number(text: str) -> tuple[float, int]:
    """(value, decimal places) of "3,559", "19.3" or a number word ("twelve", "sixty-five", "twenty one")."""
    low = text.lower()
    if low in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[low]), 0
    parts = re.split(r"[- ]", low)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _WORD_NUMBERS:
        return float(_TENS[parts[0]] + _WORD_NUMBERS[parts[1]]), 0
    clean = text.replace(",", "")
    decimals = len(clean.split(".", 1)[1]) if "." in clean else 0
    return float(clean), decimals


def _key(number_text: str) -> str:
    """A written number as a key: separators and spaces removed, number words in digits ("3,000" -> "3000",
    "two" -> "2", "sixty-five" -> "65")."""
    low = number_text.lower()
    if low[:1].isalpha():
        return str(int(_number(low)[0]))
    return re.sub(r"[\s,]", "", low)


def _slot(words: Sequence[tuple[str, int, int]], start: int, end: int, reach: int = 4) -> tuple[str, str]:
    """The value's slot: stems of the nearest content word before it and after it (each within ``reach`` words, ""
    when there is none).

    "the daily meal allowance is $65 per day" -> ("allow", "day").
    """
    def nearest(seq: Sequence[str]) -> str:
        for w in seq[:reach]:
            if w not in STOP_WORDS and w.isalpha() and len(w) > 2:  # not a value such as "FY23" or "x86"
                return stem(w)
        return ""

    before = [w for w, s, e in reversed(words) if e <= start]
    after = [w for w, s, e in words if s >= end]
    return nearest(before), nearest(after)


def _break_before(breaks: Sequence[re.Match], start: int) -> int:
    """Start of the last clause break before ``start`` (the opening parenthesis of a parenthetical value)."""
    return max((b.start() for b in breaks if b.end() <= start), default=start)


def _prepared(text: str) -> str:
    """The text as the value pattern reads it: NFKC-folded ("＄５０" is $50) and with citation markers blanked; the
    offsets stay those of the text."""
    return _CITATION_MARK.sub(lambda m: " " * len(m.group(0)), nfkc_fold(text))


def value_spans(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) character offsets of everything the value reading of ``text`` matches: each citation marker it
    blanks and each match of the value pattern (also those it then drops, such as "may 2020" read as the verb), in
    order of kind then position. A text none of whose spans holds a line break reads as its lines read one by one:
    grounding.support_store relies on it."""
    folded = nfkc_fold(text)
    marks = tuple(m.span() for m in _CITATION_MARK.finditer(folded))
    return marks + tuple(m.span() for m in _VALUE_RE.finditer(_prepared(text)))


@functools.lru_cache(maxsize=8192)
def typed_values(sentence: str) -> tuple[StatedValue, ...]:
    """The values a sentence (or any text) states, each with its kind, slot and keys, in reading order.

    Kinds: amounts with their currency ("$19.3 billion" -> amount:$ 1.93e10), percentages, dates (ISO, "Feb. 19,
    2014", "19 February 2014", "June 2020"), bare years (1000..2100), durations in days ("30 business days",
    "two weeks"), ordinals ("13th"), codes ("GS-15", "1.2.3"), times ("10:30"), quantities with their unit noun
    ("3,559 people" -> qty:peopl), other numbers. Number words count from "two" ("one" only in a duration: "one
    week"; alone it is a pronoun as often as a number). Reference markers ("[12]") are skipped; "may 2020" in lower
    case is the verb, not a month. Full-width and other compatibility characters are read as their NFKC form
    (grounding.lexical.nfkc_fold), so a value's ``text`` is folded too and its ``span`` is in the sentence as given.
    """
    sentence = _prepared(sentence)
    words = tokens(sentence)
    # tokens are in reading order and do not overlap: the words before a value or inside a clause are slices found
    # by bisection (a long text states many values: scanning every word for each value was quadratic)
    starts = [s for _, s, _ in words]
    ends = [e for _, _, e in words]
    breaks = list(_CLAUSE_BREAK.finditer(sentence))
    break_starts = [b.start() for b in breaks]
    break_ends = [b.end() for b in breaks]
    out: list[StatedValue] = []
    for m in _VALUE_RE.finditer(sentence):
        g = m.groupdict()
        date = None
        precision = 0.0
        text = m.group(0).strip()
        if g["iso"]:
            y, mo, d = (int(x) for x in g["iso"].split("-"))
            kind, number, date, keys = "date", 0.0, (y, mo, d), (g["iso"],)
        elif g["mdy"] or g["dmy"] or g["my"]:
            mon = (g["m1"] or g["m2"] or g["m3"]).lower()
            day = int(g["d1"] or g["d2"] or 0)
            year = int(g["y1"] or g["y2"] or g["y3"])
            if mon == "may" and not sentence[m.start()].isupper():
                continue  # "may 2020" in lower case is the verb
            kind, number, date = "date", 0.0, (year, MONTHS[mon], day)
            keys = ((str(day),) if day else ()) + (str(year),)
        elif g["amount"]:
            value, decimals = _number(g["anum"])
            scale = _SCALES.get((g["ascale"] or "").lower(), 1.0)
            kind, number, precision = f"amount:{g['cur']}", value * scale, round(math.log10(scale)) - decimals
            keys = (g["cur"] + _key(g["anum"]),)
        elif g["pct"]:
            value, decimals = _number(g["pnum"])
            kind, number, precision, keys = "percent", value, -decimals, (_key(g["pnum"]) + "%",)
        elif g["dur"]:
            value, decimals = _number(g["dnum"])
            unit_days = _DURATION_DAYS[g["dunit"].lower()]
            kind, number, precision = "duration", value * unit_days, math.log10(unit_days) - decimals
            keys = (_key(g["dnum"]),)
        elif g["ord"]:
            kind, number, keys = "ordinal", float(g["onum"]), (g["onum"],)
        elif g["code"] or g["joined"]:
            kind, number, keys = "code", 0.0, (text.lower(),)
        elif g["time"]:
            kind, number, keys = "time", 0.0, (text,)
        else:
            value, decimals = _number(g["qnum"])
            scale = _SCALES.get((g["qscale"] or "").lower(), 1.0)
            number, precision = value * scale, round(math.log10(scale)) - decimals
            keys = (_key(g["qnum"]),)
            unit = (g["unit"] or "").lower()
            if unit in STOP_WORDS or unit in MONTHS:
                unit = ""
                text = (g["qnum"] + (" " + g["qscale"] if g["qscale"] else "")).strip()
            if unit:
                kind = f"qty:{stem(unit)}"
            elif not g["qscale"] and decimals == 0 and 1000 <= value <= 2100 and "," not in g["qnum"]:
                kind = "year"
            else:
                kind = "number"
        before = [w for w, _, _ in words[max(0, bisect.bisect_right(ends, m.start()) - 2):
                                         bisect.bisect_right(ends, m.start())]]
        hedged = any(w in _HEDGES for w in before)
        before_value = breaks[:bisect.bisect_right(break_ends, m.start())]
        opens = bool(before_value) and before_value[-1].group(0) == "(" \
            and not sentence[before_value[-1].end():m.start()].strip()
        if opens:
            before_value.pop()  # "the maximum salary ($191,900 in 2024)": the noun before the parenthesis is its slot
        lo = before_value[-1].end() if before_value else 0
        following = bisect.bisect_left(break_starts, m.end())
        hi = break_starts[following] if following < len(breaks) else len(sentence)
        clause = list(words[bisect.bisect_left(starts, lo):bisect.bisect_right(ends, hi)])
        per = _RATE.match(sentence, m.end()) if date is None else None
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        sides = _slot(clause, m.start(), m.end())
        if opens and out and not sentence[out[-1].span[1]:_break_before(breaks, m.start())].strip():
            sides = out[-1].sides  # "13 days (104 hours)": the same value restated, in the slot of the first
        out.append(StatedValue(kind, number, date, precision, text, hedged, frozenset(w for w in sides if w),
                               stem(per.group(1)) if per else "", keys, (start, start + len(text)), (lo, hi),
                               sides))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)
def value_keys(text: str) -> frozenset[str]:
    """The values a text states as normalised strings (the keys of typed_values): "$65", "5%" (also "5 percent"),
    "2024-01-15", the day and year of other dates, counts and durations in digits ("two weeks" -> "2"), "gs-15",
    "10:30", "1/2". Two texts with different keys state different values."""
    return frozenset(k for v in typed_values(text) for k in v.keys)
