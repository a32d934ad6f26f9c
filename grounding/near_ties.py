"""Near ties of a sentence ranking settled by what the question asks, before the offline answerer chooses from it
(grounding.extractive, grounding.extractive_parts): the general case of a list before a narrower one the question does not name
(grounding.narrower_case), the sentence naming by whom the asked thing is done (grounding.asked_agent), the deadline
of handing a thing in for "when is it due?" (grounding.asked_deadline). Each moves one sentence close to the best
(within its own reach) first; a ranking no rule applies to is unchanged.

No Django imports.
"""

from __future__ import annotations

from typing import Sequence

from grounding.asked_agent import agent_first
from grounding.asked_deadline import deadline_first
from grounding.narrower_case import general_case_first
from grounding.scored_sentences import ScoredSentence

__all__ = ["preferred_first"]


def preferred_first(ranked: Sequence[ScoredSentence], asked: str) -> Sequence[ScoredSentence]:
    """``ranked`` (best first) with the general case before a narrower one (grounding.narrower_case.
    general_case_first), then the sentence naming the agent of a who-question's verb first (grounding.asked_agent.
    agent_first), or the deadline of a thing asked when due (grounding.asked_deadline.deadline_first)."""
    return deadline_first(agent_first(general_case_first(ranked, asked), asked), asked)
