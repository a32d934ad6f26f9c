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

import functools
import math
import re
from dataclasses import dataclass
from typing import Literal, Sequence


from grounding.claim_readings import ClaimReading, reading
from grounding.lexical import negation_cues
from grounding.polarity import (antonym_read, cue_asymmetry_read, negated_only_in_case, negated_only_until,
                                negated_predicate_read)
from grounding.name_swap import substitution
from grounding.subjects import subject_difference
from grounding.value_compare import comparable, same_value
from grounding.values import StatedValue

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

    # a range is one value: its low bound is not compared alone ("2–3 weeks" does not state "2"), and a single value
    # within the other sentence's range does not differ from it
    range_a, range_b = _ranges(ra), _ranges(rb)
    ua = [v for v in unshared(va, vb, raw_b) if v not in _low_bounds(va, range_a)]
    ub = [v for v in unshared(vb, va, raw_a) if v not in _low_bounds(vb, range_b)]
    loose = None
    for x in ua:
        for y in ub:
            if not comparable(x, y) or _overlap(x, range_a, y, range_b):
                continue
            x_text, y_text = range_a.get(x, (0.0, x.text))[1], range_b.get(y, (0.0, y.text))[1]
            # tight: the same neighbours on the same sides ("", no word, counts as a side's neighbour)
            tight = x.sides == y.sides and any(x.sides)
            if x.kind in _BARE_KINDS:  # a bare number needs both neighbours to match ("match 1-3" / "match 2-3")
                slot = len(x.context & y.context) >= 2
            else:
                slot = bool(x.context & y.context)
            if not slot and strong and x.kind not in _BARE_KINDS and x.kind != "date":
                slot = sum(v.kind == x.kind for v in va) == 1 and sum(v.kind == y.kind for v in vb) == 1
            if slot and tight:
                return x_text, y_text, True
            if slot and loose is None:
                loose = (x_text, y_text, False)
    return loose


def _title_line(text: str) -> bool:
    """True for a heading line a chunk holds ("Timeline for Detailing to Another Agency"): no closing punctuation and
    every word of four letters or more capitalised. It names a section, and states no claim whose names another
    sentence could swap (the s28 re-chunked 18F domain noted it against the list item "Details to/from another
    agency")."""
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", text) if len(w) >= 4]
    return bool(words) and text.rstrip()[-1:] not in ".!?:;,)\"”…" and all(w[0].isupper() for w in words)


def _heading_like(text: str) -> bool:
    """True for a line that names a topic rather than states a claim: a heading, a label or a row of table header
    cells ("Share your calendar outside of GSA", "Employee checklist | Employee mid year performance management
    steps"): each " | " cell at most eight words, no digit, no negation cue (grounding.lexical.negation_cues: "Don't
    work overtime without prior approval" is a claim), no closing punctuation. Between two documents such a line is
    not set against a sentence (a development set's false notes: the heading "Share your calendar outside of GSA"
    against "GSA personal calendars ... cannot share event details"; the checklists of an employee and of a
    supervisor as a swapped name). Between two versions of one document it still is: a revised list item ("Use TTS
    (T) or 18F (TE) as your organizational code") is a claim the revision changed."""
    cells = [c.strip() for c in text.split("|") if c.strip()]
    return bool(cells) and not negation_cues(text) and all(
        0 < len(re.findall(r"[A-Za-z][\w'’-]*", c)) <= 8 and not re.search(r"\d", c)
        and c[-1:] not in ".!?:;,)\"”…" for c in cells)


#: A sentence condemning what it states ("Working overtime without prior approval violates the Antideficiency
#: Act"): it says no as a negation does, and agrees with the sentence forbidding the act (fresh3's f3013, a
#: development set, noted the two as disagreeing).
_CONDEMNS = re.compile(r"\b(?:violat(?:es?|ed|ing|ions?)|prohibited|forbidden|illegal|unlawful|against the law|"
                       r"not permitted|not allowed)\b", re.I)
#: What joins the two bounds of a range: "2–3 weeks", "4-6 weeks", "$10 to $20", "10 to 15 days".
_RANGE_JOIN = re.compile(r"\s*(?:[-–—]|to)\s*", re.I)
#: A range's low bound named in words before its closing value: "for procurements between micro-purchase threshold
#: and $25,000" states no value of the threshold, only that the range ends at $25,000 (a development set's false
#: notes set it against "the micro-purchase threshold ($10,000)": fresh36's f36-a07, fresh41's f41-a02).
_NAMED_LOW = re.compile(r"\bbetween\s+[^\d$€£¥%|;:.]{2,60}?\s+and\s+$", re.I)
#: Kinds of value a range is read for (a date, a year, a code or a time joined by a dash is not a range of numbers).
_RANGE_KINDS = re.compile(r"^(?:duration|percent|number|amount:|qty:)")


