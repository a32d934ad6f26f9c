"""The subject a question asks about, and whether the planned sources name it at all (s6 new user: "When is the gym
open?" over a cafeteria page was answered with the cafeteria's hours).

A question's subject words are its content words (grounding.lexical.content_terms) without the generic ones
(amounts of time, "many", "much": grounding.followup.GENERIC) and without its predicate ("open", "free", "allowed":
grounding.yesno_predicate). When none of them appears in any planned source (text, title or section path), the
sources are about something else, however well a sentence matches the rest of the question: the offline answerer then
says what they do describe instead of quoting them. One subject word named anywhere is enough, so a question in other
words than the documents' ("vacation days" / "annual leave" pages that say "days") is still answered. No Django
imports.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from grounding.answer_types import question_sentence
from grounding.followup import GENERIC
from grounding.lexical import content_terms, misspells, stem
from grounding.question_parts import is_group, mentions
from grounding.types import Source
from grounding.yesno_caps import LIMIT_TERMS, speaks_of_limit
from grounding.yesno_predicate import predicate_words

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: A word as the asker wrote it, digits included: "401k" and "401(k)" whole, not "k" (the s27 new-user run: "they do not
#: say anything about k match").
_WRITTEN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*(?:\([A-Za-z0-9]\))?")


#: Words that name no subject: "what happens to X" asks about X, and a negated auxiliary ("I don't use") is no thing
#: (the s28 breaker's "What happens to donated hours I don't use?" was refused "they do not say anything about happens
#: don't").
_NO_SUBJECT = content_terms("happen happens happened happening occur occurs don't doesn't didn't isn't aren't wasn't "
                            "weren't won't can't couldn't shouldn't wouldn't haven't hasn't "
                            # hedges and a possessive pronoun: "How much time does a working group usually take?" was
                            # refused "for usually", "When should a team hold its reflection?" "for team hold its"
                            # (fresh11's f11-c14 and f11-c08, a development set)
                            "usually typically normally generally commonly ordinarily sometimes always ever least its")


def _subject(question: str) -> frozenset[str]:
    """The subject terms of ``question``: its content terms less the generic ones, its predicate's and words that
    name no subject (:data:`_NO_SUBJECT`)."""
    predicate = {stem(w) for w in predicate_words(question)}
    return content_terms(question) - GENERIC - predicate - _NO_SUBJECT


#: Verbs of what the asker does with the subject ("How much can I *spend* on a team dinner?"): subject words for the
#: check, left out of the words a refusal names when others remain ("anything about team dinner", not "spend team
#: dinner").
_ACTIONS = content_terms("spend spent pay buy bought get take use need request submit book bring claim make do go "
                         "find see ask apply file order")


#: The asker's action verbs (:data:`_ACTIONS`), for modules that leave them out of what a question asks about.
ACTIONS = _ACTIONS


def subject_terms(question: str) -> frozenset[str]:
    """The subject terms of ``question``: its content terms less the generic ones and its predicate's."""
    return _subject(question)


def _written(question: str, subject: frozenset[str]) -> list[str]:
    """The words of ``question`` (as written, in order, once each) that are among the ``subject`` terms, without the
    asker's action verbs when other words remain (:data:`_ACTIONS`), nor a form of "be" or a colloquial auxiliary
    (:data:`_SPOKEN`: "they do not say anything about am gonna trouble", the s30 new user's demo run)."""
    words = list(dict.fromkeys(w for w in _WRITTEN_WORD.findall(question) if content_terms(w) & subject))
    named = [w for w in words if not content_terms(w) <= _ACTIONS and w.lower() not in _SPOKEN]
    return named or words


#: Words a question typed as spoken holds that name nothing ("am I gonna get in trouble?").
_SPOKEN = frozenset("am im i'm gonna wanna gotta kinda sorta".split())


def _named(terms: frozenset[str], quoted: Iterable[tuple[str, Source]]) -> bool:
    """True when a (text, its source) pair names one of ``terms`` in the text or the source's title or section path,
    or when its document's keywords name all of them (Source.keywords: the author's words for what the whole page is
    about, "vacation" on a page that says "paid time off": the demo's "How many vacation days do I get?" was
    refused). One keyword word is not enough: the remote work page's "office days" does not make "What time does the
    office cafeteria open?" its question."""
    return any(_holds_one(terms, content_terms(f"{source.title}\n{source.section}\n{text}"))
               or (source.keywords and terms <= content_terms("\n".join(source.keywords))) for text, source in quoted)


