"""Whose action and which goal a sentence speaks of, for a yes/no question (grounding.yesno reads its polarity).

- A sentence opening with a purpose clause ("To get a license on your machine, you will need to put in a request",
  "In order to verify your signed commits, you must associate the public key with your GitHub account") states what
  that goal requires. When the goal is another than the question's (fewer than half of its content words are the
  question's: "Do I need someone to sign off before I make a new public repository?"), the sentence's rule is not
  the asker's and settles no "Yes." (:func:`purpose_elsewhere`, the s12 development set's d001). When the question
  asks whether something can be done *without* what the purpose clause names ("Is there a way to get Word without
  waiting for a license?"), the sentence tells how to get that thing, not whether one can do without it, and
  settles no "No." (:func:`negated_only_in_purpose`, the s11 fresh set's f021).
- A question asking what a third party may do ("Can a guest in Mural create rooms?") is not answered "Yes." by a
  sentence in which that party is only acted on ("The easiest way to add a guest to all of your project-related
  work is to create a room for the project": the host adds the guest and creates the room;
  :func:`subject_only_acted_on`, the s11 fresh set's f008). Without a part-of-speech tagger (none ships offline),
  the roles are read by position: a noun followed by a modal or an auxiliary, or opening its clause, is an agent;
  one after a content word and a determiner ("add a guest") or after "as" ("invited as guests") is acted on; a
  content word right before it qualifies it ("an active clearance").

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import CONTENT_STOP_WORDS, content_terms, stem
from grounding.yesno_scope import NEGATION

#: A leading purpose clause with its comma: "To get a license on your machine, ", "In order to verify ..., ".
_PURPOSE = re.compile(r"^\s*(?:in order to|so as to|to)\s+([^,;:]+),\s*(?=\S)", re.I)


def purpose_goal(sentence: str) -> str:
    """The goal of ``sentence``'s leading purpose clause ("To get a license on your machine, you ..." -> "get a
    license on your machine"); "" when it opens with none."""
    m = _PURPOSE.match(sentence)
    return m.group(1) if m else ""


def purpose_elsewhere(question: str, sentence: str) -> bool:
    """True when ``sentence`` opens with a purpose clause whose goal is another than the question's: fewer than half
    of the goal's content terms (grounding.lexical.content_terms) are the question's. "In order to verify your signed
    commits, you must associate the public key" (verify, sign, commit: one of three in "Do I need someone to sign off
    before I make a new public repository?") states a requirement of another task. False for a sentence without a
    leading purpose clause."""
    goal = content_terms(purpose_goal(sentence))
    return bool(goal) and 2 * len(goal & content_terms(question)) < len(goal)


def negated_only_in_purpose(asking: str, sentence: str) -> bool:
    """True when the asking clause ``asking`` (grounding.yesno.asking_clause) is negated ("... without waiting for a
    license?"), the sentence's main clause (after its leading purpose clause) is not, and what the question negates
    (the content terms after its negation cue) is named in the purpose clause and not in the main clause: "To get a
    license on your machine, you will need to put in a request" says how to get the license, not whether one can do
    without it."""
    goal = purpose_goal(sentence)
    m = NEGATION.search(asking)
    if not goal or not m:
        return False
    main = sentence[_PURPOSE.match(sentence).end():]
    if NEGATION.search(main):
        return False
    negated = content_terms(asking[m.end():])
    return bool(negated & content_terms(goal)) and not negated & content_terms(main)


#: "Can a guest ...?", "May the contractors on my team ...?": a permission asked for a named third party.
_THIRD_PARTY = re.compile(r"^\s*(?:can|could|may)\s+(?:(?:a|an|the|our|my|your)\s+)?([a-z][\w-]*)", re.I)
#: Words that, right after a noun, make it the subject of a verb ("guests can ...", "guests are ...").
_AUXILIARY = frozenset("can could may might must should shall will would cannot can't won't are is was were have has "
                       "had do does don't doesn't did get gets need needs".split())
#: Words skipped before a noun to find what governs it ("add *a* guest", "invite them *as* guests").
_DETERMINERS = frozenset("a an the your their our my his her its this that these those all any some them him "
                         "her us".split())
#: Verbs that grant their object a permission ("allow guests to edit"): an object of these is the agent of what is
#: granted.
_GRANTS = frozenset(stem(w) for w in "allow allows allowed let lets permit permits permitted enable enables enabled "
                    "authorize authorizes authorized entitle entitles entitled give gives given grant grants "
                    "granted".split())
_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?|[,;:.!?]", re.I)


def subject_only_acted_on(asking: str, sentence: str) -> bool:
    """True when the asking clause asks what a named third party may do or is ("Can a guest in Mural create
    rooms?") and every mention of that party in ``sentence`` is an object: after a content word other than a verb
    granting permission and a determiner ("add a guest"), or after "as" ("invited as guests"), and not followed by a modal or an
    auxiliary ("guests can ..."). Such a sentence says what someone else does with the party; it settles no "Yes.".
    False when the question's subject is a pronoun ("Can I ...?") or the sentence does not name the party."""
    m = _THIRD_PARTY.match(asking)
    if not m or m.group(1).lower() in CONTENT_STOP_WORDS:
        return False
    party = stem(m.group(1).lower())
    words = [w.lower() for w in _WORD.findall(sentence)]
    mentions = [i for i, w in enumerate(words) if w.isalpha() and stem(w) == party]
    return bool(mentions) and all(_acted_on(words, i) for i in mentions)


def _acted_on(words: list[str], i: int) -> bool:
    """True when the noun at ``words[i]`` reads as an object (see :func:`subject_only_acted_on`)."""
    if i + 1 < len(words) and words[i + 1] in _AUXILIARY:
        return False
    j = i - 1
    while j >= 0 and words[j] in _DETERMINERS:
        j -= 1
    if j < 0 or not words[j].isalpha():
        return False  # opens its clause: the subject
    if words[j] == "as":
        return True
    # a content word right before the noun qualifies it ("an active clearance"); one before its determiner governs
    # it ("add a guest")
    return j < i - 1 and words[j] not in CONTENT_STOP_WORDS and stem(words[j]) not in _GRANTS
