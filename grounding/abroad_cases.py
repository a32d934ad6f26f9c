"""A question about one country that the documents answer for every country but the home one: "Can I work from Spain
for a week?" over "Working from another country, even for one day, requires approval from People Operations at
least 3 weeks in advance". The s46 new-user trial got "they do not say anything about Spain": no planned source
names Spain, yet the rule for working from another country is the one that holds for it. The answer quotes that
rule behind "The documents say nothing specific about Spain; in general:" (grounding.residual_cases.general_opener),
as for a city the documents do not list.

Which names are countries comes from pycountry (ISO 3166 names, common and official), plus the few everyday names
it does not hold ("UK", "Britain", "England", "Scotland", "Wales", "Turkey"). No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

import pycountry

from grounding.scored_sentences import ScoredSentence, promoted
from grounding.types import Source

__all__ = ["ABROAD", "abroad_first", "asked_countries"]

#: A rule for the countries other than the home one: "another country", "other countries", "abroad", "overseas",
#: "outside the US", "internationally".
ABROAD = re.compile(r"\b(?:another|other|a\s+different|any\s+other|foreign)\s+countr(?:y|ies)\b|\babroad\b"
                    r"|\boverseas\b|\boutside\s+(?:of\s+)?(?:the\s+)?(?:US|U\.S\.|USA|United\s+States|country)\b"
                    r"|\binternational(?:ly)?\b", re.I)

#: Everyday country names ISO 3166 does not write so.
_ALSO = frozenset({"uk", "britain", "great britain", "england", "scotland", "wales", "northern ireland", "turkey",
                   "russia", "south korea", "north korea", "vietnam", "iran", "syria", "laos", "bolivia",
                   "venezuela", "tanzania", "moldova", "the netherlands", "holland", "czech republic"})


def _country(name: str) -> bool:
    """True when ``name`` (as written) names a country."""
    plain = " ".join(name.split()).strip(" .,'’").lower()
    if plain.startswith("the "):
        plain = plain[4:]
    return plain in _ALSO or f"the {plain}" in _ALSO or plain in _names()


@functools.lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    """Every country's name, official name and common name in ISO 3166, lower case (not its codes: "IS" is Iceland's
    code and a question's "Is")."""
    return frozenset(getattr(c, field).lower() for c in pycountry.countries
                     for field in ("name", "official_name", "common_name") if getattr(c, field, None))


#: A name as a question writes it: capitalised words, "of"/"and" between them ("Spain", "the United Kingdom",
#: "Bosnia and Herzegovina"), or letters in capitals ("UK").
_NAME = re.compile(r"\b(?:the\s+)?[A-Z][\w'’.-]*(?:\s+(?:of|and)\s+[A-Z][\w'’.-]*|\s+[A-Z][\w'’.-]*){0,3}")


def asked_countries(question: str, sources: Sequence[Source]) -> list[str]:
    """The countries ``question`` names (as written: "Spain", "the UK") that no planned source names, when a planned
    source states a rule for other countries (:data:`ABROAD`); [] otherwise. The first word of a sentence of the
    question is not read as a name ("Can", "Is")."""
    if not any(ABROAD.search(s.text) for s in sources):
        return []
    body = question.strip()
    starts = {m.start() for m in re.finditer(r"(?:^|(?<=[.!?:]\s))\S", body)}  # each sentence's first word
    names = [m.group(0) for m in _NAME.finditer(body) if m.start() not in starts]
    asked = [n for n in names if _country(n)]
    if not asked:
        return []
    said = "\n".join(f"{s.title}\n{s.section}\n{s.text}" for s in sources)
    return [n for n in asked if not re.search(rf"(?<!\w){re.escape(_bare(n))}(?!\w)", said, re.I)]


def _bare(name: str) -> str:
    """A name without its leading "the"."""
    return re.sub(r"^the\s+", "", name.strip(), flags=re.I)


def abroad_first(ranked: Sequence[ScoredSentence]) -> list[ScoredSentence]:
    """``ranked`` (best first) with its best sentence stating a rule for other countries moved first with the best
    score (grounding.scored_sentences.promoted); unchanged when none states one."""
    first = next((s for s in ranked if ABROAD.search(s.text)), None)
    return promoted(ranked, first) if first is not None else list(ranked)
