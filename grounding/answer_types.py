"""Answer types: what a question asks for (an amount, a duration, a date, a count, a percentage, a yes/no, a person or
team, a list); whether a sentence states it, and the typed values of a sentence, are grounding.typed_values.

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

from grounding.typed_values import CALENDAR_ASKED, states, typed_values

__all__ = ["CHECKED_TYPES", "AnswerType", "asking_parts", "is_comparison", "question_sentence", "question_type",
           "states", "typed_values"]

AnswerType = Literal["amount", "percent", "duration", "frequency", "date", "count", "quantity", "person", "list",
                     "yesno", "other"]

#: The answer types whose presence in a sentence is checked (the others: yes/no, list, other, are not).
CHECKED_TYPES = frozenset({"amount", "percent", "duration", "frequency", "date", "count", "quantity", "person"})

# --- what the question asks for --------------------------------------------------------------------------------

_AUX = r"(?:is|are|was|were|can|could|do|does|did|will|would|should|must|may|might|has|have|am|shall)"
_YESNO_START = re.compile(rf"^{_AUX}\b", re.I)
_YESNO_CLAUSE = re.compile(rf"(?:^|[,;:]\s+){_AUX}\s+(?:i|we|you|it|they|he|she|there|that|this|my|our|the|a|an|"
                           rf"every|each|any|all|gsa|tts|someone|anyone|coworkers|staff)\b", re.I)
_WH = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.I)
#: A leading "When I ...," clause (the asker's situation, not a when-question: no auxiliary follows "when") before a
#: yes/no clause: "When I travel, do I need a receipt?".
#: A question word after it ("When a researcher reports a bug through the bug bounty, who does the first triage?":
#: fresh38's f38-v05, a development set, was read as a when-question) opens the asking clause as well; the situation
#: may be longer than the 80 characters of another opening clause.
_SITUATION_WHEN = re.compile(rf"^(?:when|whenever|where)\s+(?!{_AUX}\b)[^,?]{{3,160}},\s*"
                             rf"(?={_AUX}\b|(?:what|which|who|whom|whose|how|why)\b)", re.I)
_COMPARISON = re.compile(r"\b(?:versus|vs\.?|compared? (?:with|to)|compare|comes? first|expires? first|faster|"
                         r"slower|longer|shorter|earlier|later|sooner|more|less|fewer|higher|lower|bigger|smaller|"
                         r"larger|greater|cheaper|quicker|closer|nearer|farther|further|newer|older|costlier|"
                         r"pricier|easier|harder|better|worse|stricter|heavier|lighter|wider|narrower)\b.*\bor\b|"
                         r"\b(?:versus|vs\.?|compared? (?:with|to)|how does .* compare)\b|\bwhich comes first\b|"
                         # "What's the difference between A and B?" (not "the time between A and B": a length)
                         r"\bdiffer(?:ence|ences|s)?\b.*\bbetween\b.+\band\b|"
                         # "Does A get more leave than B?": two things set against each other, not a threshold
                         # ("Can I work more than 8 hours?" is a yes/no question)
                         r"^(?:does|do|did|is|are|was|were|will|would|can|could|should)\b[^?]*?\b(?:more|less|fewer|"
                         r"longer|shorter|higher|lower|earlier|later|bigger|smaller|cheaper|faster|slower|sooner)\b"
                         r"(?:\s+[\w'’-]+){0,4}?\s+than\s+(?![$€£\d]|(?:one|two|three|four|five|six|seven|eight|"
                         r"nine|ten|twelve|twenty|thirty|a|an|just|only)\b)|"
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
#: The auxiliary opening a question's clause after its asked noun ("Which interfaces *does* TTSC use?").
_AUX_WORD = r"(?:do|does|did|should|must|can|could|will|would|may|might|are|were|is|was|has|have)"
_LIST = re.compile(r"^(?:what|which)\s+(?:(?:\w+\s+){0,2})?(?:kinds|types|topics|documents|paperwork|forms|steps|"
                   r"things|items|properties|options|benefits|requirements|tools|categories|ways|comes? in|is "
                   r"included|are included|do i need to (?:bring|provide|submit|gather|pull))\b|"
                   r"^(?:list|name)\b|^what (?:are|were) the (?:\w+ )?(?:steps|options|types|kinds|requirements)\b|"
                   # "which three terms": a count (two or more) of things ("What are the four levels of
                   # inclusiveness ...?", fresh41's f41-l06, a development set: "levels" alone may ask a value)
                   r"^(?:what|which) (?:(?:are|were) (?:the|my|our|your|its|their) )?"
                   r"(?:[2-9]|1\d|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) "
                   r"(?:\w+ )?\w+s\b|"
                   # "what should I fill in / bring / include?": the things to give
                   r"^what (?:should|must|do|can) (?:i|we|you) (?:\w+ )?(?:bring|include|fill in|provide|submit|"
                   r"prepare|pack|gather)\b|"
                   # "what can the Outreach team help me with?": the things it helps with
                   r"^what (?:can|could|does|do|will|would) (?:[\w.'’-]+ ){1,5}?help (?:\w+ )?(?:out )?with\b|"
                   # "what information / details does X need?": the pieces of it
                   r"^(?:what|which) (?:information|details|data|fields)\b|"
                   # a plural noun asked for ("What rules ...", "What are the usual goals of ...", "Which things
                   # ..."), not a unit or a value (hours, dollars, rates, limits ask for one value)
                   # (hyphenated: "Which Power-Ups are we allowed to turn on ...?", fresh39's f39-v02, a development
                   # set, was read as a question of no type)
                   rf"^(?:what|which) (?!(?:{_VALUE_PLURAL}|{_VERB_S})\b)[a-z]+(?:-[a-z]+)*[^su\W]s\b"
                   rf"(?! (?:is|was|has)\b)|"
                   # (two words naming its kind: "What are the basic accessibility rules of thumb ...?", fresh39's
                   # f39-l02, a development set, was read as a question of no type)
                   rf"^(?:what|which) (?:are|were) (?:the|my|our|your|its|their) (?:[a-z]+(?:-[a-z]+)? ){{0,2}}?"
                   rf"(?!{_VALUE_PLURAL}\b)[a-z]+[^su\W]s\b|"
                   # a possessive for the determiner ("What are SOL's initiatives?", "What are the team's services?")
                   rf"^(?:what|which) (?:are|were) (?:the )?[\w.-]+['’]s (?:[a-z]+(?:-[a-z]+)? )??"
                   rf"(?!{_VALUE_PLURAL}\b)[a-z]+[^su\W]s\b|"
                   # a plural noun after one or two words naming its kind, then the verb of its clause ("Which
                   # AirTable interfaces does TTSC use?", "What federal holidays does GSA observe?")
                   rf"^(?:what|which) (?!{_AUX_WORD}\b)(?:[\w-]+ ){{1,2}}(?!(?:{_VALUE_PLURAL}|{_VERB_S})\b)"
                   rf"[a-z]+[^su\W]s (?={_AUX_WORD}\b)",
                   re.I)
_PERCENT_Q = re.compile(r"\b(?:percentage|percent|fraction|share|proportion|utilization)\b", re.I)
_DURATION_Q = re.compile(r"^how (?:long|far ahead|far in advance|soon|fast|quickly|much longer)\b|"
                         # "Which takes longer: ...?", "Which is a quicker ride ...?", "Who gets back to me faster:
                         # ...?" (fresh31's f31-26, not a person): a comparison side asks how long
                         r"^(?:which|what|who)\b.*\b(?:takes? (?:longer|less time|more time)|quicker|faster|slower)\b|"
                         r"^how many (?:\w+ ){0,3}(?:minutes|hours|days|weeks|months|years|nights|pay periods)\b|"
                         # "What is the maximum number of credit hours ...?" (the s28 new user: refused as a count)
                         r"^(?:what|which)(?:['’]s)?\b(?:\s+(?:is|are|was))?(?:\s+the)?(?:\s+\w+)?\s+"
                         r"(?:number|amount) of (?:\w+ ){0,3}"
                         r"(?:minutes|hours|days|weeks|months|years|nights|pay periods)\b|"
                         r"^how much (?:[\w'’-]+ ){0,3}(?:leave|time|notice)\b|"
                         # "How much PTO do I get?", "How much vacation will I have?": the asker's time off, in
                         # days (the s46 new-user trial got the sentences naming PTO without a number, read as a
                         # quantity); a group's ("... do part-time employees earn?") may be a share ("pro rata")
                         r"^how much (?:[\w'’-]+ ){0,2}(?:PTO|vacation|holiday)s? (?:do|will|would|can|could|should) "
                         r"(?:I|we|you)\b|"
                         # "after how much service can someone convert ...?": a length of service (fresh39's
                         # f39-m03, a development set, was read as an amount and found none)
                         r"^how much (?:(?!(?:is|are|was|were|does|do|did|the|a|an)\b)[\w'’-]+ ){0,2}"
                         r"(?:service|experience)\b(?! (?:fee|charge|cost|credit)s?\b)|"
                         r"^(?:what|which) (?:is the )?(?:\w+ )?"
                         r"(?:period|duration)\b", re.I)
_FREQUENCY_Q = re.compile(r"^how often\b", re.I)
#: "How long must a password be?": a length (characters, pages, words) as often as a time; any quantity answers it.
_LENGTH_Q = re.compile(r"^how long (?:must|should|can|could|does|do|is|are|has to|have to|needs? to)\b[^?]*\bbe\??$",
                       re.I)
#: "How much earlier / later / sooner": a difference of two points in time, stated as clock times or dates as often as
#: durations ("4 a.m." / "6 a.m."; "three to five weeks in advance"): a date question (durations answer it too).
_DATE_Q = re.compile(rf"^(?:when|by when|until when)\b|^{CALENDAR_ASKED}\b|"
                     # a deadline is a point in time, stated as a day or a time as often as a span ("by the end of the
                     # day on Friday", "by 3:30 PM Eastern", "within 5 business days"): "What's the weekly deadline
                     # for submitting my timecard?" (fresh36's f36-m09)
                     r"^(?:what|which)(?:['’]s| is| are)? (?:the )?(?:[\w'’-]+ ){0,2}?deadlines?\b|"
                     r"^how much (?:earlier|later|sooner)\b|"
                     # opening hours: "What hours is the supply center open?" (fresh35's f35-u11), "What are the
                     # office's business hours?"
                     r"^(?:what|which)(?:'s| is| are)? (?:the )?(?:[\w'’]+ ){0,3}?hours\b[^?]*\b(?:open|closed)\b|"
                     r"^(?:what|which)(?:'s| is| are)? (?:the )?(?:[\w'’]+ ){0,3}?(?:opening|business|operating) "
                     r"hours\b|"
                     # "Which office closes earlier in the evening: ...?": a comparison side asks for a point in time
                     r"^(?:which|what)\b.*\b(?:opens?|closes?|starts?|ends?|begins?|finish(?:es)?)\s+(?:earlier|later|"
                     r"sooner)\b", re.I)
_ACCRUAL_Q = re.compile(r"^how much (?:\w+ ){0,3}(?:do|does|can|will|did|could) (?:i|you|we|they|(?:[\w-]+ ){0,2}?"
                        r"(?:employees?|staff|contractors?|interns?|workers?|members?))"
                        r" (?:accrue|earn|build|carry|take|use|get|bank|save)\b", re.I)
#: (a hyphenated word among those before the noun: "What's the per-mile rate ...?", fresh41's f41-u02 was answered "at
#: the POV mileage rates")
_AMOUNT_Q = re.compile(r"^how much\b|^(?:at )?(?:what|which)(?:'s| is| are)? (?:the )?(?:[\w-]+ ){0,4}(?:salary|amount|"
                       r"price|cost|fee|rate|fare|reimbursement|allowance|per diem|bounty|premium)s?\b|\bcosts?\b|"
                       r"\bcharge\b|\breimburse\b|"
                       # a limit of money: "What's the credit limit on the GSA travel card?" (fresh40's f40-u03 was
                       # answered "This process takes about two weeks")
                       r"\b(?:credit|spending|purchase|purchasing|transaction|budget|dollar)\s+limits?\b", re.I)
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


def asks_why(question: str) -> bool:
    """True when the asking sentence of ``question`` (:func:`question_sentence`) asks why ("Why is that better than
    ...?", "And why ...?")."""
    return bool(_WHY.match(question_sentence(question)))


#: "Why ...?", after a connective ("And why ...?").
_WHY = re.compile(r"^(?:(?:and|so|but|ok|okay)\b[,]?\s*)?why\b", re.I)


def question_sentence(question: str) -> str:
    """The asking sentence of a question: its last sentence that ends with "?" (a preamble such as "I supervise
    four people." is context), else the whole text."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", question.strip()) if p.strip()]
    asking = [p for p in parts if p.endswith("?")]
    return asking[-1] if asking else question.strip()


@functools.lru_cache(maxsize=10_000)
def question_type(question: str) -> AnswerType:
    """What the question asks for (see the module docstring); "other" when no rule recognises it (what, which or
    how questions whose answer is a name, a code, a procedure)."""
    q = question_sentence(question)
    lead = re.sub(r"^(?:and|so|but|also|then|ok|okay|about|roughly|around)\b[,]?\s*", "", q, flags=re.I)
    if (colon := _LEAD_IN_COLON.search(lead)) and not _WH.match(lead) and not _YESNO_START.match(lead):
        # "A partner agency is asking about how we run an IAA: how often will 18F confer with them?" asks after
        # its colon (fresh38's f38-m07, a development set, was read from "how we run", a question of no type)
        lead = lead[colon.end():]
    clause = re.match(r"^[^,?]{3,80},\s*(?=(?:what|which|who|whom|when|how)\b)", lead, re.I) \
        or _SITUATION_WHEN.match(lead)
    if clause:  # "After my voucher is approved, how long until ...?", "When I travel, do I need ...?"
        lead = lead[clause.end():]
    elif not _WH.match(lead) and not _YESNO_START.match(lead):
        # "with 14 pay periods left how much ... ?": the asking words start later
        later = re.search(r"\b(?:how|what|which|who|when)\b", " ".join(lead.split()[:12]), re.I)
        if later and not _YESNO_CLAUSE.search(lead[:later.start()]):
            lead = lead[later.start():]
    if _COMPARISON.search(_CHOICE.sub("choose ", lead)):
        return "other"  # a comparison: composed from both sides (grounding.compose), no single type to check
    if _YESNO_START.match(lead) or (not _WH.match(lead) and _YESNO_CLAUSE.search(lead)):
        return "yesno"
    # a closing condition is the case asked about, not what is asked: "What else do I file if it costs money?"
    asked = _CLOSING_CONDITION.sub("", lead) or lead
    if _WHEN_CONDITION.match(asked) or _MAKES_UP.match(asked):
        # "When does a meeting need sign-off?": the case that needs it, not a date; "What makes up the largest
        # share of our expenses?": a thing, not a percentage
        return "other"
    kind = next((kind for rule, kind in _TYPE_RULES if rule.search(asked)), "other")
    if kind == "other" and (dash := _RESTATED.search(asked)):
        # "How do we know an 18F project has been successful — what are the main markers?": the question put again
        # after a dash gives the type (fresh39's f39-l04, a development set, was read as a question of no type)
        return question_type(asked[dash.end():])
    return kind


#: A dash before a question put again in other words ("How do we know ... — what are the main markers?").
_RESTATED = re.compile(r"\s[—–-]\s+(?=(?:what|which|who|whom|when|where|how)\b)", re.I)
#: The colon closing a lead-in before the asking clause.
_LEAD_IN_COLON = re.compile(r":\s+(?=(?:what|which|who|whom|whose|when|where|why|how)\b)", re.I)
#: "When does X need <a thing>?" asks in which case it does ("When does an internal meeting need sign-off from the
#: Commissioner?" / "meetings that require the travel of more than six employees": fresh38's f38-v10, a development
#: set, was refused as stating no date); "When do I need to file it?" asks a deadline.
_WHEN_CONDITION = re.compile(r"^when\s+(?:does|do|is|are|will|would)\s+[^?]*?\b(?:needs?|requires?)\s+(?!to\b)\w",
                             re.I)
#: "What makes up / accounts for the largest share of X?" asks which thing does (fresh38's f38-v09, a development set,
#: was refused as stating no percentage); "Which programs make up the area?" asks for a list.
_MAKES_UP = re.compile(r"^(?:what|which)\s+(?:\w+\s+)?(?:makes? up|accounts? for|takes? up|represents?)\s+(?:the\s+)?"
                       r"(?:largest|biggest|greatest|smallest|main|most|bulk|majority)\b", re.I)
#: A condition closing a question: " if it costs money", " unless ...", " in case ...", " as long as ...".
_CLOSING_CONDITION = re.compile(r"(?<=\w)[,\s]+(?:if|unless|in case|as long as)\b[^?]*", re.I)


def is_comparison(question: str) -> bool:
    """True when the question sets two things against each other ("X or Y?", "X versus Y", "compared with"); the
    options of a choice ("the deadline to choose cash versus time off") are not set against each other."""
    return bool(_COMPARISON.search(_CHOICE.sub("choose ", question_sentence(question))))


#: The options of a choice the question names ("what's the deadline to choose cash versus time off for my award?":
#: fresh38's f38-m08, a development set, was answered as a comparison of cash and time off).
_CHOICE = re.compile(r"\b(?:choose|choosing|chose|pick|picking|select|selecting|decide|deciding|elect|electing)\b"
                     r"(?:\s+between)?\s+(?:[\w-]+\s+){1,3}?(?:versus|vs\.?)\s+", re.I)
