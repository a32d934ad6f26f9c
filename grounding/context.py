"""Context construction: from ranked candidates and history to a ContextPlan inside one token budget.

Steps (each a function below): sufficiency threshold -> exact deduplication -> budget -> history (newest first,
within its share) -> sources (relevance order, skip what does not fit) -> labels S1..Sn -> real count check.

Budget [18.6.1]:  available = floor(window * safety_margin) - completion_reserve - system - question
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, replace
from typing import Sequence

from grounding.prompt import build_prompt, format_source
from grounding.tokens import MESSAGE_OVERHEAD, REPLY_PRIMING, TokenCounter
from grounding.types import Candidate, ContextPlan, Dropped, Note, Source, Turn


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
    """How one domain spends its window.

    Attributes:
        window: model context window (tokens).
        safety_margin: fraction of the window planned for (0 < x <= 1), absorbing tokenizer differences.
        completion_reserve: tokens kept free for the answer.
        history_cap: at most this fraction of ``available`` goes to history; unused history share flows to sources.
        relevance_threshold: best dense score below which the plan abstains (cosine, all-MiniLM-L6-v2 calibrated).
        source_min_score: a candidate below this dense score is dropped as below_threshold even when others pass.
        max_sources: most sources in one prompt.
    Raises:
        ValueError: for values out of range.
    """

    window: int = 16_000
    safety_margin: float = 0.9
    completion_reserve: int = 1_024
    history_cap: float = 0.35
    relevance_threshold: float = 0.35
    source_min_score: float = 0.2
    max_sources: int = 8

    def __post_init__(self) -> None:
        if self.window <= 0 or not 0 < self.safety_margin <= 1 or self.completion_reserve < 0:
            raise ValueError(f"bad budget policy: {self}")
        if not 0 <= self.history_cap <= 1 or self.max_sources < 1:
            raise ValueError(f"bad budget policy: {self}")


def normalise_text(text: str) -> str:
    """Lower-cased text with runs of whitespace and punctuation collapsed (for exact-duplicate hashing)."""
    return re.sub(r"[\W_]+", " ", text.lower()).strip()


def text_hash(text: str) -> str:
    """sha1 of normalise_text(text), hex."""
    return hashlib.sha1(normalise_text(text).encode()).hexdigest()


def dedup_exact(candidates: Sequence[Candidate]) -> tuple[list[tuple[Candidate, tuple[int, ...]]], list[Dropped]]:
    """Exact deduplication [18.7]: one copy per normalised text, the best-scored one, other ids merged into it.

    Returns:
        (kept, dropped): kept = [(candidate, merged chunk ids including its own, best first)] in input order of the
        kept copies; dropped = duplicate_of entries naming the kept chunk id. Idempotent.
    """
    best: dict[str, Candidate] = {}
    ids: dict[str, list[int]] = {}
    for c in candidates:
        h = text_hash(c.chunk.text)
        if h not in best or c.dense > best[h].dense:
            best[h] = c
        ids.setdefault(h, []).append(c.chunk.chunk_id)
    kept, dropped = [], []
    for c in candidates:
        h = text_hash(c.chunk.text)
        if best[h] is c:
            merged = (c.chunk.chunk_id,) + tuple(i for i in ids[h] if i != c.chunk.chunk_id)
            kept.append((c, merged))
        else:
            dropped.append(Dropped(c.chunk.chunk_id, "duplicate_of", f"same text as chunk {best[h].chunk.chunk_id}"))
    return kept, dropped


def select_history(turns: Sequence[Turn], share: int, counter: TokenCounter) -> tuple[list[Turn], int]:
    """Most recent turns that fit ``share`` tokens, newest first filled, returned oldest first.

    Turns are taken whole (never cut); each costs its text plus the per-message overhead. History starts with a user
    turn so roles alternate. Returns (turns, tokens used).
    """
    kept: list[Turn] = []
    used = 0
    for turn in reversed(turns):
        cost = turn.tokens + MESSAGE_OVERHEAD
        if used + cost > share:
            break
        kept.insert(0, turn)
        used += cost
    while kept and kept[0].role != "user":
        used -= kept[0].tokens + MESSAGE_OVERHEAD
        kept.pop(0)
    return kept, used


def plan_context(
    *,
    question: str,
    candidates: Sequence[Candidate],
    history: Sequence[Turn] = (),
    system_prompt: str,
    instructions: str = "",
    policy: BudgetPolicy = BudgetPolicy(),
    counter: TokenCounter,
    notes: Sequence[Note] = (),
) -> ContextPlan:
    """Plan the context of one answer.

    Args:
        question: the user's question (kept whole and last).
        candidates: retrieved candidates in rank order (best first).
        history: earlier completed turns, oldest first, with cached token counts.
        system_prompt, instructions: stable system prefix parts.
        policy: the domain's budget policy.
        counter: token counter of the provider that will be called.
        notes: context notes to include.
    Returns:
        ContextPlan; ``sufficient`` is False (no model call) when nothing clears the relevance threshold (C16).
    Raises:
        BudgetError: when system prompt + question + completion reserve alone exceed the usable window (C03).
    """
    usable = math.floor(policy.window * policy.safety_margin)
    prefix_prompt = build_prompt(system_prompt=system_prompt, instructions=instructions, sources=(), notes=(),
                                 history=(), question=question)
    system_tokens = counter.count(prefix_prompt.prefix) + MESSAGE_OVERHEAD
    question_tokens = counter.count(question) + MESSAGE_OVERHEAD + REPLY_PRIMING
    available = usable - policy.completion_reserve - system_tokens - question_tokens
    if available < 0:
        raise BudgetError(window=policy.window, usable=usable, completion_reserve=policy.completion_reserve,
                          system=system_tokens, question=question_tokens)

    dropped: list[Dropped] = []
    best = max((c.dense for c in candidates), default=None)
    if best is None or best < policy.relevance_threshold:
        reason = ("nothing was retrieved" if best is None else
                  f"best relevance {best:.2f} is below the threshold {policy.relevance_threshold:.2f}")
        dropped = [Dropped(c.chunk.chunk_id, "below_threshold", f"score {c.dense:.2f}") for c in candidates]
        return ContextPlan(question=question, sources=(), dropped=tuple(dropped), sufficient=False,
                           abstain_reason=reason,
                           budget=_budget(policy, usable, system_tokens, question_tokens, available, 0, 0,
                                          system_tokens + question_tokens))
    passing = []
    for c in candidates:
        if c.dense < policy.source_min_score:
            dropped.append(Dropped(c.chunk.chunk_id, "below_threshold", f"score {c.dense:.2f}"))
        else:
            passing.append(c)
    kept, dup_dropped = dedup_exact(passing)
    dropped.extend(dup_dropped)

    history_share = math.floor(available * policy.history_cap)
    turns, history_tokens = select_history(history, history_share, counter)
    note_tokens = sum(counter.count(n.text) + 8 for n in notes)
    source_share = available - history_tokens - note_tokens - 4  # "<sources>\n" + "\n</sources>" + joins

    sources: list[Source] = []
    used = 0
    for cand, ids in kept:
        chunk = cand.chunk
        if len(sources) >= policy.max_sources:
            dropped.append(Dropped(chunk.chunk_id, "over_budget", f"more than {policy.max_sources} sources"))
            continue
        label = f"S{len(sources) + 1}"
        source = Source(label=label, chunk_ids=ids, document_id=chunk.document_id, title=chunk.title,
                        section=chunk.section, version=chunk.version, date=chunk.date, text=chunk.text,
                        score=cand.dense, tokens=0, status=chunk.status)
        cost = counter.count(format_source(source)) + 1
        if used + cost > source_share:
            # Skip whole, keep looking for a smaller source that fits [18.6.2].
            dropped.append(Dropped(chunk.chunk_id, "over_budget",
                                   f"needs {cost} tokens, {source_share - used} left"))
            continue
        sources.append(replace(source, tokens=cost))
        used += cost

    plan = ContextPlan(question=question, sources=tuple(sources), history=tuple(turns), notes=tuple(notes),
                       dropped=tuple(dropped), sufficient=bool(sources),
                       abstain_reason="" if sources else "no source fits the token budget")
    return _with_real_count(plan, policy, usable, system_tokens, question_tokens, available, history_tokens,
                            system_prompt, instructions, counter)


def _budget(policy: BudgetPolicy, usable: int, system: int, question: int, available: int, history: int,
            sources: int, total: int) -> dict[str, float]:
    return {"window": policy.window, "safety_margin": policy.safety_margin, "usable": usable,
            "completion_reserve": policy.completion_reserve, "system": system, "question": question,
            "available": available, "history": history, "sources": sources, "total": total,
            "limit": usable - policy.completion_reserve}


def _with_real_count(plan: ContextPlan, policy: BudgetPolicy, usable: int, system_tokens: int, question_tokens: int,
                     available: int, history_tokens: int, system_prompt: str, instructions: str,
                     counter: TokenCounter) -> ContextPlan:
    """Count the formatted prompt for real; drop the lowest-ranked source while it exceeds the limit."""
    limit = usable - policy.completion_reserve
    sources = list(plan.sources)
    dropped = list(plan.dropped)
    while True:
        prompt = build_prompt(system_prompt=system_prompt, instructions=instructions, sources=sources,
                              notes=plan.notes, history=plan.history, question=plan.question)
        total = counter.count_messages(prompt.system, prompt.messages)
        if total <= limit or not sources:
            break
        victim = min(sources, key=lambda s: s.score)
        sources.remove(victim)
        dropped.append(Dropped(victim.chunk_id, "over_budget", "real prompt count exceeded the budget"))
    source_tokens = sum(s.tokens for s in sources)
    budget = _budget(policy, usable, system_tokens, question_tokens, available, history_tokens, source_tokens, total)
    return replace(plan, sources=tuple(sources), dropped=tuple(dropped), budget=budget,
                   sufficient=plan.sufficient and bool(sources))
