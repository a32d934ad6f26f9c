"""Value matching for the support check: are the values an answer sentence states in the sources it cites?

Owns: the values of a sentence and of a source in comparable form (``sentence_values``, ``source_values``: the
grounding.values keys, "$65.00" as "$65", source labels such as "S7" not counted), which of a sentence's values no
cited source holds (``missing_values``: a plain number, amount or percentage also matches by its bare number, codes
and dates must match exactly), and how a missing value is named in a reason (``with_unit``: "14 characters").

Pure Python; no Django.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable

from grounding.values import value_keys

__all__ = ["SourceValues", "missing_values", "sentence_values", "source_keys", "source_values", "unlabelled",
           "values_of_keys", "with_unit"]

_PLAIN_NUMBER = re.compile(r"[$€£¥]?(\d+(?:\.\d+)?)%?")
_LABEL = re.compile(r"\bS\d{1,3}\b")


def unlabelled(text: str) -> str:
    """The text with the source labels it names ("S1 says ... but S7 says ...") blanked: references, not values."""
    return _LABEL.sub(" ", text)


def _values(text: str) -> frozenset[str]:
    """grounding.values.value_keys of a text (number words in digits: "sixty-five" -> "65"), source labels not
    counted (:func:`unlabelled`)."""
    return value_keys(unlabelled(text))


def _norm(value: str) -> str:
    """A value key in comparable form: "$65.00" as "$65"."""
    return re.sub(r"(\d)\.0+(?!\d)", r"\1", value)


def _core(value: str) -> str | None:
    """The bare number of a plain amount/percentage/number ("$65" -> "65", "5.5%" -> "5.5"); None for codes/dates."""
    m = _PLAIN_NUMBER.fullmatch(value)
    return m.group(1) if m else None


def sentence_values(sentence: str) -> frozenset[str]:
    """Values a sentence states, normalised. A lone "one" is not a value (value_keys counts number words from
    "two"): in answers it is mostly a pronoun or determiner ("One option is ...", "one can"), 14 of 14 false alarms
    among ExpertQA's 793 claims."""
    return frozenset(_norm(v) for v in _values(sentence))


#: (normalised values, their bare numbers) of a source: what the support check compares a sentence's values with.
SourceValues = tuple[frozenset[str], frozenset[str]]


def source_keys(text: str) -> frozenset[str]:
    """The value keys of a source text before normalisation (grounding.values.value_keys, source labels such as
    "S7" not counted): what ingestion stores of a chunk (grounding.support_store)."""
    return _values(text)


def values_of_keys(keys: Iterable[str]) -> SourceValues:
    """(normalised values, their bare numbers) of a source whose :func:`source_keys` are ``keys``."""
    return _values_of(frozenset(keys))


@functools.lru_cache(maxsize=20_000)
def _values_of(keys: frozenset[str]) -> SourceValues:
    """values_of_keys, cached: the stored values of popular chunks come back ask after ask."""
    values = frozenset(_norm(v) for v in keys)
    return values, frozenset(c for c in (_core(v) for v in values) if c is not None)


def source_values(text: str) -> SourceValues:
    """(normalised values, their bare numbers) of a source text, found in the text."""
    return values_of_keys(_values(text))


def missing_values(sentence: str, present: frozenset[str], cores: frozenset[str]) -> tuple[str, ...]:
    """Values of ``sentence`` found in no cited source, as written in the sentence (first occurrence order).

    A value is found when its normalised form is among the sources' values, or when it is a plain number, amount
    or percentage whose bare number is ("$65" matches "65 dollars"); codes and dates must match exactly.
    """
    missing = {v for v in sentence_values(sentence)
               if v not in present and (_core(v) is None or _core(v) not in cores)}
    if not missing:
        return ()
    shown: list[str] = []
    for token in sentence.split():
        found = sentence_values(token) & missing
        if found:
            shown.append(token.strip(",.;:!?()[]{}\"'“”‘’"))
            missing -= found
    return tuple(shown) + tuple(sorted(missing))  # a value split over tokens ("5 %") is shown normalised


def with_unit(value: str, sentence: str) -> str:
    """A bare number followed by its word ("14" in "longer than 14 characters" -> "14 characters")."""
    if not re.fullmatch(r"\d+(?:[.,]\d+)*", value):
        return value
    m = re.search(r"(?<![\w$€£¥.,])" + re.escape(value) + r"\s+([A-Za-z][A-Za-z-]*)", sentence)
    return f"{value} {m.group(1)}" if m else value
