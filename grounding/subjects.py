"""Subjects of claims: two aligned sentences contradict each other only when they speak about the same subject.

A claim states a value of an attribute of a subject ("the meal allowance | in Boston | is $75"). A city, a product,
a plan, a role, a program, an agreement or a date range is a subject: "the meal allowance in Boston is $75" and "the
meal allowance in Denver is $60" differ in their subjects, not in their values, and are no contradiction. Without a
parser, ``subject_difference`` reads the subject off the words around the values:

    swapped words    two near-copies (values aside) with a content word on each side where the other has another
                     ("in Boston" / "in Denver", "for contractors" / "for employees", "in high-cost cities" /
                     "in most cities")
    names            a proper name or acronym only in one sentence and another only in the other ("Prime" /
                     "Kindle Unlimited", "Boston" / "Denver")
    qualifiers       a noun both sentences name, qualified differently on each side ("in most cities" / "in
                     high-cost cities", "full-time employees" / "part-time employees")
    self-reference   between two documents, a sentence about "this agreement", "these terms", "this policy" speaks
                     about its own document: two documents' "this agreement lasts 12 months" are two subjects
    date ranges      between two documents, a date or year that differs besides the compared values ("in 2023 the
                     allowance was $50" / "in 2024 it is $65")

Between two versions of one document the last two rules do not apply: a revision's "as of 2024" travels with the
value it updates ("$183,500 in FY23" / "$191,900 in 2024" is the document's one limit, changed).

Technique: the "same statement, different argument" test of functional relations (Ritter et al. 2008, "It's a
contradiction - no, it's not"): a value clash is a contradiction only when the relation's other arguments match;
alignment of the rest of the sentence follows de Marneffe et al. 2008. No Django imports.
"""

from __future__ import annotations

import difflib
import re
from typing import Mapping, Sequence

from grounding.lexical import STOP_WORDS, TOKEN, fold_accents, is_negation, stem
from grounding.values import MONTHS, StatedValue, typed_values

#: Values already read of some texts (text -> grounding.values.typed_values of it; stored at ingestion:
#: grounding.claim_readings): a text found here is not read again.
Known = Mapping[str, Sequence[StatedValue]]
_NONE: Known = {}


def _stated(text: str, known: Known) -> Sequence[StatedValue]:
    found = known.get(text)
    return found if found is not None else typed_values(text)

__all__ = ["names", "subject_difference"]

_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun".split())
#: A sentence about its own document: "this agreement", "these terms", "this policy applies".
_SELF_REFERENCE = re.compile(
    r"\b(?:this|these)\s+(?:agreements?|terms|polic(?:y|ies)|programs?|programmes?|plans?|contracts?|offers?|"
    r"services?|products?|guides?|handbooks?|documents?|pages?|sections?|benefits?|subscriptions?|memberships?)\b",
    re.I)
_PLACEHOLDER = "\x00"
#: Largest replaced span (tokens, each side) still read as a swapped word rather than a rewording.
_MAX_SWAP = 4


def _masked(sentence: str, known: Known = _NONE) -> tuple[list[str], str]:
    """(tokens of the sentence with each stated value replaced by one placeholder token, the masked text)."""
    out, pos = [], 0
    for v in _stated(sentence, known):
        start, end = v.span
        if start < pos:
            continue
        out.append(sentence[pos:start])
        out.append(f" {_PLACEHOLDER} ")
        pos = end
    out.append(sentence[pos:])
    text = fold_accents("".join(out))
    return [t for t in re.findall(rf"{_PLACEHOLDER}|{TOKEN.pattern}", text)], text


def names(sentence: str, known: Known = _NONE) -> frozenset[str]:
    """Proper names and acronyms of a sentence, lower-cased and folded: capitalised words after the first word
    (stop words, months and weekdays aside) and upper-case acronyms anywhere, values excluded ("In Boston, the IT
    team pays $75" -> {"boston", "it"}). ``known``: values already read of some texts (:data:`Known`)."""
    tokens, _ = _masked(sentence, known)
    found = set()
    words = [t for t in tokens if t != _PLACEHOLDER and t[0].isalpha()]
    for i, word in enumerate(words):
        low = word.lower()
        if low in STOP_WORDS or low in MONTHS or low in _WEEKDAYS:
            continue
        acronym = len(word) >= 2 and word.isupper()
        if acronym or (i > 0 and word[0].isupper()):
            found.add(low)
    return frozenset(found)


