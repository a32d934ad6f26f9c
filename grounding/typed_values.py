"""Typed values: the values a sentence states (amounts, percentages, durations, dates, counts, e-mail addresses),
stored with each chunk at ingestion, and whether a sentence states what a question of an answer type asks for
(grounding.answer_types reads the question's type).

    states("duration", "You can take up to 12 weeks of leave.")  -> True
    typed_values("Meals: $65 a day, 75% on travel days.")        -> ("amount:$65", "percent:75%")

Rules written on the calibration half of the 18F golden set (evaluation/golden/18f.jsonl), never on its test half.
No Django imports.
"""

from __future__ import annotations

import functools
import re

from grounding.lexical import nfkc_fold

_COUNTWORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
              r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand)")
_NUMWORD = rf"(?:{_COUNTWORD}|a|an|a few|several|half an?)"
_NUMBER = rf"(?:\d[\d,]*(?:\.\d+)?(?:\s?(?:-|to|–)\s?\d[\d,]*(?:\.\d+)?)?|{_NUMWORD}(?:[- ]{_COUNTWORD})?)"
_TIME_UNIT = (r"(?:(?:business |work |working |calendar |consecutive |administrative )?(?:seconds?|minutes?|hours?|"
              r"days?|weeks?|workweeks?|workdays?|months?|years?|nights?|pay periods?|fiscal years?|person-hours?))")
_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|"
          r"Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?")

#: Currency words and ISO 4217 codes written after (or, for codes, before) an amount; "pounds" is left out (a weight as
#: often as a currency: "£" says it).
_CURRENCY_WORD = (r"(?:dollars?|cents?|euros?|eurocents?|yen|yuan|renminbi|rupees?|pesos?|francs?|kronor|kroner|"
                  r"krona|krone|zlotys?|forints?|rand|reais|ringgit|baht|shekels?|dirhams?|riyals?|lira|liras)")
_CURRENCY_CODE = r"(?:USD|EUR|GBP|JPY|CNY|RMB|INR|CHF|CAD|AUD|NZD|SEK|NOK|DKK|PLN|KRW|MXN|BRL|ZAR|SGD|HKD)"

