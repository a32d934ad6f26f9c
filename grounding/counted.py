"""The thing a count question counts, and whether a sentence's number counts it.

"How many desks are there in the New York office?" is not answered by "GSA region: 2", nor "What's the maximum number
of members in a private Slack channel?" by "There are two options for sharing channels": a count answers a count
question only when it is the count of the asked thing. This is the answer-type check (grounding.answer_types) made
to hold for the asked noun, not for any number: the expected-answer-type constraint of factoid question answering
read together with its focus word (Moldovan et al. 2000, "The structure and performance of an open-domain question
answering system": the question's *focus*, the noun the answer is a value of).

    counted_noun("How many personal development courses does GSA's Online University offer?")  -> "courses"
    counts("courses", "It also offers over 2,000 personal development courses including:")     -> True
    counts("desks", "Location: New York City; GSA region: 2")                                    -> False

Rules written on the calibration half of the 18F golden set and its development file (evaluation/golden), never
on its test half. No Django imports.
"""

from __future__ import annotations

import functools
import re

from grounding.answer_types import question_sentence
from grounding.lexical import stem

#: Words that end the counted noun phrase after "how many" / "number of": a verb or auxiliary, a preposition, a
#: relative word ("How many guests can I bring", "How many desks are there in", "number of members in"); a verb of
#: need ("How many people need to review my pull request ...?" counts people: fresh41's f41-m09).
_STOP = frozenset("""a an the am is are was were be been can could do does did will would should shall must may might
have has had get gets need needs needed require requires required i you we they he she it my our your their there
here this that these those of in on at for to
from with by per within during before after about into over under than which who whom what when where why how each
every any all can't cannot don't doesn't""".split())

_COUNT_LEAD = re.compile(r"\bhow many\s+|\bnumber of\s+", re.I)
_COUNT_WORDS = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                r"thousand|dozen")
_COUNT = re.compile(rf"\b\d[\d,]*(?:\.\d+)?\b|\b(?:{_COUNT_WORDS})(?:-(?:{_COUNT_WORDS}))?\b", re.I)
#: "How many people ...?" counts people under any of their names ("up to 50 attendees", "12 persons").
_PEOPLE = frozenset(stem(w) for w in ("people", "person", "attendee", "guest", "participant", "visitor", "employee",
                                       "member", "staff", "individual", "adult", "seat"))
#: The words for people in general, which count people of any kind ("more than 10 people outside of the Federal
#: Government" counts the "members of the public" a question asks about).
_ANY_PEOPLE = frozenset(stem(w) for w in ("people", "person", "individual"))


def _heads(noun: str) -> frozenset[str]:
    """The stems a number may count ``noun`` under: its own (singular and plural alike, Snowball: "desks"/"desk");
    any word for people when it is "people" or "person"; a word for people in general besides its own when it names
    people of one kind ("members", "employees"), a hypernym counting them too."""
    head = stem(noun)
    if head in _ANY_PEOPLE - {stem("individual")}:
        return _PEOPLE
    return frozenset({head}) | (_ANY_PEOPLE if head in _PEOPLE else frozenset())


#: A word or a number; a number glued to letters ("18F", "2FA", "10th") is one word of its own, no count.
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,]*(?:\.\d+)?[A-Za-z][\w'’-]*|\d[\d,]*(?:\.\d+)?")


#: "a page count", "the word count": the noun before "count" is what is counted, unless it says how it is counted.
_COUNT_OF = re.compile(r"\b(?P<noun>[A-Za-z]+)\s+count\b", re.I)
_NOT_COUNTED = frozenset("total maximum minimum max min exact overall final current full".split())


@functools.lru_cache(maxsize=4096)
def counted_noun(question: str) -> str:
    """The head noun a count question counts (the last word of the noun phrase after "how many" or "number of", or
    the word before "count": "page count", as written), or "" when the question asks for no count of a named thing
    ("How many?", "Which room number ...")."""
    q = question_sentence(question)
    m = _COUNT_LEAD.search(q)
    if not m:
        # "What's the maximum page count ...?" counts pages (fresh35's f35-u18, a development set)
        named = _COUNT_OF.search(q)
        return named.group("noun") if named and named.group("noun").lower() not in _STOP | _NOT_COUNTED else ""
    phrase: list[str] = []
    for word in _WORD.findall(q[m.end():]):
        if word.lower() in _STOP or word[0].isdigit():
            break
        phrase.append(word)
        if len(phrase) == 4:
            break
    return phrase[-1] if phrase else ""


#: The words that may stand between a counted noun and its number after it ("the number of members is 10", "staff
#: total 40"): any other word is a verb or a noun of its own, whose number counts something else.
_LABEL_VERBS = frozenset("is are was were total totals totalled totaled equals about approximately around roughly "
                         "nearly over under exactly currently now number numbered".split())


def counts(noun: str, text: str, *, window: int = 4, after: bool = True) -> bool:
    """True when ``text`` holds a number (digits or a number word) that counts ``noun`` (singular and plural alike):
    within ``window`` words before it with no preposition or punctuation between ("over 2,000 personal development
    courses"), or (unless ``after`` is False) after it as a label's value ("Spaces: 24", "the number of members is
    10"). "members of two Slacks" and "two Slack workplaces: members" count something else. True when ``noun`` is ""
    (nothing to check)."""
    if not noun:
        return True
    heads = _heads(noun)
    tokens = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
    places = [i for i, (w, _, _) in enumerate(tokens) if stem(w) in heads]
    numbers = [j for j, (w, _, _) in enumerate(tokens) if _COUNT.fullmatch(w)]
    for i in places:
        for j in numbers:
            if i == j or abs(i - j) > window:
                continue
            a, b = min(i, j), max(i, j)
            between = {w.lower() for w, _, _ in tokens[a + 1:b]}
            gap = text[tokens[a][2]:tokens[b][1]]
            if between & _BETWEEN_STOP:
                continue
            if j < i and not re.search(r"[:;,.()]", gap):
                return True
            if after and i < j and not re.search(r"[;,.)]", gap) and (
                    re.search(r"[:(]", gap) or between <= _LABEL_VERBS):  # "Spaces: 24", "holidays (11 in total)"
                return True  # (not "Each employee also gets 2 floating holidays": it counts holidays, the s48 breaker)
    return False


def given_count(noun: str, text: str) -> bool:
    """True when every number in ``text`` that counts ``noun`` (as :func:`counts` reads it, before the noun) follows
    a definite determiner ("beyond the six sessions", "after hitting the 80 hour cap"): the count is given
    information, stated elsewhere and referred to here, not stated (the given/new distinction of information
    structure: Halliday 1967, "Notes on transitivity and theme in English"; a definite noun phrase presupposes
    that its referent is known). False when ``noun`` is "" or no number counts it."""
    if not noun:
        return False
    heads = _heads(noun)
    tokens = [m.group(0) for m in _WORD.finditer(text)]
    found = False
    for j, word in enumerate(tokens):
        if not _COUNT.fullmatch(word):
            continue
        after = [stem(w) for w in tokens[j + 1:j + 4]]
        if not heads & set(after):
            continue
        found = True
        if j == 0 or tokens[j - 1].lower() not in _DEFINITE:
            return False
    return found


#: Determiners marking what they introduce as known (given information, :func:`given_count`).
_DEFINITE = frozenset("the these those".split())
#: Words that, standing between a number and a noun, make the number count something else.
_BETWEEN_STOP = frozenset("of in on at for to from with by per than and or".split())