def _content(tokens: Sequence[str]) -> set[str]:
    return {stem(t) for t in tokens if t != _PLACEHOLDER and t[0].isalnum() and t.lower() not in STOP_WORDS}


def _first_negation(tokens: Sequence[str]) -> int:
    return next((i for i, t in enumerate(tokens) if is_negation(t)), len(tokens) if tokens else 0)


def _swapped_words(a: str, b: str, *, subject_part: bool = False, known: Known = _NONE) -> tuple[str, str] | None:
    """The first pair of content words swapped between two near-copies (values masked), else None. With
    ``subject_part``, only swaps before the first negation cue count ("Contractors may use" / "Employees may not
    use"; in "is not a suitable place" / "is a good place" the swapped words are the predicate, not its subject)."""
    ta, _ = _masked(a, known)
    tb, _ = _masked(b, known)
    la, lb = [t.lower() for t in ta], [t.lower() for t in tb]
    cue_a, cue_b = (_first_negation(la), _first_negation(lb)) if subject_part else (len(la), len(lb))
    matcher = difflib.SequenceMatcher(None, la, lb, autojunk=False)
    ops = matcher.get_opcodes()
    shared = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
    if shared < max(3, max(len(la), len(lb)) / 2):
        return None  # a rewording, not a near-copy: left to the name rule
    all_a, all_b = _content(la), _content(lb)
    for tag, i1, i2, j1, j2 in ops:
        if tag != "replace" or i2 - i1 > _MAX_SWAP or j2 - j1 > _MAX_SWAP or i1 >= cue_a or j1 >= cue_b:
            continue
        own_a, own_b = _content(la[i1:i2]) - all_b, _content(lb[j1:j2]) - all_a
        if own_a and own_b:
            return " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
    return None


#: Words before a noun that pick no part of what it names (articles, demonstratives, possessives, universal
#: quantifiers): "the cities" and "all cities" are the same cities, "most cities" and "high-cost cities" are not.
_NOT_QUALIFIERS = frozenset("a an the this that these those my your our their his her its each every any all no "
                            "same such".split())


#: Qualifiers naming two cases that exclude each other: a noun so qualified differently on each side of a polarity
#: clash is two cases, each with its own rule ("you are not representing GSA when speaking in your personal capacity"
#: / "Speaking externally in your official capacity ..., as you are representing GSA": fresh19's f19y-y14, a
#: development set, noted the two as disagreeing). Elsewhere a polarity clash reads no qualifiers (see
#: :func:`subject_difference`).
_EXCLUSIVE_CASES = frozenset(frozenset(pair) for pair in (
    ("personal", "official"), ("full-time", "part-time"), ("domestic", "international"), ("internal", "external"),
    ("public", "private")))
#: Any word of those pairs: sentences without one are not read for a qualifier swap (a polarity clash's common case).
_EXCLUSIVE_WORDS = re.compile(r"\b(?:" + "|".join(sorted({w for pair in _EXCLUSIVE_CASES for w in pair})) + r")\b",
                              re.I)