_PATTERNS: dict[str, re.Pattern] = {
    # a currency sign or ISO code before the number ("$40", "€40", "¥5,000", "EUR 40"), or a currency word or code
    # after it ("5,000 yen", "40 euros", "12 CHF")
    "amount": re.compile(rf"(?:[$€£¥₹₩]|\b{_CURRENCY_CODE}\s?)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|k)\b)?|"
                         rf"\b\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|k))?\s?(?:{_CURRENCY_WORD}|"
                         rf"{_CURRENCY_CODE})\b", re.I),
    "percent": re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|percent\b|per cent\b)|\b(?:half|a third|a quarter|"
                          r"three[- ]quarters)\b", re.I),
    # a run of numbers before one unit is one duration each ("the first 7, 30 and 90 days")
    "duration": re.compile(rf"\b{_NUMBER}(?:(?:,\s*|,?\s+(?:and|or|to)\s+){_NUMBER})*[- ](?:[A-Za-z]+[- ]){{0,2}}?"
                           rf"{_TIME_UNIT}\b|\b(?:an? |one )?(?:hour|day|week|month|year)\b(?= "
                           rf"(?:before|after|ahead|in advance|of|from|prior))", re.I),
    # "every"/"each" only before a period of time ("every 90 days", "each pay period"; not "each employee", "each
    # subsequent time")
    "frequency": re.compile(r"\b(?:(?:every|each)(?: other| \d+| few| two| three| six)? (?:business |work |calendar )?"
                            r"(?:minute|hour|day|night|week|month|quarter|year|pay period|fiscal year|semester)s?|"
                            # a day of the week or a time of day recurring ("restocked every Monday morning")
                            r"(?:every|each) (?:other )?(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|weekday|"
                            r"weekend|morning|afternoon|evening)|"
                            # "once a year", not the conjunction ("Once the repository is active, ...")
                            # ("Once a need has been identified, ...": fresh36's f36-u15)
                            r"once(?=\s+(?:a|an|per|every|each|in a)\s+(?:[\w-]+\s+)?(?:minute|hour|day|night|"
                            r"week|month|quarter|year|pay period|fiscal year|semester|sprint|while|lifetime)s?\b)|"
                            r"twice|annually|yearly|monthly|weekly|daily|quarterly|biweekly|"
                            r"per (?:year|month|week|day|pay period)|a (?:year|month|week|day))\b", re.I),
    "date": re.compile(rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b|"
                       rf"\b\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b|\b{_MONTH}\s+\d{{4}}\b|\bFY\s?\d{{2,4}}\b|"
                       rf"\b(?:19|20)\d{{2}}\b|\b\d{{1,2}}(?:[:.]\d{{2}})?\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)|"
                       # a 24-hour clock time ("16:00", "09:30"), not a ratio or a score of two small numbers
                       rf"\b(?:[01]?\d|2[0-3]):[0-5]\d\b(?!:\d)|"
                       rf"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|noon|midnight)\b|"
                       rf"\b(?:first|second|third|fourth|last) (?:full )?(?:work ?)?(?:week|day|Monday|Friday)\b|"
                       rf"\b(?:in|by|until|before|after|from|through|during) (?:early |mid-?|late )?{_MONTH}(?!\w)(?!,?\s+\d)",
                       re.I),
    "count": re.compile(rf"\b\d[\d,]*(?:\.\d+)?\b|\b{_COUNTWORD}\b", re.I),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
}
_TEAM = re.compile(r"\b(?:team|office|officer|specialist|supervisor|manager|director|desk|division|staff|"
                   r"coordinator|contact|administrator|lead|branch|center|PeopleOps|HR|help ?desk|#[\w-]+|@[\w-]+|"
                   r"(?:unit|group|section) head|head of|chief|committee|board|"
                   r"council|department|executive|president|owner|approver|representative|steward|advis[eo]r|"
                   r"counsel|people operations|human resources|payroll|"
                   # people named by what they are to the asker or the thing: "only channel members", "anyone in
                   # the workspace", "your colleagues"
                   r"members?|employees?|people|users?|participants?|colleagues?|anyone|everyone|nobody|no one|"
                   r"admins?|guests?|visitors?|contractors?|partners?|"
                   # an organisation answers "who pays / who covers / who provides": "covered by the company"
                   r"company|agency|employer|organi[sz]ation|government|insurer|vendor|firm)\b", re.I)
#: A number and its time unit with more words between than a typed duration allows ("56 advanced annual leave
#: hours"): enough for a sentence to state a duration, not read as a value (typed_values, stored at ingestion).
_MODIFIED_DURATION = re.compile(rf"\b\d[\d,]*(?:\.\d+)?\s+(?:[A-Za-z]+\s+){{3,4}}{_TIME_UNIT}\b", re.I)
#: A point in time given by an event: "only after an agreement has been signed", "once your badge is ready", "as
#: soon as you are hired" (answers "When can ...?" as a date does).
_EVENT_TIME = re.compile(r"\b(?:only after|only once|only when|as soon as|once|after|before|until|prior to|upon|"
                         r"following)\s+(?:the |a |an |your |their |our |its |his |her |it |you |they |we |he |she |"
                         r"this |that |all |each |every )?(?:[\w-]+\s+){0,3}(?:is|are|was|were|has|have|had|been|"
                         r"gets?|got|receives?|received|signed|approved|completed|submitted|ready|done|finished|"
                         r"issued|executed|hired|granted|confirmed)\b", re.I)
#: A sentence saying something is done on no schedule: it answers "How often ...?" (never, unless ...).
_NO_SCHEDULE = re.compile(r"\b(?:not|never|no need)\b[^.;]{0,40}\b(?:on a (?:regular |set |fixed )?schedule|"
                          r"periodically|regularly|routinely|at (?:set|fixed|regular) intervals)\b|"
                          r"\bno (?:set|fixed|regular) schedule\b", re.I)
#: A share of a base: "accrue PTO pro rata based on their scheduled hours", "prorated for part-time staff": how much
#: one gets, stated as a proportion of another quantity (answers "How much PTO do part-time employees earn?").
_PROPORTIONAL = re.compile(r"\b(?:pro[- ]?rata|pro-?rated|prorates?|in proportion to|proportional(?:ly)? to|"
                           r"proportionately)\b", re.I)
