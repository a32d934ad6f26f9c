"""Metrics with targets, the result of a suite, and the answer matching rules (exact and contains)."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Any, Sequence

from grounding.citation_strip import strip_markers


@dataclass
class Metric:
    """One figure of a suite: ``value`` over ``n`` items (None when n is 0), an optional target (``op`` ">=" or
    "<="), and the same figure per data set or part in ``by`` (name -> (value, n)), each drawn as a bar."""

    name: str
    description: str
    value: float | None
    n: int
    target: float | None = None
    op: str | None = None
    by: dict[str, tuple[float | None, int]] = field(default_factory=dict)

    @property
    def met(self) -> bool | None:
        """Whether the value meets the target (None: no target, or nothing measured)."""
        if self.target is None or self.value is None:
            return None
        return self.value >= self.target - 1e-9 if self.op == ">=" else self.value <= self.target + 1e-9

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "value": None if self.value is None else round(self.value, 4), "n": self.n,
                "target": self.target, "op": self.op, "met": self.met,
                "by": {k: {"value": None if v is None else round(v, 4), "n": n} for k, (v, n) in self.by.items()}}


@dataclass
class SuiteResult:
    """What a suite measured: its metrics, one entry per evaluated item, and notes on the data used."""

    suite: str
    metrics: list[Metric]
    records: list[dict[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)

    def metric(self, name: str) -> Metric:
        return next(m for m in self.metrics if m.name == name)

    def as_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "info": self.info, "metrics": [m.as_dict() for m in self.metrics],
                "records": self.records}


class Tally:
    """Hits over counts, overall and per group (a data set), in first-seen group order."""

    def __init__(self) -> None:
        self.groups: dict[str, list[float]] = {}

    def add(self, group: str, hit: bool | float, count: int = 1) -> None:
        cell = self.groups.setdefault(group, [0.0, 0])
        cell[0] += float(hit)
        cell[1] += count

    def ensure(self, group: str) -> None:
        self.groups.setdefault(group, [0.0, 0])

    @property
    def n(self) -> int:
        return int(sum(c[1] for c in self.groups.values()))

    @property
    def value(self) -> float | None:
        n = self.n
        return sum(c[0] for c in self.groups.values()) / n if n else None

    def by(self) -> dict[str, tuple[float | None, int]]:
        return {g: (h / n if n else None, int(n)) for g, (h, n) in self.groups.items()}

    def metric(self, name: str, description: str, target: float | None = None, op: str | None = None) -> Metric:
        return Metric(name, description, self.value, self.n, target, op, self.by())


# --- answer matching ------------------------------------------------------------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation + "\u2018\u2019\u201c\u201d\u2013\u2014"})


def normalise(text: str) -> str:
    """SQuAD-style normalisation: lower case, citation markers, punctuation and articles removed, whitespace
    collapsed; thousands separators are dropped first so "3,559" and "3559" match."""
    text = strip_markers(text).lower()
    text = re.sub(r"(?<=\d)[,.](?=\d{3}\b)", "", text)
    text = _ARTICLES.sub(" ", text.translate(_PUNCT))
    return " ".join(text.split())


def contains(answer: str, form: str) -> bool:
    """True when the normalised ``form`` occurs in the normalised answer as whole words."""
    needle = normalise(form)
    return bool(needle) and f" {needle} " in f" {normalise(answer)} "


def contains_all(answer: str, groups: Sequence[Sequence[str]]) -> bool:
    """Every required group has a form in the answer (RGB's check; RAMDocs needs each of its gold answers)."""
    return bool(groups) and all(any(contains(answer, f) for f in forms) for forms in groups)


def exact(answer: str, groups: Sequence[Sequence[str]]) -> bool:
    """The normalised answer is one accepted form of the single required answer."""
    if len(groups) != 1:
        return False
    got = normalise(answer)
    return any(got == normalise(f) for f in groups[0])
