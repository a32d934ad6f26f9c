"""The one token budget: how much of the window the prompt may use, and how history and sources share it.

Formula [18.6.1]:

    available = floor(window * safety_margin) - completion_reserve - system - question

History and sources compete for ``available`` under an explicit policy: each side has a floor (tokens reserved for it
when it needs them) and a cap (a share of ``available`` it may not exceed while the other side still wants more);
what one side leaves unused flows to the other, past its cap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal


class BudgetError(ValueError):
    """The fixed parts (system prompt, question, completion reserve) do not fit the window. Carries the numbers."""

    def __init__(self, *, window: int, usable: int, completion_reserve: int, system: int, question: int) -> None:
        self.numbers = {"window": window, "usable": usable, "completion_reserve": completion_reserve,
                        "system": system, "question": question}
        super().__init__(
            f"the prompt cannot fit: usable window {usable} tokens (window {window} x safety margin) minus "
            f"completion reserve {completion_reserve}, system prompt {system} and question {question} tokens "
            f"leaves {usable - completion_reserve - system - question}")


@dataclass(frozen=True)
class BudgetPolicy:
    """How one domain spends its window (all sizes in tokens, shares as fractions of ``available``).

    Attributes:
        window: model context window.
        safety_margin: fraction of the window planned for (0 < x <= 1), absorbing tokenizer differences.
        completion_reserve: tokens kept free for the answer.
        history_floor, sources_floor: tokens reserved for a side when it needs them.
        history_cap, sources_cap: largest share of ``available`` a side may take while the other still wants more.
        priority: the side served first after the floors ("sources" or "history").
        relevance_threshold: best dense score (cosine) below which the plan abstains; all-MiniLM-L6-v2 calibrated.
        source_min_score: a candidate below this dense score is dropped as below_threshold.
        max_sources: most sources in one prompt.
    Raises:
        ValueError: for values out of range.
    """

    window: int = 16_000
    safety_margin: float = 0.9
    completion_reserve: int = 1_024
    history_floor: int = 256
    history_cap: float = 0.35
    sources_floor: int = 1_024
    sources_cap: float = 1.0
    priority: Literal["sources", "history"] = "sources"
    relevance_threshold: float = 0.35
    source_min_score: float = 0.2
    max_sources: int = 8

    def __post_init__(self) -> None:
        problems = []
        if self.window <= 0:
            problems.append("window must be > 0")
        if not 0 < self.safety_margin <= 1:
            problems.append("safety_margin must be in (0, 1]")
        if self.completion_reserve < 0 or self.history_floor < 0 or self.sources_floor < 0:
            problems.append("reserves and floors must be >= 0")
        if not 0 <= self.history_cap <= 1 or not 0 <= self.sources_cap <= 1:
            problems.append("caps must be in [0, 1]")
        if self.priority not in ("sources", "history"):
            problems.append("priority must be 'sources' or 'history'")
        if self.max_sources < 1:
            problems.append("max_sources must be >= 1")
        if problems:
            raise ValueError("bad budget policy: " + "; ".join(problems))

    @property
    def usable(self) -> int:
        """floor(window * safety_margin), tokens."""
        return math.floor(self.window * self.safety_margin)

    @property
    def limit(self) -> int:
        """Most tokens the prompt may use: usable - completion_reserve."""
        return self.usable - self.completion_reserve


def available_tokens(policy: BudgetPolicy, *, system: int, question: int) -> int:
    """``available`` of the formula [18.6.1].

    Raises:
        BudgetError: when system + question + completion reserve exceed the usable window (C03), naming the numbers.
    """
    available = policy.usable - policy.completion_reserve - system - question
    if available < 0:
        raise BudgetError(window=policy.window, usable=policy.usable, completion_reserve=policy.completion_reserve,
                          system=system, question=question)
    return available


@dataclass(frozen=True)
class Split:
    """The shares of ``available`` given to each side (tokens); history + sources <= available."""

    history: int
    sources: int


def split_budget(available: int, *, history_need: int, sources_need: int, policy: BudgetPolicy) -> Split:
    """Share ``available`` between history and sources.

    1. floors: each side gets min(need, floor) (scaled down together if the floors alone exceed ``available``);
    2. the priority side, then the other, grows toward its need, at most to its cap;
    3. leftover flows to whichever side still needs more, past its cap.
    Never gives a side more than it needs, never more than ``available`` in total.
    """
    if available <= 0:
        return Split(0, 0)
    need = {"history": max(0, history_need), "sources": max(0, sources_need)}
    cap = {"history": math.floor(policy.history_cap * available), "sources": math.floor(policy.sources_cap * available)}
    got = {"history": min(need["history"], policy.history_floor), "sources": min(need["sources"], policy.sources_floor)}
    if got["history"] + got["sources"] > available:
        scale = available / (got["history"] + got["sources"])
        got = {k: math.floor(v * scale) for k, v in got.items()}
    order = [policy.priority, "history" if policy.priority == "sources" else "sources"]
    for side in order:
        room = available - got["history"] - got["sources"]
        got[side] += max(0, min(need[side] - got[side], cap[side] - got[side], room))
    for side in order:
        room = available - got["history"] - got["sources"]
        got[side] += max(0, min(need[side] - got[side], room))
    return Split(history=got["history"], sources=got["sources"])
