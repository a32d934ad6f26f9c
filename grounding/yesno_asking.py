"""What a yes/no question asks: its asking clause, read without the asker's situation (a leading or trailing
condition, a clause describing one of its nouns: "Will the comp time I haven't used be forfeited?" asks "Will the
comp time ... be forfeited?"), and how much of it a sentence names.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms, stem

#: A leading condition: "If ...,", "When ...,", "As long as ...," up to the first comma, semicolon or colon.
CONDITION = re.compile(r"^\s*(?:if|when|whenever|unless|as long as|while|once|provided that|in case)\b[^,;:]*[,;:]\s*",
                        re.I)


#: A negated verb in a clause that describes a noun of the question ("the comp time I haven't used", "days you did
#: not take"): the asker's situation, not what is asked.
_RELATIVE_NEGATION = re.compile(r"(?<=\w)(?<!\bthat)(?<!\bif)(?<!\bwhether)(?<!\bwhen)(?<!\bunless)(?<!\bbecause)"
                                r"\s+(?:which\s+)?(?:I|you|we|they|he|she)\s+"
                                r"(?:(?:have|has|had|do|does|did|can|could|will|would)(?:n['’]t|\s+not)|won['’]t|"
                                r"can['’]t|cannot)\s+\w+"
                                r"|(?<=\w)(?<!\bthat)(?<!\bif)(?<!\bwhether)(?<!\bwhen)(?<!\bunless)(?<!\bbecause)"
                                r"\s+(?:I|you|we|they|he|she)(?:['’](?:re|s|m)\s+not|\s+(?:are|is|am|was|were)"
                                r"(?:n['’]t|\s+not))\b", re.I)
#: A condition standing between a leading phrase and the main clause, which goes on after its comma with a verb or
#: an auxiliary ("As a supervisor, if my team goes through a crunch, should I balance it ...?").
_MID_CONDITION = re.compile(r",\s*(?:even\s+)?(?:if|when|unless|while|once|in case)\b[^,?]*,\s*"
                            r"(?=(?:do|does|did|can|could|should|shall|will|would|is|are|am|was|were|may|might|must|"
                            r"have|has|had)\b)", re.I)
#: ("more than once", "at once" and "all at once" say how often, not when: "Can I resubmit it more than once if I keep
#: finding mistakes?" kept only "Can I resubmit it more than?", fresh31's f31-14)
_TRAILINGCONDITION = re.compile(r"(?<!\bthan)(?<!\bat)[,\s]+(?:even\s+)?(?:if|when|unless|while|once|in case)\b[^?]*"
                                r"(?=\?\s*$)", re.I)


#: A negation in a relative clause describing a noun ("a fed who isn't on our project", "staff that do not travel"):
#: the noun's description, not what is asked; asking_clause keeps the clause and drops its negation.
_RELATIVE_WHO_NEGATION = re.compile(r"\b(who|that|which)\s+(is|are|was|were|do|does|did|has|have|had)(?:n['’]t|\s+not)\b",
                                    re.I)


def asking_clause(question: str) -> str:
    """The clause of a yes/no question whose negation is what is asked: its asking sentence without a leading or
    trailing condition ("If I don't use my leave, do I lose it?" and "Do I get paid if I don't finish?" ask "do I
    lose it?" and "Do I get paid?"; "As a supervisor, if my team goes through a crunch, should I balance it with time
    off?" asks "As a supervisor, should I balance it with time off?") and without a clause describing one of its
    nouns ("Will the comp time I haven't used be forfeited?" asks "Will the comp time ... be forfeited?"; "Can a fed
    who isn't on our project be invited?" asks it without the negation of its "who" clause)."""
    q = question_sentence(question)
    m = CONDITION.match(q)
    if m and q[m.end():].strip():
        q = q[m.end():]
    q = _MID_CONDITION.sub(", ", q)
    q = _TRAILINGCONDITION.sub("", q)
    q = _RELATIVE_WHO_NEGATION.sub(r"\1 \2", q)
    return _RELATIVE_NEGATION.sub("", q)



def asking_coverage(question: str, sentence: str) -> float:
    """The share of the content terms of the question's asking clause (:func:`asking_clause`) that ``sentence``
    holds (0..1; 1.0 for a clause without content terms): "Can I fly business class if the flight is longer than 6
    hours?" asks about flying business class, which "Flights longer than 6 hours may be booked in premium economy"
    does not name."""
    asked = content_terms(asking_clause(question))
    return len(asked & content_terms(sentence)) / len(asked) if asked else 1.0


def negated_head(negated: str) -> str | None:
    """The stemmed first content word after "without" that is not an adverb in "-ly" ("directly contacting our
    employer" -> "contact"), or None when there is none."""
    for word in _PLAIN_WORD.findall(negated):
        if word.lower().endswith("ly"):
            continue
        terms = content_terms(word)
        if terms:
            return next(iter(terms))
    return None


_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


#: A noun the asking clause sets apart from the usual one ("another country", "a different team", "a foreign bank"):
#: the sentence naming it so is about the asked case. (Not "other": "do the other recipients sign it before I do?"
#: names the rest of a known group, not another case; on the fresh5 yes/no set it chose a sentence that said
#: "Yes." wrongly.)
_SET_APART = re.compile(r"\b(another|different|foreign)\s+([a-z][\w-]+)", re.I)


def names_set_apart(question: str, sentence: str) -> bool:
    """True when the asking clause names a noun set apart from the usual one (:data:`_SET_APART`: "Can I work
    remotely from another country?") and ``sentence`` names it the same way ("Working from another country, even
    for one day, requires approval ..."; its plural or singular too), not only the noun ("anywhere in the country
    where you are employed", the s22 break run's wrong "Yes.")."""
    asked = {(word.lower(), stem(noun)) for word, noun in _SET_APART.findall(asking_clause(question))}
    return bool(asked) and any((word.lower(), stem(noun)) in asked for word, noun in _SET_APART.findall(sentence))


#: A question asking whether a thing exists or is offered at all ("Is there an internet reimbursement?", "Are there
#: standing desks?", "Does Tallgrass offer a stipend?"); not "Do I have to ...?", which asks whether one must.
EXISTENTIAL = re.compile(r"^\s*(?:is|are)\s+there\b|^\s*(?:do|does)\s+(?:\w+\s+){1,2}?(?:offer|provide|have)\b"
                         r"(?!\s+to\b)", re.I)


def asks_existence(question: str) -> bool:
    """True when ``question`` (its question sentence, after any situation told before it) asks whether a thing exists
    or is offered at all (:data:`EXISTENTIAL`)."""
    return bool(EXISTENTIAL.search(question_sentence(question)))
