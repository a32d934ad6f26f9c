"""Two checks that the quoted sentence states the asked fact, not a neighbouring one (s18 refusal pass, written on
the 18F calibration half, the development set and the fresh7 near misses):

- a question that asks for one end of a pair that excludes the other (the *final* paycheck, the *maximum* amount,
  *part-time* staff, *international* travel) is not answered by a sentence about the other end only ("You'll receive
  your first paycheck about three weeks after your start date" for "How many days after my last day will I receive
  my final paycheck?"): :func:`contrasted`;
- a question asking for a phone number, an e-mail address, a day of the week or a Slack channel is not answered by a
  sentence that states none ("you can phone the IR team via the numbers listed in Section 3.1.1 of the guide"):
  :func:`asked_form`, :func:`states_form`;
- a question asking how many hours (days, ...) of one thing is not answered by a sentence that counts the hours of
  another thing and never names the asked one ("up to 24 credit hours" for "How many hours of comp time ...?"):
  :func:`measures_other`;
- a question asking how long something lasts or takes is not answered by a sentence whose only duration is the
  length of another thing, written as one compound word before it ("this 30-minute overview of privacy" for "How
  many days until the Privacy Office gets back to us?"): :func:`lasts_other`;
- a question asking what a thing is or amounts to is not answered by sentences that only say where it is found
  ("the registration code can be found on the GSA InSight page"): :func:`asks_what_it_is`, :func:`points_elsewhere`.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence, states
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.sentence_cues import PHONE
from grounding.typed_values import durations_after, typed_values

__all__ = ["asked_form", "asked_thing", "asks_what_it_is", "lasts_other", "measures_other", "contrasted",
           "repeats_only", "contrasted_phrase", "points_elsewhere", "states_form"]

#: Pairs of sides that exclude each other, each side a set of words (lower case, as written). A question word of
#: one side and a sentence naming the other side but no word of the asked side: the sentence is about the other end.
_SIDES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"first", "start", "starts", "started", "starting", "begin", "begins", "began", "beginning", "initial"}),
     frozenset({"last", "final", "end", "ends", "ended", "ending"})),
    (frozenset({"minimum", "min", "lowest", "smallest", "fewest"}),
     frozenset({"maximum", "max", "highest", "largest", "biggest"})),
    (frozenset({"full-time", "fulltime"}), frozenset({"part-time", "parttime"})),
    (frozenset({"domestic"}), frozenset({"international", "foreign", "overseas"})),
    (frozenset({"incoming", "inbound"}), frozenset({"outgoing", "outbound"})),
    # a place's opening and closing times ("What time does the cafeteria open for breakfast?" / "they close at 2 pm":
    # fresh34's f34-u08); "open season", "open source" and the like are other words (:func:`_words`)
    (frozenset({"open", "opens", "opening", "opened"}), frozenset({"close", "closes", "closing", "closed"})),
    # a thing one already holds raised to more, not a new one ("How many months will my Top Secret upgrade take?" /
    # "6-8 months for a new Top Secret (TS) clearance": fresh41's f41-u03, a development set)
    (frozenset({"upgrade", "upgrades", "upgraded", "upgrading"}), frozenset({"new"})),
)
#: "open" naming a thing, not a place being open: read as one word ("open-season").
_OPEN_NAMING = re.compile(r"\bopen[\s-]+(season|source|enrollment|enrolment|data|government|house|door|doors|"
                          r"office\s+hours|ended|access|call|position|positions|role|roles|ticket|tickets|issue|"
                          r"issues|pull|invitation|letter|mic|plan)\b", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def _words(text: str) -> frozenset[str]:
    """The words of ``text``, lower case; "full time" and "part time" read as one word each, and "open" naming a thing
    with the word after it ("open-season")."""
    text = re.sub(r"\b(full|part)\s+time\b", r"\1-time", text, flags=re.I)
    text = _OPEN_NAMING.sub(lambda m: "open-" + m.group(1).replace(" ", "-"), text)
    return frozenset(w.lower() for w in _WORD.findall(text))


def contrasted_phrase(question: str, sentence: str) -> str | None:
    """:func:`contrasted`'s word with the question's next word when that is not a stop word ("final paycheck"), as
    a refusal names it."""
    word = contrasted(question, sentence)
    if word is None:
        return None
    m = re.search(rf"\b{re.escape(word)}\s+([A-Za-z][\w-]*)", question_sentence(question), re.I)
    follower = m.group(1) if m else ""
    return f"{word} {follower}" if follower and follower.lower() not in _STOP else word


_STOP = frozenset("a an the of for to in on at is are do does did can i my we you it be take takes last lasts cost "
                  "costs".split())


def contrasted(question: str, sentence: str) -> str | None:
    """The question's word for one side of an excluding pair (:data:`_SIDES`) when ``sentence`` names the other side
    and no word of the asked side ("final" for "... my final paycheck?" / "your first paycheck ... after your start
    date"), or the question's "non-X" when ``sentence`` names X and no "non-X" ("non-interim" for "How long does a
    full (non-interim) Secret clearance take?" / "1-2 months for a new Secret (interim) clearance": the s31 round's
    fresh31 f31-39); None when there is none, when the question names both sides, or the sentence names the asked
    side."""
    asking = question_sentence(question)
    asked = _words(asking)
    said = _words(sentence)
    for one, other in _SIDES:
        for mine, theirs in ((one, other), (other, one)):
            words = asked & mine
            if words and not asked & theirs and said & theirs and not said & mine:
                return sorted(words)[0]
    for m in _NON.finditer(asking):
        word = m.group("word").lower()
        if word in said and not any(w in said for w in (f"non-{word}", "non")) and word not in asked:
            return m.group(0).lower()
    return None


#: A qualifier the question negates with "non-": "a (non-interim) clearance", "non-billable hours".
_NON = re.compile(r"\bnon-(?P<word>[A-Za-z]{3,})\b", re.I)


#: What a question asks in a form that a sentence must hold: a phone number, an e-mail address, a day of the week,
#: a Slack channel, a penalty (what befalls one who breaks a rule).
_FORM_ASKED = {"phone number": re.compile(r"\b(?:phone|telephone|fax)\s+(?:number|no\.?|#)s?\b", re.I),
               "e-mail address": re.compile(r"\be-?mail\s+address(?:es)?\b", re.I),
               "day of the week": re.compile(r"\b(?:what|which)\s+(?:days?\s+of\s+the\s+week|weekdays?)\b", re.I),
               "Slack channel": re.compile(r"\b(?:what|which)\s+(?:slack\s+)?channels?\b", re.I),
               # "What are the penalties if someone ... violates the Antideficiency Act ...?" (fresh36's f36-u03 was
               # answered "Working overtime without prior approval violates the Antideficiency Act")
               "penalty": re.compile(r"\b(?:what|which)\s+(?:(?:are|is|would\s+be|will\s+be|could\s+be)\s+)?"
                                     r"(?:the\s+)?(?:possible\s+|potential\s+)?(?:penalt(?:y|ies)|consequences?|"
                                     r"sanctions?|punishments?|disciplinary\s+actions?)\b", re.I)}
_FORM_STATED = {"phone number": re.compile(r"(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b|"
                                           r"\b1-8\d\d-[A-Z0-9-]{7,}\b|"
                                           # the ranking's phone cue (an internal extension: "call the IT service
                                           # desk on extension 4400", the s47 breaker) and a UK number ("0113 496
                                           # 0000", "+44 113 496 0000")
                                           rf"{PHONE.pattern}|"
                                           r"(?:\+44\s?|\b0)\d{2,4}\s?\d{3,4}\s?\d{3,4}\b", re.I),
                "e-mail address": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
                "day of the week": re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun|week)days?\b|\bweekends?\b|"
                                              r"\bdaily\b|\bevery\s+day\b", re.I),
                "Slack channel": re.compile(r"(?<![\w&])#[A-Za-z0-9][\w.-]*[A-Za-z][\w.-]*"),
                "penalty": re.compile(r"\b(?:penalt|consequen|sanction|punish|disciplin|suspen|terminat|fired|"
                                      r"prosecut|prison|jail|imprison|liabl|criminal|civil\s+action|removal|"
                                      r"adverse\s+action|fine[sd]\b|a\s+fine\b|up\s+to\s+and\s+including)", re.I)}
#: The asking clause opens with "What", "Which" or "Where" (after a preposition: "On what day ..."), at its start or
#: after a leading condition ("If they do not answer, what phone number do I call?": fresh34's f34-u03 was answered
#: with "the numbers listed in Section 3.1.1").
_ASKING = re.compile(r"(?:^|^(?:if|when|once|after|before|since|while|unless)\b[^?]*?,\s+)"
                     r"(?:(?:on|in|at|by|for|to|from|with)\s+)?(?:what|which|where)(?:'s| is| are)?\b", re.I)


def asked_form(question: str) -> str | None:
    """"phone number", "e-mail address", "day of the week", "Slack channel" or "penalty" when the question's asking
    clause asks for one ("What is the phone number of the GSA IR team?", "Which e-mail address do I send it to?", "On
    what day of the week is the All Hands held?": a sentence giving only "every other month" does not answer it,
    fresh34's f34-u19; "Which Slack channel should I use to ask other supervisors ...?": "Discuss Slack team
    expectations with your supervisor" names none, f34-u01; "What are the penalties if ...?": fresh36's f36-u03);
    None otherwise (yes/no questions, other asks)."""
    asking = question_sentence(question).strip()
    if not _ASKING.match(asking):
        return None
    return next((form for form, pattern in _FORM_ASKED.items() if pattern.search(asking)), None)


def states_form(form: str, sentence: str) -> bool:
    """True when ``sentence`` holds a ``form`` (:func:`asked_form`): digits shaped as a phone number, an e-mail
    address, a day of the week ("Mondays", "weekdays", "daily"), a channel ("#18F-BD"; not a number: "Line #1145"), a
    penalty ("disciplinary action", "fines", "up to and including removal")."""
    return bool(_FORM_STATED[form].search(sentence))


#: A sentence that says where a thing is stated instead of stating it: "can be found on", "is available on",
#: "are listed in", "see the ... page", "refer to".
_POINTER = re.compile(r"\b(?:can|could|may|will)\s+be\s+found\b|\b(?:is|are)\s+(?:available|listed|posted|"
                      r"pinned|kept|stored|published|given|provided)\s+(?:on|in|at|through|via)\b|"
                      r"\blisted\s+(?:on|in)\b|"
                      r"\b(?:see|refer\s+to|check|consult|visit)\s+(?:the|our|your|this|that)\b|"
                      r"\b(?:is|are)\s+available\b", re.I)
#: "What is the X ...?", "What's the X?", "Which X ...": asks what the thing is, not where or how to find it.
_WHAT_IT_IS = re.compile(r"^(?:what|which)(?:'s|\s+is|\s+are|\s+was|\s+were)?\s+(?:the|my|our|its|their)\b", re.I)
_FINDING = re.compile(r"\b(?:find|found|look\s+up|get\s+to|access|where)\b", re.I)
#: The thing a "What is the X ...?" question asks: the words after the determiner up to a preposition, a verb or the
#: end ("What is the registration code for the EAP website?" -> "registration code"), or an article opening a clause
#: about it ("What is the largest honorarium a GSA employee may accept ...?" -> "largest honorarium").
_THING = re.compile(r"^(?:what|which)(?:'s|\s+is|\s+are|\s+was|\s+were)?\s+(?:the|my|our|its|their)\s+"
                    r"((?:[\w'’-]+\s+){0,3}?[\w'’-]+?)(?=\s+(?:for|of|on|in|at|to|from|with|that|which|a|an|the|i|we|"
                    r"you|do|does|did|is|are|can|should|must|will)\b|\s*[?.]|\s*$)", re.I)


def asks_what_it_is(question: str) -> bool:
    """True when the question's asking clause asks what a thing is ("What is the registration code for the EAP
    website?"), not where to find it or how to get to it."""
    asking = question_sentence(question).strip()
    return bool(_WHAT_IT_IS.match(asking)) and not _FINDING.search(asking)


def asked_thing(question: str) -> str:
    """The thing a "What is the X ...?" question asks (:data:`_THING`), as written; "" when there is none."""
    m = _THING.match(question_sentence(question).strip())
    return m.group(1) if m else ""


def points_elsewhere(sentence: str) -> bool:
    """True when ``sentence`` says where something is stated (:data:`_POINTER`: "can be found on the GSA InSight
    page", "are listed in Section 3.1.1") and states no value of its own (an amount, a percentage, a duration, a
    date, an e-mail address: grounding.typed_values; a section number is none)."""
    return bool(_POINTER.search(sentence)) and not any(not v.startswith("count:") for v in typed_values(sentence))


_UNIT = r"(?:minutes?|hours?|days?|weeks?|months?|years?)"
#: "How many hours of comp time ...": the thing whose time is asked, up to an auxiliary, a pronoun or a preposition.
_OF_ASKED = re.compile(rf"\bhow\s+(?:many|much)\s+{_UNIT}\s+of\s+((?:[\w'’-]+\s+){{0,3}}?[\w'’-]+?)"
                       r"(?=\s+(?:do|does|did|can|could|is|are|was|were|will|would|should|may|might|must|i|we|you|"
                       r"they|per|for|in|on|at|to|if|when|before|after|each|every|a|an)\b|\s*[?.,]|\s*$)", re.I)
#: A number, one word, and a unit of time: "24 credit hours", "10 telework days".
_MEASURED = re.compile(rf"\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                       rf"fifteen|twenty|thirty|forty)\s+([A-Za-z][A-Za-z-]+)\s+{_UNIT}\b", re.I)
#: Words between a number and its unit that say what kind of time, not what it is of ("3 business days").
_PLAIN = content_terms("business work working workdays calendar consecutive additional extra total more full paid "
                       "unpaid straight separate whole entire regular normal fewer less")


def measures_other(question: str, sentence: str) -> bool:
    """True when the question asks how many hours (days, ...) of a thing ("How many hours of comp time can I carry
    over?") and ``sentence`` names none of that thing's words but counts the time of another ("up to 24 credit
    hours": a word between the number and its unit that the question does not have); False otherwise."""
    m = _OF_ASKED.search(question_sentence(question))
    if not m:
        return False
    thing = content_terms(m.group(1)) - GENERIC
    said = content_terms(sentence)
    if not thing or thing & said:
        return False
    asked = content_terms(question_sentence(question))
    return any((kind := content_terms(n.group(1))) and not kind <= asked and not kind <= _PLAIN
               for n in _MEASURED.finditer(sentence))


#: A duration written as one compound word before the thing it is the length of ("a 30-minute overview", "two-day
#: event", "six-month fellowships"), with the two words after it.
_COMPOUND_LENGTH = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|"
                              r"thirty|sixty|ninety)-(?:minute|hour|day|week|month|year)\s+([\w'’-]+)"
                              r"(\s+[\w'’-]+)?",
                              re.I)
