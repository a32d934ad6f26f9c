"""Answer types: what a question asks for (an amount, a duration, a date, a count, a percentage, a yes/no, a person or
team, a list) and whether a sentence states it; the typed values of a sentence, stored with each chunk at ingestion.

Answer-type checking is the classic question-answering filter (Moldovan et al. 2000, "The structure and performance of
an open-domain question answering system"; Li and Roth 2002, "Learning question classifiers"): a candidate answer
sentence must hold an entity of the expected type. Here the types are few and read by rules written on the
calibration half of the 18F golden set (evaluation/golden/18f.jsonl), never on its test half.

    question_type("How many weeks of unpaid FMLA can I take?")   -> "duration"
    states("duration", "You can take up to 12 weeks of leave.")  -> True
    typed_values("Meals: $65 a day, 75% on travel days.")        -> ("amount:$65", "percent:75%")

No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from grounding.lexical import nfkc_fold

AnswerType = Literal["amount", "percent", "duration", "frequency", "date", "count", "quantity", "person", "list",
                     "yesno", "other"]

#: The answer types whose presence in a sentence is checked (the others: yes/no, list, other, are not).
CHECKED_TYPES = frozenset({"amount", "percent", "duration", "frequency", "date", "count", "quantity", "person"})

_COUNTWORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
              r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand)")
_NUMWORD = rf"(?:{_COUNTWORD}|a|an|a few|several|half an?)"
_NUMBER = rf"(?:\d[\d,]*(?:\.\d+)?(?:\s?(?:-|to|–)\s?\d[\d,]*(?:\.\d+)?)?|{_NUMWORD}(?:[- ]{_COUNTWORD})?)"
_TIME_UNIT = (r"(?:(?:business |work |working |calendar |consecutive |administrative )?(?:minutes?|hours?|days?|"
              r"weeks?|workweeks?|workdays?|months?|years?|nights?|pay periods?|fiscal years?|person-hours?))")
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
                            # "once a year", not the conjunction ("Once the repository is active, ...")
                            r"once(?=\s+(?:a|an|per|every|each|in a)\b)|"
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


# --- what the question asks for --------------------------------------------------------------------------------

_AUX = r"(?:is|are|was|were|can|could|do|does|did|will|would|should|must|may|might|has|have|am|shall)"
_YESNO_START = re.compile(rf"^{_AUX}\b", re.I)
_YESNO_CLAUSE = re.compile(rf"(?:^|[,;:]\s+){_AUX}\s+(?:i|we|you|it|they|he|she|there|that|this|my|our|the|a|an|"
                           rf"every|each|any|all|gsa|tts|someone|anyone|coworkers|staff)\b", re.I)
_WH = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.I)
#: A leading "When I ...," clause (the asker's situation, not a when-question: no auxiliary follows "when") before a
#: yes/no clause: "When I travel, do I need a receipt?".
_SITUATION_WHEN = re.compile(rf"^(?:when|whenever|where)\s+(?!{_AUX}\b)[^,?]{{3,80}},\s*(?={_AUX}\b)", re.I)
_COMPARISON = re.compile(r"\b(?:versus|vs\.?|compared? (?:with|to)|compare|comes? first|expires? first|faster|"
                         r"slower|longer|shorter|earlier|later|sooner|more|less|fewer|higher|lower|bigger|smaller|"
                         r"larger|greater|cheaper|quicker|closer|nearer|farther|further|newer|older|costlier|"
                         r"pricier|easier|harder|better|worse|stricter|heavier|lighter|wider|narrower)\b.*\bor\b|"
                         r"\b(?:versus|vs\.?|compared? (?:with|to)|how does .* compare)\b|\bwhich comes first\b|"
                         # "how much earlier ... a conference ... than a training?": the comparative asked, then "than"
                         r"^how (?:much|many)(?: \w+)? (?:earlier|later|longer|shorter|sooner|more|less|fewer|higher|"
                         r"lower)\b.*\bthan\b", re.I)
#: Plural nouns that ask for one value, not a list (a time, an amount, a limit): "What hours is the gym open?".
_VALUE_PLURAL = (r"(?:seconds|minutes|hours|days|weeks|months|years|nights|dollars|cents|percents|rates|fees|costs|"
                 r"prices|salaries|limits|amounts|numbers|totals|times|dates|deadlines|odds|levels|grades|units|"
                 r"credits|points|miles|kilometers|pounds|euros|yens|hours's)")
#: Verbs ending in -s that follow "what" ("What does ...", "What happens ...", "What was ..."): not a plural noun.
_VERB_S = (r"(?:does|was|has|is|happens|goes|says|makes|takes|means|applies|counts|comes|needs|requires|includes|"
           r"covers|gets|keeps|lets|helps|matters|remains|becomes|seems|looks|belongs|stays|works|uses|pays)")
_LIST = re.compile(r"^(?:what|which)\s+(?:(?:\w+\s+){0,2})?(?:kinds|types|topics|documents|paperwork|forms|steps|"
                   r"things|items|properties|options|benefits|requirements|tools|categories|ways|comes? in|is "
                   r"included|are included|do i need to (?:bring|provide|submit|gather|pull))\b|"
                   r"^(?:list|name)\b|^what (?:are|were) the (?:\w+ )?(?:steps|options|types|kinds|requirements)\b|"
                   # "which three terms": a count (two or more) of things
                   r"^(?:what|which) (?:[2-9]|1\d|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) "
                   r"(?:\w+ )?\w+s\b|"
                   # "what should I fill in / bring / include?": the things to give
                   r"^what (?:should|must|do|can) (?:i|we|you) (?:\w+ )?(?:bring|include|fill in|provide|submit|"
                   r"prepare|pack|gather)\b|"
                   # "what information / details does X need?": the pieces of it
                   r"^(?:what|which) (?:information|details|data|fields)\b|"
                   # a plural noun asked for ("What rules ...", "What are the usual goals of ...", "Which things
                   # ..."), not a unit or a value (hours, dollars, rates, limits ask for one value)
                   rf"^(?:what|which) (?!(?:{_VALUE_PLURAL}|{_VERB_S})\b)[a-z]+[^su\W]s\b(?! (?:is|was|has)\b)|"
                   rf"^(?:what|which) (?:are|were) (?:the|my|our|your|its|their) (?:[a-z]+(?:-[a-z]+)? )??"
                   rf"(?!{_VALUE_PLURAL}\b)[a-z]+[^su\W]s\b",
                   re.I)
_PERCENT_Q = re.compile(r"\b(?:percentage|percent|fraction|share|proportion|utilization)\b", re.I)
_DURATION_Q = re.compile(r"^how (?:long|far ahead|far in advance|soon|fast|quickly|much longer)\b|"
                         # "Which takes longer: ...?", "Which is a quicker ride ...?": a comparison side asks how long
                         r"^(?:which|what)\b.*\b(?:takes? (?:longer|less time|more time)|quicker|faster|slower)\b|"
                         r"^how many (?:\w+ ){0,3}(?:minutes|hours|days|weeks|months|years|nights|pay periods)\b|"
                         r"^how much (?:\w+ ){0,3}(?:leave|time|notice)\b|^(?:what|which) (?:is the )?(?:\w+ )?"
                         r"(?:period|duration|deadline)\b", re.I)
_FREQUENCY_Q = re.compile(r"^how often\b", re.I)
#: "How long must a password be?": a length (characters, pages, words) as often as a time; any quantity answers it.
_LENGTH_Q = re.compile(r"^how long (?:must|should|can|could|does|do|is|are|has to|have to|needs? to)\b[^?]*\bbe\??$",
                       re.I)
#: "How much earlier / later / sooner": a difference of two points in time, stated as clock times or dates as often as
#: durations ("4 a.m." / "6 a.m."; "three to five weeks in advance"): a date question (durations answer it too).
_DATE_Q = re.compile(r"^(?:when|by when|until when)\b|^(?:what|which) (?:\w+ )?(?:date|day|time|year|month)\b|"
                     r"^how much (?:earlier|later|sooner)\b|"
                     # "Which office closes earlier in the evening: ...?": a comparison side asks for a point in time
                     r"^(?:which|what)\b.*\b(?:opens?|closes?|starts?|ends?|begins?|finish(?:es)?)\s+(?:earlier|later|"
                     r"sooner)\b", re.I)
_ACCRUAL_Q = re.compile(r"^how much (?:\w+ ){0,3}(?:do|does|can|will|did|could) (?:i|you|we|they|employees?|staff)"
                        r" (?:accrue|earn|build|carry|take|use|get|bank|save)\b", re.I)
_AMOUNT_Q = re.compile(r"^how much\b|^(?:at )?(?:what|which)(?:'s| is| are)? (?:the )?(?:\w+ ){0,4}(?:salary|amount|"
                       r"price|cost|fee|rate|fare|reimbursement|allowance|per diem|bounty|premium)s?\b|\bcosts?\b|"
                       r"\bcharge\b|\breimburse\b", re.I)
_QUANTITY_Q = re.compile(r"^(?:what|which)(?:'s| is| are)? (?:the )?(?:\w+ ){0,4}(?:most|maximum|minimum|least|"
                         r"biggest|largest|highest|lowest|limit|ceiling|cap|threshold)\b|^how (?:large|big|small|"
                         r"high|low|far|fast)\b", re.I)
_COUNT_Q = re.compile(r"^how many\b|^(?:what|which) (?:\w+ ){0,3}number\b", re.I)
_PERSON_Q = re.compile(r"^(?:who|whom|whose)\b|^(?:which|what) (?:\w+ )?(?:team|office|person|group|people|"
                       r"contact|role|division)s?\b"
                       # the asked noun itself, not a modifier of the next one ("What home office stipend ...?")
                       r"(?=\s*[?,]|\s*$|\s+(?:do|does|did|should|can|could|will|would|is|are|was|were|has|have|"
                       r"must|may|handles?|approves?|manages?|owns?|runs?|decides?|processes|reviews?|signs?|in|at|"
                       r"for|of|to|on|that|who|which)\b)|\b(?:who|whom) (?:do|should|can) i\b", re.I)


#: The asking clause's type: the first rule that matches, in this order (a length question before a duration, leave
#: accrued or carried, "how much ... do I accrue", as a quantity: hours or days, or an amount).
_TYPE_RULES: tuple[tuple[re.Pattern, AnswerType], ...] = (
    (_LIST, "list"), (_PERCENT_Q, "percent"), (_FREQUENCY_Q, "frequency"), (_LENGTH_Q, "quantity"),
    (_DURATION_Q, "duration"), (_ACCRUAL_Q, "quantity"), (_DATE_Q, "date"), (_AMOUNT_Q, "amount"),
    (_COUNT_Q, "count"), (_QUANTITY_Q, "quantity"), (_PERSON_Q, "person"))

#: Where a question's asking clause starts after a lead-in: after a colon ("Quick question: what ..."), or at a
#: capitalised question word after other words ("xyzzy What is ...", "[INST] What is ...").
_ASKING_START = re.compile(r"(?::\s*|(?<=\S\s))(?=(?:[Ww]hat|[Hh]ow|[Ww]hen|[Ww]here|[Ww]ho|[Ww]hich|[Ww]hy|Is|Are|Can|"
                           r"Could|Do|Does|Did|Will|Should|May|Must|Am)\b)")
_MARKUP = re.compile(r"<[^>]{1,40}>|\[/?[A-Z]{2,10}\]|<\|[a-z_]{1,20}\|>")


def asking_parts(question: str) -> list[str]:
    """Shorter readings of a message that may hold the question alone, longest first, each of at least three words
    and different from the message: its asking sentence (grounding.answer_types.question_sentence: without the story
    before it), and the clause from its question word on, markup left out (without a greeting or a lead-in: "Quick
    question: what is ...", "<b>What is ...</b>"). [] when the message is the question already."""
    whole = " ".join(question.split())
    out: list[str] = []
    for text in (question_sentence(question), _MARKUP.sub(" ", question)):
        text = " ".join(text.split())
        starts = [m.end() for m in _ASKING_START.finditer(text)]
        for candidate in (text, text[starts[-1]:] if starts else text):
            candidate = candidate.strip()
            if candidate != whole and len(candidate.split()) >= 3 and candidate not in out:
                out.append(candidate)
    return sorted(out, key=len, reverse=True)


def question_sentence(question: str) -> str:
    """The asking sentence of a question: its last sentence that ends with "?" (a preamble such as "I supervise
    four people." is context), else the whole text."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", question.strip()) if p.strip()]
    asking = [p for p in parts if p.endswith("?")]
    return asking[-1] if asking else question.strip()


#: A number that opens a name: digits or a capitalised number word before a capitalised word ("355 McAllister
#: Street", "One World Trade Center", "1800 F St"; not a day of the week: "two Mondays" counts).
_CAPITAL_COUNTWORD = "|".join(w.capitalize() for w in _COUNTWORD[3:-1].split("|"))
_IN_NAME = re.compile(rf"(?:\b\d[\d,]*|\b(?:{_CAPITAL_COUNTWORD}))\s+(?=[A-Z][a-z]|[A-Z]\s+[A-Z][a-z])"
                      rf"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b)")
_WEEKDAY = re.compile(r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)


def _names_weekdays(text: str) -> bool:
    """True when ``text`` names two or more different days of the week."""
    return len({m.group(1).lower() for m in _WEEKDAY.finditer(text)}) >= 2


@functools.lru_cache(maxsize=10_000)
def question_type(question: str) -> AnswerType:
    """What the question asks for (see the module docstring); "other" when no rule recognises it (what, which or
    how questions whose answer is a name, a code, a procedure)."""
    q = question_sentence(question)
    lead = re.sub(r"^(?:and|so|but|also|then|ok|okay|about|roughly|around)\b[,]?\s*", "", q, flags=re.I)
    clause = re.match(r"^[^,?]{3,80},\s*(?=(?:what|which|who|whom|when|how)\b)", lead, re.I) \
        or _SITUATION_WHEN.match(lead)
    if clause:  # "After my voucher is approved, how long until ...?", "When I travel, do I need ...?"
        lead = lead[clause.end():]
    elif not _WH.match(lead) and not _YESNO_START.match(lead):
        # "with 14 pay periods left how much ... ?": the asking words start later
        later = re.search(r"\b(?:how|what|which|who|when)\b", " ".join(lead.split()[:12]), re.I)
        if later and not _YESNO_CLAUSE.search(lead[:later.start()]):
            lead = lead[later.start():]
    if _COMPARISON.search(lead):
        return "other"  # a comparison: composed from both sides (grounding.compose), no single type to check
    if _YESNO_START.match(lead) or (not _WH.match(lead) and _YESNO_CLAUSE.search(lead)):
        return "yesno"
    # a closing condition is the case asked about, not what is asked: "What else do I file if it costs money?"
    asked = _CLOSING_CONDITION.sub("", lead) or lead
    return next((kind for rule, kind in _TYPE_RULES if rule.search(asked)), "other")


#: A condition closing a question: " if it costs money", " unless ...", " in case ...", " as long as ...".
_CLOSING_CONDITION = re.compile(r"(?<=\w)[,\s]+(?:if|unless|in case|as long as)\b[^?]*", re.I)


def is_comparison(question: str) -> bool:
    """True when the question sets two things against each other ("X or Y?", "X versus Y", "compared with")."""
    return bool(_COMPARISON.search(question_sentence(question)))


def states(answer_type: str, text: str) -> bool:
    """True when ``text`` (a sentence, or a table row read as "column: value" pairs) states what a question of
    ``answer_type`` asks for. A date question is also answered by a duration ("two weeks before your last day"), a
    frequency question by a duration ("every 90 days"), a duration question by a frequency ("annually"), a count, a
    duration or a quantity by two or more days of the week named ("on Tuesdays, Wednesdays and Thursdays" answers
    "How many days a week ...?"); yes/no, list and other questions are not checked here (True). The text is read
    NFKC-folded, as by typed_values."""
    text = nfkc_fold(text)
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
    if answer_type in ("amount", "percent", "duration", "date"):
        kinds = {"amount": ("amount",), "percent": ("percent",), "duration": ("duration", "frequency"),
                 "date": ("date", "duration")}[answer_type]
        return any(_PATTERNS[k].search(text) for k in kinds)
    if answer_type == "quantity":  # a number of a name ("1800 F St", "One World Trade Center") is none
        return any(_PATTERNS[k].search(_IN_NAME.sub(" ", text)) for k in ("amount", "percent", "duration", "count"))
    if answer_type == "frequency":
        return bool(_PATTERNS["frequency"].search(text) or _PATTERNS["duration"].search(text))
    if answer_type == "person":
        return bool(_PATTERNS["email"].search(text) or _TEAM.search(text) or _PROPER.search(text))
    return True
