"""The rules that decide whether two aligned sentences contradict each other [18.8], and what differs.

    clash(a, b) -> Finding | None, the first rule that fires:
      value mismatch  the same kind, rate and slot of value, a different value ("allowance is $65" / "is $50");
                      rounding-, hedge- and unit-aware (grounding.values)
      substitution    the same sentence with one name swapped ("acquired by Facebook" / "acquired by Apple")
      polarity        a negated predicate stated plainly by the other side ("may not use" / "may use"), an antonym
                      ("allowed" / "prohibited"), or a negation cue on one side only about a word the other uses

Technique: the contradiction classes of de Marneffe, Rafferty and Manning 2008 ("Finding Contradictions in Text",
ACL): numeric/date mismatch, negation on an aligned predicate, antonymy, and the structural "same statement,
different argument" case (functional relations, Ritter et al. 2008, "It's a contradiction - no, it's not"). Which
sentences are aligned, and which clashes become notes, is decided by grounding.contradictions. No Django imports.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Literal, Sequence


from grounding.lexical import STOP_WORDS, TOKEN, fold_accents, is_negation
from grounding.claim_readings import ClaimReading, reading
from grounding.polarity import antonym_read, cue_asymmetry_read, negated_only_in_condition, negated_predicate_read
from grounding.rewording import word_key
from grounding.subjects import subject_difference
from grounding.value_compare import comparable, same_value
from grounding.values import MONTHS, StatedValue

__all__ = ["MAX_CLAIM_WORDS", "WEAK_RULES", "Finding", "clash", "clash_read"]

#: Rules that find the opposed accounts of one question in the public sets (ConflictQA), but also set loosely related
#: sentences of two documents against each other: a pair of sources reports a finding of another rule when it has
#: one, and grounding.notes does not turn these into notes.
WEAK_RULES = frozenset({"loose value", "cue"})

# --------------------------------------------------------------------------------------------- value clash

#: A "sentence" longer than this (words) is a table, a list or page furniture run together, not one claim.
MAX_CLAIM_WORDS = 60
#: A "sentence" stating more values than this is a table row or a list, not one claim: its values are not compared.
_MAX_VALUES = 8


def _same_bare_number(a: StatedValue, b: StatedValue) -> bool:
    """A bare number equal to a quantity ("with 39," / "39 medals"): the same value, its unit left implicit."""
    return "number" in (a.kind, b.kind) and a.date is None and b.date is None and a.number == b.number


def _value_mismatch(ra: ClaimReading, rb: ClaimReading, *, strong: bool = True) -> tuple[str, str, bool] | None:
    """The first pair of values of the same kind and slot that differ between two aligned sentences, and whether
    their slots match tightly; None when no pair differs.

    A value also stated by the other sentence (equal after rounding, as a bare number, or the same normalised text
    as grounding.values.value_keys gives it) is ignored. Two differing values are in the same slot when they share a
    neighbouring content word ("meal allowance is $65" / "meal allowance is $50"; both neighbours for a bare
    number, year or ordinal), or, on ``strong``ly aligned sentences, when each states exactly one value of that
    kind and the kind carries a unit (amount, percentage, duration, quantity). Dates need a shared neighbour: a
    date heading a snippet ("Jul 27, 2022 ...") is when it was written, not what it says. Values counted per
    different things never compare ("$65 per day" / "$120 per person"). A pair with the same neighbour before and the
    same neighbour after matches tightly, and comes first; "there are 14 pay periods left" and "which equals to 26
    pay periods" share only what follows them, a loose match.
    """
    va, vb = ra.values, rb.values
    if not va or not vb or max(len(va), len(vb)) > _MAX_VALUES:
        return None
    raw_a, raw_b = ra.value_keys, rb.value_keys

    def unshared(own: Sequence[StatedValue], other: Sequence[StatedValue],
                 other_raw: frozenset[str]) -> list[StatedValue]:
        return [v for v in own if not any(same_value(v, o) or _same_bare_number(v, o) for o in other)
                and re.sub(r"[\s,]", "", v.text).lower() not in other_raw]

    ua, ub = unshared(va, vb, raw_b), unshared(vb, va, raw_a)
    loose = None
    for x in ua:
        for y in ub:
            if not comparable(x, y):
                continue
            # tight: the same neighbours on the same sides ("", no word, counts as a side's neighbour)
            tight = x.sides == y.sides and any(x.sides)
            if x.kind in _BARE_KINDS:  # a bare number needs both neighbours to match ("match 1-3" / "match 2-3")
                slot = len(x.context & y.context) >= 2
            else:
                slot = bool(x.context & y.context)
            if not slot and strong and x.kind not in _BARE_KINDS and x.kind != "date":
                slot = sum(v.kind == x.kind for v in va) == 1 and sum(v.kind == y.kind for v in vb) == 1
            if slot and tight:
                return x.text, y.text, True
            if slot and loose is None:
                loose = (x.text, y.text, False)
    return loose


#: Kinds whose values need both neighbours shared: a bare number, a year, an ordinal, and identifiers (codes such as
#: "FY20" / "FY25" and times), which between two sentences more often name two things than two values of one.
_BARE_KINDS = ("number", "year", "ordinal", "code", "time")


# ---------------------------------------------------------------------------------------------- substitution

def _name_like(token: str) -> bool:
    low = token.lower()
    return token[:1].isupper() and (low not in STOP_WORDS or low in MONTHS)


_Folded = tuple[str, tuple[tuple[int, int], ...], tuple[str, ...], tuple[str, ...]]


@functools.lru_cache(maxsize=20_000)
def _folded_tokens(sentence: str) -> _Folded:
    """(the sentence with accents folded, (start, end) of each TOKEN in it, the tokens, the tokens lower-cased),
    cached: a planned sentence meets many others."""
    folded = fold_accents(sentence)
    marks = [(m.start(), m.end(), m.group(0)) for m in TOKEN.finditer(folded)]
    lower = tuple(word_key(t) for _, _, t in marks)
    return folded, tuple((s, e) for s, e, _ in marks), tuple(t for _, _, t in marks), lower


def _substitution(ra: ClaimReading, rb: ClaimReading) -> tuple[str, str] | None:
    """(span of a, span of b) when two sentences (their readings) are the same statement with one name swapped, else
    None.

    The sentences (at least four tokens each) share at least three tokens and half of the longer one, differ in at
    most two places of at most four tokens each, and one of those places replaces a capitalised name by another
    ("acquired by Facebook" / "acquired by Apple", "on January 5" / "on May 5"), while no place adds or removes a
    negation (that is a polarity clash between two subjects). Accents, apostrophe styles and the punctuation inside a
    name are ignored ("Bayamón" / "Bayamon", "GSA’s" / "GSA's", "D.C." / "DC"). Each span is the whole name: the
    swapped words with the capitalised words around them that both sides share ("CO-Transit Subsidy"). A swapped
    label that opens both ("Boston: meals are $75" / "Denver: meals are $75") names two subjects and is no swap; nor
    is a swap right after a quantifier opening both ("All GSA employees are ..." / "All TTSC staff are ...": one rule
    of two classes), nor a word capitalised because it opens a clause after a colon ("Adobe Creative Cloud: Submit a
    request": a verb), nor a name and a compound of it ("18F-themed" / "18F"), nor a name kept with words added
    ("GSA IR" / "GSA's Incident Response (IR)"), nor a place across a table's cell separator.
    """
    na, nb = len(ra.tokens), len(rb.tokens)
    if min(na, nb) < 4:
        return None
    # the tokens both share, counted with repeats, bound what any alignment matches: too few to meet the rules below
    # (half of the longer, at most 2 x 4 tokens changed on each side) rules the pair out before difflib runs; the
    # counts are the readings' (made at ingestion), the token offsets are found only for a pair that passes
    bound = sum((ra.counts & rb.counts).values())
    if bound < max(3, max(na, nb) / 2) or max(na, nb) - bound > 8:
        return None
    (fa, ma, ta, la), (fb, mb, tb, lb) = _folded_tokens(ra.text), _folded_tokens(rb.text)
    matcher = difflib.SequenceMatcher(None, la, lb, autojunk=False)
    blocks = matcher.get_opcodes()
    shared = sum(i2 - i1 for tag, i1, i2, _, _ in blocks if tag == "equal")
    edits = [op for op in blocks if op[0] != "equal"]
    if shared < max(3, max(len(ta), len(tb)) / 2) or not edits or len(edits) > 2:
        return None
    if any(i2 - i1 > 4 or j2 - j1 > 4 for _, i1, i2, j1, j2 in edits):
        return None
    if any(is_negation(" ".join(ta[i1:i2])) != is_negation(" ".join(tb[j1:j2])) for _, i1, i2, j1, j2 in edits):
        return None  # "Contractors may use" / "Employees may not use": a polarity clash about two subjects
    for tag, i1, i2, j1, j2 in edits:
        span_a, span_b = ta[i1:i2], tb[j1:j2]
        if "".join(la[i1:i2]) == "".join(lb[j1:j2]):
            continue  # one name in two spellings: "D.C." / "DC", "Wi-Fi" / "WiFi"
        if ta[i1:i2] and tb[j1:j2] and (ta[i1].startswith(f"{tb[j1]}-") or tb[j1].startswith(f"{ta[i1]}-")):
            continue  # one name and a compound of it: "18F-themed templates" / "18F templates"
        if _kept_within(la[i1:i2], lb[j1:j2]):
            continue  # "GSA IR" / "GSA's Incident Response (IR)": the name kept, words added around it
        if _across_cells(fa, ma, i1, i2) or _across_cells(fb, mb, j1, j2):
            continue  # a place across a table's cell separator ("Location | 50"): a row's label and value, no name
        if tag == "replace" and any(map(_name_like, span_a)) and any(map(_name_like, span_b)):
            if i1 == j1 == 0 and _labels(fa, ma[i2 - 1][1]) and _labels(fb, mb[j2 - 1][1]):
                continue  # the label of a "Key: value" line or a row swapped: two subjects, not two values
            if i1 == j1 == 0 and max(i2, j2) <= 3 and i2 < len(la) and j2 < len(lb) \
                    and la[i2] in _DETERMINERS and lb[j2] in _DETERMINERS:
                continue  # "Acknowledge a Mid-Year Progress Review" / "Create & Submit a Performance plan": words
                # opening a line before an article are capitalised because they open it: verbs (two steps), not names
            if _opens_clause_verb(fa, ma, la, i1, i2) or _opens_clause_verb(fb, mb, lb, j1, j2):
                continue  # "Adobe Creative Cloud: Submit a Software Request": a verb capitalised after a colon
            if _quantified_subject(la, i1) and _quantified_subject(lb, j1):
                continue  # "All GSA employees are responsible ..." / "All TTSC staff are ...": two classes, one rule
            # the swapped word with the rest of its name, which both sides share ("FAS-Transit Subsidy" / "CO-Transit
            # Subsidy", not "FAS-Transit" / "CO-Transit")
            def spaced(f: str, m: tuple, k: int) -> bool:  # only spaces between token k - 1 and token k
                return not f[m[k - 1][1]:m[k][0]].strip()

            while i1 > 0 and j1 > 0 and la[i1 - 1] == lb[j1 - 1] and _name_like(ta[i1 - 1]) \
                    and spaced(fa, ma, i1) and spaced(fb, mb, j1):
                i1, j1 = i1 - 1, j1 - 1
            while i2 < len(ta) and j2 < len(tb) and la[i2] == lb[j2] and _name_like(ta[i2]) \
                    and spaced(fa, ma, i2) and spaced(fb, mb, j2):
                i2, j2 = i2 + 1, j2 + 1
            return fa[ma[i1][0]:ma[i2 - 1][1]], fb[mb[j1][0]:mb[j2 - 1][1]]
    return None


#: Words that open a noun phrase: after a sentence's first word, they show it is a verb ("Submit the form", "Complete
#: a review"), not a name ("Apple acquired ...").
_DETERMINERS = frozenset("a an the your my our their his her its this that these those each every all any".split())


def _opens_clause_verb(text: str, marks: tuple, lower: tuple, i1: int, i2: int) -> bool:
    """True when the span of tokens ``i1:i2`` is one word opening a clause after a colon ("Adobe Creative Cloud:
    *Submit* a Software Request") followed by a determiner: capitalised because it opens the clause, a verb, not a
    name (the s12 fresh set's f2026 noted "S2 says Submit")."""
    return i2 - i1 == 1 and 0 < i1 and i2 < len(lower) and lower[i2] in _DETERMINERS \
        and ":" in text[marks[i1 - 1][1]:marks[i1][0]]


#: Determiners that make a subject a whole class ("All GSA employees", "Each Sketch plugin", "Any contractor").
_QUANTIFIERS = frozenset("all each every any".split())
#: What may stand before a sentence's subject: a connective adverb ("Otherwise, each Figma plugin ...").
_CONNECTIVES = frozenset("otherwise however also similarly likewise additionally then so and but".split())


def _quantified_subject(lower: tuple, i1: int) -> bool:
    """True when the swapped place at token ``i1`` stands right after a quantifier opening the sentence (after a
    connective adverb at most): the sentence states a rule of a whole class ("All TTSC staff are responsible for
    records management"), and the same rule of another class ("All GSA employees ...") does not contradict it. The
    issue's rule: different subjects are not a contradiction (the s12 fresh set's f2023 and fresh6's y6-003 had such
    notes)."""
    before = lower[:i1]
    while before and before[0] in _CONNECTIVES:
        before = before[1:]
    return len(before) == 1 and before[0] in _QUANTIFIERS


def _kept_within(a: Sequence[str], b: Sequence[str]) -> bool:
    """True when the words of one place (a possessive "'s" dropped) are all among the other's."""
    wa, wb = ({w.removesuffix("'s").removesuffix("’s") for w in x} for x in (a, b))
    return bool(wa) and bool(wb) and (wa <= wb or wb <= wa)


def _across_cells(text: str, marks: tuple, i1: int, i2: int) -> bool:
    """True when the tokens ``i1:i2`` (at least one) span a table's cell separator "|"."""
    return i2 > i1 and "|" in text[marks[i1][0]:marks[i2 - 1][1]]


def _labels(text: str, end: int) -> bool:
    """True when the text before ``end`` is a label: what follows it is ":" or a table cell separator "|"
    ("New York City: 18f-nyc@gsa.gov", "Chicago | 312-555-0100"): what the line is about, its subject."""
    return text[end:].lstrip()[:1] in (":", "|")


# ---------------------------------------------------------------------------------------------------- clash

@dataclass(frozen=True)
class Finding:
    """What the rules (or the judge) found on two aligned sentences: the kind, the differing values in sentence
    order, the judge's explanation ("" for the rules), and the rule that fired: "value" (a value mismatch whose
    neighbouring words match on each side), "loose value" (one shared
    neighbour, or sentences aligned strongly enough that a single value of the kind on each side is compared),
    "name" (a swapped name), "predicate" (a negated predicate stated plainly by the other side), "antonym", "cue" (a
    negation cue on one side only), "reworded" (a revision changed the words of a sentence it kept; see
    ``reworded``) or "judged". WEAK_RULES are the ones that find many loosely related pairs."""

    kind: Literal["value_mismatch", "negation", "judged"]
    values: tuple[str, str]
    explanation: str = ""
    rule: str = ""


def clash(a: str, b: str, *, strong: bool = True, versions: bool = False) -> Finding | None:
    """The rule-based finding for two aligned sentences (value mismatch, substitution, polarity), or None:
    :func:`clash_read` on the sentences' readings made from their texts (grounding.claim_readings.reading).

    ``strong``: the sentences are aligned well above the threshold, so values with no shared neighbouring word may
    be compared too. ``versions``: the sentences come from two versions of one document (see
    grounding.subjects.subject_difference). Sentences longer than 60 words are not compared (tables and lists run
    together are not one claim). The first rule that fires wins: value mismatch, then a swapped name (reported as a
    value mismatch of the two names), then polarity (negated predicate, antonym, negation cue on one side only). A
    value mismatch or a polarity clash between sentences about different subjects ("the meal allowance in Boston is
    $75" / "in Denver is $60") is no finding: the sentences are not compared further; nor is a negation standing only
    in a sentence's leading condition ("If the software is not approved, submit a request": grounding.polarity.
    negated_only_in_condition).
    """
    return clash_read(reading(a), reading(b), strong=strong, versions=versions)


@functools.lru_cache(maxsize=20_000)
def clash_read(ra: ClaimReading, rb: ClaimReading, *, strong: bool = True, versions: bool = False) -> Finding | None:
    """:func:`clash` of two sentences from their readings (grounding.claim_readings: made at ingestion and stored
    with the chunk, or from the text); the same finding as :func:`clash` of their texts. Cached per (a, b, strong,
    versions) (readings of one text are equal): the rules read nothing else, and a Finding is immutable; two
    sources planned together again bring the same aligned pairs."""
    a, b = ra.text, rb.text
    if max(len(ra.words), len(rb.words)) > MAX_CLAIM_WORDS:
        return None
    mismatch = _value_mismatch(ra, rb, strong=strong)
    if mismatch:
        values = mismatch[:2]
        if subject_difference(a, b, values=values, versions=versions, known={a: ra.values, b: rb.values}):
            return None
        return Finding("value_mismatch", values, rule="value" if mismatch[2] else "loose value")
    swapped = _substitution(ra, rb)
    if swapped:
        return Finding("value_mismatch", swapped, rule="name")
    pa, pb = ra.polarity, rb.polarity
    for rule, test in (("predicate", lambda: negated_predicate_read(pa, pb)), ("antonym", lambda: antonym_read(pa, pb)),
                       ("cue", lambda: cue_asymmetry_read((ra.cues, rb.cues), (pa, pb), (ra.words, rb.words)))):
        polarity = test()
        if polarity and rule != "antonym" and negated_only_in_condition(a if polarity[1] == "affirmative" else b):
            return None  # "If the software is not approved, submit a request": a case, not a denial
        if polarity:
            if subject_difference(a, b, versions=versions, polarity=True, known={a: ra.values, b: rb.values}):
                return None
            return Finding("negation", polarity, rule=rule)
    return None
