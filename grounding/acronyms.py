"""Acronyms the documents define ("paid time off (PTO)", "Family and Medical Leave Act (FMLA)", "PIV (Personal
Identity Verification)"), so that a question saying "PTO" matches a sentence saying "paid time off" word for word.

The sentence ranker (grounding.sentence_rank) scores the share of the question's words a sentence holds; without this,
"How many PTO days do I get?" preferred every sentence saying "PTO" over "Employees accrue 1.5 days of paid time off
per month" (the demo handbook, s14). A definition is read only where a document writes one: the acronym in
parentheses after (or before) the words whose initials spell it, small words ("of", "and", "the", "for") skipped;
nothing is guessed. No Django imports.

Technique: the parenthetical acronym-definition pattern of Schwartz and Hearst 2003 ("A simple algorithm for
identifying abbreviation definitions in biomedical text", PSB), simplified to initials.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable, Mapping

from grounding.lexical import content_terms

__all__ = ["definitions", "with_expansions", "with_spelled_out"]

_SMALL = frozenset("of and the for to in on a an & at by".split())
#: "words (ABC)": up to 8 words before an acronym of 2-6 capitals in parentheses (a final "s" allowed: "IDPs").
_AFTER = re.compile(r"((?:[A-Za-z][\w'-]*\s+){1,8})\(([A-Z][A-Z0-9]{1,5})s?\)")
#: "ABC (words)".
_BEFORE = re.compile(r"\b([A-Z][A-Z0-9]{1,5})s?\s+\(((?:[A-Za-z][\w'-]*\s*){2,8})\)")


def _spelled(words: list[str], acronym: str) -> list[str] | None:
    """The shortest tail of ``words`` (for a definition written before its acronym) whose initials, small words
    skipped, spell ``acronym``; None when none does."""
    letters = acronym.lower()
    for start in range(len(words) - 1, -1, -1):
        tail = words[start:]
        initials = "".join(w[0].lower() for w in tail if w.lower() not in _SMALL)
        if initials == letters and tail[0].lower() not in _SMALL:
            return tail
        if len(initials) > len(letters):
            return None
    return None


@functools.lru_cache(maxsize=20_000)
def _defined(text: str) -> tuple[tuple[str, str], ...]:
    """(acronym, its words) of each definition written in ``text`` (cached per text)."""
    found: list[tuple[str, str]] = []
    for m in _AFTER.finditer(text):
        words = _spelled(m.group(1).split(), m.group(2))
        if words:
            found.append((m.group(2), " ".join(words)))
    for m in _BEFORE.finditer(text):
        words = m.group(2).split()
        if _spelled(words, m.group(1)) == words:
            found.append((m.group(1), " ".join(words)))
    return tuple(found)


def definitions(texts: Iterable[str]) -> dict[str, frozenset[str]]:
    """The acronyms defined in ``texts`` (the planned sources), as {the acronym's content term ("pto"): the content
    terms of its words ({"paid", "time", "off"})}. An acronym defined two different ways is left out."""
    out: dict[str, frozenset[str]] = {}
    clash: set[str] = set()
    for text in texts:
        for acronym, words in _defined(text):
            key, terms = next(iter(content_terms(acronym)), ""), content_terms(words)
            if not key or not terms:
                continue
            if key in out and out[key] != terms:
                clash.add(key)
            out[key] = terms
    return {k: v for k, v in out.items() if k not in clash}


def with_expansions(terms: frozenset[str], aliases: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """``terms`` (a sentence's content terms) with each acronym of ``aliases`` whose words they all hold added, so a
    sentence saying "paid time off" holds the term "pto"."""
    added = {key for key, words in aliases.items() if key not in terms and words <= terms}
    return terms | added if added else terms


def with_spelled_out(terms: frozenset[str], aliases: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """``terms`` (a sentence's content terms) with the words of each acronym of ``aliases`` they hold added, so a
    sentence saying "PSLF" holds what "Are GSA employees eligible for Public Service Loan Forgiveness?" says of it
    (the reverse of :func:`with_expansions`; fresh41's f41-y05, a development set). Not to a sentence saying some
    of the words already ("... apply for forgiveness ... the PSLF form": fresh36's f36-c08 lost its answer to it)."""
    added = frozenset().union(*(words for key, words in aliases.items() if key in terms and not words & terms))
    return terms | added if added - terms else terms
