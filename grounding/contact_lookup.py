"""Questions asking whom to contact about a topic ("Who do I contact about equipment?", "Who's the point of contact
for Tock?"), answered by the page's own contact section ("## Contact" / "IT Help Desk: #it-help on Slack, extension
4357, or it-help@tallgrass.example"). The section names no topic and repeats none of the question's words, so neither
its vector nor BM25 finds it (the demo handbook's equipment page: 6th of the candidates, never planned, and the answer
was refused, the s44 new-user run); only its heading says it is the one asked about, as a numbered section's does
(grounding.heading_lookup). Retrieval brings in the contact sections of the best three candidates' pages behind the
first candidate, and the sentence ranking puts first the first sentence under the contact heading of the page the
question's own words name (:func:`contact_page`).

A contact heading is one of :data:`CONTACT_HEADING` as a whole heading ("Contact", "Contacts", "Questions?", "Getting
help", "Helpful contacts", "Point of contact"), not a heading that merely holds the word ("Emergency contacts" names
whom to call in an emergency, "Questions about entering specific expenses" is a topic). No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable, Mapping, Sequence

from grounding.lexical import content_terms

__all__ = ["CONTACT_HEADING", "asks_contact", "contact_heading", "contact_page", "contact_rows", "contacts_first"]

#: A question asking whom to contact, ask or reach, or for a point of contact.
_ASKS = re.compile(r"\bwho(?:m)?(?:'s| is| are)? (?:(?:do|should|can|could|would) (?:i|we|my \w+|employees|staff) )?"
                   r"(?:contact|ask|reach(?: out to)?|talk to|speak (?:to|with)|email|call|message|go to)\b|"
                   r"\bwho(?:m)? (?:to|should i) (?:contact|ask|reach)\b|"
                   r"\bhow (?:do|can|should) (?:i|we) (?:contact|reach)\b|"
                   r"\b(?:points? of contact|contact person|contact|who to contact)\s+(?:for|about|on|regarding)\b",
                   re.I)

#: Headings that head a page's contact section, as a whole heading (case and a closing "?" or ":" aside).
CONTACT_HEADING = re.compile(r"(?:contacts?|contact us|contact info(?:rmation)?|questions|any questions|"
                             r"still have questions|have questions|getting help|get help|where to get help|"
                             r"need help|help|helpful contacts|points? of contact|who to contact)[?:]?", re.I)


def asks_contact(question: str) -> bool:
    """True when ``question`` asks whom to contact or ask ("Who do I contact about equipment?", "Who should I ask
    about my laptop?", "How do I reach IT?", "Who is the point of contact for Tock?")."""
    return bool(_ASKS.search(question))


def contact_heading(section: str) -> bool:
    """True when the last heading of a section path ("Equipment > Contact"; of merged chunks "A · B", either part's)
    is a contact heading (:data:`CONTACT_HEADING`)."""
    parts = [p.split(" > ")[-1] for p in section.split(" · ")] if section else []
    return any(CONTACT_HEADING.fullmatch(p.strip()) for p in parts)


def contact_rows(documents: Sequence[object], sections: Mapping[int, tuple[object, str]], limit: int = 1) -> list[int]:
    """The rows under a contact heading of the first of ``documents`` (candidate documents' ids, best first) that has
    one, at most ``limit`` of them in row order; [] when none has. ``sections``: row -> (document id, section path)
    of every row of the index."""
    by_document: dict[object, list[int]] = {}
    for row, (document, section) in sorted(sections.items()):
        if contact_heading(section):
            by_document.setdefault(document, []).append(row)
    for document in documents:
        if document in by_document:
            return by_document[document][:limit]
    return []


#: The words of a contact question that name no topic, as content terms.
_CONTACT_TERMS = content_terms("contact ask reach talk speak email call message point person who question help")


def contact_page(sources: Sequence, question: str) -> object | None:
    """The document id of the page a contact question asks about: of ``sources`` (grounding.types.Source, current
    ones), the one whose title and keywords hold most of the question's topic words ("PTO" of "Who do I contact about
    PTO?"), then the most relevant; None without sources. In a conversation the retrieval query carries the previous
    question's words (after two questions about laptops, "Who do I contact about PTO?" found the equipment page
    first): the question's own words pick the page."""
    topic = content_terms(question) - _CONTACT_TERMS
    current = [s for s in sources if getattr(s, "status", "current") != "superseded"]
    if not current:
        return None
    best = max(current, key=lambda s: (len(topic & content_terms(" ".join((s.title, *getattr(s, "keywords", ()))))),
                                       s.score))
    return best.document_id


def contacts_first(scored: list, keys: Iterable[tuple[str, int]], margin: float = 0.15) -> list:
    """``scored`` (grounding.sentence_rank.ScoredSentence, each with ``label``, ``position`` and ``score``) with the
    sentences ``keys`` names ((source label, sentence index): the first sentence under the contact heading of the
    page asked about) scored ``margin`` above the best of the others: the contact section answers "Who do I contact
    about ...?", not a sentence naming a team in passing. The margin is more than the extractive answerer's spread
    (0.12), as grounding.event_cases.failures_first's."""
    wanted = set(keys)
    lifted = [s.score for s in scored if (s.label, s.position) in wanted]
    others = [s.score for s in scored if (s.label, s.position) not in wanted]
    if not lifted or not others:
        return scored
    lift = max(0.0, max(others) + margin - max(lifted))
    return [replace(s, score=s.score + lift) if (s.label, s.position) in wanted else s for s in scored]
