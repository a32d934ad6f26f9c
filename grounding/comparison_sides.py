"""The two sides of a comparison question ("my Mac login password or my work iPhone passcode"), each with its own
terms and the question asked of it alone; grounding.comparison answers each side.

Rules written on the calibration half of the 18F golden set (evaluation/golden/18f.jsonl) and its development file,
never on its test half. No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms

#: What joins the two sides; "than" not after "more", "less" ... ("costs more than $2,500" states a condition).
_CONNECTOR = re.compile(r"\s+(?:or|versus|vs\.?|compared (?:with|to)|compares? (?:with|to))\s+|"
                        r"(?<!\bmore)(?<!\bless)(?<!\bfewer)(?<!\bgreater)(?<!\brather)(?<!\bother)\s+than\s+", re.I)
#: Words that make what follows a clause of the question ("do I earn per pay period"), not part of a side.
_CLAUSE_WORD = re.compile(r"\b(?:do|does|did|is|are|was|were|can|could|will|would|should|must|have|has|had|i|you|"
                          r"we|they|he|she|it)\b", re.I)
_SIDE_STOP = re.compile(r"[:;?]|,(?!\d)|\b(?:which|what|how|whose|who|when|where)\b", re.I)


@dataclass(frozen=True)
class Sides:
    """The two sides of a comparison: each side's own content terms (not the other's), the question asked of that
    side alone ("Which has to be longer: my Mac login password?") and the side's own words."""

    terms: tuple[frozenset[str], frozenset[str]]
    queries: tuple[str, str]
    #: each side as the question words it ("BART from SFO to Civic Center", "the CTA from O'Hare in Chicago"); ""
    #: when not known
    phrases: tuple[str, str] = ("", "")


def comparison_sides(question: str) -> Sides | None:
    """The sides of a comparison ("my Mac login password or my work iPhone passcode" -> terms ({mac, login,
    password}, {work, iphon, passcod})), or None when no two sides are found."""
    asking = question_sentence(question)
    if between := _between_sides(asking) or _yes_no_sides(asking):
        return between
    m = _CONNECTOR.search(asking)
    if not m:
        return None
    # "A, or B": the comma before the connector closes the left side, it does not stop it
    before, after = asking[:m.start()].rstrip(" ,"), asking[m.end():]
    stops = list(_SIDE_STOP.finditer(before))
    right_end = _SIDE_STOP.search(after)
    right = after[:right_end.start()] if right_end else after
    span = _after_colon(before, len(right.split())) or _parallel_span(before, right)
    if span is None and (span := _same_opening(before, right)):
        # "on weekdays than on Saturdays in San Francisco": the phrase parallel to "on weekdays" is "on Saturdays";
        # what follows it ("in San Francisco") is said of both sides
        right = _first_phrase(right)
    if span is None:
        start = stops[-1].end() if stops else 0
        words = before[start:].split()[-min(6, max(2, len(right.split()))):]  # about as long as the other side
        span = (len(before) - len(" ".join(words)), len(before)) if words else (len(before), len(before))
    left = before[span[0]:span[1]]
    a, b = content_terms(left), content_terms(right)
    if not (a - b and b - a):
        return None
    tail = after[len(right):]
    frame = before[:span[0]].rstrip()
    if _DETERMINER_END.search(frame) and _DETERMINER_START.match(right):
        frame = _DETERMINER_END.sub("", frame)  # "How much does a" + "a cab from Dulles": one determiner
    verb = ""
    if span[1] == len(before) and _DO_SUPPORT.search(frame):
        # the left side ran to the connector with the question's main verb in it ("How much does a cab from DCA
        # cost"): the other side's question keeps that verb ("How much does a cab from Dulles cost?")
        verb = next((w for w in re.findall(r"[A-Za-z]+", left)[1:] if w.lower() in _MAIN_VERBS
                     and w.lower() not in right.lower().split()), "")
    other = f"{frame} {right}{' ' + verb if verb else ''}{before[span[1]:]}{tail}"
    return Sides((a - b, b - a), (f"{before}{tail}".strip(), " ".join(other.split())), (left.strip(), right.strip()))


#: "the difference (in cost) between A and B" (A and B the sides; what follows B's end punctuation is not a side).
_BETWEEN = re.compile(r"\bdiffer(?:ence|ences|s)?\b((?:\s+[\w'’]+){0,3}?)\s+between\s+(.+?)\s+and\s+([^?.!]+)", re.I)
#: A side that is itself a question ("how often procurement happens"): asked as it is.
_QUESTION_SIDE = re.compile(r"^(?:how|what|when|where|which|who|whom|whose|why)\b", re.I)


