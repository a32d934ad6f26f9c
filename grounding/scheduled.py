"""Scheduled versions a refused question would have matched, and the refusal's sentence about them.

A version dated after today is scheduled: it is not in the retrieval index until its date (knowledge.services.
versions), so a document whose only version is scheduled answers nothing. When a question is refused, the refusal
says that a version dated YYYY-MM-DD is scheduled and not yet in effect, if that version's chunks would have cleared
the plan's relevance threshold (the same cosine test planning applies to retrieved chunks, grounding.context step 1).

Pure Python and numpy; no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["ScheduledVersion", "scheduled_matches", "scheduled_note"]


@dataclass(frozen=True)
class ScheduledVersion:
    """A scheduled (future-dated) document version with its chunks' vectors.

    Attributes:
        title: the version's document title.
        date: its effective date, ISO "YYYY-MM-DD".
        vectors: float32 (chunks, dim) unit vectors of its chunks, as the index would hold them.
    """

    title: str
    date: str
    vectors: np.ndarray


def scheduled_matches(vector: np.ndarray, versions: Sequence[ScheduledVersion],
                      threshold: float) -> tuple[tuple[str, str], ...]:
    """The scheduled versions whose best chunk cosine with the question's unit ``vector`` (float32 (dim,)) is at
    least ``threshold`` (the plan's relevance threshold, grounding.budget.BudgetPolicy.relevance_threshold).

    Returns:
        ((title, date), ...) best match first, each (title, date) once; () when none matches or none is given.
    """
    q = np.asarray(vector, dtype=np.float32).reshape(-1)
    scored = []
    for v in versions:
        if v.vectors.size == 0 or v.vectors.shape[-1] != q.shape[0]:
            continue
        best = float(np.max(v.vectors @ q))
        if best >= threshold:
            scored.append((best, v.title, v.date))
    scored.sort(key=lambda t: -t[0])
    return tuple(dict.fromkeys((title, date) for _, title, date in scored))


def scheduled_note(matches: Sequence[tuple[str, str]]) -> str:
    """The refusal's sentence about scheduled versions (:func:`scheduled_matches`), "" for none:
    'A version of "Mileage" dated 2027-01-05 is scheduled and not yet in effect.' (several are listed, joined)."""
    if not matches:
        return ""
    named = [f'"{title}" dated {date}' for title, date in matches]
    if len(named) == 1:
        return f"A version of {named[0]} is scheduled and not yet in effect."
    return f"Versions of {', '.join(named[:-1])} and {named[-1]} are scheduled and not yet in effect."