def proportional_only(text: str) -> bool:
    """True when ``text`` states how much only as a proportion of another quantity ("Part-time employees accrue PTO
    pro rata based on their scheduled hours"), no amount, percentage, duration or count: an answer quoting it needs
    the base it is a share of ("Employees accrue 1.5 days ... per month")."""
    text = nfkc_fold(text)
    return bool(_PROPORTIONAL.search(text)) and not any(_PATTERNS[k].search(_IN_NAME.sub(" ", text))
                                                        for k in ("amount", "percent", "duration", "count"))


#: A name: capitalised words in a row ("Office of Mission Assurance"), an acronym, or one word in camel case
#: ("EthicsLine", "PeopleOps"), not at the start of a sentence.
_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b(?:[A-Z][a-z]+(?:\s+(?:of\s+)?[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)+)\b|"
                     r"\b[A-Z]{2,}\b")


@functools.lru_cache(maxsize=50_000)
def typed_values(text: str) -> tuple[str, ...]:
    """The values a sentence states, each as "kind:text" in text order: amounts, percentages, durations, dates (and
    times, fiscal years), e-mail addresses; a plain number not part of one of those is "count:<number>". The text
    is read NFKC-folded (grounding.lexical.nfkc_fold: "＄５０" is "amount:$50").
    """
    text = nfkc_fold(text)
    found: list[tuple[int, int, str]] = []
    for kind in ("amount", "percent", "duration", "date", "email"):
        for m in _PATTERNS[kind].finditer(text):
            if not any(s <= m.start() < e or m.start() <= s < m.end() for s, e, _ in found):
                found.append((m.start(), m.end(), f"{kind}:{m.group(0).strip()}"))
    for m in re.finditer(r"\b\d[\d,]*(?:\.\d+)?\b", text):
        if not any(s <= m.start() < e for s, e, _ in found):
            found.append((m.start(), m.end(), f"count:{m.group(0)}"))
    return tuple(v for _, _, v in sorted(found))


#: A number that opens a name: digits or a capitalised number word before a capitalised word ("355 McAllister
#: Street", "One World Trade Center", "1800 F St"; not a day of the week: "two Mondays" counts).
_CAPITAL_COUNTWORD = "|".join(w.capitalize() for w in _COUNTWORD[3:-1].split("|"))
_IN_NAME = re.compile(rf"(?:\b\d[\d,]*|\b(?:{_CAPITAL_COUNTWORD}))\s+(?=[A-Z][a-z]|[A-Z]\s+[A-Z][a-z])"
                      rf"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b)")
_WEEKDAY = re.compile(r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)


def _names_weekdays(text: str) -> bool:
    """True when ``text`` names two or more different days of the week."""
    return len({m.group(1).lower() for m in _WEEKDAY.finditer(text)}) >= 2


def person_mentions(text: str) -> list[str]:
    """The pieces of ``text`` that state a person or team (what :func:`states` checks for a "person" question): an
    e-mail address, a word naming a role, a team or a group of people, a name written in capitals, a department
    (:data:`_DEPARTMENT`). Read NFKC-folded;
    in text order."""
    text = nfkc_fold(text)
    found = [m for pattern in (_PATTERNS["email"], _TEAM, _PROPER, _DEPARTMENT) for m in pattern.finditer(text)]
    return [m.group(0) for m in sorted(found, key=lambda m: m.start())]


#: An amount stated as all of another quantity ("You can request up to the total amount that you'll earn during the rest
#: of your term"): the s28 breaker's "And if I'm a term employee?" after the advanced sick leave limit was refused.
_RELATIVE_AMOUNT = re.compile(r"\b(?:up to|as much as|no more than|at most)\s+(?:the\s+)?(?:total\s+|full\s+)?"
                              r"(?:amount|number)\b(?:\s+of\s+[\w-]+)?\s+(?:that|which|you)\b", re.I)
#: A "column: value" pair of a table row whose column names a unit of time and whose value is a number (the s28 new
#: user's workbook: "How many hours are worked on Tuesday?" was refused over "Day: Tuesday; Hours: 9").
_UNIT_COLUMN = re.compile(r"\b(?P<unit>(?:minutes|hours|days|weeks|months|years|minute|hour|day|week|month|year))"
                          r"\s*:\s*(?P<value>\d[\d,]*(?:\.\d+)?)(?=\s*(?:;|$))", re.I | re.M)


