"""Event conditions: a question asking what a rule says in a case the asker describes by an event ("What happens to
unused PTO when I leave?", "What should I do if I lose my badge?"), and the sentences that state a rule for that
event ("When you leave Tallgrass, any accrued and unused PTO is paid out ...", "If you lose your badge, report it
...").

The event's verb is read from a condition clause of the question (when, if, once, after, before, upon, while,
whenever, followed by its subject); a sentence states a rule for the same event when one of its own condition
clauses holds a form of that verb. MiniLM and word overlap do not see the clause: "leave" the verb matched "Sick
leave is separate from PTO" as well as the payout rule, and the clause's "when" read as a question about a time gave
the carry-over rule's dates a quantity bonus (the demo handbook, s14 new-user run). A question opening with "When"
asks for a time; its clause is not a condition. No Django imports.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Iterable, NamedTuple

from grounding.lexical import stem
from grounding.sentence_cues import continues_one

__all__ = ["Event", "asked_event", "failures_first", "stating_rows", "states_event", "without_event"]

_MARKER = r"(?:when|whenever|if|once|after|before|upon|while|in case)"
#: The subject of a question's condition clause: a pronoun or a person ("when I leave", "if an employee resigns"),
#: then the event's verb, maybe after an auxiliary; or a thing of the asker's ("once my voucher is approved"), then
#: an auxiliary before the verb ("my last day" is not a subject and its verb).
_PERSON = (r"(?:i|we|you|they|he|she|someone|somebody|anyone|an? (?:\w+ ){0,2}?(?:employee|staffer|member|"
           r"contractor|supervisor|manager|person)|employees|staff)(?:'m|'re|'s|'ve)?")
_AUXILIARY = (r"(?:am|'m|is|are|was|were|get|gets|become|becomes|have|has|had|will|do|does|did|don't|doesn't|didn't|"
              r"can't|cannot|need to|want to|decide to|have to|plan to)")
#: A condition clause of a question: its marker (not the question's first word, nor the "before" of "how long
#: before"), its subject, an auxiliary and the event's verb ("when I leave", "if I am sick", "if I'm late", "once my
#: voucher is approved"); group 1 is the clause from its marker to its verb, group 2 the verb (or the adjective or
#: participle after "be", "get" or "become").
_CLAUSE = re.compile(rf"(?<=[\w,] )(?<!\blong )(?<!\bsoon )({_MARKER}\s+(?:{_PERSON}\s+(?:{_AUXILIARY}\s+)?|"
                     rf"(?:my|our|the|your) (?:\w+ ){{1,2}}?{_AUXILIARY}\s+)(?:been\s+|not\s+)?([a-z]{{3,}}))\b",
                     re.I)
#: Words that open a phrase after a subject, not the event's verb ("if I am also ...", "when I just ...").
_NOT_VERB = frozenset({"also", "just", "still", "already", "only", "really", "ever", "never", "the", "your", "my",
                       "our", "their", "a", "an", "in", "on", "at", "to", "for"})
#: Irregular past forms, read as their verb.
_IRREGULAR = {"left": "leave", "lost": "lose", "quit": "quit", "got": "get", "fell": "fall", "broke": "break",
              "broken": "break", "stolen": "steal", "stole": "steal", "forgot": "forget", "took": "take", "went": "go",
              "became": "become", "fired": "fire"}


#: Stems of verbs naming the same event as another verb: leaving one's employer ("when I quit", "if an employee
#: resigns" / "When you leave Tallgrass, ...", the s22 round's new-user run on the demo handbook).
_SAME_EVENT = {stem(verb): stem("leave") for verb in ("quit", "resign")}


def _stem(verb: str) -> str:
    """A verb's Snowball stem (grounding.lexical.stem), an irregular past read as its verb and a verb of the same
    event as that event's (:data:`_SAME_EVENT`): "leaves", "leaving", "left", "quitting" and "resigned" -> "leav"."""
    stemmed = stem(_IRREGULAR.get(verb.lower(), verb.lower()))
    return _SAME_EVENT.get(stemmed, stemmed)


class Event(NamedTuple):
    """An event a question states as its case.

    Attributes:
        stem: the stem of the event's verb ("leav").
        clause: the condition clause as written, from its marker to its verb ("when I leave").
        negated: True when the clause says the event does not happen ("if I don't return my laptop").
    """

    stem: str
    clause: str
    negated: bool = False


#: A negation inside a condition clause: "if I don't return", "if I do not", "if I never", "if I fail to".
_CLAUSE_NEGATION = re.compile(r"\b(?:don't|doesn't|didn't|do not|does not|did not|not|never|fail to|forget to)\b",
                              re.I)


@functools.lru_cache(maxsize=4096)
def asked_event(question: str) -> Event | None:
    """The event a question states as its case (:class:`Event`), or None when it states none or more than one.

    >>> asked_event("What happens to unused PTO when I leave?")
    Event(stem='leav', clause='when I leave', negated=False)
    >>> asked_event("When do I get my laptop?") is None
    True
    """
    found = {}
    for m in _CLAUSE.finditer(question.strip()):
        verb = m.group(2).lower()
        if verb in _NOT_VERB:
            continue
        clause = m.group(1).strip()
        found[_stem(verb)] = Event(_stem(verb), clause, bool(_CLAUSE_NEGATION.search(clause)))
    return found.popitem()[1] if len(found) == 1 else None