def _holds_one(terms: frozenset[str], said: frozenset[str]) -> bool:
    """True when ``said`` holds one of ``terms``, or a word one of them misspells by a letter
    (grounding.lexical.misspells: "milag" / "mileag"; the s45 new-user run's "whats the milage rate ..." was refused
    over the mileage sentence)."""
    return bool(terms & said) or any(misspells(t, w) for t in terms for w in said)


def unnamed_subject(question: str, sources: Sequence[Source]) -> list[str]:
    """The question's subject words (as written, in order) when none of them is named by any of ``sources``; [] when
    one is, or when the question has none (a follow-up such as "Do they expire?" is read with its conversation)."""
    subject = _subject(question)
    if not subject or not sources or _named(subject, ((s.text, s) for s in sources)):
        return []
    return _written(question, subject)


#: An existential question and what it asks exists ("Is there a cafeteria at the office?" -> "cafeteria"): the noun
#: phrase after "is there" up to a preposition, a relative word or the end of the clause. Asking whether one gets a
#: thing ("Do I get a referral bonus if someone I refer gets hired?", fresh37's f37-u07: "Yes." from "These
#: referrals should come directly to Talent") asks whether it exists for the asker: the same, its article required.
_EXISTENTIAL = re.compile(r"\b(?:(?:is|are|was|were)\s+there\s+(?:an?\s+|any\s+|some\s+)?|"
                          r"(?:do|does|will|would|can|could)\s+(?:i|we|you|they)\s+(?:get|receive|earn)\s+"
                          r"(?:an?|any|some)\s+)(?P<thing>[^?,.;:]+?)"
                          r"(?=\s+(?:at|in|on|for|near|inside|outside|within|to|from|with|along|without|during|before|"
                          r"after|about|per|that|which|where|when|if|"
                          r"available|here|there)\b|\s*[?,.;:]|\s*$)", re.I)


#: Words of an existential question that name no thing of their own: a manner or an alternative ("Is there a way
#: ...?"), or a remedy for the trouble the asker told ("My meetings get cut off at 40 minutes. Is there a fix?": the
#: fresh23c conversation f23c-08 was refused "they do not say anything about fix").
_VAGUE = content_terms("way ways option options similar same other fix fixes solution solutions workaround "
                       "workarounds remedy remedies alternative alternatives")


#: Head nouns naming a kind of statement, not a thing: "age requirements" are stated as "you must be over 21" (the
#: public abstention calibration half's ConditionalQA record 1 was refused "anything about age requirements").
_RULE_NOUNS = content_terms("requirement requirements rule rules criteria criterion condition conditions restriction "
                            "restrictions policy policies guideline guidelines process procedure procedures")


def unnamed_existent(question: str, sources: Sequence[Source]) -> list[str]:
    """The words of what an existential question asks exists ("Is there a cafeteria at the office?" -> ["cafeteria"])
    when no source names any of them (text, title or section path), or none names its head noun, the last word, when
    words before it say which kind ("referral bonus" over pages on referrals; not a noun naming a kind of statement,
    :data:`_RULE_NOUNS`: "age requirements"); [] when one does, when the question is not existential, or when what it
    asks about is only generic words ("Is there a way ...?" names nothing). The whole question's subject may still be
    named ("office"): the s13 new-user run's "Is there a cafeteria at the office?" opened "Yes. Book the room on the
    office calendar" (the lactation room)."""
    m = _EXISTENTIAL.search(question_sentence(question))
    thing = _subject(m.group("thing")) - _VAGUE if m else frozenset()
    if not thing or not sources:
        return []
    if _named(thing, ((s.text, s) for s in sources)):
        # ... and its head noun, when words before it say which kind: a page on referrals names no "referral bonus"
        # (fresh40's f40-u04 was answered with how to submit a referral)
        words = _WORD.findall(m.group("thing"))
        head = thing & content_terms(words[-1]) if words else frozenset()
        if not head or head == thing or head <= _RULE_NOUNS or _named(head, ((s.text, s) for s in sources)):
            return []
        return _written(m.group("thing"), thing)
    rest = thing - LIMIT_TERMS
    if rest != thing and (not rest or _named(rest, ((s.text, s) for s in sources))) \
            and any(speaks_of_limit(s.text) for s in sources):
        # "Is there a cap on ...?" over a page saying "There is no maximum ...": the limit is named in other words
        # (grounding.yesno_caps reads it; fresh34's f34-y16)
        return []
    return _written(m.group("thing"), thing)


