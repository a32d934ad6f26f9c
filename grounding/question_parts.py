"""Reading a question for the extractive answerer: its parts (two questions in one), the specifics that pin the asked
fact (a place, a program, a grade); the two sides of a comparison are grounding.comparison_sides. Whether a sentence
says yes or no to a question is grounding.yesno.

Rules written on the calibration half of the 18F golden set (evaluation/golden/18f.jsonl). No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms, nfkc_fold
from grounding.yesno_asking import CONDITION

#: A preposition that may stand before the question word opening a part ("..., and by when ...?", "..., and above what
#: contract size ...?", "..., and on which days ...?").
_PART_PREPOSITION = (r"(?:by|until|till|from|for|in|at|to|since|above|below|over|under|on|with|within|about|after|"
                     r"before|into|through|during|between|beyond)")
#: A word set between "and" and the second question ("..., and unrelated, what's the last day ...?": fresh38's f38-m02,
#: a development set, was asked as one question).
#: (or a hedge on the second: "..., and roughly when should my first paycheck show up?", fresh41's f41-m01)
_ASIDE = (r"(?:unrelated|separately|also|secondly|second|additionally|relatedly|similarly|finally|lastly|then|roughly|"
          r"approximately|typically|usually|generally|normally|exactly)\s*,?\s+")
_PART_BREAK = re.compile(r",?\s+and\s+(?:" + _ASIDE + r")?(?=(?:" + _PART_PREPOSITION + r"\s+(?=(?:what|how|who|"
                         r"whom|when|which|where)\b))?(?:what|how|who|whom|whose|why|when|which|where|if|is|are|do|"
                         r"does|can|will|"
                         # a condition opening the second question as "if" does: "..., and assuming nothing is found,
                         # roughly how long does ...?" (fresh39's f39-m06, a development set, was one part)
                         r"with|assuming|supposing|provided)\b)|"
                         # a setting of the second question before its question word: "..., and on a long engagement
                         # how often should we ...?" (fresh38's f38-m12, a development set, was one part)
                         # (or what it leaves out: "..., and besides the request forms, what record ...?", f40-m03)
                         r",?\s+and\s+(?=(?:on|for|in|at|during|after|before|with|besides)\s+(?:[\w'’-]+,?\s+){1,3}?"
                         r"(?:what|how|who|whom|when|which|where)\b)|"
                         r"[?;]\s+(?:and\s+)?(?=[A-Za-z])|,\s+and\s+(?=(?:once|after|when)\b)|"
                         # two questions set against each other: "How many years ... for a FERS retirement payment,
                         # versus how long before I can apply for ...?" (fresh36's f36-c08)
                         r",?\s+(?:versus|vs\.?|compared (?:with|to)|as opposed to)\s+"
                         r"(?=(?:what|how|who|whom|when|which|where)\b)", re.I)


#: A leading condition of a message's first part, which frames every part ("If I switch to Maxiflex, how many ...";
#: a setting such as "On the transit benefit application, what ..." frames its own part only).
_SHARED_FRAME = re.compile(r"^(?P<frame>(?:if|when|whenever|once|as long as|while|after|before)\b[^,?]{3,80}),\s*"
                           r"(?=(?:what|which|who|whom|when|where|how)\b)", re.I)
#: A part that is only a question word, after its preposition ("..., and by when?", "..., and for how long?",
#: "..., and where?"): it asks that of the part before it (matched with that part's words, grounding.extractive_parts).
_ELLIPTICAL = re.compile(r"^(?:(?:by|until|till|from|for|in|at|to|since)\s+)?(?:when|where|who|whom|which|what|"
                         r"how(?:\s+(?:long|much|many|often|soon))?)\s*[?.!]?$", re.I)
#: A word that only joins a question sentence to the one before it ("And what if ...?", "Also, can I ...?").
_JOINING = re.compile(r"^(?:and|also|plus)\b,?\s*", re.I)


def question_parts(question: str) -> tuple[str, list[str]]:
    """The preamble of a message and the questions it asks, in order: "I'm getting married in June. How long do I
    have to change my plan, and if I miss it, when does Open Season start?" -> ("I'm getting married in June.", ["How
    long do I have to change my plan", "if I miss it, when does Open Season start?"]). One part when nothing
    splits (the whole message, preamble included, and "" for the preamble).

    Each question sentence of a message asking several ("How much PTO do I get? Do sick days carry over?") is a part
    (split further like one asking sentence), the statements among them are the preamble, and a joining word opening
    one ("And what if ...?") is left out. A leading clause of the first part that frames the whole message ("If I
    switch to Maxiflex, how many hours ..., and what's the longest day ...?") joins the preamble, so every part is
    asked with it."""
    text = question.strip()
    sentences = [p.strip() for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()]
    asked = [s for s in sentences if s.endswith("?")]
    if len(asked) >= 2:
        lead = " ".join(s for s in sentences if not s.endswith("?"))
    else:
        asking = question_sentence(text)
        lead = text[:len(text) - len(asking)].strip() if text.endswith(asking) else ""
        asked = [asking]
    pieces = [p.strip(" ,") for sentence in asked for p in _PART_BREAK.split(_JOINING.sub("", sentence))
              if p and (len(p.split()) >= 3 or _ELLIPTICAL.match(p.strip(" ,")))]
    pieces = _embedded_ellipsis_joined(pieces)
    if len(pieces) < 2:
        return "", [text]
    frame = _SHARED_FRAME.match(pieces[0])
    if frame:
        lead = f"{lead} {frame.group('frame')}".strip()
        pieces[0] = pieces[0][frame.end():]
    return lead, pieces


#: A part ending with an embedded infinitival question ("... when deciding what to delegate", "... how to apply"):
#: an elliptical part after it ("and to whom?") continues that embedded question, not the message's question.
_EMBEDDED_INFINITIVE = re.compile(r"\b(?:what|which|who|whom|where|when|how)\s+to\s+[a-z]+\s*$", re.I)


def _embedded_ellipsis_joined(pieces: list[str]) -> list[str]:
    """``pieces`` with each elliptical piece ("to whom?") joined back, with "and", to a piece before it that ends
    with an embedded infinitival question ("What dimensions can I weigh when deciding what to delegate and to
    whom?" is one question)."""
    out: list[str] = []
    for piece in pieces:
        if out and _ELLIPTICAL.match(piece) and _EMBEDDED_INFINITIVE.search(out[-1]):
            out[-1] = f"{out[-1]} and {piece}"
        else:
            out.append(piece)
    return out


_AUX_OR_SUBJECT = r"(?:can|could|do|does|did|will|would|should|must|may|might|is|are|was|were|have|has|i|you|we|they)"
_HOW_MANY_OF = re.compile(rf"^(?:and\s+)?how (?:many|much)\s+(?P<what>(?:(?!{_AUX_OR_SUBJECT}\b)\S+\s+){{1,6}}?)"
                          rf"(?={_AUX_OR_SUBJECT}\b)", re.I)
_HOW_MANY_BARE = re.compile(rf"^(?:and\s+)?how (?:many|much)\s+(?={_AUX_OR_SUBJECT}\b)", re.I)


def with_ellipsis_filled(parts: Sequence[str]) -> list[str]:
    """The parts of a message with an elided noun filled in from the part before: "How many days of military leave
    can I get each year, and how many can I carry over?" -> [..., "how many days of military leave can I carry
    over?"] (a "how many" or "how much" followed at once by a verb or a subject asks about the previous part's
    thing). Other parts are returned unchanged."""
    out: list[str] = []
    for part in parts:
        bare = _HOW_MANY_BARE.match(part)
        previous = _HOW_MANY_OF.match(out[-1]) if out and bare else None
        out.append(f"{part[:bare.end()]}{previous.group('what')}{part[bare.end():]}" if previous else part)
    return out


_ASKING_WORD = re.compile(r"\b(?:how|what|which|who|whom|whose|when|where|why)\b", re.I)


def asked_terms(part: str, others: Sequence[str] = ()) -> frozenset[str]:
    """The content terms (grounding.lexical.content_terms) of what a part asks about: its words from its first
    question word on, a leading condition left out ("with 14 pay periods left, how much advanced leave could I ask
    for?" -> {advanc, leav, ask}; the whole part when it has no question word), less the terms of ``others`` (the
    other parts and the message's preamble), so what remains names this part's own subject ({advanc, ask})."""
    m = _ASKING_WORD.search(part)
    terms = content_terms(part[m.start():] if m else part)
    for other in others:
        terms -= content_terms(other)
    return terms


#: A capitalised word, an apostrophe inside it included ("O'Hare", "D'Angelo"), and runs of them.
_CAPITALISED = re.compile(r"\b(?:[A-Z]['’][A-Z][a-zA-Z]+|[A-Z][a-zA-Z]+|[A-Z]{2,}|[A-Z][a-z]*[A-Z]\w*)"
                          r"(?:[ -](?:[A-Z]['’][A-Z][a-zA-Z]+|[A-Z][a-zA-Z]+|[A-Z]{2,}))*\b")
_CODE = re.compile(r"\b(?:GS-?\d{1,2}|FY\s?\d{2,4})\b", re.I)
#: Product names written in mixed case that do not open with a capital ("1Password", "iPhone", "macOS", "eBay").
_MIXED_CASE = re.compile(r"(?<![\w-])[a-z0-9]\w*[A-Z]\w*")
#: Capitalised words of a question that pin nothing (question and sentence openers, pronouns, days, months, and the
#: head nouns of organisations' names: "Office" of "the Office of Acquisition" pinned a comparison side to sources
#: writing "Office", and the page says "OA": fresh31's f31-26).
_COMMON = frozenset("""I I'm I've If Is Are Can Could Do Does Did Will Would Should Must May Might Has Have What What's
Which Who Whom Whose When Where Why How And But Or So For After Before During While Once Back OK Okay Non My Our The A
An In On At To Alongside Around About Also Then Yes No Please Hi Hello Hey Thanks Thank Dear Sorry Quick Question
Everyone Everybody Anyone Anybody Someone Somebody Nobody
Monday Tuesday Wednesday Thursday Friday Saturday Sunday
January February March April May June July August September October November December
Office Team Department Division Group Center Centre Program Programme Branch Unit Agency Bureau""".split())


def _pins_nothing(word: str) -> bool:
    """A capitalised word that names nothing on its own: a common word (_COMMON), its plural, or an acronym."""
    return word in _COMMON or word.removesuffix("s") in _COMMON or word.isupper()


def specifics(question: str) -> list[str]:
    """The names and codes a question pins its fact with: capitalised words and runs of them that do not open a
    sentence ("Denver", "San Francisco", "SmarTrip", "CoE"; not all-capital acronyms), product names in mixed case
    ("1Password", "iPhone"; not "18F"), grade and fiscal-year codes ("GS-12", "FY26"), and a group of people the
    question asks about ("contractors", "interns", "part-time", "non-supervisors"; lower case, as written:
    :data:`_GROUP`). When the asking sentence (grounding.answer_types.question_sentence) names any, only its own are
    returned. (Read once per question: the answerer asks for them per candidate sentence.)"""
    return list(_specifics(question))


@functools.lru_cache(maxsize=4096)
def _specifics(question: str) -> tuple[str, ...]:
    """:func:`specifics` as a tuple (cached)."""
    asking = question_sentence(question)
    if asking != question.strip() and (own := _specifics(asking)):
        # the asking sentence names its own: those pin the fact, not the places or groups of the asker's situation
        # ("I am a hybrid employee based in Denver ... What is the nightly hotel limit in Boston?" asks about Boston)
        return own
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", question.strip()):
        words = sentence.split()
        # the opening word without a pronoun's contraction: "We're planning ..." opens with "We" (fresh33's f33-a02
        # was refused "anything about We"), "There's an FY21 ... link" with "There" (fresh37's f37-t03 was refused
        # "the answer for There"); a possessive stays ("Denver's office" names Denver)
        first = re.sub(r"['’](?:re|ve|ll|d|m)$|^(there|here|that|what|where|who|how|when|let|it)['’]s$", r"\1",
                       words[0].strip("\"'()!?,.:;"), flags=re.I) if words else ""
        for m in _CAPITALISED.finditer(sentence):
            name = m.group(0)
            if m.start() == sentence.find(first) and name.split()[0] == first:
                name = " ".join(name.split()[1:])  # the sentence's opening word is capitalised anyway
            # acronyms (GSA, TTS, ZIP) name the organisation or a topic, rarely the asked fact's subject, and common
            # words (a plural of one too: "Saturdays") name nothing: both are left out at the edges of a run; inside
            # one they are part of the name ("Lahu Ke Do Rang" keeps its "Do")
            parts = [w for w in re.split(r"[ -]", name) if w]
            while parts and _pins_nothing(parts[0]):
                parts.pop(0)
            while parts and _pins_nothing(parts[-1]):
                parts.pop()
            if parts and not _OWN_NAME.search(sentence[:m.start()]):
                found.append(" ".join(parts))
        found += [m.group(0) for m in _CODE.finditer(sentence)]
        found += [m.group(0) for m in _MIXED_CASE.finditer(sentence) if any(c.islower() for c in m.group(0))]
        found += [m.group(1).lower() for m in _GROUP.finditer(sentence)]
    return tuple(dict.fromkeys(found))


#: What stands before a person's own name ("Everyone's systems call me Jonathan but I go by Jon", "my name is Ana"):
#: the asker's name pins no fact of the documents (the fresh23c conversation f23c-31 was refused "they do not say
#: anything about Jonathan or Jon" for "How do I set my preferred name?").
_OWN_NAME = re.compile(r"\b(?:call(?:s|ed)?\s+me|i\s+go\s+by|my\s+(?:legal\s+|preferred\s+)?name\s+is|"
                       r"(?:i\s+am|i['’]m)\s+(?:called|named))\s*$", re.I)


#: A group of people a rule may hold for and not for the others ("Do contractors get paid time off?" is not settled
#: by "Employees accrue 1.5 days of paid time off"): a specific the question pins its fact with, as a place is. Not
#: after a determiner or a possessive ("my supervisor", "a contractor on my project" is someone the asker deals
#: with; "as a contractor" is the asker). Generic groups (employees, staff, people) pin nothing; "manager" is left
#: out (a compound's head as often: "password manager", "account manager").
_GROUP = re.compile(r"(?:(?<=\bas an )|(?<=\bas a )|(?<=\bI'm a )|(?<=\bI am a )|(?<=\bI'm an )|(?<=\bI am an )|"
                    r"(?<!\bmy )(?<!\byour )(?<!\bour )(?<!\btheir )(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bhis )"
                    r"(?<!\bher )(?<!-))\b(contractors?|interns?|volunteers?|supervisors?|detailees?|appointees?|"
                    r"part-time|hybrid|non-supervisors?|non-supervisory)\b"
                    # a role being filled names no group the question asks about: "I'm setting up interviews for an
                    # open 18F supervisor role" (fresh33's f33-a15 was refused "for supervisor")
                    r"(?!\s+(?:roles?|positions?|jobs?|vacanc(?:y|ies)|openings?|candidates?)\b)", re.I)


def as_written(name: str, question: str) -> str:
    """``name`` as the question writes it when it is the first part of a dotted name there ("Max" of "... through
    Max.gov?" -> "Max.gov"), for a refusal naming it; ``name`` otherwise."""
    m = re.search(rf"\b{re.escape(name)}(?:\.[A-Za-z]+)+", question)
    return m.group(0) if m else name


def as_phrased(words: Sequence[str], question: str, *, longest: int = 8) -> str:
    """``words`` (of the question's asking sentence, in its order) as the question phrases them: the shortest stretch
    of the asking sentence (grounding.answer_types.question_sentence) holding each of them as a whole word, when it is
    at most ``longest`` words long ("offer a 401(k) match", "manager doesn't respond"), for a refusal naming what
    the documents do not mention ("they do not say anything about offer 401(k) match" read as a typing slip: the
    s44 new-user trial); else the words joined by spaces."""
    asking = question_sentence(question)
    spots = []
    for word in words:
        m = re.search(rf"(?<![\w(]){re.escape(word)}(?![\w)])", asking, re.I)
        if m is None:
            return " ".join(words)
        spots.append(m)
    start, end = min(m.start() for m in spots), max(m.end() for m in spots)
    # a verb before the thing asked about goes ("offer a 401(k) match" -> "a 401(k) match")
    if (m := re.match(r"\S+\s+(?=(?:a|an|the)\s)", asking[start:end], re.I)) is not None:
        start += m.end()
    if asking[start:end].count('"') % 2 and asking[end:end + 1] == '"':
        end += 1  # a quoted name ends with its quote ('the film "Lahu Ke Do Rang"')
    phrase = asking[start:end]
    if phrase.count('"') % 2 or phrase.count("“") != phrase.count("”"):
        phrase = re.sub(r'["“”]', "", phrase)  # an unbalanced quote mark goes
    return phrase if len(phrase.split()) <= longest else " ".join(words)


def is_group(name: str) -> bool:
    """True when a specific (:func:`specifics`) is a group of people ("contractors", "part-time"), not a name."""
    return bool(_GROUP.fullmatch(name))


def mentions(text: str, name: str) -> bool:
    """True when ``text`` names ``name`` (case-insensitive, as whole words, or its plural: "Google Docs" names "Google
    Doc"; "GS-12" also as "GS 12" or "GS12"). A
    name of several capitalised words is also named when each of its words is ("Ryan was offered a rookie spot ...
    Davis made his debut" names Ryan Davis: a text calls a person or a place by part of its name after the first
    mention, and a chunk may hold only the later mentions). Both are read NFKC-folded ("ＦＹ２５" names FY25)."""
    text, name = nfkc_fold(text), nfkc_fold(name)
    if _GROUP.fullmatch(name):  # a group of people in any of its forms ("contractors" / "a contractor",
        # "part time", "part-timers", "volunteering", "internships", "supervisory")
        base = re.escape(re.sub(r"s$", "", name)).replace(r"\-", "[-‐‑ ]?")
        return bool(re.search(rf"(?<![\w-]){base}(?:s|es|rs|ers|ing|ship|ships|y)?(?![\w-])", text, re.I))
    parts = [w for w in re.split(r"[\s-]+", name) if w]
    words = [re.escape(w) for w in parts]
    code = bool(_CODE.fullmatch(name))
    # a name is named by its plural too ("Google Docs" names a Google Doc); a code is not ("FY25s" is no form)
    pattern = r"[\s-]?".join(words) if code else r"\s+".join(words) + r"(?:e?s)?"
    if re.search(rf"(?<!\w){pattern}(?!\w)", text, re.I):
        return True
    return len(parts) > 1 and not code and all(w[:1].isupper() for w in parts) and all(
        re.search(rf"(?<!\w){w}(?!\w)", text) for w in words)


#: The verb a person does: after a personal subject and its auxiliaries ("I'm leaving", "if you get married", "you
#: have transferred" -> leaving, married, transferred).
_PREDICATE = re.compile(r"\b(?:i|you|we|they|he|she)(?:['’](?:m|re|ve|ll|d))?\s+(?:(?:am|are|is|was|were|have|has|"
                        r"had|will|would|do|does|did|be|been|being|get|gets|getting|got|just|currently|also|soon|"
                        r"about to)\s+)*([a-z]+)", re.I)


def _predicates(text: str) -> frozenset[str]:
    """The stems of the verbs ``text`` says a person does (_PREDICATE; stop words left out)."""
    return frozenset().union(*(content_terms(m.group(1)) for m in _PREDICATE.finditer(text)))


def condition_matches(situation: str, sentence: str) -> bool:
    """True when ``sentence`` opens with a condition on what a person does ("If you leave the company, ...", "When
    you get married, ...") and ``situation``, what the asker says of themselves, says they do it ("I'm leaving next
    month.", "I'm getting married in June."): the rule the sentence states is the one that applies to them. The verbs
    are compared (their stems), not the other words: "If you've transferred from another federal agency" does not
    match "I'm leaving federal service". False for a sentence without a leading condition."""
    m = CONDITION.match(sentence)
    return bool(m) and bool(_predicates(m.group(0)) & _predicates(situation))


#: Table cells that state nothing ("?", "N/A", a dash).
_BLANK = frozenset({"", "?", "??", "na", "n/a", "-", "--", "—", "–", "tbd", "none", "unknown"})


def blank_cell(question: str, row: str) -> bool:
    """True when a table row read as "column: value" pairs leaves blank a column the question names (by a specific
    or a content word): "Work type: Professional development; CoE feds: ?" says nothing for CoE. A piece of a cell
    that holds "; " itself ("Bandit with the provided config file ; engine for Code Climate / CodeQL") is no pair
    (fresh39's f39-t07, a development set, read "engine for Code Climate" as a blank column named by "code")."""
    names = specifics(question)
    terms = content_terms(question)
    for pair in row.split("; "):
        column, paired, value = pair.partition(": ")
        if paired and value.strip().lower() in _BLANK and (any(mentions(column, n) for n in names)
                                                           or terms & content_terms(column)):
            return True
    return False
