"""How the answer reads a follow-up once retrieval has taken it as one (grounding.followup decides that): the case an
elliptical follow-up adds ("And in high-cost cities?"), what of the previous question it keeps, whether it asks
its own thing ("And how does it make decisions?") or relates to the previous answer ("Is it different for term
employees?"), and which words of its retrieval query were carried from the previous question. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.followup import ASKING_WORDS, GENERIC, OPENER, elliptical
from grounding.lexical import content_terms


#: An elliptical follow-up that adds a case to the question before it ("And in high-cost cities?", "and for
#: contractors?", "What about in Denver?"): a phrase opening with a preposition, after an opener or none.
_MODIFIER = re.compile(r"^\s*(?:(?:and|but|also|or|so|then|what about|how about|and what about|same)\s+)?"
                       r"(?:for|in|at|on|with|without|during|from|outside|inside|abroad|within|under|over)\b", re.I)


#: A follow-up asking whether what was asked before holds for a case too ("Does that apply to remote staff?", "Does
#: it also apply to contractors?", "Do those rules apply to interns as well?"): the yes/no form of "And for remote
#: staff?". Its subject is a pronoun or a demonstrative standing for the previous question's.
_APPLIES = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:does|do|would|will|could)\s+(?:that|this|it|these|those|they|"
                      r"the same(?:\s+\w+)?|(?:this|that|these|those)\s+\w+)\s+(?:also\s+)?(?:apply|applies|hold)\s+"
                      r"(?:to|for)\s+(?P<case>.+?)(?:\s+(?:too|as well|also))?\s*[?.!]*\s*$", re.I)


#: A yes/no question saying one predicate of a noun phrase ("Is alcohol covered?", "Are taxis reimbursed?", "Is
#: parking included?", "Are pets allowed?"): the noun phrase, the predicate a past participle closing the question.
_PREDICATED = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:is|are|was|were|will|would)\s+(?:(?:my|your|our|the|their|a|an|"
                         r"any)\s+)?(?P<subject>[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,3}?)\s+(?:also\s+)?"
                         r"(?P<predicate>[a-z]+ed|paid|allowed|covered|included|permitted)(?:\s+(?:too|as well|also))?"
                         r"\s*[?.!]*\s*$", re.I)


def predicated_subject(question: str) -> frozenset[str]:
    """The content terms of the noun phrase a yes/no question says one predicate of ("alcohol" for "Is alcohol
    covered?", "taxi" for "Are taxis reimbursed?"); empty for any other question. In a conversation the predicate
    ("covered") is the previous answer's word too ("The allowance covers breakfast, ..."): what the question names of
    its own is its subject (the s47 demo conversation: "Is alcohol covered?" after two meal allowance turns got
    "Yes. The allowance covers breakfast, lunch, ..." over "Alcohol is not reimbursed ...")."""
    m = _PREDICATED.match(question)
    return content_terms(m.group("subject")) - GENERIC if m else frozenset()


def modifies_previous(question: str) -> bool:
    """True when ``question`` is a follow-up adding a case to the one before it: an elliptical one
    (:data:`_MODIFIER`), or one asking whether that applies to the case (:data:`_APPLIES`). "And in high-cost cities?"
    after "What is the meal allowance?" asks for the meal allowance there, so its answer is about the meal allowance,
    not the hotel limit stated for those cities; "Does that apply to remote staff?" after "How many PTO days do I
    get?" is answered by what is said of PTO, not by the remote work policy's approval rule. "And what about sick
    days?" names another subject instead (False)."""
    return (elliptical(question) and bool(_MODIFIER.search(question))) or bool(_APPLIES.match(question))


def added_case(question: str) -> str:
    """The case a follow-up adds (:func:`modifies_previous`), as written: "high-cost cities" for "And in high-cost
    cities?", "remote staff" for "Does that apply to remote staff?"; "" for any other question."""
    if applies := _APPLIES.match(question):
        return applies["case"].strip(" ?.!")
    m = _MODIFIER.search(question) if elliptical(question) else None
    return question[m.end():].strip(" ?.!") if m else ""


#: A sentence saying its rule holds for every employee wherever they work: "All employees, wherever they work, must
#: be available during core hours ...", "regardless of work location", "every employee".
_EVERY_EMPLOYEE = re.compile(r"\bwherever\s+(?:they|you)\s+work\b|\bregardless\s+of\s+(?:where|(?:work\s+)?location|"
                             r"whether)\b|\b(?:all|every)\s+(?:employees?|staff(?:\s+members?)?)\b"
                             r"(?!\s+(?:who|that|in|at|on|with|except|other)\b)", re.I)
#: Where an employee works: a case "All employees, wherever they work" covers (not a contractor, nor part-time staff,
#: whose rules a policy often states apart).
_EMPLOYEE_CASE = content_terms("remote hybrid office onsite home distributed teleworking teleworkers field")


def covers_case(case: str, sentences: Sequence[str]) -> bool:
    """True when ``case`` (a follow-up's added case, :func:`added_case`: "remote staff") names where an employee works
    and one of ``sentences`` states its rule for every employee ("All employees, wherever they work,
    must be available during core hours"): the documents do say it of the case, so no "nothing specific" opener
    (the s47 and s48 new-user runs: "Do they apply to remote staff too?" after the core hours)."""
    return bool(content_terms(case) & _EMPLOYEE_CASE) and any(_EVERY_EMPLOYEE.search(s) for s in sentences)


def previous_subject(question: str, previous: str) -> frozenset[str]:
    """The content terms of what ``previous`` asked about that a follow-up adding a case (:func:`modifies_previous`)
    keeps: "meal", "allow" for "And in high-cost cities?" after "What is the meal allowance?" (not its asking words,
    GENERIC ones, or terms of the follow-up itself); empty for any other follow-up."""
    if not modifies_previous(question):
        return frozenset()
    return content_terms(previous) - GENERIC - content_terms(question) - ASKING_WORDS


def new_case(question: str, previous: str) -> frozenset[str]:
    """The content terms of the case an elliptical follow-up names instead of one of the previous question's
    ("travel" for "What about travel comp time?" after "Is comp time paid out if I leave GSA?", "organ" for "And as
    an organ donor?" after the bone marrow donor's leave): what the question names that the previous question did
    not, less asking, GENERIC and relating words ("the public one": "public"); empty for any other question."""
    if not elliptical(question):
        return frozenset()
    return content_terms(question) - content_terms(previous) - GENERIC - ASKING_WORDS - RELATING - _PRONOUN_ONE


_PRONOUN_ONE = content_terms("one")


def case_head(question: str, case: frozenset[str]) -> str:
    """The last word of ``question`` (lower case) among the terms of its ``case`` (:func:`new_case`), when that case
    has more than one word: the noun the case is a kind of ("phone" in "What about my personal phone?", whose
    "personal" may qualify the previous question's noun in a sentence: "Personal laptops cannot be connected ...");
    "" otherwise."""
    if len(case) < 2:
        return ""
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", question) if content_terms(w) & case]
    return words[-1].lower() if words else ""


def names_head(head: str, sentence: str) -> bool:
    """True when ``sentence`` names the noun ``head`` (:func:`case_head`) or a compound ending with it ("smartphones"
    for "phone"), in the singular or the plural."""
    for word in re.findall(r"[A-Za-z]+", sentence.lower()):
        single = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
        if single == head or word == head or (len(head) >= 4 and single.endswith(head)):
            return True
    return False


#: Words by which a follow-up relates what it asks to the previous question ("Is it different for term employees?",
#: "a similar limit", "the private ones"): they name nothing a sentence answering it holds.
RELATING = content_terms("different similar ones")
_RELATES = re.compile(r"\b(?:different|differ|similar|the same|alike)\b", re.I)


#: A word asking for something ("how", "who", "what", ...). "who", "whom", "whose" and "which" after a word other
#: than a conjunction start a relative clause ("a relative who died in combat"), which asks nothing (fresh40's
#: f40-v02: "What about if it's a relative who died in combat?" asks the previous question's amount again).
_ASKING = re.compile(r"\b(?:what|when|where|why|how)\b|(?:^\s*|[,;:(]\s*|\b(?:and|or|but|so|then)\s+)"
                     r"(?:who|whom|whose|which)\b", re.I)


def asks_its_own(question: str) -> bool:
    """True when ``question``, after an elliptical opener, holds an asking word of its own ("And how does it make
    decisions?"): it asks what that word asks, not what the previous question asked (a frequency after "How often
    does the council meet?"); "And for contractors?", "What about longer projects?" hold none."""
    return bool(_ASKING.search(OPENER.sub("", question, count=1)))


def relating(question: str) -> bool:
    """True when ``question`` asks whether its case is like the previous question's ("Is it different for term
    employees?", "Is there a similar limit for sick leave?", "Is that the same for contractors?"): Yes or No then
    compares with the previous answer, which the sentences quoted for the new case do not state."""
    return bool(_RELATES.search(question))


#: A pronoun standing for people named before ("Do they get internet reimbursed?" after "and for remote employees?").
_PEOPLE_PRONOUN = re.compile(r"\b(?:they|them|their|theirs)\b", re.I)


def stands_for_carried(question: str) -> bool:
    """True when ``question`` refers to people named in an earlier question by a pronoun ("Do they get internet
    reimbursed?"): the words it carries from there are what the pronoun says, and count as its own."""
    return bool(_PEOPLE_PRONOUN.search(question))


def carried_terms(query: str, asked: str) -> frozenset[str]:
    """The content terms a follow-up's retrieval ``query`` carries from the previous question (grounding.followup's query expansion:
    the question ``asked`` followed by the previous question's words it lacks): "slack", "channel", "tts" of "Who
    can search the private ones? Slack channels TTS"; empty when the query is the question itself, or when
    ``asked`` already holds the previous question (an elliptical follow-up is ranked with it)."""
    if not asked or query == asked or not query.startswith(asked):
        return frozenset()
    return content_terms(query[len(asked):]) - content_terms(asked)
