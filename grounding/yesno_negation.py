"""Negation scope in yes/no answers: which negation words of a sentence negate its predicate, and which name what is
*not* the asked case.

- Words that look like negation but negate no predicate: an additive "not just / not only / not merely" ("Referrals
  are welcome any time, not just when positions are open" affirms the asked case), "but not limited to", "whether
  or not", "no matter", and a bound ("no later than", "no more than", "not to exceed") that states a limit, not a denial
  (:func:`without_idioms`; the limits themselves are read by grounding.yesno_count).
- A rejected alternative: "X rather than Y", "instead of Y", "in place of Y". When the question names, in its own
  words, something the sentence names only as the rejected alternative, and shares something else with the rest
  of the sentence, the sentence says no ("Should I send a referral to the hiring manager?" / "These referrals
  should come directly to Talent rather than to the team/managers/supervisors") (:func:`rejected_alternative`).
- Two clauses set against each other by "whereas" (or ", while" before a new subject): each clause says its
  predicate of its own subject. A question naming something only the first clause names and something only the
  second names joins what the sentence keeps apart ("Does the Talent team help current employees with benefits?" /
  "the Talent Team is focused on hiring, whereas the People Ops team is focused on assisting current employees
  with benefits"): the sentence says no (:func:`joins_contrasted`).

- The other order: a question asking whether something happens before (after) an event that the sentence puts
  after (before) that same event ("Can I mark it as spam before reporting it to Cofense?" / "You may mark it as
  spam/phishing after reporting it to Cofense"): the sentence says no (:func:`order_reversed`).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms

#: Negation words that negate no predicate: additive "not just/only/merely/simply" (affirms more than the case it
#: names), "but not limited to" (a list left open), "whether or not" (both cases), and bounds ("no later than 30 days",
#: "no more than 5", "not to exceed 240 days": a limit the sentence states, read by the limit rules), and "no matter
#: what/how/the ..." (every case, as "regardless of" says: "no matter the length of time").
NON_NEGATING = re.compile(r"\bnot\s+(?:just|only|merely|simply|solely)\b|\b(?:but\s+)?not\s+limited\s+to\b|"
                          r"\bwhether\s+or\s+not\b|\b(?:no|not)\s+(?:later|earlier|sooner|more|less|fewer|greater)\s+"
                          r"than\b|\bnot\s+to\s+exceed\b|"
                          r"\bno\s+matter\s+(?=(?:what|how|the|which|who|when|where|whether|if)\b)", re.I)


def without_idioms(text: str) -> str:
    """``text`` with the negation words that negate no predicate (:data:`NON_NEGATING`) taken out: "welcome any
    time, not just during times when positions are open" -> "welcome any time,  during times when positions are
    open"."""
    return NON_NEGATING.sub(" ", text)


#: A rejected alternative and what it names, up to the next punctuation ("rather than to the team/managers").
_ALTERNATIVE = re.compile(r"\b(?:rather\s+than|instead\s+of|in\s+place\s+of)\b([^,.;:()!?]*)", re.I)


def rejected_alternative(asking: str, sentence: str) -> bool:
    """True when ``sentence`` names, as the alternative it rejects ("rather than ...", "instead of ...", "in place
    of ..."), a content word of the asking clause ``asking`` that the rest of the sentence does not name, and the
    rest names at least one other content word of it: the sentence says the asked thing is not what is done. The
    question names at least :data:`_SHARE` of the alternative's content words (an alternative sharing one word in
    passing is about something else). The question's own alternative ("Should I use Slack rather than email?") and
    the situation before its auxiliary ("On a work trip, do I ...") are left out of what it asks."""
    stated = [m for m in _ALTERNATIVE.finditer(sentence) if m.group(1).strip()]
    if not stated:
        return False
    asked = content_terms(_ALTERNATIVE.sub(" ", _SITUATION.sub("", asking, count=1)))
    rest = content_terms(_ALTERNATIVE.sub(" ", sentence))
    for m in stated:
        rejected = content_terms(m.group(1))
        # the alternative is about what is asked: the question names a share of its words, not one in passing
        # ("rather than the round trip travel cost of having the employee return home" for a question on a trip)
        if (asked & rejected) - rest and asked & rest and len(asked & rejected) >= _SHARE * len(rejected):
            return True
    return False