def _qualifier_swap(a: str, b: str, known: Known = _NONE) -> tuple[str, str] | None:
    """(modifier in a, modifier in b) when a noun both sentences name is qualified differently on each side ("in
    most cities" / "in high-cost cities", "full-time employees" / "part-time employees"), else None."""
    ta, _ = _masked(a, known)
    tb, _ = _masked(b, known)

    def modifiers(tokens: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for prev, word in zip(tokens, tokens[1:]):
            low, mod = word.lower(), prev.lower()
            if low in STOP_WORDS or not low[0].isalpha() or not mod[0].isalpha() or mod in _NOT_QUALIFIERS:
                continue
            if mod in STOP_WORDS and mod not in ("most", "some", "other", "many", "few", "several"):
                continue  # a preposition, an auxiliary: no modifier
            out.setdefault(stem(low), mod)
        return out

    content_a, content_b = _content([t.lower() for t in ta]), _content([t.lower() for t in tb])
    ma, mb = modifiers(ta), modifiers(tb)
    for head in sorted(ma.keys() & mb.keys()):
        x, y = ma[head], mb[head]
        if stem(x) != stem(y) and stem(x) not in content_b and stem(y) not in content_a:
            return x, y
    return None


def _other_dates(sentence: str, compared: str, known: Known = _NONE) -> set[tuple]:
    """Dates and years a sentence states besides the compared value, as comparable tuples."""
    out = set()
    for v in _stated(sentence, known):
        if v.text == compared:
            continue
        if v.date is not None:
            out.add(v.date)
        elif v.kind == "year":
            out.add((int(v.number), 0, 0))
        elif v.kind == "code" and re.fullmatch(r"fy\d{2,4}", v.keys[0]):
            out.add(("fy", v.keys[0][2:][-2:]))
    return out


_CLAUSE_BREAK = re.compile(r"\.\.\.|…|[;:|·•]|\s[-–—]\s")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _clause(sentence: str, value: str) -> str:
    """The clause of ``value`` in ``sentence`` (between semicolons, colons or dashes), its asides in parentheses
    left out unless they hold the value ("In high-cost cities (New York, Boston) the limit is $300" -> "In high-cost
    cities the limit is $300"); the whole sentence when the value is not found."""
    at = sentence.find(value) if value else -1
    if at < 0:
        return sentence
    cuts = [0] + [m.end() for m in _CLAUSE_BREAK.finditer(sentence)] + [len(sentence) + 1]
    lo = max(c for c in cuts if c <= at)
    hi = min(c for c in cuts if c > at)
    clause = sentence[lo:hi]
    return _ASIDE.sub(lambda m: m.group(0) if value in m.group(0) else " ", clause)


def _words(sentence: str, known: Known = _NONE) -> set[str]:
    return {w.lower() for w in re.findall(r"\w+", fold_accents(sentence))} | _content(_masked(sentence, known)[0])


def subject_difference(a: str, b: str, *, values: tuple[str, str] | None = None, versions: bool = False,
                       polarity: bool = False, known: Known = _NONE) -> tuple[str, str] | None:
    """(what ``a`` is about, what ``b`` is about) when two aligned sentences speak about different subjects, else
    None (the same subject as far as their words tell).

    Args:
        a, b: the two sentences.
        values: for a value clash, the values compared, as written in each sentence ("$75", "$60"): names and
            qualifiers are read in their clauses, and other dates count as part of the subject (a date range).
        versions: the sentences come from two versions of one document (self-reference and date ranges then
            belong to the document and its revision, not to a subject).
        polarity: for a polarity clash: only words swapped before the negation cue count (the subject, not the
            predicate: "Contractors may use" / "Employees may not use"); names and qualifiers elsewhere in two
            reworded sentences are not read (two accounts of one question name different sources and details),
            but a noun qualified by the two ends of a pair of exclusive cases is (:data:`_EXCLUSIVE_CASES`).
        known: the values already read of some texts (text -> grounding.values.typed_values of it, e.g. the two
            sentences' stored readings, grounding.claim_readings): those texts are not read again.
    Returns:
        the differing words or names of each side ("Boston", "Denver"), the self-reference ("This Agreement"), or
        the differing dates; None when no rule fires.
    """
    swapped = _swapped_words(a, b, subject_part=polarity, known=known)
    if swapped:
        return swapped
    if polarity and _EXCLUSIVE_WORDS.search(a) and _EXCLUSIVE_WORDS.search(b) \
            and (qualified := _qualifier_swap(a, b, known)) \
            and frozenset(w.lower() for w in qualified) in _EXCLUSIVE_CASES:
        return qualified  # "not representing GSA when speaking in your personal capacity" / "in your official capacity"
    if values is not None:
        ca, cb = _clause(a, values[0]), _clause(b, values[1])
        words_a, words_b = _words(a, known), _words(b, known)
        only_a = {n for n in names(ca, known) if n not in words_b and stem(n) not in words_b}
        only_b = {n for n in names(cb, known) if n not in words_a and stem(n) not in words_a}
        if only_a and only_b:
            return ", ".join(sorted(only_a)), ", ".join(sorted(only_b))
        qualified = _qualifier_swap(ca, cb, known)
        if qualified:
            return qualified
    if versions:
        return None
    ma, mb = _SELF_REFERENCE.search(a), _SELF_REFERENCE.search(b)
    if ma or mb:
        return (ma.group(0) if ma else "its document"), (mb.group(0) if mb else "its document")
    da, db = _other_dates(a, values[0] if values else "", known), _other_dates(b, values[1] if values else "", known)
    if da - db and db - da:
        return str(sorted(da - db, key=str)[0]), str(sorted(db - da, key=str)[0])
    return None
