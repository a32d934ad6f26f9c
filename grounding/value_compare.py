"""Whether two values stated by sources agree (grounding.values reads them): the same kind and rate, then the
same date fields, code or number within the precision either is stated with. What contradiction detection
(grounding.clash) compares aligned sentences' values with. No Django imports."""

from __future__ import annotations

from grounding.values import StatedValue

__all__ = ["comparable", "same_value"]


def comparable(a: StatedValue, b: StatedValue) -> bool:
    """Same kind, and the same rate when both give one ("$65 per day" and "$120 per person" are different things)."""
    return a.kind == b.kind and (a.rate == b.rate or not a.rate or not b.rate)


def same_value(a: StatedValue, b: StatedValue) -> bool:
    """True when two values of one kind agree: dates on the fields both give; codes and times as written; numbers
    after rounding to the coarser precision ("$19 billion" == "$19.3 billion") or within 0.5% (conversions:
    "388.5/km²" == "389.3/km²"), within 10% when either is hedged ("about 3,600" == "3,559")."""
    if not comparable(a, b):
        return False
    if a.date is not None or b.date is not None:
        if a.date is None or b.date is None:
            return False
        return all(x == y or not x or not y for x, y in zip(a.date, b.date))
    if a.kind in ("code", "time"):
        return a.keys == b.keys
    if a.hedged or b.hedged:
        return abs(a.number - b.number) <= 0.1 * max(abs(a.number), abs(b.number))
    step = 10.0 ** max(a.precision, b.precision)
    if round(a.number / step) == round(b.number / step):
        return True
    return abs(a.number - b.number) <= 0.005 * max(abs(a.number), abs(b.number))  # unit-conversion rounding
