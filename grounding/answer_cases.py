"""The other cases of a value: a question that names no case ("What is the hotel limit?") answered from a sentence
whose value holds for one case ("The nightly hotel limit is $225 per night before taxes in most cities.") also gets
the sentence of the same source that states the value for another case ("In high-cost cities (...) the limit is $325
per night."), so the reader is not told one case's value as if it were everyone's.

A sentence is another case of the answer when it comes from the same source as the answer's best sentence (a policy
states its cases together), names a word of the question that the best sentence answers with (the attribute: "limit",
"stipend"), states a value of the asked type, and states another value than the best sentence (not a restatement).
It must rank within ``reach`` of the best sentence and above the answerer's threshold, and the answer keeps at most
``limit`` sentences.

A best sentence that adds to another rule ("Trips outside the country ... also need approval from your department
head") comes with that rule when its source states it ("All trips must be approved by your manager"), whatever the
asked type that is checked (a person, an amount, ...), placed first when the source states it first: "also" says the
answer is not whole without it (the demo handbook's "Who approves a trip abroad?", s11 new user).

A sentence bounding the case it applies to so that the quantity the question states falls outside ("Requests of
three days or fewer need ..." for "How much notice do I need for a 5-day vacation?", grounding.conditions) is not
another case of the answer: the question named its case as a quantity.

The answerer asks for other cases only when the question names none: no specifics (a city, a grade, a group) and
no situation of the asker's before it ("I got matched as a bone marrow donor. How much administrative leave ...?" is
about that case; the blood-donation sentence beside it is not wanted: calibration half, q009).

Found with the demo handbook by a new user (s11): "What is the hotel limit?" got only the $225 of most cities, "What
home office stipend do I get?" only the $750 of remote employees (hybrid employees get $400).

No Django imports.
"""

from __future__ import annotations

from typing import Sequence

import re

from grounding.answer_types import CHECKED_TYPES, states
from grounding.conditions import asked_quantity, case_fit
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.quoting import repeats
from grounding.sentence_rank import ScoredSentence
from grounding.values import value_keys

__all__ = ["CASE_KINDS", "with_other_cases"]

#: A sentence adding to a rule stated beside it ("Trips outside the country also need approval from your department
#: head": the rule for all trips comes first).
_ALSO = re.compile(r"\balso\b", re.I)

#: How many sentences away from an "also" sentence, in its source, the rule it adds to may stand.
ADDED_NEARBY = 3

#: The answer types whose value can differ by case (an amount for most cities and for high-cost ones). Durations and
#: frequencies are left out: a page states several of them about different steps ("replaced on a 36-month refresh
#: cycle" / "the IT Help Desk emails you 60 days before your refresh date"), not one value per case.
CASE_KINDS = frozenset({"amount", "percent", "count", "quantity"})


def _sibling_item(s: ScoredSentence, best: ScoredSentence) -> bool:
    """True when ``s`` is a list item right before or after the list item ``best`` in the same source, opening with
    the same word (two cases of one rule written alike): "Requests longer than three days need at least 4 weeks'
    notice." after "Requests of three days or fewer need at least 5 business days' notice." (the s22 round's new-user
    run: durations are no CASE_KINDS, and the answer gave half the rule)."""
    if s.label != best.label or not s.kind == best.kind == "item" or abs(s.position - best.position) != 1:
        return False
    first, other = s.text.split(), best.text.split()
    return bool(first and other) and first[0].lower() == other[0].lower()  # written alike: "Requests ..."


def with_other_cases(chosen: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence], kind: str, question: str,
                     *, reach: float, threshold: float, limit: int) -> list[ScoredSentence]:
    """``chosen`` (the answer's sentences, best first) and, after them, the sentences of ``ranked`` (best first) that
    state the asked value for another case, scored at least ``threshold`` and within ``reach`` of the best, or the
    rule a best sentence saying "also" adds to (within ``reach`` of the best and ADDED_NEARBY sentences of it in its
    source, whatever the threshold: the rule is needed however well it matches; placed first when the source states
    it first; see the module docstring), up to ``limit`` sentences in all. ``kind`` is the question's answer type
    (grounding.answer_types.question_type; "other" is read as the amount or percentage the best sentence states, if
    any); for other checked kinds than CASE_KINDS (a duration, a frequency) only the list item written alike next to
    a best list item joins (:func:`_sibling_item`, within ``reach``, whatever the threshold); other kinds, and an
    empty ``chosen``, are returned as they are."""
    out = list(chosen)
    if not out or len(out) >= limit:
        return out
    best = out[0]
    if kind == "other":  # "What home office stipend do I get?": the best sentence says what is asked (an amount)
        kind = next((k for k in ("amount", "percent") if states(k, best.text)), kind)
    additive = bool(_ALSO.search(best.text))
    if kind not in CASE_KINDS and not (additive and kind in CHECKED_TYPES):
        # a duration or a frequency: only the parallel list item next to the best one, however well it matches
        sibling = next((s for s in ranked if s.score >= best.score - reach and _sibling_item(s, best)
                        and states(kind, s.text) and not repeats(s.text, out)), None)
        return out + [sibling] if sibling is not None and kind in CHECKED_TYPES else out
    attribute = (content_terms(question) - GENERIC) & content_terms(best.text)
    if not attribute:
        return out
    stated = set().union(*(value_keys(s.text) for s in out))
    case = asked_quantity(question)
    floor = best.score - reach if additive else max(threshold, best.score - reach)
    for s in ranked:
        if s.score < floor or len(out) >= limit:
            break
        if s.label != best.label or repeats(s.text, out):
            continue
        if additive and abs(s.position - best.position) > ADDED_NEARBY:
            continue
        values = value_keys(s.text)
        if not states(kind, s.text) or not attribute & content_terms(s.text):
            continue
        if case and case_fit(s.text, *case) is False:  # a tier the question's own quantity is not in
            continue
        if not additive and (not values or values <= stated):
            continue
        if additive and s.position < best.position:
            out.insert(0, s)  # the rule that an "also" adds to comes first when the source states it first
        else:
            out.append(s)
        stated |= values
    return out