#: A yes/no question asking permission to do something with a thing ("Am I allowed to bring my dog to the office?",
#: "Can I bring a guest?"): group "thing", the head of the verb's object.
_PERMISSION_OBJECT = re.compile(r"^\s*(?:(?:can|may|could)\s+(?:i|we)|(?:am\s+i|are\s+we|is\s+it)\s+"
                                r"(?:allowed|permitted|ok|okay|fine)\s+to)\s+"
                                r"(?:bring|take|keep|use|have|park|store|wear)\s+"
                                r"(?:(?:my|our|a|an|the|their|some)\s+)?(?P<thing>[A-Za-z][\w-]*)\b", re.I)


def unnamed_object(question: str, sources: Sequence[Source]) -> list[str]:
    """The thing a permission question asks to bring, keep or use ("Am I allowed to bring my dog to the GSA office?"
    -> ["dog"]) when no planned source names it (text, title or section path); [] otherwise. The question's other
    subject words ("GSA", "office") are named on every page of a handbook: the s28 re-chunked 18F domain answered the
    dog question with a badge sentence a hair over the threshold."""
    m = _PERMISSION_OBJECT.match(question_sentence(question))
    thing = content_terms(m.group("thing")) - GENERIC if m else frozenset()
    if not thing or not sources or _named(thing, ((s.text, s) for s in sources)):
        return []
    return [m.group("thing")]


def existent_unsaid(question: str, text: str, *, head_only: bool = False) -> list[str]:
    """The words of what an existential question asks exists ("Is there a monthly phone stipend for remote
    employees?" -> phone, stipend) that ``text`` (a sentence with its section path) does not name, as written; []
    when it names them all or the question is not existential. A sentence naming only some of them is about
    another such thing ("Fully remote employees are reimbursed up to $50 per month for home internet" under
    "Stipend · Internet": no phone stipend), which settles no "Yes." (the s21 new-user run on the demo handbook).
    With ``head_only``, only the thing's last word counts (its head noun: "paperwork" of "extra approval
    paperwork"): a sentence denying the thing may name it in other words ("does not have this additional
    paperwork"), but not without its head."""
    m = _EXISTENTIAL.search(question_sentence(question))
    thing = _subject(m.group("thing")) - _VAGUE if m else frozenset()
    if head_only and thing:
        words = _WORD.findall(m.group("thing"))
        thing = thing & content_terms(words[-1]) if words else frozenset()
    missing = thing - content_terms(text)
    return _written(m.group("thing"), missing) if missing else []


def unsaid_subject(question: str, quoted: Sequence[tuple[str, Source]]) -> list[str]:
    """The subject words of the question's asking clause (grounding.answer_types.question_sentence: a story before
    it is not what is asked about) when none of them is named by the ``quoted`` (sentence, its source) pairs, in the
    sentence or in its source's title or section path; [] when one is, or when there is none. Sources that name the
    subject elsewhere do not count: "What time does the office cafeteria open?" (s12 breaker, demo handbook) was
    answered with the core hours and a first-day schedule, from pages naming the office but quoted where they do
    not. On the s12 answers of the calibration half and the development set no right answer has one (0 of 137).
    Yes/no questions and questions after a story often name their subject in other words than the sentence that
    settles them (the fresh sets: "Can I still get the trip approved?" / "travel", "Does that count as part of my
    job?"): grounding.extractive asks this only of other questions standing alone, and then no answer of the
    calibration half, the development set or the two fresh sets changes."""
    asking = question_sentence(question)
    subject = _subject(asking)
    if not subject or not quoted or _named(subject, quoted):
        return []
    return _written(asking, subject)


_FISCAL_YEAR = re.compile(r"^FY\s?(\d{2}|\d{4})$", re.I)