def without_event(question: str) -> str:
    """``question`` without its condition clause (:func:`asked_event`): what it asks for, not the case it is asked
    in ("What happens to unused PTO when I leave?" -> "What happens to unused PTO?": the clause's "when" does not
    ask for a time)."""
    event = asked_event(question)
    if event is None:
        return question
    return re.sub(r"\s+([?.!])", r"\1", " ".join(question.replace(event.clause, " ", 1).split()))


#: Words that stand before the event's verb in a clause stating it: a subject ("When you leave", "If an employee
#: leaves") or an auxiliary ("If you are promoted", "Once it has been approved", "when it's time to leave").
_BEFORE_VERB = frozenset({"i", "you", "we", "they", "he", "she", "it", "someone", "somebody", "anyone", "employee",
                          "employees", "staff", "member", "members", "contractor", "contractors", "supervisor",
                          "supervisors", "manager", "person", "am", "is", "are", "was", "were", "be", "been", "get",
                          "gets", "got", "become", "becomes", "do", "does", "did", "not", "will", "must", "have",
                          "has", "had", "to", "you're", "you've", "i'm", "we're", "they're", "it's", "can", "may"})
_CLAUSE_IN_SENTENCE = re.compile(rf"\b{_MARKER}\b(?!-)([^,;:.]*)", re.I)


@functools.lru_cache(maxsize=20_000)
def states_event(sentence: str, verb: str, negated: bool = False) -> bool:
    """True when one of ``sentence``'s condition clauses (or a heading's: "When it's time to leave TTS") holds a form
    of the verb whose stem is ``verb`` (:func:`asked_event`) within its first six words, as its first word ("Upon
    leaving, ...") or after a subject or an auxiliary ("When you leave Tallgrass, ...", "If an employee leaves");
    not "Sick leave is separate from PTO" (no clause), "If you are on leave, ..." (the noun, after a preposition)
    nor "after-hours and emergency travel" (a compound, not a clause). A ``negated`` event ("if I don't return my
    laptop") is stated by the verb's negative anywhere in the sentence: "Unreturned equipment may be deducted ...",
    "Failure to return ...", "If you do not return ..."."""
    if negated:
        # ... or by "no" / "without" before the verb's noun: "if there is no response" (respond), "without approval"
        noun = re.escape(verb if len(verb) < 6 else verb[:-1])
        return bool(re.search(rf"\bun{re.escape(verb)}\w*|\b(?:not|never|fail(?:s|ed|ure|ing)? to)\s+(?:\w+\s+)?"
                              rf"{re.escape(verb)}|\b(?:no|without(?: an?| any)?)\s+{noun}\w*", sentence, re.I))
    for m in _CLAUSE_IN_SENTENCE.finditer(sentence):
        words = re.findall(r"[\w'’]+", m.group(1).replace("’", "'"))[:6]
        for i, word in enumerate(words):
            if _stem(word) == verb:
                if i == 0 or words[i - 1].lower() in _BEFORE_VERB:
                    return True
    # the event's participle naming the thing it happened to: "A lost or stolen laptop is a security incident."
    return any(verb in (_stem(m["participle"]), _stem(m["first"] or "")) for m in _PARTICIPLE.finditer(sentence))


#: A participle after a determiner, maybe joined to another by "or" or "and", before its noun ("a lost or stolen
#: laptop", "any damaged equipment", "your broken badge"): "lost", "broken", "stolen" or a word ending in "-ed".
_PARTICIPLE = re.compile(r"\b(?:a|an|the|any|your|their|his|her|every|each)\s+(?:(?P<first>lost|broken|stolen|\w+ed)"
                         r"\s+(?:or|and)\s+)?(?P<participle>lost|broken|stolen|\w+ed)\s+[a-z]\w+\b", re.I)


def stating_rows(rows: Iterable[tuple[str, int, str]], event: Event) -> set[tuple[str, int]]:
    """The (source label, sentence index) of the ``rows`` ((label, index, text) of a source's sentences) that state
    ``event`` (:func:`states_event`), and of the sentence right after one of them in its source that points back to
    it: "A lost or stolen laptop is a security incident." / "Report it in #sec-incidents within 1 hour, ..." is the
    rule for "What should I do if I lose my laptop?" (the s22 round's new-user run on the demo handbook)."""
    rows = list(rows)
    stated = {(label, i) for label, i, text in rows if states_event(text, event.stem, event.negated)}
    return stated | {(label, i) for label, i, text in rows if continues_one(stated, label, i, text)}


def failures_first(scored: list, verb: str, margin: float = 0.15) -> list:
    """``scored`` (grounding.sentence_rank.ScoredSentence, each with ``text`` and ``score``) with the sentences
    stating the negative of the event whose stem is ``verb`` ("Unreturned equipment ...", "If you do not return
    ...": :func:`states_event`) scored ``margin`` above the best of the others, keeping their order: for "What
    happens if I don't return my laptop?" they are the answer, not the rule that it must be returned. The margin is
    more than the extractive answerer's spread (0.12), so the rule does not join them as padding."""
    failing = [s for s in scored if states_event(s.text, verb, True)]
    others = [s.score for s in scored if not states_event(s.text, verb, True)]
    if not failing or not others:
        return scored
    lift = max(0.0, max(others) + margin - max(s.score for s in failing))
    return [replace(s, score=s.score + lift) if states_event(s.text, verb, True) else s for s in scored]