#: A size of data, its unit glued to the number or not ("a file size limit of 100MB", "15 GB of storage"): a quantity
#: (fresh19's f19r-v10, a development set: "What is the file size limit of Intelink's IntelDocs?" was refused as
#: stating no limit, "100MB" being no number on its own).
_DATA_SIZE = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:[KMGTP]i?B|bytes?|(?:kilo|mega|giga|tera|peta)bytes?)\b")


#: A date written day first ("1 February", "28 November 2025") and an amount in pence ("80p", "45p per mile": one or
#: two digits, not a video resolution such as "1080p") or as a multiple of a rate of pay ("1.5 times their hourly
#: rate", "time and a half", "double time"): what the s47 breaker's UK pages stated, refused as "they do not state the
#: date or deadline" / "the amount".
_DAY_FIRST_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?!\w)", re.I)
_PENCE = re.compile(r"\b\d{1,2}(?:\.\d)?p\b")
#: A day of the month by its ordinal ("on the 25th of each month", "from the 23rd") and a price of nothing ("is free
#: for employees", "free of charge", "at no cost"): what the s48 breaker's pages stated, refused as "they do not state
#: the date or deadline" / "the amount" ("When is payday?", "How much does parking cost in Denver?"). "free to choose",
#: "free of errors" state no price.
_MONTH_DAY = re.compile(r"\b(?:on|from|by|before|after|until|till)\s+the\s+\d{1,2}(?:st|nd|rd|th)\b(?!\s+(?:quarter|floor|"
                        r"edition|grade|year|century|place|time|round|week|day|month))|"
                        r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\s+(?:of\s+)?(?:each|every|the|this|next)\s+month\b", re.I)
_NO_PRICE = re.compile(r"\b(?:is|are|remains?|stays?|be)\s+(?:completely\s+|entirely\s+)?free\b(?!\s+(?:to|from|of)\b)|"
                       r"\bfree\s+of\s+charge\b|\bat\s+no\s+(?:extra\s+|additional\s+)?(?:cost|charge)\b|"
                       r"\bcosts?\s+nothing\b", re.I)
_PAY_MULTIPLE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:times|x)\s+(?:the\s+|their\s+|your\s+|his\s+|her\s+|its\s+)?"
                           r"(?:normal\s+|usual\s+|basic\s+|base\s+|standard\s+)?(?:hourly\s+)?(?:rate|pay|wage|salary)\b|"
                           r"\btime\s+and\s+a\s+half\b|\b(?:double|triple)\s+time\b", re.I)

#: A department named by one capitalised word ("also need approval from Finance", "Lockers are assigned by
#: Facilities"): a team, which :data:`_PROPER` (two capitalised words, or a camel-case one) does not read (the s48
#: breaker's "Who approves an expense claim over $2,000?" got the line manager's sentence only).
_DEPARTMENT = re.compile(r"(?<![.!?]\s)(?<!^)\b(?:Finance|Facilities|Legal|Compliance|Security|Procurement|Accounting|"
                         r"Accounts|Payroll|Marketing|Sales|Operations|Engineering|Support|Purchasing|Treasury|Audit|"
                         r"Recruiting|Recruitment|Talent)\b")

#: "one" in a word that counts nothing: "a one-off file" states no maximum file size (fresh36's f36-u01), nor "a
#: one-on-one meeting", "one-time", "one-stop", "one-way", "no one", "one another".
_NOT_A_NUMBER = re.compile(r"\bone-(?:off|time|on-one|stop|way|size|of-a-kind)\b|\bno one\b|\bone another\b", re.I)


