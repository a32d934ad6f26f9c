"""A yes/no question answered No by a list of what is excluded: "Are parking fines reimbursed?" opened "Yes. Parking
and tolls are reimbursed with receipts" (the s47 new-user trial), while the item "Traffic or parking fines" sits under
the heading "Non-reimbursable expenses". An item has no verb of its own: the heading or lead-in it is listed under
says what holds of it.

An item decides No when it holds a two-word phrase of the question word for word (grounding.phrase_match.phrases:
"parking fines"), and the heading or lead-in it sits under denies the question's predicate: "non-", "not" or "un-" /
"in-" before a word of the question's stem ("Non-reimbursable" for "reimbursed", "Not covered:" for "covered",
"Ineligible expenses" for "eligible"), or a heading listing exclusions ("Exclusions", "Excluded costs", "Prohibited
items", "Not allowed"). :data:`EXCLUDING`, the wider heading test that keeps an item from settling a question at all
(grounding.extractive_yesno.settles), lives here too. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.lexical import content_terms, stem
from grounding.phrase_match import phrases
from grounding.scored_sentences import ScoredSentence, source_sentences
from grounding.sentence_leads import heading_of, lead_of
from grounding.types import Source

__all__ = ["EXCLUDING", "excluded_item"]

#: A heading naming what is excluded, denied or forbidden ("Non-reimbursable expenses", "Not covered", "Prohibited
#: items", "Don'ts"): the items under it are what it says no to (an item under it settles nothing by its own words
#: either: grounding.extractive_yesno.settles).
EXCLUDING = re.compile(r"\b(?:non-?(?:reimbursable|covered|allowable|eligible|billable|refundable)|not\b|never\b|"
                       r"prohibited|forbidden|banned|excluded|exclusions?|ineligible|unallowable|disallowed|"
                       r"don['’]?ts\b|do not\b|what not to)", re.I)
#: The narrower headings that answer No for their items whatever the question's verb: EXCLUDING's "not", "never" or
#: "do not" anywhere in a heading is enough to keep an item from settling a question, not to answer it No (reading
#: EXCLUDING here turned fresh2's f2016, a development set, from its right "Yes." to "No.").
_LISTS_EXCLUSIONS = re.compile(r"\b(?:exclusions?|excluded|prohibited|forbidden|not\s+(?:allowed|permitted))\b",
                               re.I)
#: A word denying what follows it: "non-reimbursable", "not covered", "unallowable", "ineligible".
_DENIED = re.compile(r"\b(?:non-?|not\s+|un-?|in-?)([a-z]{4,})", re.I)


def _denies(heading: str, asked: frozenset[str]) -> bool:
    """True when ``heading`` lists exclusions (:data:`_LISTS_EXCLUSIONS`) or denies one of the question's stems
    (``asked``: "Non-reimbursable" for "reimbursed")."""
    if _LISTS_EXCLUSIONS.search(heading):
        return True
    return any(stem(m.group(1)) in asked for m in _DENIED.finditer(heading))


def excluded_item(question: str, chosen: Sequence[ScoredSentence], sources: dict[str, Source]) -> ScoredSentence | None:
    """The chosen list item (kind "item") that the heading or lead-in it is listed under excludes and that holds a
    two-word phrase of ``question`` (the module docstring), or None."""
    asked_phrases = phrases(question)
    if not asked_phrases:
        return None
    asked = content_terms(question)
    for s in chosen:
        source = sources.get(s.label)
        if s.kind != "item" or source is None or not asked_phrases & phrases(s.text):
            continue
        data = source_sentences(source)
        i = s.position
        if not (0 <= i < len(data.texts)) or data.texts[i] != s.text:
            continue
        lead = lead_of(data, i)
        over = [heading_of(data, i, source.section, source.sections)] + ([data.texts[lead]] if lead is not None else [])
        if any(_denies(h, asked) for h in over if h):
            return s
    return None
