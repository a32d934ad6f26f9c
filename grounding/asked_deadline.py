"""When a thing is due: the sentence saying when it must be handed in, before one saying when it is ready.

"When is my Tock timecard due each week?" is answered by "You must review and submit your timecard each week by the
end of the day (close of business) on Friday", not by "Timecards for the current week should be available no later
than Monday at 9AM PST", which ranked above it: both state a time, but only the first says when the asker's part is
due (fresh41's f41-v02 and the development set's d036 asked it; both quoted the second). "Due" asks the deadline of
an obligation: a sentence naming the act the asker owes (submitting, filing, completing, handing in) or the deadline
itself, not one on something made available to the asker.

No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.scored_sentences import ScoredSentence, promoted

__all__ = ["deadline_first", "states_deadline"]

_DUE = re.compile(r"\bdue\b", re.I)
#: A sentence saying when something is owed: its deadline, or the act of handing it in.
_OWED = re.compile(r"\b(?:due|deadline|submit(?:s|ted|ting)?|submission|file|filed|turn(?:ed)? in|hand(?:ed)? in|"
                   r"complete[ds]?|send|sent|return(?:ed)?)\b", re.I)


def states_deadline(text: str) -> bool:
    """True when ``text`` names a deadline or the act of handing something in ("submit", "file", "complete", "due",
    ...)."""
    return bool(_OWED.search(text))


def deadline_first(ranked: Sequence[ScoredSentence], asked: str, *, reach: float = 0.2) -> Sequence[ScoredSentence]:
    """``ranked`` (best first), for a question asking when a thing is due ("When is my timecard due?"), with the
    first sentence within ``reach`` (cosine + bonus units) of the best that states a value (a time) and a deadline
    (:func:`states_deadline`) moved first, with the best's score, when the first one stating a value within that
    reach states no deadline; ``ranked`` unchanged otherwise."""
    if not ranked or not _DUE.search(question_sentence(asked)):
        return ranked
    best = ranked[0]
    timed = [s for s in ranked if s.score >= best.score - reach and s.values]
    if not timed or states_deadline(timed[0].text):
        return ranked
    owed = next((s for s in timed if states_deadline(s.text)), None)
    if owed is None:
        return ranked
    return promoted(ranked, owed)
