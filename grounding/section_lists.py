"""The list under a numbered section heading a question names, for the offline extractive answerer
(grounding.extractive): "What happens on Day 1?" or "What should I do on my first day?" over an onboarding page whose
section "## Day 1 (Monday)" is a list of timed items. Those items share no word with the question (only their heading
does), so no sentence of them ranked near the top, and the demo handbook's answer was New Year's Day from the holiday
table (the s17 round). A heading counts as named when all its content words, a number among them, are in the
question (its parenthesis left out: "(Monday)"); a number written as a word or an ordinal ("one", "first") is read as
the digit. Only numbered headings ("Day 1", "Step 2", "Week 3", "Phase 1"), headings phrased as the question, and,
for a question asking for a list, an unnumbered heading all of whose words (two or more) it names over items too short
to rank ("What values does the team list?" / "Team Values"): an unnumbered heading over a list ("Slack channels") is
named by many questions that ask one fact of it. No Django imports.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from grounding import compose
from grounding.answer_types import question_type
from grounding.embeddings import Embedder
from grounding.extractive_lists import ListAnswer, heading_over, item_runs, own_heading
from grounding.followup import GENERIC
from grounding.heading_lookup import NUMBER_WORDS, named_labels, numbered_terms, section_labels
from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.sentence_data import SentenceData
from grounding.types import ContextPlan, Source

#: Verbs asking what a section holds ("What happens on Day 1?", "What should I expect in week 2?").
_ASKING = content_terms("happen happens expect")
#: The content terms of the number words and ordinals.
_NUMBER_TERMS = frozenset().union(*(content_terms(w) for w in NUMBER_WORDS))
_PARENTHESIS = re.compile(r"\([^)]*\)")
#: The most sentences a section answer quotes (grounding.section_lists.section_passage).
MAX_SECTION_SENTENCES = 6


def names_numbered_heading(terms: frozenset[str], heading: str, named: frozenset[str] | None = None) -> bool:
    """True when ``heading`` is numbered and all its content words (its parenthesis left out, numbers as digits) are
    among a question's ``terms`` (:func:`numbered_terms`), and it has a word besides its number: "Day 1 (Monday)" is
    named by "What happens on Day 1?" and by "my first day", not by "What happens on day 2?" nor by "the 1st". When
    the heading opens with a label ("Day 1") and the question's labels ``named`` are given
    (grounding.heading_lookup.named_labels), that label must be among them: "day three of the first week" names
    "Day 3", not "Day 1"."""
    own = numbered_terms(_PARENTHESIS.sub(" ", heading))
    if not (len(own) >= 2 and any(t.isdigit() for t in own) and own <= terms):
        return False
    opening = section_labels(heading)
    return named is None or not opening or bool(opening & named)


def _own_words(question: str, heading: str) -> frozenset[str]:
    """The content terms of ``question`` that are not ``heading``'s, a number (or number word) or generic
    (grounding.followup.GENERIC: "day", "need", ...), nor a verb asking what a section holds ("happens")."""
    return frozenset(t for t in content_terms(question) - numbered_terms(heading) - GENERIC - _ASKING
                      if not t.isdigit() and t not in _NUMBER_TERMS)


def section_list(plan: ContextPlan, question: str, embedder: Embedder | None = None,
                 labels: Sequence[str] = (), best: str = "") -> ListAnswer | None:
    """The list of items (two or more) under the numbered heading ``question`` names (:func:`names_numbered_heading`),
    under a heading phrased as the question itself (:func:`asked_by_heading`) or, for a list question, under a heading
    it names every word of (:func:`names_heading`) when most items are too short to rank, from the first source that has
    one (in the order of ``labels``, the sources' labels best first, then the plan's order), introduced by its lead-in
    when it has one, else by "<title>, <heading>:", each item cited; None when the question names no numbered heading
    over a list of a planned source, or when ``best`` (the best-ranked sentence) is not an item of that list and holds a
    word of the question besides the heading's, its number and generic ones: "What do I need to bring on my first day?"
    is answered by "Remember to bring an unexpired passport ... on your first day", not by the Day 1 timetable (the s18
    new-user run); under a heading phrased as the question, unless the source's title, section or the items name those
    words too ("What counts as a security incident?" under "Security, Passwords and Incident Reporting")."""
    terms, named = numbered_terms(question), named_labels(question)
    numbered = any(t.isdigit() for t in terms)
    listing = question_type(question) == "list"
    for label, source, data in _in_order(plan, labels, embedder):
        for start, end in item_runs(data.kinds):
            lead = start - 1 if start > 0 and data.kinds[start - 1] == "lead" else start
            heading = heading_over(source, data, lead)
            if end - start < 2 or not heading:
                continue
            asking = not (numbered and names_numbered_heading(terms, heading, named))
            if asking and not asked_by_heading(question, heading) and not (
                    listing and names_heading(question, heading) and _too_short(data.texts[start:end])):
                continue
            head = data.texts[lead] if lead < start else (
                f"{source.title}, {heading}:" if source.title and source.title != heading else f"{heading}:")
            items = list(data.texts[start:end])
            own = _own_words(question, heading)
            if best and best not in items and own & content_terms(best) and not (
                    asking and own & content_terms(" ".join([source.title, source.section, *items]))):
                return None
            return compose.bulleted(head, items, label), [ScoredSentence(head, label, 0.0)]
    return None


#: A heading phrased as a question ("What counts as an incident", "How do I request leave?").
_ASKING_HEADING = re.compile(r"^(?:what|which|who|how|when|where|why)\b", re.I)


def asked_by_heading(question: str, heading: str) -> bool:
    """True when ``heading`` is phrased as a question and all its content words (two or more) are among the
    question's: "What counts as an incident" asks "What counts as a security incident?" (the s21 new-user run on
    the demo handbook got one sentence on lost laptops instead of the five items under that heading)."""
    own = content_terms(heading)
    return bool(_ASKING_HEADING.match(heading.strip())) and len(own) >= 2 and own <= content_terms(question)


def _too_short(items: Sequence[str]) -> bool:
    """True when most ``items`` are too short to be quoted alone (under four words: grounding.quotable.quotable),
    so no ranking of sentences finds them: "Attentiveness", "Empathy", "Strategic Thinking". A list of sentences
    under a heading a question names ("Action Items") is ranked and listed as any other list is."""
    return 2 * sum(len(t.split()) < 4 for t in items) > len(items)


def names_heading(question: str, heading: str) -> bool:
    """True when every content word of ``heading`` (two or more) is among ``question``'s: a list question ("What
    values does the team list for itself?") naming the heading over a list ("Team Values") asks for that list
    (fresh40's f40-l01 was answered with another page's list of supervisor duties)."""
    own = content_terms(_PARENTHESIS.sub(" ", heading))
    return len(own) >= 2 and own <= content_terms(question)


def section_passage(plan: ContextPlan, question: str, embedder: Embedder | None = None,
                    labels: Sequence[str] = (), best: str = "") -> ListAnswer | None:
    """The prose under the numbered heading ``question`` names (:func:`names_numbered_heading`) when it holds no list
    but sub-sections ("Day 3 (Wednesday)" over "Robot safety training" and "Security training", the demo handbook):
    one cited line per sub-section, "<sub-heading>: <its sentences>" (a line per sentence where it has none), at
    most MAX_SECTION_SENTENCES sentences, introduced by "<title>, <heading>:". The first source holding such prose
    (in the order of ``labels``, then the plan's) answers. None when no planned source has prose under a named
    numbered heading, or when ``best`` (the best-ranked sentence) is not among it and holds a word of the question
    besides the heading's, its number and generic ones that the section's sub-headings and sentences do not (as
    for :func:`section_list`; "What training do I do on Day 3?" is answered by Day 3's "Robot safety training")."""
    terms, labelled = numbered_terms(question), named_labels(question)
    if not any(t.isdigit() for t in terms):
        return None
    for label, source, data in _in_order(plan, labels, embedder):
        groups: dict[str, list[str]] = {}
        named = ""
        sub = ""
        for text, kind in zip(data.texts, data.kinds):
            path = source.section_of(text)
            heading = _named_in(terms, labelled, path)
            if not heading:
                sub = ""
                if groups:
                    break  # the named section ended
                continue
            named = named or heading
            if kind == "heading":
                sub = text
                continue
            if kind not in ("sentence", "item", "lead"):
                continue
            own = own_heading(path)
            groups.setdefault(sub or (own if own != heading else ""), []).append(text)
        quoted = [t for texts in groups.values() for t in texts][:MAX_SECTION_SENTENCES]
        if not quoted:
            continue
        own = _own_words(question, named)
        if best and best not in quoted and own & content_terms(best) \
                and not own & content_terms(" ".join([*groups, *quoted])):
            return None  # the best sentence holds what else the question asks, and the section does not
        lines, left = [], set(quoted)
        for sub, texts in groups.items():
            kept = [t for t in texts if t in left]
            if not kept:
                continue
            lines += [f"{sub}: {' '.join(kept)}"] if sub else kept
        head = f"{source.title}, {named}:" if source.title and source.title != named else f"{named}:"
        return compose.bulleted(head, lines, label), [ScoredSentence(head, label, 0.0)]
    return None


def _in_order(plan: ContextPlan, labels: Sequence[str], embedder: Embedder | None) -> Iterator[tuple[str, Source,
                                                                                                SentenceData]]:
    """(label, source, its sentence data) of the planned sources in the order of ``labels`` (the sources' labels,
    best first), then the plan's."""
    for label in dict.fromkeys([*labels, *(s.label for s in plan.sources)]):
        source = plan.source_map.get(label)
        if source is not None:
            yield label, source, source_sentences(source, embedder)


def _named_in(terms: frozenset[str], named: frozenset[str], path: str) -> str:
    """The heading of the section path ``path`` that ``terms`` name (:func:`names_numbered_heading`) and that holds
    the whole part: a heading the path nests in (" > "), or its last heading when not merged with others (" · ");
    "" when none."""
    levels = [p.strip() for p in path.split(" > ")] if path else []
    for i, level in enumerate(levels):
        if " · " in level and i == len(levels) - 1:
            continue  # merged sections ("Day 4 (Thursday) · Day 5 (Friday)"): which one a sentence is under is
            # read from the text's heading lines, which grounding.section_lists.section_list does for lists
        if names_numbered_heading(terms, level, named):
            return level
    return ""
