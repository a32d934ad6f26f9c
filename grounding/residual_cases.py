"""A rule stated for the cases a document does not list ("in most cities", "in all other states"), answering a
question about a case it does not name. No Django imports.

"What is the nightly hotel limit in Denver?" over "The nightly hotel limit is $225 per night before taxes in most
cities. In high-cost cities (New York, San Francisco, Boston, Seattle and Washington, D.C.) the limit is $325 per
night." was refused ("they do not state the amount or limit for Denver": the s44 new-user trial on the demo
handbook): Denver is none of the cities named, so the rule for the rest holds for it. The answer quotes that rule
behind "The documents say nothing specific about Denver; in general:", so the reader sees that it is the general
rule, with what it is set against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

__all__ = ["RESIDUAL", "ResidualCase", "general_opener", "states_residual_rule"]

#: Kinds of case a residual rule covers: nouns of places and organisations, singular ("any other location") and
#: plural ("in most cities").
_KIND_WORDS = ("city", "town", "location", "place", "state", "country", "office", "area", "region", "site",
               "destination", "airport", "campus", "building")
_KIND = "(?:" + "|".join(_KIND_WORDS) + ")"
_KINDS = "(?:" + "|".join(w[:-1] + "ies" if w.endswith("y") else w + "es" if w.endswith("s") else w + "s"
                          for w in _KIND_WORDS) + ")"
#: Words stating the rule for the cases not listed: "in most cities", "in all other states", "for any other
#: location", "everywhere else"; not "in other regions" nor "elsewhere", which point to other pages ("see the pages for
#: other regions", "as described elsewhere in this handbook").
RESIDUAL = re.compile(rf"\b(?:in|for|at|to)\s+(?:most|all\s+other|any\s+other|every\s+other)\s+"
                      rf"{_KINDS}\b|\b(?:in|for|at|to)\s+(?:any|every)\s+other\s+{_KIND}\b"
                      r"|\beverywhere\s+else\b", re.I)


def states_residual_rule(text: str) -> bool:
    """Whether a sentence states a rule for the cases a document does not list (:data:`RESIDUAL`)."""
    return bool(RESIDUAL.search(text))


@dataclass(frozen=True)
class ResidualCase:
    """The sentences answering a question about a case the documents do not name with the rule for the rest:
    ``chosen`` (the sentences, as the answerer chose them) and ``names`` (the unnamed cases, as the question wrote
    them)."""

    chosen: Sequence
    names: tuple[str, ...]


def general_opener(names: Sequence[str]) -> str:
    """The words before a general rule quoted for cases the documents do not name."""
    return f"The documents say nothing specific about {' or '.join(names)}; in general:"
