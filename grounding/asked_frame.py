"""Whether the value a quoted sentence states holds over the period a question asks about (s20 near-miss pass, issue 18
point 3; written on the 18F calibration half, the development set and the fresh19r near misses, never on a test
half).

A question asking how much of something per period ("How many credit hours can I earn *in a single pay period*?",
"How much annual leave do I build up *every pay period*?") asks a rate. A sentence stating a value of the asked type
over another frame ("You can have up to 24 credit hours accrued, *at any given time*", a cap; "15 days *per fiscal
year*" for a question per pay period) states a value about a neighbouring thing: the documents cover the topic, not
the asked rate. The test reads the value's own frame in its sentence against the question's (grounding.periods:
asked_period, stated_periods), and counts a clash only when the sentence states another frame and never the asked
one; a sentence stating no frame is left alone (a table row, "up to 7 days" under a yearly heading).

No Django imports.
"""

from __future__ import annotations

from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms
from grounding.periods import asked_period, stated_periods
from grounding.subject_check import ACTIONS, subject_terms

__all__ = ["clashing_frame"]

#: Unit and period words, which say how a value is counted, not what it is about.
_UNITS = content_terms("hour hours day days week weeks month months year years pay period periods time single "
                       "many much long")


def clashing_frame(question: str, chosen: Sequence[str]) -> str | None:
    """The asked period when the first of the ``chosen`` sentences (the answer's sentences stating a value,
    grounding.typed_values) states its value over another frame and never the asked one, and no other chosen
    sentence naming a word of what is asked (beyond units and the asker's actions) states the asked period; None
    otherwise."""
    period = asked_period(question)
    if not period or not chosen:
        return None
    first = stated_periods(chosen[0])
    if not first or period in first:
        return None
    own = subject_terms(question_sentence(question)) - ACTIONS - _UNITS
    if any(period in stated_periods(s) and content_terms(s) & own for s in chosen[1:]):
        return None
    return period
