"""Ordering [18.5]: the order sources appear in the prompt. Always a permutation of what the budget kept (C15).

Strategies:
- relevance: best first.
- reverse: best last (closest to the question).
- edges: best at the two ends, weakest in the middle, since models use the start and end of a long context best
  (Liu et al. 2023, "Lost in the Middle: How Language Models Use Long Contexts"). For ranks 1..10 the order is
  1 3 5 7 9 10 8 6 4 2: best first, second best last, for any n.
- chronological: by document date (undated last), then relevance.
- by_document: sources grouped by document, groups ordered by their best source, document order inside a group.
"""

from __future__ import annotations

from typing import Literal, Sequence, TypeVar

from grounding.types import Source

Ordering = Literal["relevance", "reverse", "edges", "chronological", "by_document"]
ORDERINGS: tuple[str, ...] = ("relevance", "reverse", "edges", "chronological", "by_document")

T = TypeVar("T")


def edges_order(ranked: Sequence[T]) -> list[T]:
    """Lost-in-the-middle order of items ranked best first: odd ranks forward, even ranks backward."""
    return list(ranked[0::2]) + list(ranked[1::2])[::-1]


def order_sources(sources: Sequence[Source], strategy: str = "relevance") -> list[Source]:
    """Return ``sources`` (given in relevance order, best first) in the strategy's order.

    Raises:
        ValueError: unknown strategy (the known ones are listed in the message).
    """
    ranked = list(sources)
    if strategy == "relevance":
        return ranked
    if strategy == "reverse":
        return ranked[::-1]
    if strategy == "edges":
        return edges_order(ranked)
    if strategy == "chronological":
        rank = {id(s): i for i, s in enumerate(ranked)}
        return sorted(ranked, key=lambda s: (s.date == "", s.date, rank[id(s)]))
    if strategy == "by_document":
        first: dict[int, int] = {}
        for i, s in enumerate(ranked):
            first.setdefault(s.document_id, i)
        return sorted(ranked, key=lambda s: (first[s.document_id], s.position))
    raise ValueError(f"unknown ordering {strategy!r}; expected one of {', '.join(ORDERINGS)}")
