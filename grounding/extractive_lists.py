"""The list answers of the offline extractive answerer (grounding.extractive): which list a list question gets, from
the planned sources, composed as its lead-in and its items, each cited (grounding.compose.bulleted). In order:

1. the list the best sentence announces ("GSA allows all 5 types of flexible schedules.", "You will need the
   following:"), else one of the next best sentences at or above the floor (ANNOUNCING_LOOKS in all): the list
   items, table rows or sub-headings that follow it, or, when the list is written across several chunks, the
   sub-sections of its section named by the document's outline (grounding.list_answers.announced_list);
2. the sub-sections of a section the question names ("Which three properties does the glossary define?"), from a
   source's outline (grounding.list_answers.headed_list);
3. the run of list items (with its lead-in) that matches the question best, when it is close enough.

None when none applies (the answerer then quotes sentences). No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import numpy as np

from grounding import compose
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.list_answers import (KIND_TERMS, MAX_GAP, announced_items, announced_list, asked_plural, asks_kinds,
                                    headed_list)
from grounding.sentence_data import SentenceData
from grounding.quotable import quotable
from grounding.sentence_leads import heading_of
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.types import ContextPlan, Source

#: How many of the best sentences (those at or above the floor) are looked at for one announcing the list asked for.
ANNOUNCING_LOOKS = 3

#: A noun phrase referring back to something named earlier ("these goals", "such requests"): in a phrase fronted
#: before the lead-in's clause, it does not name the items of the list (grounding.extractive_lists._own_words).
_REFERRING = re.compile(r"\b(?:these|those|such)\s+[\w-]+", re.IGNORECASE)

#: A short lead-in that refers back to what was just said ("This includes:", "These include:", "Examples are:").
_REFERS_BACK = re.compile(r"(?:this|these|that|those|such|examples?)\b(?:\s+[\w-]+){0,4}\s*:$", re.IGNORECASE)

#: A list answer: its text and the sentences it rests on (what the notes of the answer are chosen by).
ListAnswer = tuple[str, list[ScoredSentence]]


def list_answer(plan: ContextPlan, question: str, query: str, query_vector: np.ndarray, best: ScoredSentence,
                ranked: Sequence[ScoredSentence], *, floor: float, embedder: Embedder | None = None,
                overlap_weight: float = 0.3, margin: float = 0.12) -> ListAnswer | None:
    """The list answer to a list question (see the module docstring), or None. Two guards rank the run of step 3
    against the other steps' lists: a run scoring ``margin`` or more above ``best`` is quoted before the
    sub-sections of a section the question names ("What leave types are set aside specifically for veterans?": "There
    are four types of leave that are offered specifically to veterans ...:" and its items, not the sub-headings of the
    handbook's "Types of leave"; fresh37's f37-l06); and when ``best`` writes its list inline ("The kit typically
    includes: a monitor, keyboard, mouse, ..."), a run must score above it to be quoted instead (fresh37's f37-l07
    quoted a procurement package's items).

    Args:
        plan: the context plan (its sources carry their sentence data, grounding.sentence_rank.with_sentences).
        question: what is asked (its words name a section: "the glossary").
        query: the retrieval query the sentences were ranked against (a follow-up carries what it refers to).
        query_vector: float32 (dim,) unit vector of ``query``.
        best: the sentence the answer would rest on (the best one stating what is asked).
        ranked: all ranked sentences, best first (grounding.sentence_rank.rank_sentences).
        floor: the score (cosine + ``overlap_weight`` x share of the question's terms) a run of list items must reach.
        margin: how far above ``best`` a run must score to be quoted before a section's sub-headings.
    """
    close = [best] + [s for s in ranked[:ANNOUNCING_LOOKS] if s.score >= floor and s != best]
    announced = next(filter(None, (_announced(plan, s, embedder) for s in close)), None)
    if announced is not None:
        return announced
    inline = best.kind == "sentence" and best.text.count(",") >= 2  # its list written in the sentence
    run = _best_run(plan, query, query_vector, max(floor, best.score) if inline else floor, embedder,
                    overlap_weight)
    if run is not None and run[0] >= best.score + margin:
        return run[1]
    return _headed(plan, question, ranked, embedder) or (run[1] if run is not None else None)


def _announced(plan: ContextPlan, best: ScoredSentence, embedder: Embedder | None) -> ListAnswer | None:
    """``best`` cited, then the list it announces; None when it announces none."""
    source = plan.source_map.get(best.label)
    if source is None or best.kind not in ("sentence", "item", "lead"):
        return None
    data = source_sentences(source, embedder)
    # (a lead-in is ranked with its items after it, "... under $75: Airfare ...; Airplane wifi; …": it is read as
    # written, its items listed below it; fresh41's f41-l03 got the next list instead)
    if not (0 <= best.position < len(data)) or not best.text.startswith(data.texts[best.position]):
        return None
    best = replace(best, text=data.texts[best.position])
    items = announced_list(data.texts, data.kinds, best.position, outline=source.outline, section=source.section)
    if items:
        return compose.bulleted(best.text, items, best.label), [best]
    lead = _continued_by(data, best.position)
    if lead is not None:
        head = f"{best.text} {data.texts[lead]}"
        return compose.bulleted(head, announced_items(data.texts, data.kinds, lead), best.label), [best]
    lead = referred_lead(data, best.position)
    if lead is None:
        return None
    return compose.bulleted(data.texts[lead], announced_items(data.texts, data.kinds, lead), best.label), [best]


def referred_lead(data: SentenceData, position: int) -> int | None:
    """The position of the lead-in of a list that the sentence at ``position`` refers back to ("Here are several
    dimensions ... to consider:" - items - "Oftentimes, you will have to weigh each of these dimensions."): the
    sentence names "these"/"those" and a noun the lead-in names, and at most MAX_GAP sentences of running text
    stand between the end of that list and the sentence; None otherwise."""
    nouns = set().union(*(content_terms(m.group(0)) for m in _REFERRING.finditer(data.texts[position])))
    if not nouns:
        return None
    at, gap = position - 1, 0
    while at >= 0 and data.kinds[at] == "sentence" and gap < MAX_GAP:
        at, gap = at - 1, gap + 1
    if at < 0 or data.kinds[at] != "item":
        return None
    while at >= 0 and data.kinds[at] == "item":
        at -= 1
    if at < 0 or data.kinds[at] != "lead" or not nouns & content_terms(data.texts[at]):
        return None
    return at if len(announced_items(data.texts, data.kinds, at)) >= 2 else None


def _continued_by(data: SentenceData, position: int) -> int | None:
    """The position of a lead-in that continues the sentence at ``position`` and refers back to it ("Assume
    everything you share in Slack will be made public. [...] This includes:"), at most MAX_GAP sentences after it,
    when list items follow that lead-in; None otherwise."""
    for at in range(position + 1, min(position + 2 + MAX_GAP, len(data.kinds))):
        if data.kinds[at] == "lead" and _REFERS_BACK.match(data.texts[at]):
            return at if len(announced_items(data.texts, data.kinds, at)) >= 2 else None
        if data.kinds[at] != "sentence":
            return None
    return None


def _headed(plan: ContextPlan, question: str, ranked: Sequence[ScoredSentence],
            embedder: Embedder | None = None) -> ListAnswer | None:
    """"<title>, <heading>:" then the sub-headings of the section the question names, from the outline of the first
    source (in ranking order) that has one, cited to that source; None when no source has one. When the source
    writes a list announced by a lead-in under one of those sub-headings, the sub-headings are topics and that list
    (its lead-in and items) is the answer ("What are the ways I can report a harassment concern?": "You can report a
    concern through any of these channels: ..." under "Reporting channels", not the headings "Reporting channels",
    "Anonymous reporting", "Managers' duty to report"; the s21 new-user run)."""
    for label in dict.fromkeys(s.label for s in ranked):
        source = plan.source_map.get(label)
        found = headed_list(question, source.outline, source.title) if source is not None else None
        if found and (written := _list_under(source, found[1], embedder)) is not None:
            lead, items = written
            return compose.bulleted(lead, items, label), [ScoredSentence(lead, label, 0.0)]
        if found:
            head = ScoredSentence(f"{source.title}, {found[0]}:", label, 0.0)
            told = _told_under(source, found[1], embedder)
            return compose.bulleted(head.text, told or found[1], label), [head]
    return None


def _told_under(source: Source, headings: Sequence[str], embedder: Embedder | None) -> list[str]:
    """"<sub-heading>: <the first sentence written under it>" for each of ``headings`` that ``source`` writes prose
    under (its sentences' own headings: grounding.sentence_leads.heading_of; of a source of one section, only after
    a heading line of its text), in their order; [] unless every one of them has a quotable sentence (a list of
    sub-sections written across chunks stays whole, as headings). "What are the password rules?" listed the three
    sub-headings of "Passwords" as its answer, none of the rules (the s22 round's new-user run): "Password
    requirements: All Tallgrass passwords must be at least 14 characters long.", and so on."""
    data = source_sentences(source, embedder)
    wanted = {h.strip().lower(): h.strip() for h in headings}
    first: dict[str, str] = {}
    seen_heading = False
    for i, (text, kind) in enumerate(zip(data.texts, data.kinds)):
        seen_heading = seen_heading or kind == "heading"
        if kind not in ("sentence", "item") or not (seen_heading or source.sections):
            continue
        under = heading_of(data, i, source.section, source.sections).strip().lower()
        if under in wanted and under not in first and quotable(text, kind, screened=data.screened):
            first[under] = text
    return [f"{wanted[h]}: {first[h]}" for h in wanted] if len(first) == len(wanted) >= 2 else []


def _list_under(source: Source, headings: Sequence[str], embedder: Embedder | None) -> tuple[str, list[str]] | None:
    """The first list of two or more items announced by a lead-in that ``source`` writes under one of ``headings``
    (the heading line before the lead-in, or the section of the part it opens): (lead-in, items); None when there is
    none."""
    data = source_sentences(source, embedder)
    wanted = {h.strip().lower() for h in headings}
    for start, end in item_runs(data.kinds):
        if end - start < 2 or start == 0 or data.kinds[start - 1] != "lead":
            continue
        if heading_over(source, data, start - 1).strip().lower() in wanted:
            return data.texts[start - 1], list(data.texts[start:end])
    return None


def _best_run(plan: ContextPlan, question: str, vector: np.ndarray, floor: float, embedder: Embedder | None,
              overlap_weight: float) -> tuple[float, ListAnswer] | None:
    """(its score, the list answer): the list (its lead-in and items) whose lead-in or items match the question best
    (cosine of their stored vectors plus term overlap, plus ``overlap_weight`` when its lead-in or its heading names
    the plural noun the question asks for, grounding.list_answers.asked_plural: "You can report a concern through
    any of these channels:" or "## Reporting channels" for "What are the channels for reporting ...?"; or a word for
    kinds when the question asks for kinds, grounding.list_answers.asks_kinds: "There are three kinds of FSA:" for
    "What types are there?"), when that match reaches ``floor``; None otherwise. The lead-in is quoted only when
    it is one (never a fragment cut by a chunk boundary, nor a heading); a run without one is introduced by its
    document's title and the heading over it ("Individual Development Plan, Common goals of an IDP:"), as a list of
    sub-headings is (:func:`_headed`)."""
    terms = content_terms(question)
    plural, kinds = asked_plural(question), asks_kinds(question)
    found: tuple[float, Source, int, int] | None = None
    for source in plan.sources:
        data = source_sentences(source, embedder)
        for start, end in item_runs(data.kinds):
            if end - start < 2:
                continue
            lead = start - 1 if start > 0 and data.kinds[start - 1] in ("lead", "sentence") \
                and not opens_part(source, data, start) else start
            cos = max(float(max(data.vectors[i] @ vector, data.context[i] @ vector)) for i in range(lead, end))
            shared = terms & content_terms(" ".join(data.texts[lead:end]))
            score = cos + overlap_weight * len(shared) / (len(terms) or 1)
            heads = _run_heads(source, data, lead) if plural or kinds else frozenset()
            if (plural and plural <= heads) or (kinds and KIND_TERMS & heads):
                score += overlap_weight  # "any of these channels:", "## Common goals of an IDP": what is asked for
            if found is None or score > found[0]:
                found = (score, source, lead, end)
    if found is None or found[0] < floor:
        return None
    _, source, lead, end = found
    data = source_sentences(source, embedder)
    head = data.texts[lead] if data.kinds[lead] == "lead" or (
        data.kinds[lead] == "sentence" and quotable(data.texts[lead], "sentence")) else ""
    if not head and data.kinds[lead] == "item" and (heading := heading_over(source, data, lead)):
        head = f"{source.title}, {heading}:" if source.title and source.title != heading else f"{heading}:"
    items = [t for t, k in zip(data.texts[lead:end], data.kinds[lead:end]) if k == "item"]
    return found[0], (compose.bulleted(head, items, source.label),
                      [ScoredSentence(head or items[0], source.label, 0.0)])


def _run_heads(source: Source, data: SentenceData, lead: int) -> frozenset[str]:
    """The content terms of what heads a run of list items whose first line (its lead-in, else its first item) is at
    ``lead`` of ``data`` (the source's sentence data): an announcing lead-in ("... any of these channels:"), and the
    heading right before it; when the run opens the source, or opens the part of a merged source that a chunk of
    another section starts (the chunk's heading is in its section path, not in the joined text:
    Source.sections), that section's own heading. A noun the lead-in refers back to in a phrase set before its
    clause ("To achieve these goals, we frequently:") names what came before, not what the items are, and is left
    out (:func:`_own_words`)."""
    texts, kinds = data.texts, data.kinds
    heads = [_own_words(texts[lead])] if kinds[lead] == "lead" else []
    return content_terms(" ".join(heads + [heading_over(source, data, lead)]))


def opens_part(source: Source, data: SentenceData, at: int) -> bool:
    """True when the line at ``at`` opens the part of a merged source where a chunk of another section starts: the
    line before it stands in another section, so it is no lead-in of what follows ("Remember to bring an unexpired
    passport ... on your first day." ends "Before day one", and "Day 1 (Monday)"'s timetable follows it)."""
    if at <= 0 or at >= len(data.spans):
        return False
    begin, end = data.spans[at - 1][1], data.spans[at][0]
    return any(begin <= start <= end and path != before[1]
               for (start, path), before in zip(source.sections[1:], source.sections))


def heading_over(source: Source, data: SentenceData, lead: int) -> str:
    """The heading over a run whose first line is at ``lead``: the heading line right before it; when the run opens
    the source, or the part of a merged source where a chunk of another section starts, that section's own
    heading; "" when none."""
    if lead > 0 and data.kinds[lead - 1] == "heading":
        return data.texts[lead - 1]
    if lead == 0:
        return own_heading(source.section) if source.section else ""
    at = data.spans[lead][0]
    for (start, path), before in zip(source.sections[1:], source.sections):
        if start <= at and not source.text[start:at].strip(" \t\n-*") and path != before[1]:
            return own_heading(path)
    return ""


def _own_words(lead: str) -> str:
    """A lead-in without the noun a fronted phrase refers back to: "To achieve these goals, we frequently:" -> "To
    achieve , we frequently:" (the items are what we do, not the goals); a "these" in the clause itself points at
    the items ("Pick whichever of these channels suits you:") and stays."""
    fronted, comma, rest = lead.partition(",")
    return _REFERRING.sub(" ", fronted) + comma + rest if comma else lead


def own_heading(path: str) -> str:
    """The last heading of a section path ("Leave > Annual leave · Taking leave" -> "Annual leave")."""
    return path.split(" > ")[-1].split(" · ")[0]


def item_runs(kinds: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each run of consecutive list items."""
    runs, start = [], None
    for i, kind in enumerate(list(kinds) + ["end"]):
        if kind == "item" and start is None:
            start = i
        elif kind != "item" and start is not None:
            runs.append((start, i))
            start = None
    return runs
