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
import re
from dataclasses import dataclass
from typing import Literal, Sequence

from grounding.lexical import (STOP_WORDS, TOKEN, fold_accents, is_negation, negation_cues, normalise_negation, stem,
                               tokens)
from grounding.values import MONTHS, StatedValue, comparable, same_value, typed_values, value_keys

__all__ = ["MAX_CLAIM_WORDS", "Finding", "clash", "lexically_aligned", "token_set"]

# --------------------------------------------------------------------------------------------- value clash

#: A "sentence" longer than this (words) is a table, a list or page furniture run together, not one claim.
MAX_CLAIM_WORDS = 60
#: A "sentence" stating more values than this is a table row or a list, not one claim: its values are not compared.
_MAX_VALUES = 8


def _same_bare_number(a: StatedValue, b: StatedValue) -> bool:
    """A bare number equal to a quantity ("with 39," / "39 medals"): the same value, its unit left implicit."""
    return "number" in (a.kind, b.kind) and a.date is None and b.date is None and a.number == b.number


def _value_mismatch(a: str, b: str, *, strong: bool = True) -> tuple[str, str] | None:
    """The first pair of values of the same kind and slot that differ between two aligned sentences, else None.

    A value also stated by the other sentence (equal after rounding, as a bare number, or the same normalised text
    as grounding.values.value_keys gives it) is ignored. Two differing values are in the same slot when they share a
    neighbouring content word ("meal allowance is $65" / "meal allowance is $50"; both neighbours for a bare
    number, year or ordinal), or, on ``strong``ly aligned sentences, when each states exactly one value of that
    kind and the kind carries a unit (amount, percentage, duration, quantity). Dates need a shared neighbour: a
    date heading a snippet ("Jul 27, 2022 ...") is when it was written, not what it says. Values counted per
    different things never compare ("$65 per day" / "$120 per person").
    """
    va, vb = typed_values(a), typed_values(b)
    if not va or not vb or max(len(va), len(vb)) > _MAX_VALUES:
        return None
    raw_a, raw_b = value_keys(a), value_keys(b)

    def unshared(own: Sequence[StatedValue], other: Sequence[StatedValue],
                 other_raw: frozenset[str]) -> list[StatedValue]:
        return [v for v in own if not any(same_value(v, o) or _same_bare_number(v, o) for o in other)
                and re.sub(r"[\s,]", "", v.text).lower() not in other_raw]

    ua, ub = unshared(va, vb, raw_b), unshared(vb, va, raw_a)
    for x in ua:
        for y in ub:
            if not comparable(x, y):
                continue
            if x.kind in _BARE_KINDS:  # a bare number needs both neighbours to match ("match 1-3" / "match 2-3")
                slot = len(x.context & y.context) >= 2
            else:
                slot = bool(x.context & y.context)
            if not slot and strong and x.kind not in _BARE_KINDS and x.kind != "date":
                slot = sum(v.kind == x.kind for v in va) == 1 and sum(v.kind == y.kind for v in vb) == 1
            if slot:
                return x.text, y.text
    return None


_BARE_KINDS = ("number", "year", "ordinal")


# ------------------------------------------------------------------------------------------------- polarity

_ANTONYMS = [
    ("allow", "prohibit"), ("allow", "forbid"), ("allow", "ban"), ("permit", "prohibit"), ("permit", "forbid"),
    ("permitted", "prohibited"), ("allowed", "prohibited"), ("allowed", "forbidden"), ("required", "optional"),
    ("mandatory", "optional"), ("must", "optional"), ("include", "exclude"), ("included", "excluded"),
    ("accept", "reject"), ("approve", "deny"), ("approve", "reject"), ("approved", "denied"),
    ("approved", "rejected"), ("increase", "decrease"), ("increase", "reduce"), ("increased", "decreased"),
    ("rise", "fall"), ("gain", "loss"), ("more", "less"), ("more", "fewer"), ("higher", "lower"),
    ("larger", "smaller"), ("bigger", "smaller"), ("greater", "smaller"), ("greater", "less"), ("above", "below"),
    ("before", "after"), ("earlier", "later"), ("older", "younger"), ("faster", "slower"), ("first", "last"),
    ("true", "false"), ("always", "never"), ("same", "different"), ("similar", "different"),
    ("present", "absent"), ("alive", "dead"), ("win", "lose"), ("won", "lost"), ("success", "failure"),
    ("succeed", "fail"), ("positive", "negative"), ("open", "closed"), ("enabled", "disabled"),
    ("eligible", "ineligible"), ("legal", "illegal"), ("safe", "dangerous"), ("safe", "unsafe"),
    ("possible", "impossible"), ("likely", "unlikely"), ("common", "rare"), ("full", "partial"),
    ("paid", "unpaid"), ("public", "private"), ("internal", "external"), ("minimum", "maximum"),
    ("strong", "weak"), ("stronger", "weaker"), ("easy", "difficult"), ("easier", "harder"), ("cheap", "expensive"),
    ("cheaper", "costlier"), ("native", "foreign"), ("natural", "artificial"), ("wild", "domesticated"),
]
_ANTONYM_OF: dict[str, set[str]] = {}
for _x, _y in _ANTONYMS:
    _ANTONYM_OF.setdefault(_x, set()).add(_y)
    _ANTONYM_OF.setdefault(_y, set()).add(_x)
