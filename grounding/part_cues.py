"""What one part of a two-part message asks for, when its answer type is none of the checked ones
(grounding.answer_types: "where ...?", "what <named attribute> ...?", a prefix quoted as written), and whether a
sentence states it: the offline answerer quotes, for such a part, the sentence that does when one is close to the
best (grounding.extractive_parts). "Where do I go to change my ENT password?" was answered with "You must change
your ENT password ... every 90 days" while "Go to reset.gsa.gov to change your password." was close; "what
organization code goes in the program application" with "Fill out ..." while "Organization Code: Q - Federal
Acquisition Service" was.

Rules written on the development set of the 18F golden set (evaluation/golden/18f_dev.jsonl) and its calibration
half, never on its test half. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence

__all__ = ["CUE_SPREAD", "asked_label", "asked_noun", "asks_name", "asks_place", "cued", "named_item", "names_instance",
           "quoted_prefixes", "states_label", "states_name", "states_place"]

#: How far below the best sentence a sentence stating what a part asks for may be and still be quoted for it, in
#: grounding.sentence_rank score units. On the development set the sentences naming the place a "where" part asks
#: for scored 0.20 and 0.21 below a best sentence that names none ("You must change your ENT password ... every 90
#: days" / "Go to reset.gsa.gov to change your password."); the answerer's type_spread (0.2) just missed them.
CUE_SPREAD = 0.25

#: Words that may open a part before its question word ("and where ...", "so where ...").
_OPENING = r"^(?:(?:and|so|but|also|then)\s+)?"
_WHERE = re.compile(_OPENING + r"where\b", re.I)
#: A part asking how to reach someone, which a place to write to answers as "where" does: "what address do I email
#: ...", "what e-mail should I use ...", "how do I reach / contact / get in touch with the Talent team ...".
_CONTACT = re.compile(_OPENING + r"(?:(?:what|which)\s+(?:(?:e-?mail\s+)?address|e-?mail|phone(?:\s+number)?|"
                      r"(?:slack\s+)?channel)\b|how\s+(?:do|can|should|would)\s+(?:i|we|you)\s+(?:reach|contact|"
                      r"get\s+in\s+touch\s+with|get\s+hold\s+of|email|e-mail|write\s+to)\b)", re.I)
#: A place a sentence sends the reader to: a web address or domain, an e-mail address, a Slack channel or handle,
#: "go to", "visit", "head to", a form or a portal; a room or a floor of a building ("the security office on the
#: second floor (Room 212 ...)" for "where in the building do I go to get fingerprinted": fresh39's f39-m02, a
#: development set, quoted another page's "visit the security office in that new building").
_PLACE = re.compile(r"https?://|\bwww\.|\b[\w-]+(?:\.[\w-]+)*\.(?:gov|com|org|net|io|us|edu|mil)\b|"
                    r"[\w.+-]+@[\w-]+\.[\w.]+|(?<![\w&])#[a-z][\w-]+|(?<!\w)@[a-z][\w-]+|\bchannels?\b|"
                    r"\b(?:go|head|navigate|log ?in|sign ?in)\s+(?:to|at|into)\b|\bvisit\b|\bportal\b|"
                    r"\brooms?\s+[A-Z]?\d+[A-Z]?\b|\b(?:\d+(?:st|nd|rd|th)|ground|first|second|third|fourth|fifth|"
                    r"sixth|seventh|eighth|ninth|tenth|top)\s+floor\b|\bsuite\s+\d+", re.I)

#: "what/which <named attribute> <verb> ...": the attribute asked for by name ("what organization code goes in ...",
#: "which form do I ...") - one to three words before the verb or subject that follows them.
_LABEL_ASKED = re.compile(r"(?:^|[,;]\s+)(?:(?:and|so|but|also|then)\s+)?(?:what|which)\s+(?P<noun>(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)\s+"
                          r"(?=(?:goes|go|is|are|was|were|do|does|did|should|must|can|could|will|would|i|we|you)\b)",
                          re.I)
#: Words that ask nothing by name after "what" ("what else", "what kind of").
_NOT_NOUN = frozenset("else kind sort type types happens happen exactly".split())
#: A label opening a sentence or a row: a few words, then a colon and a value ("Organization Code: Q - ...").
_LABEL = re.compile(r"^\s*(?P<label>[^:;.!?]{2,50}?)\s*:\s*(?P<value>\S.*)$")
#: A prefix or suffix quoted as written in a question ("channels starting with wg-", "the -dev suffix", "`g-`").
_AFFIX = re.compile(r"(?<![\w-])(?:[a-z][a-z0-9]{0,9}-|-[a-z][a-z0-9]{1,9})(?![\w-])", re.I)


#: A part asking for an e-mail address ("what address reaches the team", "who do I email"), and an e-mail address.
_ASKS_EMAIL = re.compile(r"\b(?:e-?mail|address)\b", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[a-z]{2,}", re.I)


def asks_place(part: str) -> bool:
    """True when a part asks where ("where do I go to change my ENT password?", "and where do I ask ...?") or how to
    reach someone ("what address do I email with travel questions", "how do I reach the Talent team ...?")."""
    return bool(_WHERE.match(part.strip()) or _CONTACT.match(part.strip()))


def states_place(sentence: str) -> bool:
    """True when a sentence names a place to go to or write to (:data:`_PLACE`): "Go to reset.gsa.gov ...", "(Ask
    #admins-github to) add the members", "email tts-travel@gsa.gov"."""
    return bool(_PLACE.search(sentence))


