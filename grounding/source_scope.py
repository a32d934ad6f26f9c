"""Whom a page's rules are for, when only its title or section heading says so: "Sales Team Guide" / "The training
budget is $3,000 per person per year", "Intern Program > Travel" / "The daily meal allowance is $40 per day of travel".
Two such sentences of pages for different groups (or of a page for one group and a page for everyone) state two
subjects' values, not a contradiction (issue 18: different subjects are no contradiction); the s45 breaker's pages
got "Note that the sources disagree: S1 says ... $3,000 but S3 says $1,200". No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms

__all__ = ["scope", "scoped_apart"]

#: A group a page is for, named in its title or section path: "Sales Team", "Intern Program", "Engineering
#: Department", or a group of people ("Interns", "Contractors", "Part-time staff").
_SCOPE = re.compile(r"\b((?:[A-Z][\w&'-]*\s+){1,2})(?:Team|Program|Programme|Department|Division|Group|Unit|"
                    r"Squad|Chapter)s?\b"
                    r"|\b(interns?|contractors?|volunteers?|part-time(?:rs)?|temporary\s+staff|seasonal\s+staff|"
                    r"detailees?|fellows?)\b", re.I)


def scope(title: str, section: str = "") -> frozenset[str]:
    """The content terms of the groups a page's title or section path names (:data:`_SCOPE`): "Sales Team Guide" ->
    {"sale"}, "Intern Program" -> {"intern"}, "Travel and Expenses Policy" -> {}."""
    out: set[str] = set()
    for m in _SCOPE.finditer(f"{title}\n{section}"):
        out |= content_terms(m.group(1) or m.group(2))
    return frozenset(out - content_terms("the our all new"))


def scoped_apart(title_a: str, section_a: str, sentence_a: str, title_b: str, section_b: str, sentence_b: str) -> bool:
    """True when two sentences of different pages hold their values for different groups that only the pages' titles
    or section paths name: the scopes differ (one may be empty: a page for interns and a page for everyone) and
    neither sentence names a group of the other's scope itself (then the sentences say whom they are about, and the
    usual rules read them)."""
    a, b = scope(title_a, section_a), scope(title_b, section_b)
    if a == b:
        return False
    said = content_terms(sentence_a) | content_terms(sentence_b)
    return not ((a | b) & said)