#: The least share of a rejected alternative's content words the question must name for it to be the asked thing.
_SHARE = 1 / 3
#: A phrase stating the asker's situation before the question's auxiliary ("On a work trip, do I ..."): not asked.
_SITUATION = re.compile(r"^[^,?]*,\s*(?=(?:is|are|do|does|did|can|could|should|must|may|will|would|am|have|has)\b)",
                        re.I)


#: "whereas", or ", while" before a noun phrase (a new subject): the clause after it is set against the one before
#: ("while" before a pronoun or a verb is read as time: "while you travel").
_CONTRAST = re.compile(r"[,;]?\s*\bwhereas\b\s*|,\s*while\s+(?=(?:the|other|others|some|most|many|all|those|"
                       r"their|our|your)\b)", re.I)


def joins_contrasted(asking: str, sentence: str) -> bool:
    """True when ``sentence`` is two clauses set against each other by "whereas" (or ", while the ...") and the
    asking clause ``asking`` asks of a subject that only one clause names ("Does *the Talent team* help ...?") what
    only the other clause says (the question's other content words: none in the subject's clause alone, some in
    the other's alone): it asks whether what the sentence says of one subject holds of the other. A question whose
    subject is a pronoun ("Can I ...?"), or whose other words the subject's clause names too, is False (that
    clause is read as any sentence: "Employees can use annual leave for any reason, whereas sick leave ..." answers
    "Can employees use annual leave for travel?")."""
    parts = _CONTRAST.split(sentence, maxsplit=1)
    subject = _SUBJECT.match(asking)
    if len(parts) != 2 or not all(p.strip() for p in parts) or not subject:
        return False
    words = [content_terms(w) for w in subject.group(1).split()]
    if not words or not words[0]:
        return False
    first, second = content_terms(parts[0]), content_terms(parts[1])
    own, other = (first - second, second - first) if words[0] & first - second else (second - first, first - second)
    if not words[0] & own:
        return False
    # the subject's noun phrase: its first word and each word after it that follows the one before in the subject's
    # clause too ("travel desk"; "employees use" is no phrase of "Employees can use ...")
    clause = _stems(parts[0] if words[0] & first - second else parts[1])
    pairs = set(zip(clause, clause[1:]))
    named = set(words[0])
    for before, terms in zip(words, words[1:]):
        if not terms or not before or (min(before), min(terms)) not in pairs - {("", "")}:
            break
        named |= terms
    said = content_terms(asking) - named
    return not said & own and bool(said & other)


def _stems(text: str) -> list[str]:
    """The words of ``text`` in order, each a content word's stem (grounding.lexical.content_terms of one word) or ""
    for a stop word (it keeps "can" between "employees" and "use")."""
    return [min(t) if t else "" for t in (content_terms(w) for w in re.split(r"[\s/]+", text) if w)]


#: A yes/no question's words after its auxiliary and determiner, up to the first punctuation ("Does the Talent team
#: help ..." -> "Talent team help ..."): its subject opens them; a pronoun ("Can I ...") has no content terms.
_SUBJECT = re.compile(r"^\s*(?:is|are|was|were|will|would|does|do|did|has|have|can|could|should|must|may|might)\s+"
                      r"(?:(?:the|a|an|my|your|our|their|its|this|that|these|those|any|every|each)\s+)?([A-Za-z][\w\s/-]*)",
                      re.I)


#: "before"/"after" and the event it orders, up to the clause's end: "before reporting it to Cofense".
_ORDERED = re.compile(r"\b(before|after|until)\s+([^,;:.?!()]+)", re.I)
_OTHER_ORDER = {"before": ("after",), "until": ("after",), "after": ("before", "until")}


def order_reversed(asking: str, sentence: str) -> bool:
    """True when the asking clause ``asking`` asks whether something happens before (or after) an event and
    ``sentence`` puts it in the other order relative to the same event, every content word of the asked event named
    by the sentence's ("before reporting it to Cofense" / "after reporting it to Cofense"), and nowhere in the asked
    order: the s28 breaker's "Can I mark a suspicious email as spam before reporting it to Cofense?" opened "Yes."
    on "You may mark it as spam/phishing after reporting it to Cofense"."""
    asked = [(m.group(1).lower(), content_terms(m.group(2))) for m in _ORDERED.finditer(asking)]
    said = [(m.group(1).lower(), content_terms(m.group(2))) for m in _ORDERED.finditer(sentence)]
    for order, event in asked:
        if not event:
            continue
        if any(o == order and event <= terms for o, terms in said):
            return False  # the sentence also states the asked order
        if any(o in _OTHER_ORDER[order] and event <= terms for o, terms in said):
            return True
    return False