def states(answer_type: str, text: str) -> bool:
    """True when ``text`` (a sentence, or a table row read as "column: value" pairs) states what a question of
    ``answer_type`` asks for. A date question is also answered by a duration ("two weeks before your last day"), a
    frequency question by a duration ("every 90 days"), a duration question by a frequency ("annually"), a count, a
    duration or a quantity by two or more days of the week named ("on Tuesdays, Wednesdays and Thursdays" answers
    "How many days a week ...?"), a quantity by a proportion ("pro rata based on their scheduled hours") or a size of
    data ("100MB"); yes/no, list and other questions are not checked here (True). The text is read NFKC-folded, as
    by typed_values. A table row's number under a column naming a unit of time is a duration ("Day: Tuesday; Hours:
    9" states 9 hours); "one" in "one-off", "one-on-one", "no one" counts nothing (:data:`_NOT_A_NUMBER`)."""
    text = _NOT_A_NUMBER.sub(" ", _UNIT_COLUMN.sub(r"\g<value> \g<unit>", nfkc_fold(text)))
    if answer_type in ("duration", "quantity", "amount") and _RELATIVE_AMOUNT.search(text):
        return True  # "up to the total amount that you'll earn during the rest of your term": how much, in words
    if answer_type in ("count", "duration", "quantity") and _names_weekdays(text):
        return True  # "on Tuesdays, Wednesdays and Thursdays": how many days (a week) is what it lists
    if answer_type == "count":  # a number that is not part of an amount, a duration, a date or a percentage,
        text = _IN_NAME.sub(" ", text)  # nor of a name ("One World Trade Center", "355 McAllister Street")
        return any(v.startswith("count:") for v in typed_values(text)) or bool(
            re.search(rf"\b{_COUNTWORD}\b", _PATTERNS["duration"].sub(" ", text), re.I))
    if answer_type in ("duration", "date") and _MODIFIED_DURATION.search(text):
        return True
    if answer_type == "date" and _EVENT_TIME.search(text):
        return True
    if answer_type == "date" and (_DAY_FIRST_DATE.search(text) or _WEEKDAY.search(text) or _MONTH_DAY.search(text)):
        return True  # "take effect on 1 February", "made on Tuesdays and Fridays" (the s47 breaker's UK pages)
    if answer_type == "amount" and (_PENCE.search(text) or _PAY_MULTIPLE.search(text) or _DATA_SIZE.search(text)
                                    or _NO_PRICE.search(text)):
        return True  # "80p a cup", "1.5 times their hourly rate", "10 GB of storage", "free for employees"
    if answer_type in ("amount", "percent", "duration", "date"):
        kinds = {"amount": ("amount",), "percent": ("percent",), "duration": ("duration", "frequency"),
                 "date": ("date", "duration")}[answer_type]
        return any(_PATTERNS[k].search(text) for k in kinds)
    if answer_type == "quantity":  # a number of a name ("1800 F St", "One World Trade Center") is none
        return bool(_PROPORTIONAL.search(text) or _DATA_SIZE.search(text)) or any(
            _PATTERNS[k].search(_IN_NAME.sub(" ", text)) for k in ("amount", "percent", "duration", "count"))
    if answer_type == "frequency":  # "You do not need to change your password on a schedule": never, a frequency
        return bool(_PATTERNS["frequency"].search(text) or _PATTERNS["duration"].search(text)
                    or _NO_SCHEDULE.search(text))
    if answer_type == "person":
        return bool(_PATTERNS["email"].search(text) or _TEAM.search(text) or _PROPER.search(text)
                    or _DEPARTMENT.search(text))
    return True


#: A word before a duration that makes it a time limit or a lead time, not a period that recurs ("within 14 days",
#: "no later than 30 days", "after 90 days").
_LIMIT_BEFORE = re.compile(r"\b(?:within|after|before|by|in|than|up to|at least|at most)\s*$", re.I)


def recurs(text: str) -> bool:
    """True when ``text`` states how often something happens: a frequency ("every 90 days", "annually") or a
    duration that is no time limit or lead time ("a 36-month refresh cycle"; not "within 14 days of receiving the new
    one"). A frequency question asks for one of these first."""
    text = nfkc_fold(text)
    if _PATTERNS["frequency"].search(text) or _NO_SCHEDULE.search(text):
        return True
    return not all(durations_after(text, _LIMIT_BEFORE))


#: A word before a duration that makes it the window something must happen in ("within 12 months", "no later than 30
#: days").
_WINDOW_BEFORE = re.compile(r"\b(?:within|later than|before)\s*$", re.I)
#: A question asking how long one has to do something ("How long do I have to use it?", "How long does a manager have
#: to approve it?"): the window it must happen in.
_ASKS_WINDOW = re.compile(r"\bhow\s+(?:long|much\s+time|many\s+\w+)\s+(?:do|does|will|would)\s+(?:\w+\s+){1,3}?have\s+"
                          # not a length required ("How long does a trip have to run before it needs a voucher from
                          # authorization?": "over 12 hours", fresh36's f36-a03; "have to be at my GS level")
                          r"to\b(?!\s+(?:be|run|last|stay|remain|wait|serve|work|live)\b)", re.I)