def asked_label(part: str) -> frozenset[str]:
    """The content terms of the attribute a part asks for by name ("what organization code goes in the program
    application" -> {organ, code}); empty when it names none ("what do I click", "what else do I file")."""
    m = _LABEL_ASKED.search(part.strip())
    if not m:
        return frozenset()
    words = m.group("noun").lower().split()
    if any(w in _NOT_NOUN for w in words):
        return frozenset()
    return content_terms(m.group("noun"))


def states_label(label: frozenset[str], sentence: str) -> bool:
    """True when a sentence is a label naming every term of ``label`` followed by its value ("Organization Code: Q -
    Federal Acquisition Service"), or a table row read as "column: value" pairs one of whose pairs does."""
    if not label:
        return False
    for pair in sentence.split("; "):
        m = _LABEL.match(pair)
        if m and label <= content_terms(m.group("label")):
            return True
    return False


def asked_noun(part: str) -> str:
    """The head noun of the thing a part asks for by name ("which shared calendar should I put my time off on" ->
    "calendar", "which line do I put vacation days on?" -> "line"); "" when it names none."""
    m = _LABEL_ASKED.search(part.strip())
    if not m or any(w in _NOT_NOUN for w in m.group("noun").lower().split()):
        return ""
    words = [w for w in m.group("noun").lower().split() if w not in _AUX]
    return words[-1] if words else ""


#: Verbs and subjects the noun of :data:`_LABEL_ASKED` may run into ("which shared calendar should I ...").
_AUX = frozenset("goes go is are was were do does did should must can could will would i we you".split())
#: A name given right after or before a noun: a quoted name, a number or a "#" code ("the Google calendar "18F Out of
#: Office"", "Tock line #670", "the "18F Out of Office" calendar"), after "is" or in brackets ("GSA's AB code is
#: 4700", 'Agency Bureau code (in this case, "4700")': fresh36's f36-v02).
_NAME_AFTER = (r"\s*(?::|\bis\b|\(\s*(?:in this case,?\s*)?)?\s*"
               r"(?:[\"“‘][^\"”’]{2,60}[\"”’]|#?\d[\w-]*|#[a-z][\w-]+)")
_NAME_BEFORE = r"(?:[\"“‘][^\"”’]{2,60}[\"”’]|#?\d[\w-]*)\s+"


def names_instance(noun: str, sentence: str) -> bool:
    """True when ``sentence`` names an instance of ``noun`` (the thing a "which ...?" part asks for) by a quoted name,
    a number or a "#" code written next to it: "Tock line #670" for "line", 'the Google calendar "18F Out of
    Office"' for "calendar"; "There is also a shared calendar." names none."""
    if not noun:
        return False
    word = re.escape(noun) + r"s?\b"
    return bool(re.search(r"\b" + word + _NAME_AFTER, sentence, re.I)
                or re.search(_NAME_BEFORE + r"(?:\w+\s+)?" + word, sentence, re.I))


#: A part asking what something is called ("what is the COR called in relation to ...", "what do we call ...", "what
#: is it known as", "what term / name is used for ..."): a term the sentence gives in quotes answers it.
_ASKS_NAME = re.compile(_OPENING + r"(?:what|how)\s+(?:(?:is|are|was|were)\s+(?:[\w'’-]+\s+){1,6}?(?:called|known\s+as|"
                        r"referred\s+to\s+as|described\s+as)|(?:do|does|did)\s+(?:[\w'’-]+\s+){1,4}?call|"
                        r"(?:term|name|nickname)\s+(?:is|do|does))\b", re.I)
#: A term given in quotes: one to six words between quotation marks.
_QUOTED_TERM = re.compile(r"[\"“‘](?:[^\"”’\s]+\s+){0,5}[^\"”’\s]+[\"”’]")


def asks_name(part: str) -> bool:
    """True when a part asks what something is called ("what is the COR called in relation to the contracting
    officer?")."""
    return bool(_ASKS_NAME.match(part.strip()))


def states_name(sentence: str) -> bool:
    """True when a sentence gives a term in quotes ('The COR serves as the contracting officer’s “eyes and
    ears.”')."""
    return bool(_QUOTED_TERM.search(sentence))