def _ranges(r: ClaimReading) -> dict[StatedValue, tuple[float, str]]:
    """The values of a sentence that close a range, each with the range's low bound in its unit and the range as
    written: "it can take 4-6 weeks" -> {6 weeks: (28.0, "4-6 weeks")} (durations count days). The low bound stands
    just before, joined by a dash or "to", and is of the same kind or a bare number taking the closing value's unit."""
    out: dict[StatedValue, tuple[float, str]] = {}
    for lo, hi in zip(r.values, r.values[1:]):
        if not _RANGE_KINDS.match(hi.kind) or not _RANGE_JOIN.fullmatch(r.text[lo.span[1]:hi.span[0]]):
            continue
        if lo.kind == hi.kind:
            low = lo.number
        elif lo.kind == "number" and (digits := re.search(r"\d+(?:\.\d+)?", hi.keys[0].replace(",", ""))) \
                and float(digits.group(0)):
            low = lo.number * hi.number / float(digits.group(0))  # "4-6 weeks": 4 in the unit of "6 weeks"
        else:
            continue
        if low < hi.number:
            out[hi] = (low, r.text[lo.span[0]:hi.span[1]])
    for hi in r.values:  # "between the micro-purchase threshold and $25,000": a low bound named, not stated
        if hi not in out and _RANGE_KINDS.match(hi.kind) and (named := _NAMED_LOW.search(r.text[:hi.span[0]])):
            out[hi] = (-math.inf, r.text[named.start():hi.span[1]])
    return out


def _low_bounds(values: Sequence[StatedValue], ranges: dict[StatedValue, tuple[float, str]]) -> set[StatedValue]:
    """The values that open a range of ``ranges`` (the one before each closing value; none before a range whose low
    bound is named in words)."""
    return {values[i - 1] for i, v in enumerate(values) if i and v in ranges and ranges[v][0] > -math.inf}


def _overlap(x: StatedValue, range_x: dict, y: StatedValue, range_y: dict) -> bool:
    """True when one of ``x`` and ``y`` closes a range and the other, a single value, lies within it: "2 weeks" is
    within "2–3 weeks". Two ranges with other bounds ("$50 million to $100 million" / "$51.5 million to $87 million")
    differ."""
    if (x in range_x) == (y in range_y):
        return False
    x_low, y_low = range_x.get(x, (x.number,))[0], range_y.get(y, (y.number,))[0]
    return x_low <= y.number and y_low <= x.number


def _values_agree(ra: ClaimReading, rb: ClaimReading) -> bool:
    """True when both sentences state values and every value of each (a range read as one) has an equal value, or a
    range holding it, of the same kind in the other: "not ... until 72 hours before" and "48-72 hours before" say one
    time; "not published until 2003" and "published in 1997" do not (ConflictQA's calibration half)."""
    range_a, range_b = _ranges(ra), _ranges(rb)

    def held(values, ranges, others, other_ranges) -> bool:
        own = [v for v in values if v not in _low_bounds(values, ranges)]
        return bool(own) and all(any(same_value(x, y) or (comparable(x, y) and _overlap(x, ranges, y, other_ranges))
                                     for y in others) for x in own)

    return held(ra.values, range_a, rb.values, range_b) and held(rb.values, range_b, ra.values, range_a)


#: Kinds whose values need both neighbours shared: a bare number, a year, an ordinal, and identifiers (codes such as
#: "FY20" / "FY25" and times), which between two sentences more often name two things than two values of one.
_BARE_KINDS = ("number", "year", "ordinal", "code", "time")


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
    negated_only_in_case).
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
    if not versions and (_heading_like(a) or _heading_like(b)):
        return None
    swapped = substitution(ra, rb) if not (_title_line(a) or _title_line(b)) else None
    if swapped:
        return Finding("value_mismatch", swapped, rule="name")
    pa, pb = ra.polarity, rb.polarity
    for rule, test in (("predicate", lambda: negated_predicate_read(pa, pb)), ("antonym", lambda: antonym_read(pa, pb)),
                       ("cue", lambda: cue_asymmetry_read((ra.cues, rb.cues), (pa, pb), (ra.words, rb.words)))):
        polarity = test()
        if polarity:
            negated = a if polarity[1] == "affirmative" else b
            if rule != "antonym" and negated_only_in_case(negated):
                return None  # "If the software is not approved, submit a request": a case, not a denial
            if rule != "antonym" and negated_only_until(negated) and _values_agree(ra, rb):
                return None  # "does not ticket until 72 hours before" / "occurs 48-72 hours before": one time
            if rule != "antonym" and _CONDEMNS.search(b if negated is a else a):
                return None  # "Don't work overtime without approval" / "Working overtime without ... violates"
            if subject_difference(a, b, versions=versions, polarity=True, known={a: ra.values, b: rb.values}):
                return None
            return Finding("negation", polarity, rule=rule)
    return None