def asks_window(question: str) -> bool:
    """True when ``question`` asks how long one has to do something (:data:`_ASKS_WINDOW`)."""
    return bool(_ASKS_WINDOW.search(question))


def states_window(text: str) -> bool:
    """True when ``text`` states a window something must happen in: a duration after "within", "no later than" or
    "before" ("Parental leave must be taken within 12 months of the child's birth")."""
    return any(durations_after(nfkc_fold(text), _WINDOW_BEFORE))


def durations_after(text: str, before: re.Pattern[str]) -> list[bool]:
    """For each duration ``text`` states, in order, whether the words right before it match ``before`` (a pattern
    anchored at the end: "within", "no later than")."""
    return [bool(before.search(text[:m.start()])) for m in _PATTERNS["duration"].finditer(text)]


#: A question asking how long something takes ("How long does OCFO usually take to decide on it?"): the time it
#: takes, which how often something recurs does not state.
_ASKS_TIME_TAKEN = re.compile(r"^how\s+long\s+(?:does|do|did|will|would|should|can|could|might|may)\b[^?]*\btakes?\b",
                              re.I)


def asks_time_taken(question: str) -> bool:
    """True when the asking sentence ``question`` asks how long something takes ("How long does the review take?")."""
    return bool(_ASKS_TIME_TAKEN.match(question.strip()))


def states_time_taken(text: str) -> bool:
    """True when ``text`` states a span of time ("about 50 minutes", "3 business days", "up to the full term"), not
    only how often something recurs: "approves billing on a monthly cadence" does not say how long OCFO takes to
    decide (fresh35's f35-u08, a development set), though :func:`states` accepts a frequency for a duration."""
    text = _UNIT_COLUMN.sub(r"\g<value> \g<unit>", nfkc_fold(text))
    return bool(_PATTERNS["duration"].search(text) or _MODIFIED_DURATION.search(text)
                or _RELATIVE_AMOUNT.search(text) or _names_weekdays(text))


#: A question asking for a day, a time, a date, a month or a year by name ("What day and time is the Info Session
#: held?", "What time does it start?"), not "When ...?".
#: "What day", "Which year", "What start date": the words naming a point on the calendar or the clock
#: (grounding.answer_types reads them as a date question too).
CALENDAR_ASKED = r"(?:what|which) (?:\w+ )?(?:date|day|time|year|month)"
_ASKS_CALENDAR = re.compile(rf"^(?:on |at |in )?{CALENDAR_ASKED}s?\b", re.I)


def asks_calendar(question: str) -> bool:
    """True when the asking sentence ``question`` asks for a day, a time, a date, a month or a year by name."""
    return bool(_ASKS_CALENDAR.match(question.strip()))


def states_calendar(text: str, *, held: bool = False) -> bool:
    """True when ``text`` states a point on the calendar or the clock, or a duration from one (a date value or a
    duration, typed_values' patterns): not a point given only by an event ("Once you have submitted a referral, ...
    invite the person to our monthly general TTS Info Session" says when one is invited, not on which day or at what
    time the session is held: the s31 round's fresh31 f31-43), which :func:`states` accepts for "When ...?". With
    ``held`` (the question asks when an event is held: grounding.asked_times.asks_held) a duration that is only a
    time limit or a lead time ("no later than 2 weeks before launch") does not say it."""
    text = nfkc_fold(text)
    if _PATTERNS["date"].search(text):
        return True
    limits = durations_after(text, _LIMIT_BEFORE)
    return bool(limits) and not (held and all(limits))


def durations_in(text: str) -> list[re.Match[str]]:
    """The durations ``text`` states ("4 hours", "3-5 business days"), as matches of typed_values' duration pattern
    over ``text`` read NFKC-folded (their positions are in the folded text: :func:`grounding.lexical.nfkc_fold`)."""
    return list(_PATTERNS["duration"].finditer(nfkc_fold(text)))