def names_in_source(source: Source, name: str) -> bool:
    """True when a source names ``name`` in its text, title or section path. A fiscal year ("FY23") pins a version,
    not a subject: a source whose effective date falls in that fiscal year (October 1 of the year before to
    September 30) names it too."""
    if mentions(f"{source.title}\n{source.section}\n{source.text}", name):
        return True
    fy = _FISCAL_YEAR.match(name)
    if not fy:
        return False
    year = int(fy.group(1)) + (2000 if len(fy.group(1)) == 2 else 0)
    return bool(source.date) and f"{year - 1}-10-01" <= source.date <= f"{year}-09-30"


#: A sentence about every member of staff: it holds for any group the question asks about ("All employees get 11 paid
#: holidays" answers a part-time employee; "Employees accrue ..." or "Full-time employees ..." does not say it holds
#: for contractors).
_EVERYONE = re.compile(r"\b(?:all|every|each|any)\s+(?:employees?|staff(?:\s+members?)?|team\s+members?|workers?|"
                       r"personnel)\b|\b(?:everyone|everybody)\b|"
                       # a rule whose subject is every one of a thing: "All Tallgrass passwords must be at least 14
                       # characters long" holds for a contractor's password too
                       r"^\s*(?:all|every|each)\s+(?!of\b)(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:must|shall|need|needs|"
                       r"require|requires|are|is|have|has|should|will)\b", re.I)


#: A code that pins a version or a level: a fiscal year or a GS grade, its letters and its number apart.
_PINNED_CODE = re.compile(r"\b(FY|GS)[\s-]?(\d{1,4})\b", re.I)


def names_other_code(sentence: str, name: str) -> bool:
    """True when ``name`` is a fiscal year or a GS grade ("FY26", "GS-12") and ``sentence`` names another one of the
    same kind ("FY25", "GS-13") but not it: the sentence is about that other year or grade, whatever else its source
    names ("Mid-year due date for FY25" does not answer "When are FY26 mid-year reviews due?", though the page
    names FY26 performance plans elsewhere)."""
    asked = _PINNED_CODE.fullmatch(name.strip())
    if not asked or mentions(sentence, name):
        return False
    prefix, number = asked.group(1).upper(), int(asked.group(2)) % 100
    return any(m.group(1).upper() == prefix and int(m.group(2)) % 100 != number
               for m in _PINNED_CODE.finditer(sentence))


def pins(source: Source, sentence: str, name: str) -> bool:
    """True when a quoted ``sentence`` of ``source`` holds for what a question pins its fact with: a name or a code
    named in the sentence or anywhere in its source (:func:`names_in_source`); a group of people
    (grounding.question_parts.is_group) named in the sentence, its section path or its document's keywords (Source.
    keywords: a play of the supervisor playbook, keyed "supervisor playbook", is said to supervisors), or a sentence
    about everyone (:data:`_EVERYONE`): a page that names contractors elsewhere does not make "Employees accrue 1.5
    days" theirs.
    A sentence naming another fiscal year or grade than the one asked (:func:`names_other_code`) does not; one stating
    a rule of any GS level holds for every grade (:data:`_GRADE`)."""
    if is_group(name):  # or a page its author keyed to the group ("keywords: supervisor playbook", f40-l06)
        return mentions(f"{source.section}\n{sentence}", name) or bool(_EVERYONE.search(sentence)) \
            or any(mentions(keyword, name) for keyword in source.keywords)
    if names_other_code(sentence, name):
        return False  # "FY25" in the sentence: about another year than the FY26 its page names elsewhere
    if _GRADE.match(name) and _ANY_GRADE.search(sentence):
        return True  # "GS-12" asked, "at their current GS level for one year" stated of every grade (f41-v05)
    return mentions(sentence, name) or names_in_source(source, name)


#: A grade of the General Schedule, and a sentence stating a rule of any grade ("employees must be at their current GS
#: level for one year ...": fresh41's f41-v05, a development set, was refused "anything about GS-12 or GS-13").
_GRADE = re.compile(r"^GS[- ]?\d{1,2}$", re.I)
_ANY_GRADE = re.compile(r"\bGS\s+(?:level|grade)s?\b", re.I)
