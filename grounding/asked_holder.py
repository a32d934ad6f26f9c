"""Checks that a quoted sentence holds the very thing a question asks for, not only its topic (s19 refusal pass,
issue 18 point 3; written on the 18F calibration half, the development set and the older fresh near-miss sets, never
on a test half):

- a question asking who holds a role ("Who is the director of ...?", "Who leads ...?", "Which leadership member
  ...?") is answered only by a sentence naming a person: a personal name or a personal e-mail address
  (:func:`asks_role_holder`, :func:`names_a_person`). "The Director represents the chapter ..." or "contact the
  Incident Response team at gsa-ir@gsa.gov" say what the role does or where the team is reached, not who holds it;
- a question whose asked noun implies a value ("What budget ...?" an amount, "What GS grade ...?" a grade) is answered
  only by a sentence stating such a value (:func:`implied_value`, :func:`states_implied`);
- a question asking what a thing is ("What is the largest *honorarium* a GSA employee may accept ...?") is answered
  only by sentences of which one, or its page's title or section, names a word of that thing, or states a value
  (:func:`unnamed_thing`): the sentence on free attendance at a conference names the event and the speaker, not
  the honorarium;
- a yes/no question that no quoted sentence settles is refused when the sentences, their pages' titles, sections and
  keywords name at most one of the words its asking clause is about and miss two or more (:func:`thin_cover`): "Does
  Tallgrass match 401(k) contributions?" was answered with a sentence on topping up parental-leave pay that names
  only the company. A sentence naming two of them is left alone: yes/no questions often ask in other words than
  the sentence that settles them ("can coworkers give me some of theirs?" / donated leave);
- a yes/no question asking whether something is mandatory, required or optional that no quoted sentence settles is
  refused when none of them states a requirement or its absence (:func:`unsettled_requirement`): "Is filling out the
  TTS Exit Interview Questionnaire mandatory?" was answered "Provide TTS Exit Interview Questionnaire to offboarding
  employee", a step of the supervisor's checklist.

No Django imports.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from grounding.answer_types import question_sentence
from grounding.asked_forms import asked_thing, asks_what_it_is
from grounding.followup import GENERIC as _GENERIC
from grounding.lexical import content_terms
from grounding.source_types import Source
from grounding.subject_check import ACTIONS
from grounding.typed_values import typed_values
from grounding.yesno_scope import STATES_REQUIREMENT

__all__ = ["asks_role_holder", "unnamed_thing", "implied_value", "names_a_person", "states_implied", "thin_cover", "unheld",
           "unsettled_requirement"]

#: Nouns naming a role one person holds.
_ROLES = ("director|deputy|lead|leader|head|chief|manager|supervisor|specialist|officer|advisor|adviser|liaison|"
          "coordinator|chair|chairperson|president|administrator|commissioner|member|representative|champion|"
          "secretary|ombudsman|ombudsperson")
#: Role nouns that name a person even after "Which" ("Which leadership member ...?"; "Which password manager ...?"
#: asks for a tool).
_PEOPLE = "member|person|official|director|leader|supervisor|officer|specialist|representative|liaison"
_HOLDER = re.compile(
    rf"^\s*(?:who\s+(?:is|are|was|'s)\s+(?:the|our|my|your|their|its|this|that)?\s*(?:current|new|acting|present)?\s*"
    rf"(?:[\w’'&.-]+\s+){{0,5}}?(?:{_ROLES})s?\b"
    rf"|who\s+(?:currently\s+)?(?:leads|heads|runs|directs|manages|chairs|oversees)\b"
    rf"|which\s+(?:[\w-]+\s+){{0,2}}?(?:{_PEOPLE})s?\b)", re.I)


def asks_role_holder(question: str) -> bool:
    """True when the asking clause of ``question`` asks who holds a role ("Who is the current director of product?",
    "Who leads the GSA Incident Response team?", "Which leadership member receives ...?")."""
    return bool(_HOLDER.search(question_sentence(question)))


#: Capitalised words that make a run of them an organisation, a role, a place or a title rather than a person's name.
_NOT_NAMES = frozenset("""
team teams division office offices program programs center centre centers council group groups board committee
service services administration agency department branch unit chapter guild staff government federal general
management senior chief director deputy lead leader head manager officer specialist advisor adviser relations
resources human workforce response incident security policy handbook guide form forms portal drive slack google
the our your my their this that a an if when for and of to in on at by with from as or please note see use
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december new york city street avenue building floor room north south east west
""".split())
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z’'-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][a-z’'-]+){1,2}\b")
_PERSONAL_EMAIL = re.compile(r"\b[a-z]+\.[a-z]+(?:\.[a-z]+)?@[\w.-]+\.[a-z]{2,}\b", re.I)


def names_a_person(sentence: str, question: str = "") -> bool:
    """True when ``sentence`` names a person: a personal e-mail address ("marcia.simms@gsa.gov", first and last name
    apart by a dot) or a run of two or three capitalised words none of which is a word of ``question`` or of an
    organisation, role, place or date (:data:`_NOT_NAMES`: "Market Development", "Senior Management Team" name
    none)."""
    if _PERSONAL_EMAIL.search(sentence):
        return True
    asked = {w.lower() for w in re.findall(r"[A-Za-z’'-]+", question)}
    for m in _CAPITALISED_RUN.finditer(sentence):
        words = [w.lower() for w in re.findall(r"[A-Za-z’'-]+", m.group(0)) if len(w) > 1]
        if len(words) >= 2 and not any(w in _NOT_NAMES or w in asked for w in words):
            return True
    return False


#: Asked nouns that imply the kind of value that answers them.
_IMPLIED = (
    (re.compile(r"\b(?:what|which)\s+(?:[\w-]+\s+){0,3}?(?:budget|cost|price|fee|salary|wage|stipend|fare)s?\b"
                r"|\bwhat\s+(?:is|was|are)\s+the\s+(?:[\w-]+\s+){0,2}?(?:budget|price|fee|salary|wage|stipend|fare)s?"
                r"\b", re.I), "amount"),
    (re.compile(r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:gs\s+)?(?:grade|pay\s+grade|gs\s+level)s?\b", re.I),
     "grade"),
)
_GRADE = re.compile(r"\bGS[\s-]?\d{1,2}\b|\bgrade\s+\d{1,2}\b|\b(?:SES|SL|ST)\b")


def implied_value(question: str) -> str | None:
    """The kind of value the asked noun of ``question``'s asking clause implies ("What budget is set aside ...?" ->
    "amount", "What GS grade is the position?" -> "grade"); None when it implies none."""
    asking = question_sentence(question)
    return next((kind for pattern, kind in _IMPLIED if pattern.search(asking)), None)


def states_implied(kind: str, sentence: str) -> bool:
    """True when ``sentence`` states a value of ``kind`` (:func:`implied_value`): an amount of money, or a GS grade."""
    if kind == "grade":
        return bool(_GRADE.search(sentence))
    return any(v.startswith("amount:") for v in typed_values(sentence))


#: Words of a yes/no question that say how it is asked, not what it is about ("without paying", "any employee").
_FILLER = content_terms("without any anyone anything their theirs out up off okay ok fine still already put give "
                        "allowed able supposed")


def thin_cover(question: str, subject: frozenset[str], quoted: Iterable[tuple[str, Source]],
               sources: Sequence[Source] = ()) -> list[str]:
    """The words of ``question``'s asking clause among its ``subject`` terms that the quoted (sentence, source) pairs
    do not name (in the sentence, its source's title, section path or keywords), when the pairs name at most one
    subject term and miss two or more that are not the asker's action or a filler word
    (grounding.subject_check.ACTIONS, :data:`_FILLER`), none of which any planned source of ``sources`` names (the
    documents do not talk about them at all: "As a new supervisor, should I keep doing my old job?" misses "new",
    "keep", "old" and "job" in a sentence on a transition plan, but its pages say "old job" elsewhere); []
    otherwise."""
    quoted = list(quoted)
    if len(subject) < 2 or not quoted:
        return []
    said = content_terms("\n".join(f"{s.title}\n{s.section}\n{' '.join(s.keywords)}\n{text}" for text, s in quoted))
    missing = subject - said - ACTIONS - _FILLER
    if len(missing) < 2 or len(subject & said) > 1:
        return []
    anywhere = content_terms("\n".join(f"{s.title}\n{s.section}\n{' '.join(s.keywords)}\n{s.text}" for s in sources))
    if sources and missing & anywhere:
        return []
    words = re.findall(r"[A-Za-z0-9][\w()’'-]*", question_sentence(question))
    return list(dict.fromkeys(w for w in words if content_terms(w) & missing))


def unnamed_thing(question: str, quoted: Iterable[tuple[str, Source]]) -> str | None:
    """The thing a "What is the X ...?" question asks (grounding.asked_forms.asked_thing, as written: "largest
    honorarium") when none of its words is named by the quoted (sentence, source) pairs, in the sentence or its
    source's title or section path, and none of them states a value with a figure (grounding.typed_values; "the
    day" is none): they are about
    something else on the topic; None otherwise. A sentence stating a value often gives the asked thing without
    naming it ("230 S. Dearborn St. 60604" for "What's the ZIP code ...?", "$10.35" for "What's the BART fare
    ...?")."""
    thing = asked_thing(question) if asks_what_it_is(question) else ""
    terms = content_terms(thing)
    quoted = list(quoted)
    if not terms or not quoted or any(re.search(r"\d", v) for text, _ in quoted for v in typed_values(text)):
        return None
    said = content_terms("\n".join(f"{s.title}\n{s.section}\n{text}" for text, s in quoted))
    return None if terms & said else thing


#: What a refusal of a role-holder question says is not stated (:func:`unheld`).
HOLDER = "who holds that role"


def unheld(question: str, kind: str, sentences: Sequence[str]) -> str | None:
    """What a refusal says is not stated when the quoted ``sentences`` do not hold what ``question`` asks for (the
    name of a role's holder, a value its asked noun implies); None when they do or the checks do not apply."""
    if asks_role_holder(question) and not any(names_a_person(s, question) for s in sentences):
        return HOLDER
    implied = implied_value(question) if kind == "other" else None
    if implied and not any(states_implied(implied, s) for s in sentences):
        return "the amount" if implied == "amount" else "the grade"
    return None


#: A yes/no question asking whether something is required ("Is filling out the questionnaire mandatory?").
_ASKS_REQUIRED = re.compile(r"\b(?:mandatory|required|compulsory|obligatory|optional)\b", re.I)
#: ... or whether one has to do something ("Do I have to turn the fee over?", "..., does my team need to file it?",
#: "Must I ...?"): group "action", what is to be done.
_HAS_TO = re.compile(r"(?:^\s*|,\s+)(?:(?:do|does|did)\s+(?:[\w'’-]+\s+){1,3}?(?:have|need)\s+to|must\s+"
                     r"(?:i|we|you|they|he|she))\s+(?P<action>[^?]+)", re.I)


def unsettled_requirement(question: str, sentences: Sequence[str]) -> bool:
    """True when ``question``'s asking clause asks whether something is mandatory, required or optional and none of
    the quoted ``sentences`` states a requirement or its absence (grounding.yesno_scope.STATES_REQUIREMENT: must,
    required, optional, voluntary, ...); or asks whether one has to do something ("Do I have to turn that money
    over to GSA?") and they state no requirement and name none of the action's words: fresh34's f34-u17 was quoted
    "You can receive Court Leave for however long you serve on a jury". A sentence naming the action may settle it
    without a requirement word ("If you are connecting from a GSA Laptop you will already have the Citrix Client
    installed" for "Do I have to install the Citrix client on my GSA laptop?", fresh2's f2018)."""
    asking = question_sentence(question)
    if any(STATES_REQUIREMENT.search(s) for s in sentences):
        return False
    if _ASKS_REQUIRED.search(asking):
        return True
    m = _HAS_TO.search(asking)
    action = content_terms(m.group("action")) - ACTIONS - _GENERIC if m else frozenset()
    return bool(action) and not any(action & content_terms(s) for s in sentences)
