"""The openers of a yes that holds only in some cases or with an approval (grounding.yesno.opener): "In some
cases." for a yes holding only past a quantity the asker has not stated, "Yes, with approval." for a permission
that depends on an approval the question does not name (grounding.yesno_reach.approval_required). Moved out of
grounding.yesno, which had passed 300 lines (the s27 round). No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence, typed_values
from grounding.yesno_asking import CONDITION
from grounding.yesno_count import THRESHOLD, stated_numbers

__all__ = ["SOME_CASES", "WITH_APPROVAL", "bounded_for_all", "conditional_on_threshold"]


def _units(text: str) -> set[str]:
    """The units of the amounts of time, money or counts a text states (grounding.yesno_count.stated_numbers)."""
    return set(stated_numbers(text, kinds=("amount", "duration", "count")))


#: What the opener of a yes answer that holds only past a threshold the asker has not stated says.
SOME_CASES = "In some cases."
#: What the opener of a yes to a permission that holds only with an approval says (grounding.yesno_scope.
#: approval_required).
WITH_APPROVAL = "Yes, with approval."


def conditional_on_threshold(question: str, sentence: str) -> bool:
    """True when ``sentence`` says yes only under a leading condition on a quantity ("If you are sick for more than
    3 consecutive working days, People Operations may ask for a doctor's note.") and the question states no quantity
    of that unit ("Do I need a doctor's note?"): a plain "Yes." would drop the condition; the answer then opens
    with SOME_CASES. (A question stating the quantity is decided by grounding.yesno.over_limit and
    grounding.yesno.threshold_applies before.)"""
    m = CONDITION.match(sentence)
    if not m or not THRESHOLD.search(m.group(0)):
        return False
    stated = _units(m.group(0))
    return bool(stated) and not stated & _units(question_sentence(question))


#: A question asking whether a rule holds for everything of a kind ("Do I need receipts for everything?", "... for
#: every trip?", "... for all expenses?", "Do I always need ...?").
_FOR_ALL = re.compile(r"\b(?:everything|every\s+\w+|all\s+(?!of\b)\w+|always)\b", re.I)
#: A quantity bounding the things a rule holds for: "any expense of $25 or more", "trips above $3,000", "more than 3
#: days". Not "at least": it states what a rule requires ("at least 3 weeks in advance", "at least 14 characters
#: long"), not which cases it holds for ("Can I work from another country?" stays "Yes, with approval.").
_BOUNDING = re.compile(r"(?:[$€£]\s?\d[\d,.]*|\b\d[\d,.]*)\s*(?:\w+\s+)?"
                       r"(?:or more|or over|or above|or longer|and (?:up|over|above))\b|"
                       r"\b(?:over|above|more than|longer than|exceeding|in excess of)\s+(?:[$€£]\s?)?\d", re.I)


def bounded_for_all(question: str, sentence: str) -> bool:
    """True when the question asks whether a rule holds for everything of a kind (:data:`_FOR_ALL`) and ``sentence``
    holds it only past a quantity (:data:`_BOUNDING`) the question does not state: "An itemised receipt is required
    for any expense of $25 or more." answers "Do I need receipts for everything?" with SOME_CASES, not "Yes." (the
    s22 round's new-user run on the demo handbook). Any question stating no quantity was tried: "Can I carry over
    unused PTO?" then lost its right "Yes." to "... any balance above 5 days is forfeited"."""
    asking = question_sentence(question)
    return bool(_FOR_ALL.search(asking)) and bool(_BOUNDING.search(sentence)) and not _BOUNDING.search(asking) \
        and not typed_values(asking)