#: Words after such a compound that make it a span of time itself, not the length of a thing ("a 30-day timeframe",
#: "two-week pay period", "a 240-hour cap").
_SPANS = content_terms("period periods cycle cycles timeframe timeframes window windows cap limit allotment "
                       "increments increment term rolling deadline notice")


def lasts_other(question: str, sentence: str) -> bool:
    """True when every duration ``sentence`` states is the length of a thing the question does not name, written
    as one compound word before it ("For more information, please see this 30-minute overview of privacy" for "How
    many days until the Privacy Office gets back to us?": fresh35's f35-u13); False when a compound names a word of
    the question ("a 12-week leave" for "How long is the leave?") or a span of time ("a 30-day timeframe"), when a
    word like "or" follows it, or when the sentence states another duration besides."""
    found = list(_COMPOUND_LENGTH.finditer(sentence))
    if not found:
        return False
    asking = question_sentence(question)
    asked = content_terms(asking) - _modifiers(asking)
    for m in found:
        words = content_terms(m.group(1) + (m.group(2) or ""))
        if not content_terms(m.group(1)) or words & asked or words & _SPANS:
            return False  # ("a 30-minute or one-hour lunch break": what the first measures is further on)
    return not states("duration", _COMPOUND_LENGTH.sub(" ", sentence))


