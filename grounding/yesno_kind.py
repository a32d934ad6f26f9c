"""Whether a sentence speaks of the kind of thing a yes/no question asks about, or of another kind ("economy class"
for "business class", "company laptops" for "my personal laptop"): read by position, as no part-of-speech tagger
ships offline (a word right before a noun qualifies it); and whether a sentence's subject is another thing than the
question's ("Will my award leave be paid out?" / "If you leave GSA, your comp time will be paid out"). grounding.yesno
quotes such a sentence without an opener.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import CONTENT_STOP_WORDS, stem
from grounding.yesno_count import QUANTITY_WORDS

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?", re.I)


def _modifiable(word: str) -> bool:
    """A word that can be, or qualify, the noun a yes/no question asks about: alphabetic, not a stop word, not a
    quantity ("several years" / "one year" is another amount of the same thing, not another kind of it: limits
    decide those, grounding.yesno.over_limit), not a word of :data:`_NO_KIND` ("both", "always"), and not a verb form
    ending in -ing or -ed ("start earning" is a verb and its object, not a kind of earning)."""
    return (word.isalpha() and word not in CONTENT_STOP_WORDS and word not in QUANTITY_WORDS
            and word not in _NO_KIND and not word.endswith(("ing", "ed")))


#: Words that stand before a noun or a verb without naming a kind of it: determiners of number ("Both training must
#: be retaken" is the travel card training too, fresh5's y5-020) and adverbs of frequency or addition ("you should
#: always create new projects": "always" is no kind of creating, fresh5's y5-001), and of extent ("share whole
#: folders" are folders, fresh19y's f19y-y06), and of one more ("an extra monitor" is a monitor: the s30 new user's
#: demo run had no "Yes." from "You may order one external monitor").
_NO_KIND = frozenset("both either neither each every such always also often never still just even usually sometimes "
                     "already ever whole entire extra additional another second".split())


def _names_same_kind(word: str, modifier: str) -> bool:
    """True when ``word`` is an abbreviation in capitals whose last letter is the initial of ``modifier`` ("RA" /
    "accommodation" in "the RA request" for "an accommodation request"), or a compound ending with ``modifier`` (four
    letters or more: "telephone" / "phone" in "telephone dial-in instructions" for "phone dial-in instructions"): a
    name for the same thing."""
    return (len(word) >= 2 and word.isupper() and word[-1].lower() == modifier[:1].lower()) or (
        len(modifier) >= 4 and len(word) > len(modifier) and word.lower().endswith(modifier.lower()))


def substituted_in(asking: str, sentence: str, *, opening: bool = False) -> bool:
    """True when ``sentence`` speaks of what the asking clause ``asking`` of a yes/no question (grounding.yesno.
    asking_clause) names, but as another kind of it: a noun of the asking clause appears in the sentence after another
    word than the question puts before it, and the question's word does not qualify it there ("business class" /
    "Book economy class", "sick days" / "Up to 5 unused PTO days", "an internet stipend" / "a one-time stipend"; "my
    personal laptop" / "Limited personal use ... but company laptops are company property", where "personal"
    qualifies another noun); a word the question says too ("a full Slack member" / "full members"), an
    abbreviation of the question's word ("RA request" / "accommodation request") or a compound ending with it
    ("telephone dial-in" / "phone dial-in") is not another kind. Such a sentence settles nothing about what was
    asked. ``opening``: only a noun the sentence opens with counts, after its qualifier and a determiner or none (the
    subject, a common noun: "Sick days do not carry over" for "unused vacation days"; not "They cannot create
    rooms, ...", nor "Because Google Meet is ...")."""
    asked = [w.lower() for w in _WORD.findall(asking)]
    raw = _WORD.findall(sentence)
    words = [w.lower() for w in raw]
    stems = [stem(w) for w in words]
    for j, (modifier, noun) in enumerate(zip(asked, asked[1:]), 1):
        if not (_modifiable(modifier) and _modifiable(noun)):
            continue
        # the words the question puts before the noun (up to three): its own qualifiers of it
        mine = {stem(w) for w in asked[max(0, j - 3):j]}
        target = stem(noun)
        at = [i for i in ((1, 2) if opening else range(1, len(words)))
              if i < len(words) and stems[i] == target
              and (not opening or (raw[i].islower() and (i == 1 or words[0] in _DETERMINER)))]
        # the question's word qualifying the noun in the sentence too (up to three words before it) names the same
        # kind; said elsewhere, it does too unless it qualifies another noun there ("Limited personal use ... but
        # company laptops": "personal" is said of the use, the laptops are the company's)
        if any(stem(modifier) in stems[max(0, i - 3):i] for i in at) or (
                stem(modifier) in stems and not _qualifies_another(sentence, modifier, target)):
            continue
        for i in at:
            # the word before the noun is another kind only when the question does not say it before the noun too ("a
            # full Slack member" / "added as full members"; "collect survey data" / "collect data"); a word the
            # question says of another noun does not count ("my personal tablet to check work email" / "personal
            # email")
            if _modifiable(words[i - 1]) and stems[i - 1] not in mine and not _names_same_kind(raw[i - 1], modifier):
                return True
    return False


_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?|[,;:.!?()]", re.I)


def _qualifies_another(sentence: str, modifier: str, noun: str) -> bool:
    """True when every use of ``modifier`` in ``sentence`` stands right before another word that it can qualify (no
    punctuation between, not the stem ``noun``): "personal" in "Limited personal use, such as checking personal
    email" qualifies "use" and "email"; "friend" in "a family member, friend, healthcare professional" qualifies
    nothing."""
    tokens = [t.lower() for t in _TOKEN.findall(sentence)]
    uses = [i for i, t in enumerate(tokens) if stem(t) == stem(modifier)]
    return bool(uses) and all(i + 1 < len(tokens) and _modifiable(tokens[i + 1]) and stem(tokens[i + 1]) != noun
                              for i in uses)


#: A yes/no question asking something of a noun phrase opened by a determiner ("Will my award leave be paid out?",
#: "Is the daily meal allowance $50?"): the words after the determiner. A demonstrative ("does that time come out of
#: my leave?") refers to what the asker said before, in words of their own: not read.
_ASKED_SUBJECT = re.compile(r"^\s*(?:is|are|was|were|will|would|does|do|did|has|have|can|could|should|must|may)\s+"
                            r"(?:my|your|our|the|their)\s+(?P<rest>.+)$", re.I)
#: A sentence's main clause opening with a noun phrase after a determiner ("your comp time will be paid out").
_STATED_SUBJECT = re.compile(r"^\s*(?:my|your|our|the|their|this|that|these|those|all|any)\s+(?P<rest>.+)$", re.I)
#: A leading condition with its comma.
_LEADING = re.compile(r"^\s*(?:if|when|whenever|once|unless)\b[^,;:]*[,;:]\s*", re.I)


def _noun_phrase(rest: str) -> set[str]:
    """The stems of the content words opening ``rest`` up to its first stop word or punctuation ("award leave be
    paid out" -> award, leave)."""
    out = set()
    for w in _WORD.findall(rest.split(",")[0]):
        if w.lower() in CONTENT_STOP_WORDS:
            break
        out.add(stem(w.lower()))
    return out


def other_subject(asking: str, sentence: str) -> bool:
    """True when the asking clause asks something of a noun phrase after a determiner ("Will my award leave be paid
    out?") and ``sentence``'s main clause (after a leading condition) opens with another noun phrase after a
    determiner, sharing no word with it ("If you leave GSA, your comp time will be paid out"): the sentence says its
    predicate of another subject. False when either opens otherwise (a pronoun, a name) or they share a word."""
    asked = _ASKED_SUBJECT.match(asking)
    main = _LEADING.sub("", sentence, count=1)
    stated = _STATED_SUBJECT.match(main)
    if not asked or not stated:
        return False
    mine, theirs = _noun_phrase(asked.group("rest")), _noun_phrase(stated.group("rest"))
    return bool(mine) and bool(theirs) and not mine & theirs


#: A yes/no follow-up whose subject is a pronoun or a demonstrative standing for what the previous question asked about
#: ("Do they carry over?", "Does it expire?", "Is that paid?").
_PRONOUN_SUBJECT = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:is|are|was|were|will|would|does|do|did|has|have|can|"
                              r"could|should|must|may)\s+(?:it|they|these|those|that|this)\b(?!\s+(?:OK|okay|fine|"
                              r"possible|true|allowed)\b)", re.I)