def quoted_prefixes(part: str) -> list[str]:
    """The prefixes and suffixes a part quotes as written ("What do Slack channels starting with wg- mean" ->
    ["wg-"])."""
    return [m.group(0).lower() for m in _AFFIX.finditer(part)]


def _holds_affix(sentence: str, affix: str) -> bool:
    """True when ``sentence`` holds ``affix`` as written, not inside a longer word ("wg-" in "`wg-` | Working
    groups", not in "swg-x")."""
    return bool(re.search(rf"(?<![\w-]){re.escape(affix)}", sentence, re.I))


#: The attribute words asking for an affix ("what prefix do working group channels use?").
_AFFIX_WORDS = frozenset({"prefix", "suffix"})
#: A sentence stating a prefix in its own words ("the channels have a wg- prefix", "channels beginning with a c-
#: prefix", "a g- before the name").
_STATED_AFFIX = re.compile(r"(?<![\w#-])[A-Za-z0-9]{1,8}-\s+(?:prefix|before\s+(?:the|their|its)\s+name)\b", re.I)


def cued(ranked: Sequence[ScoredSentence], part: str, spread: float = CUE_SPREAD) -> ScoredSentence | None:
    """The best sentence of ``ranked`` stating what ``part`` asks for, among those within ``spread`` of the best: one
    holding a prefix the part quotes as written, else a label naming the attribute it asks for by name, else, for
    "where", one naming a place (:func:`states_place`). None when the part asks none of these or no close sentence
    states it. (The part's best sentence is above the answerer's threshold already: this chooses among the close
    ones, so a quoted prefix's row may be just below it: "prefix/suffix: wg-; description: Working groups".)"""
    if not ranked:
        return None
    floor = ranked[0].score - spread
    close = [s for s in ranked if s.score >= floor]
    label = asked_label(part)
    tests = [lambda text, a=affix: _holds_affix(text, a) for affix in quoted_prefixes(part)]
    if label & _AFFIX_WORDS:
        # a sentence stating the prefix in prose before a table's other rows labelled "prefix/suffix" (fresh38's
        # f38-m09, a development set: "what prefix do working group Slack channels use?" quoted "prefix/suffix:
        # -shared; description: Channels that are linked with another Slack org")
        tests.append(lambda text: bool(_STATED_AFFIX.search(text)))
    if label:
        tests.append(lambda text: states_label(label, text))
    if noun := asked_noun(part):
        tests.append(lambda text: names_instance(noun, text))
    if asks_name(part):  # "what is the COR called ...?": the close sentence giving a term in quotes
        tests.append(states_name)
    if asks_place(part):
        if _ASKS_EMAIL.search(part):  # "what address do I email ...": an e-mail address before a channel or a link
            tests.append(lambda text: bool(_EMAIL.search(text)))
        tests.append(states_place)
    for test in tests:
        hit = next((s for s in close if test(s.text)), None)
        if hit is not None:
            return hit
    return None


def named_instance(ranked: Sequence[ScoredSentence], question: str,
                   spread: float = CUE_SPREAD) -> ScoredSentence | None:
    """The best sentence of ``ranked`` within ``spread`` of the best that names an instance of the thing ``question``
    asks for by name (:func:`asked_noun`, :func:`names_instance`: "code" / "GSA's AB code is 4700"); None when it
    names none or no close sentence does."""
    noun = asked_noun(question)
    if not ranked or not noun:
        return None
    floor = ranked[0].score - spread
    return next((s for s in ranked if s.score >= floor and names_instance(noun, s.text)), None)


#: A part asking which thing ("which AirTable interface lets me ...").
_WHICH = re.compile(_OPENING + r"which\s+[a-z]", re.I)
#: Most words of a list item read as the name that the item after it describes ("- TTSC calendar" / "- Staff to see
#: TTSC events, organizational milestones, etc.").
NAME_WORDS = 4


def named_item(texts: Sequence[str], kinds: Sequence[str], hit: ScoredSentence, part: str) -> str | None:
    """The list item right before ``hit`` in its source (its sentences ``texts`` and their ``kinds``,
    grounding.sentence_data) when it names what ``hit`` describes and ``part`` asks which thing ("which AirTable
    interface lets me see TTSC events?": "TTSC calendar" before "Staff to see TTSC events, organizational milestones,
    etc."): ``hit`` is an item of more than :data:`NAME_WORDS` words naming no instance of the asked noun, the one
    before it an item of at most that many without closing punctuation. None otherwise."""
    noun = asked_noun(part)
    if not (noun or _WHICH.match(part.strip())) or hit.kind != "item" or len(hit.text.split()) <= NAME_WORDS \
            or names_instance(noun, hit.text):
        return None
    at = hit.position - 1
    if not (0 <= at < len(texts) and hit.position < len(texts)) or texts[hit.position] != hit.text:
        return None
    name = texts[at].strip()
    if kinds[at] != "item" or len(name.split()) > NAME_WORDS or not name or name[-1] in ".!?:;":
        return None
    return name