_NEG_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "non-")
#: Words skipped between a negation cue and the predicate it negates ("is not a", "may not be as").
_SCOPE_SKIP = frozenset("a an the be been being as so very quite really yet always necessarily entirely all "
                        "that this to have has had do does did any much many more".split())


def _negated_words(words: list[str]) -> dict[str, str]:
    """Stem of each predicate a negation cue governs -> the cue ("not", "never", "n't", "without", "no").

    Technique: the polarity feature of de Marneffe et al. 2008 on the aligned predicate; the scope is the first
    content word within three words after the cue (grounding.lexical.is_negation decides what a cue is).
    """
    out: dict[str, str] = {}
    for i, w in enumerate(words):
        if not is_negation(w):
            continue
        cue = "n't" if w.endswith("n't") else w
        if cue in ("nor", "neither"):
            continue
        for nxt in words[i + 1: i + 4]:
            if nxt in _SCOPE_SKIP or is_negation(nxt):
                continue
            out.setdefault(stem(nxt), cue)
            break
    return out


def _cue_asymmetry(a: str, b: str) -> tuple[str, str] | None:
    """(polarity of a, polarity of b) when exactly one of two aligned sentences is negated, about what the other
    says, else None.

    The polarity feature of de Marneffe et al. 2008 at sentence level ("negation cue in one and not the other",
    grounding.lexical.negation_cues), kept only when the negated clause (up to six words after the first cue, stop
    words aside) shares a content word with the other sentence: "Amazon would not be able to afford the Mona Lisa"
    / "Amazon could afford the Mona Lisa", but not "Hours not available" / "a historic home in Exton".
    """
    na, nb = negation_cues(a), negation_cues(b)
    if (na > 0) == (nb > 0):
        return None
    negated, other = (b, a) if nb else (a, b)
    words = [w for w, _, _ in tokens(normalise_negation(negated))]
    first = next((i for i, w in enumerate(words) if is_negation(w)), None)
    if first is None:
        return None
    clause = {stem(w) for w in words[first + 1:first + 7] if w not in STOP_WORDS and not is_negation(w)}
    if not clause & {stem(w) for w, _, _ in tokens(other) if w not in STOP_WORDS}:
        return None
    cue = "n't" if words[first].endswith("n't") else words[first]
    return ("affirmative", cue) if nb else (cue, "affirmative")


def _polarity_clash(a: str, b: str) -> tuple[str, str] | None:
    """(polarity of a, polarity of b) when aligned sentences disagree in polarity, else None.

    Negation: a predicate negated in one sentence appears un-negated in the other ("may not use" / "may use").
    Antonymy: each sentence holds one side of an antonym pair the other lacks ("allowed" / "prohibited"), or a word
    and its negative-prefixed form ("similar" / "dissimilar").
    """
    wa = [w for w, _, _ in tokens(normalise_negation(a))]
    wb = [w for w, _, _ in tokens(normalise_negation(b))]
    neg_a, neg_b = _negated_words(wa), _negated_words(wb)
    plain_a = {stem(w) for w in wa} - set(neg_a)
    plain_b = {stem(w) for w in wb} - set(neg_b)
    for negated, cue in neg_b.items():
        if negated in plain_a and negated not in STOP_WORDS:
            return "affirmative", cue
    for negated, cue in neg_a.items():
        if negated in plain_b and negated not in STOP_WORDS:
            return cue, "affirmative"
    set_a, set_b = set(wa), set(wb)
    only_a, only_b = set_a - set_b, set_b - set_a
    for w in sorted(only_a):
        for other in sorted(_ANTONYM_OF.get(w, ())):
            if other in only_b:
                return w, other
        for p in _NEG_PREFIXES:
            if len(w) >= 5 and p + w in only_b:
                return w, p + w
            if w.startswith(p) and len(w) - len(p) >= 5 and w[len(p):] in only_b:
                return w, w[len(p):]
    return None