#: Determiners a sentence's subject may open with.
_DETERMINER = frozenset("the a an your our my their his her its all any these those this that each every".split())


def other_kind_of_referent(question: str, carried: str, sentence: str) -> bool:
    """True when ``question`` asks of a pronoun ("Do they carry over?") what a follow-up's retrieval query carried
    from the previous question (``carried``: "days paid time off", grounding.followup's expansion), and
    ``sentence``'s subject (its opening noun phrase, after a leading condition and a determiner) is another kind of
    that thing: its last word is one of the carried words (not a verb of the question's: "This policy applies ..."
    for "Does that apply to direct messages too?", fresh23c's f23c-20) and a word before it qualifies it with a word
    neither the question nor the carried words say ("Sick days do not carry over" after "How many days of paid time
    off do I get?": the demo's wrong "No." of the s29 round's notes). An abbreviation of carried words in a row
    ("PTO" for "paid time off") names the same kind. Such a sentence settles nothing about what the pronoun stands
    for."""
    if not carried or not _PRONOUN_SUBJECT.match(question):
        return False
    known = [w.lower() for w in _WORD.findall(carried)]
    referent = {stem(w) for w in known}
    stems = referent | {stem(w.lower()) for w in _WORD.findall(question)}
    words = _WORD.findall(_LEADING.sub("", sentence, count=1))
    while words and words[0].lower() in _DETERMINER:
        words = words[1:]
    phrase = []
    for word in words:
        if not word.isalpha() or word.lower() in CONTENT_STOP_WORDS:
            break
        phrase.append(word)
    if len(phrase) < 2 or stem(phrase[-1].lower()) not in referent:
        return False
    # an adverb qualifies no kind ("Fully remote employees are reimbursed" for "Do they get internet reimbursed?"
    # after "and for remote employees?")
    return any(_modifiable(w.lower()) and not w.lower().endswith("ly") and stem(w.lower()) not in stems
               and not _abbreviates(w, known) for w in phrase[:-1])


def _abbreviates(word: str, known: list[str]) -> bool:
    """True when ``word`` is in capitals and its letters are the initials of words in a row of ``known``
    ("PTO" of "days paid time off")."""
    if len(word) < 2 or not word.isupper():
        return False
    initials = "".join(w[0] for w in known if w)
    return word.lower() in initials