def _modifiers(asking: str) -> frozenset[str]:
    """The content terms of a "How long should <noun> <noun> be?" question's noun phrase before its head ("sprint"
    in "How long should our sprint retrospectives be?": "two-week sprints" is the length of the sprints, not of the
    retrospectives; fresh41's f41-u12, a development set); empty for any other question."""
    m = _LENGTH_OF.match(asking)
    if not m:
        return frozenset()
    words = m.group("phrase").split()
    return content_terms(" ".join(words[:-1])) - content_terms(words[-1]) if len(words) > 1 else frozenset()


def repeats_only(question: str, sentence: str) -> bool:
    """True when ``question`` asks how long a thing should be ("How long should our sprint retrospectives be?") and
    every duration ``sentence`` states is how often something recurs ("Every two weeks: Conduct an internal team
    retrospective": fresh41's f41-u12, a development set), which is no length."""
    if not _LENGTH_OF.match(question_sentence(question)):
        return False
    after_every = durations_after(sentence, _EVERY)  # (grounding.typed_values reads the durations)
    return bool(after_every) and all(after_every)


_EVERY = re.compile(r"\b(?:every|each)\s+(?:other\s+)?$", re.I)


#: "How long should our sprint retrospectives be?": the noun phrase whose length is asked.
_LENGTH_OF = re.compile(r"^how long (?:should|must|can|could|will|would|do|does|is|are)\s+(?:(?:our|my|your|the|a|an|"
                        r"their|its)\s+)?(?P<phrase>[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,3}?)\s+(?:be|last|take)"
                        r"\s*\??$", re.I)
