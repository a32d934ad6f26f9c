"""Yes/no questions comparing a count with a number ("Are there more than 100 bicycle parking spaces?"): decided by a
sentence stating that count; and questions asking whether something is a value ("Is the daily meal allowance $50?"),
answered no by a sentence stating another value of that unit. Also the patterns grounding.yesno reads limits and
thresholds with.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence, typed_values
from grounding.lexical import CONTENT_STOP_WORDS, content_terms, stem

__all__ = ["COMPARED", "LIMIT", "NUMBER_WORDS", "QUANTITY_WORDS", "THRESHOLD", "compared_count", "stated_numbers",
           "states_asked_unit", "other_unit", "tests_value", "value_differs", "share_answer", "passes_stated_bound"]

#: A sentence stating a limit ("up to 5 days", "the limit is $225", "a maximum of 15 days").
LIMIT = re.compile(r"\b(?:up to|at most|no more than|not more than|maximum|max\.?|limit|limits|limited to|capped at|"
                   r"cap of|(?:may|must|cannot|can't|does not|do not) exceed)\b|"
                   r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+\w+\s+only\b", re.I)


#: A sentence whose rule holds on one side of a quantity ("longer than 6 hours", "$25 or more", "worth more than
#: $75", "at least 12 months").
THRESHOLD = re.compile(r"\b(?:more|less|longer|shorter|fewer|greater|higher|lower|over|under|above|below|at least|"
                       r"at most|up to|or more|or less|minimum|maximum|exceed|exceeds|exceeding|after|before)\b", re.I)


#: A question comparing a count with a number ("more than 100 spaces", "at least 3 days", "fewer than 10 people").
COMPARED = re.compile(r"\b(more than|over|above|at least|fewer than|less than|under|below|at most)\s+(?=[\d$])", re.I)


def compared_count(question: str, sentence: str) -> str:
    """"Yes." or "No." when the question compares a quantity with a number ("Are there more than 100 bicycle parking
    spaces?") and the sentence states a plain number of the same unit ("There are 24 spaces"): the comparison
    decides. "" when the question compares nothing, the sentence states a limit or a threshold (decided above) or no
    number of that unit."""
    q = question_sentence(question)
    m = COMPARED.search(q)
    if not m or LIMIT.search(sentence) or THRESHOLD.search(sentence):
        return ""
    asked, stated = _counted(q[m.end():m.end() + 80]), _counted(sentence)
    units = [u for u in asked if u in stated]
    if len(units) != 1:
        return ""
    a, s = asked[units[0]], stated[units[0]]
    word = m.group(1).lower()
    holds = {"more than": s > a, "over": s > a, "above": s > a, "at least": s >= a, "fewer than": s < a,
             "less than": s < a, "under": s < a, "below": s < a, "at most": s <= a}[word]
    return "Yes." if holds else "No."


#: A number and the words after it up to the noun it counts ("100 bicycle parking spaces", "$40", "24 spaces,").
_COUNTED = re.compile(r"(\$)?(\d[\d,]*(?:\.\d+)?)(?:\s+([a-z]+(?:\s+[a-z]+){0,3}))?", re.I)


def _counted(text: str) -> dict[str, float]:
    """The largest number a text states per counted noun (its stem: "100 bicycle parking spaces" -> {"space": 100};
    the noun is the last word before a stop word, up to four words after the number; "$" for an amount)."""
    out: dict[str, float] = {}
    for m in _COUNTED.finditer(text):
        words = (m.group(3) or "").split()
        run = []
        for w in words:
            if w.lower() in CONTENT_STOP_WORDS:
                break
            run.append(w)
        unit = "$" if m.group(1) else (stem(run[-1]) if run else "")
        if unit:
            number = float(m.group(2).replace(",", ""))
            out[unit] = max(out.get(unit, 0.0), number)
    return out


#: A yes/no question asking whether something is a value: a copula opens it and a number is among its last words
#: ("Is the daily meal allowance $50?", "Is the PTO carry-over limit 5 days?"), or it asks whether someone gets a
#: number of something, the number right after the verb ("Do hybrid employees get a $750 stipend?": the s44
#: breaker's wrong "Yes." on the demo handbook's "$400"; not "Can I expense a $30 lunch?", an instance under a cap,
#: nor "Do I get more than 10 days?", a comparison: grounding.yesno_count.compared_count).
_IS_VALUE = re.compile(r"^(?:is|are|was|were)\b.*\s\$?\d[\d,]*(?:\.\d+)?%?(?:\s+[\w-]+){0,3}\s*\??$"
                       r"|^(?:do|does|did|will|would)\s+(?:[\w-]+\s+){1,4}?(?:get|receive|earn|accrue|have)\s+"
                       r"(?:a\s+|an\s+|a\s+total\s+of\s+)?\$?\d[\d,]*(?:\.\d+)?(?:\s+[\w-]+){0,7}\s*\??$"
                       # "Does probation last one week?", "Does the review take 3 days?" (the s48 breaker's pages)
                       r"|^(?:do|does|did|will|would)\s+(?:[\w-]+\s+){1,4}?(?:last|take|run)\s+(?:for\s+)?"
                       r"(?:\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
                       r"(?:[\w-]+\s+)?(?:minute|hour|day|week|month|year)s?\s*\??$", re.I)


#: Number words as numbers ("one" counts here: "one year" is a duration), and quantity words: a vague plural
#: ("several years", "a few weeks") is read as its least, two: enough to pass a limit of one (grounding.answer_types
#: reads "several" and "a few" as numbers).
NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
NUMBER_WORDS.update(eighteen=18, twenty=20, thirty=30)
QUANTITY_WORDS = {**NUMBER_WORDS, "a": 1, "an": 1, "a few": 2, "few": 2, "several": 2, "multiple": 2, "many": 2}
_QUANTITY = re.compile(r"^(?:([\d,]*\d(?:\.\d+)?)|(a few|an?|few|several|multiple|many|"
                       + "|".join(w for w in NUMBER_WORDS if w != "zero") + r"))\b", re.I)
#: The first number of a typed value whose words do not open with one ("more than 5 days" -> "5").
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: The kinds of typed value that state a number of something.
_NUMBERED = ("amount", "duration", "count", "quantity", "percent")


def stated_numbers(text: str, kinds: tuple[str, ...] = _NUMBERED) -> dict[str, set[float]]:
    """Every number a text states per unit, from its typed values of ``kinds`` (grounding.answer_types.typed_values):
    "amount:$65" -> {"$": {65}}, "duration:4 unused leave days" -> {"day": {4}}, "percent:15%" -> {"%": {15}},
    "duration:two weeks" -> {"week": {2}}, "duration:several years" -> {"year": {2}} (:data:`QUANTITY_WORDS`); a
    count's unit is the stem of its last word. One reading for every yes/no rule that compares quantities."""
    out: dict[str, set[float]] = {}
    for value in typed_values(text):
        kind, _, said = value.partition(":")
        if kind not in kinds:
            continue
        bare = said.replace("$", "", 1).lstrip() if said.startswith("$") else said
        opening = _QUANTITY.match(bare)
        if opening and opening.group(2):
            number = float(QUANTITY_WORDS[opening.group(2).lower()])
        else:
            digits = opening.group(1) if opening else next(iter(_NUMBER.findall(said)), None)
            if digits is None:
                continue
            number = float(digits.replace(",", ""))
        unit = "$" if said.startswith("$") else "%" if said.endswith("%") else stem(said.split()[-1])
        out.setdefault(unit, set()).add(number)
    return out


def other_unit(asked: dict[str, set[float]], sentence: str) -> bool:
    """True when ``sentence`` states a number of ``asked`` (a question's :func:`stated_numbers`) only of another
    unit: "How many PTO days do I get after 5 years?" ({"year": {5}}) / "Up to 5 unused PTO days carry over" (5
    days), not "After five full years of service, ..." (the s45 new-user run on the demo handbook opened with the
    carry-over rule)."""
    if not asked:
        return False
    stated = stated_numbers(sentence)
    shared = {n for unit, ns in asked.items() for n in ns if n in stated.get(unit, set())}
    other = {n for unit, ns in asked.items() for n in ns for u, ms in stated.items() if u != unit and n in ms}
    return bool(other) and not shared


def tests_value(question: str) -> bool:
    """True when the question asks whether something is a value ("Is the stipend for remote workers $400?", "Do
    hybrid employees get a $750 stipend?"): the value is what it tests, not what it is about."""
    return bool(_IS_VALUE.match(question_sentence(question).strip()))


def states_asked_unit(question: str, sentence: str) -> bool:
    """True when the question asks whether something is a value (:func:`value_differs`) and ``sentence`` states a
    number of that unit: such a sentence decides it ("Up to 5 unused PTO days carry over" for "Is the PTO carry-over
    limit 10 days?", not "Carried-over days must be used by March 31")."""
    q = question_sentence(question).strip()
    return bool(_IS_VALUE.match(q)) and bool(stated_numbers(q).keys() & stated_numbers(sentence).keys())


def value_differs(question: str, sentence: str) -> bool:
    """True when the question asks whether something is a value (a copula question ending on it: "Is the daily meal
    allowance $50?") and ``sentence`` states numbers of that unit, none of them the asked one ("The daily meal
    allowance is $65 per day of travel."): the answer is no (the demo handbook's new-user run, s12: it opened
    "Yes."). Whether the sentence is about what is asked is the caller's to check (grounding.yesno.opener)."""
    q = question_sentence(question).strip()
    if not _IS_VALUE.match(q):
        return False
    asked, stated = stated_numbers(q), stated_numbers(sentence)
    units = [u for u in asked if u in stated]
    if not units and not _WORK_DAYS.search(f"{q} {sentence}"):
        # "one week" asked, "6 months" stated: lengths of time, compared in days (not business days: "10 business
        # days" are two weeks)
        asked, stated = _in_days(asked), _in_days(stated)
        units = ["day"] if asked and stated else []
    return bool(units) and all(not asked[u] & stated[u] for u in units)


_WORK_DAYS = re.compile(r"\b(?:business|working|work)\s+days?\b", re.I)
#: A unit of time's length in days, to compare lengths stated in different units (a month is 30 days, a year 365).
_DAYS = {"minut": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}


def _in_days(numbers: dict[str, set[float]]) -> dict[str, set[float]]:
    """``numbers`` (:func:`stated_numbers`) of units of time, as days: {"day": {...}}; {} when it states none."""
    days = {round(n * _DAYS[u], 6) for u, ns in numbers.items() if u in _DAYS for n in ns}
    return {"day": days} if days else {}


#: A question asking whether a case is the same as the rule or another case ("Is it the same on the first day?"), or
#: whether it differs ("Is it different for part-time staff?", "Is it less on the first day?").
_SAME = re.compile(r"\b(?:the same|same as|identical|equal|unchanged)\b", re.I)
_DIFFERENT = re.compile(r"\b(?:different|differ|less|lower|reduced|smaller)\b", re.I)
#: A sentence giving its case a share of something ("75% of the daily allowance", "half of the stipend", "pro rata").
_SHARE_WORDS = r"(?:(\d+(?:\.\d+)?)\s?(?:%|percent)|half|a third|two thirds|a quarter|three quarters)"
_SHARE = re.compile(rf"\b{_SHARE_WORDS}\s+of\b|\b(?:pro rata|prorated|pro-rated|reduced)\b", re.I)


def share_answer(question: str, sentence: str) -> str:
    """"No." when the question asks whether its case is the same ("Is it the same on the first day?", after "What is
    the meal allowance?") and ``sentence`` gives that case a share of something ("On the first and last day of a
    trip you receive 75% of the daily allowance": another amount than the whole); "Yes." when the question asks
    whether it differs; "" when the question asks neither or the sentence states no share (100% is the whole).
    Whether the sentence is about the question's case is the caller's to check (grounding.yesno.opener; the s14
    new-user run on the demo handbook opened "Yes." over the 75% sentence)."""
    q = question_sentence(question)
    same, different = bool(_SAME.search(q)), bool(_DIFFERENT.search(q))
    m = _SHARE.search(sentence)
    if same == different or m is None or (m.group(1) and float(m.group(1)) == 100):
        return ""
    return "No." if same else "Yes."


#: A question asking whether its case gets more or less of something ("Do I get more parental leave if I have twins?").
_MORE_OR_LESS = re.compile(r"\b(?:more|less|fewer|extra|additional|longer|shorter)\b", re.I)
#: A sentence saying that something is the same whatever the case: "The amount of leave is the same whether you
#: welcome one child or several", "... the same for all employees", "... does not depend on ...".
_SAME_ACROSS = re.compile(r"\bthe same\s+(?:whether|regardless|no matter|for\s+(?:all|every|each|any)\b|however)"
                          r"|\b(?:does|do)\s+not\s+(?:change|depend|vary|increase|decrease)\b"
                          r"|\bis\s+not\s+(?:affected|changed|increased|reduced)\s+by\b", re.I)


def same_across(question: str, sentence: str) -> bool:
    """True when the question asks whether its case gets more or less of something (:data:`_MORE_OR_LESS`, not
    "the same": :func:`share_answer` reads that) and ``sentence`` says the thing is the same whatever the case
    (:data:`_SAME_ACROSS`): the answer is no ("Do I get more parental leave if I have twins?" / "The amount of leave
    is the same whether you welcome one child or several at the same time" opened "Yes.", the s27 new-user run on
    the demo handbook). Whether the sentence is about what is asked is the caller's to check."""
    q = question_sentence(question)
    return bool(_MORE_OR_LESS.search(q)) and not _SAME.search(q) and bool(_SAME_ACROSS.search(sentence))


#: A question asking to pass a bound stated in words ("more advanced leave than I will earn back this year", "longer
#: than my detail allows"): what follows "than" names the bound.
_MORE_THAN = re.compile(r"\b(?:more|longer|greater|higher|later|bigger)\b[^?]*?\bthan\s+(?P<bound>[^?,;]+)", re.I)
#: A sentence holding something to a bound ("You can only take advanced annual leave in the amount that you would earn
#: back", "up to the amount you earn").
_BOUND = re.compile(r"\b(?:only|up to|at most|no more than|not more than|cannot exceed|can't exceed|may not exceed|"
                    r"must not exceed|maximum|limited to|no later than)\b", re.I)


def passes_stated_bound(question: str, sentence: str) -> bool:
    """True when the question asks about more than a bound it names in words ("Can I take more advanced annual leave
    than I will earn back this leave year?") and ``sentence`` holds the thing to a bound (only, up to, at most, cannot
    exceed) naming at least half of the bound's content words ("You can only take advanced annual leave in the
    amount that you would earn back by the end of the current leave year"): the answer is no. Bounds in numbers are
    grounding.yesno.over_limit's."""
    m = _MORE_THAN.search(question_sentence(question))
    if not m or not _BOUND.search(sentence):
        return False
    bound = content_terms(m.group("bound"))
    return bool(bound) and 2 * len(bound & content_terms(sentence)) >= len(bound)


#: A share of something named after it ("75% of the daily allowance", "half of your salary"): the words named.
_SHARE_OF = re.compile(rf"\b{_SHARE_WORDS}\s+of\s+(?P<what>[^,;:.()]+)", re.I)


def share_of_asked(previous: str, sentence: str) -> bool:
    """True when ``sentence`` gives a share of what ``previous`` (the question a follow-up asks again for another
    case) asked for: every content word naming what it is a share of is one of that question's ("On the first and
    last day of a trip you receive 75% of the daily allowance" after "What is the daily meal allowance?", for "And on
    the last day of travel?": the demo's answer repeated the $65 of a full day, s29 round's notes). 100% is the whole,
    no share."""
    terms = content_terms(previous)
    for m in _SHARE_OF.finditer(sentence):
        if m.group(0).startswith("100"):
            continue
        named = content_terms(" ".join(m.group("what").split()[:4]))
        # a period or standing word qualifies the thing without naming another ("the daily allowance" after "What
        # is the meal allowance?", the s48 demo conversation), unless the question named another period ("hourly")
        qualifiers, asked_qualifiers = named & _RATE_QUALIFIERS, terms & _RATE_QUALIFIERS
        if named - qualifiers and named - qualifiers <= terms and (
                not asked_qualifiers or qualifiers <= asked_qualifiers):
            return True
    return False


#: Words saying which period or standing a rate or an allowance is of, not what it is ("the daily allowance", "the
#: normal hourly rate", "the standard fee"): :func:`share_of_asked` reads a share of "the daily allowance" as one of
#: "the meal allowance".
_RATE_QUALIFIERS = content_terms("daily weekly monthly annual yearly hourly nightly per-diem full normal usual "
                                 "standard regular base basic current")


#: A question asking whether something is required of the asker ("Do I need a receipt for a $15 lunch?", "Is a
#: receipt required for ...?", "Must I ...?", "Do I have to ...?").
_ASKS_REQUIRED = re.compile(r"^\s*(?:do|does|will)\s+(?:i|we|you|they|employees?|staff)\s+(?:need|have\s+to)\b|"
                            r"^\s*(?:is|are)\s+(?:an?\s+|the\s+|any\s+)?(?:\w+\s+){0,2}?(?:required|needed|"
                            r"mandatory)\b|^\s*must\s+(?:i|we)\b", re.I)
#: A sentence requiring something from a bound up ("An itemised receipt is required for any expense of $25 or more",
#: "Trips costing more than $3,000 need approval"): the bound.
_REQUIRING = r"\b(?:required|requires?|needed|needs?|must|mandatory)\b[^.;]*?"
_BOUND_NUMBER = r"\$?\d[\d,]*(?:\.\d+)?\s*\w*"
_REQUIRED_FROM = re.compile(rf"{_REQUIRING}(?P<bound>{_BOUND_NUMBER})\s+or\s+(?:more|above|over|higher|longer)\b|"
                            rf"{_REQUIRING}\b(?:more\s+than|over|above|at\s+least|exceeding|longer\s+than)\s+"
                            rf"(?P<over>{_BOUND_NUMBER})", re.I)


#: A requirement added to others ("also", "additional", "as well").
_LAYERED = re.compile(r"\b(?:also|additional(?:ly)?|as well|too|further)\b", re.I)


def requirement_not_reached(question: str, sentence: str) -> bool:
    """True when the question asks whether something is required of a quantity ("Do I need a receipt for a $15
    lunch?") and ``sentence`` requires it only from a bound up that the quantity, of the same unit, does not reach
    ("An itemised receipt is required for any expense of $25 or more"): the answer is no (the s30 new user's demo
    run quoted the rule without an opener). Not a requirement added to others ("also need approval from your
    department head" above $3,000: every trip still needs the manager's)."""
    asked_text = question_sentence(question)
    if not _ASKS_REQUIRED.search(asked_text) or _LAYERED.search(sentence):
        return False
    asked = stated_numbers(asked_text, kinds=("amount", "duration", "count"))
    for m in _REQUIRED_FROM.finditer(sentence):
        inclusive = m.group("bound") is not None
        bound = stated_numbers(m.group("bound") or m.group("over"), kinds=("amount", "duration", "count"))
        for unit, values in bound.items():
            limit = min(values)
            if unit in asked and all(a < limit or (not inclusive and a == limit) for a in asked[unit]):
                return True
    return False