def _between_sides(asking: str) -> Sides | None:
    """The sides of "What's the difference (in cost) between A and B?" (A up to the first "and"), each asked with
    the words before "difference" and those after it ("What's the paid parental leave?", "What is a cab from DCA in
    cost?"; one determiner kept; a side worded as a question, "how often procurement happens", is asked as it is),
    or None when the question is not so worded or the two sides share all their content words."""
    m = _BETWEEN.search(asking)
    if not m:
        return None
    left, right = m.group(2).strip(" ,"), m.group(3).strip(" ,")
    a, b = content_terms(left), content_terms(right)
    if not (a - b and b - a):
        return None
    frame, aspect = asking[:m.start()].rstrip(), m.group(1).strip()
    queries = []
    for side in (left, right):
        lead = _DETERMINER_END.sub("", frame) if _DETERMINER_END.search(frame) and _DETERMINER_START.match(side) \
            else frame
        asked = f"{side} {aspect}" if _QUESTION_SIDE.match(side) else f"{lead} {side} {aspect}"
        queries.append(" ".join(asked.split()) + "?")
    return Sides((a - b, b - a), (queries[0], queries[1]), (left, right))


#: "Does A get more leave than B?", "Is A more expensive than B?": the auxiliary, A, what is said of A (a verb, when
#: there is one, and the words up to the comparative), the comparative and what it is of, then B.
_COMPARATIVE = r"(?P<more>more|less|fewer|longer|shorter|higher|lower|earlier|later|bigger|smaller|cheaper|faster|" \
    r"slower|sooner)(?P<what>(?:\s+[\w'’-]+){0,4}?)\s+than\s+(?P<b>[^?]+?)\s*\??$"
_AUX = r"^(?P<aux>does|do|did|is|are|was|were|will|would|can|could|should)\s+"
_YES_NO_VERB = re.compile(
    _AUX + r"(?P<a>.+?)\s+(?P<said>(?:gets?|runs?|takes?|costs?|lasts?|pays?|has|have|needs?|earns?|accrues?|"
    r"requires?|allows?|opens?|closes?|starts?|ends?|expires?|gives?|offers?|covers?)\s+(?:[\w'’-]+\s+){0,2}?)"
    + _COMPARATIVE, re.I)
_YES_NO_BARE = re.compile(_AUX + r"(?P<a>.+?)\s+(?P<said>)" + _COMPARATIVE, re.I)
#: Comparatives of a quantity: "more leave" asks how much leave; "more expensive" asks the adjective.
_QUANTITY_COMPARATIVES = frozenset({"more", "less", "fewer"})


def _yes_no_sides(asking: str) -> Sides | None:
    """The sides of a yes/no comparison ("Does relocating with a military spouse get more administrative leave than
    being a bone marrow donor?"): A and B, each asked what is said of A without the comparative of a quantity
    ("Does relocating with a military spouse get administrative leave?", "Does being a bone marrow donor get
    administrative leave?"; "Is a cab from Dulles more expensive?" keeps it). B opening with a preposition is set
    against A's phrase of that preposition ("Is the hotel limit in Boston higher than in Chicago?"). None when the
    question is not so worded, or when the two sides share all their content words."""
    m = _YES_NO_VERB.match(asking.strip()) or _YES_NO_BARE.match(asking.strip())
    if not m:
        return None
    subject, a, b = "", m["a"].strip(" ,"), m["b"].strip(" ,")
    if (span := _same_opening(a, b)) is not None:  # "the hotel limit in Boston" / "in Chicago"
        subject, a = a[:span[0]], a[span[0]:]
    terms_a, terms_b = content_terms(a), content_terms(b)
    if not (terms_a - terms_b and terms_b - terms_a):
        return None
    # "more administrative leave" asks about the leave; "more expensive", "longer" about what the word says
    quantity = m["more"].lower() in _QUANTITY_COMPARATIVES and m["what"].strip()
    said = f"{m['said']}{m['what']}" if quantity else f"{m['said']}{m['more']}{m['what']}"
    queries = tuple(" ".join(f"{m['aux']} {subject} {side} {said}".split()) + "?" for side in (a, b))
    return Sides((terms_a - terms_b, terms_b - terms_a), queries, (a, b))


_DETERMINER = r"(?:a|an|the|my|your|our|their|his|her|its)"
_DETERMINER_END = re.compile(rf"\s+{_DETERMINER}$", re.I)
_DETERMINER_START = re.compile(rf"^{_DETERMINER}\s", re.I)
#: A question whose main verb follows its subject ("What does X cost", "How long does X take").
_DO_SUPPORT = re.compile(r"\b(?:do|does|did)\b", re.I)
#: Main verbs of such questions that ask what is compared (bare forms, as after "does").
_MAIN_VERBS = frozenset("""cost take last pay charge include require need mean start end open close expire run get
offer cover allow earn accrue""".split())


