"""The list under a numbered section heading a question names, for the offline extractive answerer
(grounding.extractive): "What happens on Day 1?" or "What should I do on my first day?" over an onboarding page whose
section "## Day 1 (Monday)" is a list of timed items. Those items share no word with the question (only their heading
does), so no sentence of them ranked near the top, and the demo handbook's answer was New Year's Day from the holiday
table (the s17 round). A heading counts as named when all its content words, a number among them, are in the
question (its parenthesis left out: "(Monday)"); a number written as a word or an ordinal ("one", "first") is read as
the digit. Only numbered headings ("Day 1", "Step 2", "Week 3", "Phase 1"): an unnumbered heading over a list
("Slack channels") is named by many questions that ask one fact of it. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding import compose
from grounding.embeddings import Embedder
from grounding.extractive_lists import ListAnswer, heading_over, item_runs
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.types import ContextPlan

#: Number words and ordinals read as their digit ("day one", "the first day" -> "1").
_NUMBERS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve"
                                            .split())}
_NUMBERS |= {w: str(i) for i, w in enumerate("zeroth first second third fourth fifth sixth seventh eighth ninth "
                                             "tenth eleventh twelfth".split())}
#: Verbs asking what a section holds ("What happens on Day 1?", "What should I expect in week 2?").
_ASKING = content_terms("happen happens expect")
#: The content terms of the number words and ordinals.
_NUMBER_TERMS = frozenset().union(*(content_terms(w) for w in _NUMBERS))
_WORD = re.compile(r"[a-z]+")
_PARENTHESIS = re.compile(r"\([^)]*\)")


def numbered_terms(text: str) -> frozenset[str]:
    """The content terms of ``text`` (grounding.lexical.content_terms) and the digit of each number word or ordinal
    in it: "What should I do on my first day?" -> {"first", "day", "1", ...}."""
    return content_terms(text) | {_NUMBERS[w] for w in _WORD.findall(text.lower()) if w in _NUMBERS}


def names_numbered_heading(terms: frozenset[str], heading: str) -> bool:
    """True when ``heading`` is numbered and all its content words (its parenthesis left out, numbers as digits) are
    among a question's ``terms`` (:func:`numbered_terms`), and it has a word besides its number: "Day 1 (Monday)" is
    named by "What happens on Day 1?" and by "my first day", not by "What happens on day 2?" nor by "the 1st"."""
    own = numbered_terms(_PARENTHESIS.sub(" ", heading))
    return len(own) >= 2 and any(t.isdigit() for t in own) and own <= terms


def _own_words(question: str, heading: str) -> frozenset[str]:
    """The content terms of ``question`` that are not ``heading``'s, a number (or number word) or generic
    (grounding.followup.GENERIC: "day", "need", ...), nor a verb asking what a section holds ("happens")."""
    return frozenset(t for t in content_terms(question) - numbered_terms(heading) - GENERIC - _ASKING
                      if not t.isdigit() and t not in _NUMBER_TERMS)


def section_list(plan: ContextPlan, question: str, embedder: Embedder | None = None,
                 labels: Sequence[str] = (), best: str = "") -> ListAnswer | None:
    """The list of items (two or more) under the numbered heading ``question`` names (:func:`names_numbered_heading`),
    from the first source that has one (in the order of ``labels``, the sources' labels best first, then the plan's
    order), introduced by its lead-in when it has one, else by "<title>, <heading>:", each item cited; None when the
    question names no numbered heading over a list of a planned source, or when ``best`` (the best-ranked sentence)
    is not an item of that list and holds a word of the question besides the heading's, its number and generic
    ones: "What do I need to bring on my first day?" is answered by "Remember to bring an unexpired passport ... on
    your first day", not by the Day 1 timetable (the s18 new-user run)."""
    terms = numbered_terms(question)
    if not any(t.isdigit() for t in terms):
        return None
    order = list(dict.fromkeys([*labels, *(s.label for s in plan.sources)]))
    for label in order:
        source = plan.source_map.get(label)
        if source is None:
            continue
        data = source_sentences(source, embedder)
        for start, end in item_runs(data.kinds):
            lead = start - 1 if start > 0 and data.kinds[start - 1] == "lead" else start
            heading = heading_over(source, data, lead)
            if end - start < 2 or not heading or not names_numbered_heading(terms, heading):
                continue
            head = data.texts[lead] if lead < start else (
                f"{source.title}, {heading}:" if source.title and source.title != heading else f"{heading}:")
            items = list(data.texts[start:end])
            if best and best not in items and _own_words(question, heading) & content_terms(best):
                return None
            return compose.bulleted(head, items, label), [ScoredSentence(head, label, 0.0)]
    return None