# ---------------------------------------------------------------------------------------------- substitution

def _name_like(token: str) -> bool:
    low = token.lower()
    return token[:1].isupper() and (low not in STOP_WORDS or low in MONTHS)


def _substitution(a: str, b: str) -> tuple[str, str] | None:
    """(span of a, span of b) when two sentences are the same statement with one name swapped, else None.

    The sentences (at least four tokens each) share at least three tokens and half of the longer one, differ in at
    most two places of at most four tokens each, and one of those places replaces a capitalised name by another
    ("acquired by Facebook" / "acquired by Apple", "on January 5" / "on May 5"). Accents are ignored
    ("Bayamón" / "Bayamon").
    """
    fa, fb = fold_accents(a), fold_accents(b)
    ma, mb = list(TOKEN.finditer(fa)), list(TOKEN.finditer(fb))
    ta, tb = [m.group(0) for m in ma], [m.group(0) for m in mb]
    if min(len(ta), len(tb)) < 4:
        return None
    matcher = difflib.SequenceMatcher(None, [t.lower() for t in ta], [t.lower() for t in tb], autojunk=False)
    blocks = matcher.get_opcodes()
    shared = sum(i2 - i1 for tag, i1, i2, _, _ in blocks if tag == "equal")
    edits = [op for op in blocks if op[0] != "equal"]
    if shared < max(3, max(len(ta), len(tb)) / 2) or not edits or len(edits) > 2:
        return None
    if any(i2 - i1 > 4 or j2 - j1 > 4 for _, i1, i2, j1, j2 in edits):
        return None
    for tag, i1, i2, j1, j2 in edits:
        span_a, span_b = ta[i1:i2], tb[j1:j2]
        if tag == "replace" and any(map(_name_like, span_a)) and any(map(_name_like, span_b)):
            return fa[ma[i1].start():ma[i2 - 1].end()], fb[mb[j1].start():mb[j2 - 1].end()]
    return None


def token_set(sentence: str) -> frozenset[str]:
    """The lower-cased TOKENs of a sentence with accents folded (for lexical alignment)."""
    return frozenset(t.lower() for t in TOKEN.findall(fold_accents(sentence)))


def lexically_aligned(a: frozenset[str], b: frozenset[str]) -> bool:
    """True when two sentences' token sets share at least three tokens and 60% of the smaller set (the overlap
    coefficient): the lexical side of alignment, for near-copies that an embedding separates because a name changed
    ("Abdulrazak Gurnah is awarded the Nobel Prize" / "Olga Tokarczuk is awarded ...": MiniLM cosine 0.45)."""
    shared = len(a & b)
    return shared >= 3 and shared >= 0.6 * min(len(a), len(b))


# ---------------------------------------------------------------------------------------------------- clash

@dataclass(frozen=True)
class Finding:
    """What the rules (or the judge) found on two aligned sentences: the kind, the differing values in sentence
    order, and the judge's explanation ("" for the rules)."""

    kind: Literal["value_mismatch", "negation", "judged"]
    values: tuple[str, str]
    explanation: str = ""


def clash(a: str, b: str, *, strong: bool = True) -> Finding | None:
    """The rule-based finding for two aligned sentences (value mismatch, substitution, polarity), or None.

    ``strong``: the sentences are aligned well above the threshold, so values with no shared neighbouring word may
    be compared too. Sentences longer than 60 words are not compared (tables and lists run together are not one
    claim). The first rule that fires wins: value mismatch, then a swapped name (reported as a value mismatch of the
    two names), then polarity (negated predicate, antonym, negation cue on one side only).
    """
    if max(len(tokens(a)), len(tokens(b))) > MAX_CLAIM_WORDS:
        return None
    values = _value_mismatch(a, b, strong=strong)
    if values:
        return Finding("value_mismatch", values)
    swapped = _substitution(a, b)
    if swapped:
        return Finding("value_mismatch", swapped)
    polarity = _polarity_clash(a, b) or _cue_asymmetry(a, b)
    if polarity:
        return Finding("negation", polarity)
    return None