#: Words that open a side as a phrase ("on weekdays than on Saturdays", "for staff or for contractors").
_OPENING = frozenset("on in at for from to with by during under over before after within".split())


#: Words from which the phrase between a colon and the connector is too long to be one side.
_COLON_SIDE_WORDS = 8


def _after_colon(before: str, right_words: int = 0) -> tuple[int, int] | None:
    """The side before the connector when the question lists its two sides after a colon ("Which is a quicker train
    ride: SFO to the SF office, or Midway to the Chicago office?"): the whole phrase from the colon to the connector,
    at most _COLON_SIDE_WORDS words, or at most as many as the side after the connector (``right_words``: two long
    parallel sides, "faster: the Events Team after I raise a question on my request, or the Office of Acquisition
    after I submit an intake form ...", fresh31's f31-26), and holding no other stop (a comma, a question word). None
    otherwise."""
    colon = before.rfind(":")
    if colon < 0:
        return None
    phrase = before[colon + 1:]
    if not phrase.strip() or len(phrase.split()) > max(_COLON_SIDE_WORDS, right_words) or _SIDE_STOP.search(phrase):
        return None
    return colon + 1 + (len(phrase) - len(phrase.lstrip())), len(before)


def _same_opening(before: str, right: str) -> tuple[int, int] | None:
    """Where the side parallel to ``right`` is when ``right`` opens with a preposition ("on Saturdays"): from the last
    use of the same preposition in ``before`` (after its last question word, colon or comma) to its end ("on
    weekdays"). None when ``right`` opens otherwise or ``before`` has no such word there."""
    first = right.split()[0].lower() if right.split() else ""
    if first not in _OPENING:
        return None
    stops = list(_SIDE_STOP.finditer(before))
    region = stops[-1].end() if stops else 0
    hits = [m.start() for m in re.finditer(rf"\b{first}\b", before, re.I) if m.start() >= region]
    return (hits[-1], len(before)) if hits else None


def _first_phrase(right: str) -> str:
    """A side opening with a preposition, up to the next preposition ("on Saturdays in San Francisco" -> "on
    Saturdays"); the whole side when none follows."""
    words = list(re.finditer(r"\S+", right))
    cut = next((w.start() for w in words[1:] if w.group(0).lower() in _OPENING), len(right))
    return right[:cut].rstrip()


def _parallel_span(before: str, right: str) -> tuple[int, int] | None:
    """Where, in the words before the connector, the side parallel to ``right`` is: around the last word of
    ``before`` holding a content term of ``right`` (the first such term of ``right``), with the content words just
    before it (its modifiers: "sick leave" for "annual leave as a new employee") and the words just after it that
    ``right`` holds too ("regular comp time" for "travel comp time"). When that term opens ``right`` ("someone with
    over 15 years"), the side runs to the connector ("someone in their first couple of years") unless a clause of the
    question follows ("sick leave do I earn"), or when both sides open with the same word, whatever follows
    ("getting my business cards after the order is approved, or getting my badge ..."). Only the words after the last
    question word, colon or comma of ``before`` are searched. (start, end) in characters of ``before``; None when the
    two share no content word."""
    stops = list(_SIDE_STOP.finditer(before))
    region = stops[-1].end() if stops else 0  # a side does not reach back over "which", ":", ","
    words = [w for w in re.finditer(r"\S+", before) if w.start() >= region]
    stems = [content_terms(w.group(0)) for w in words]
    # words, not values: "$2,500" on both sides is what they share, not where a side is
    right_terms = [t for w in right.split() for t in sorted(content_terms(w)) if t[:1].isalpha()]
    shared = set(right_terms)
    for n, term in enumerate(right_terms):
        hits = [i for i, s in enumerate(stems) if term in s]
        if not hits:
            continue
        first = last = hits[-1]
        while first > 0 and stems[first - 1] and not _SIDE_STOP.search(words[first - 1].group(0)):
            first -= 1
        while last + 1 < len(words) and stems[last + 1] & shared:
            last += 1
        rest = before[words[last].end():]
        # both sides open with the same word ("getting my business cards after ... is approved, or getting my
        # badge ..."): parallel clauses, the whole clause is the side, its verbs included
        parallel = words[first].group(0).lower() == right.split()[0].lower()
        if n == 0 and rest.strip() and (parallel or not _CLAUSE_WORD.search(rest)) and not _SIDE_STOP.search(rest):
            last = len(words) - 1
        return words[first].start(), words[last].end()
    return None
