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

from typing import Sequence

import numpy as np

from grounding import compose
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.list_answers import announced_list, asked_plural, headed_list
from grounding.sentence_rank import ScoredSentence, quotable, source_sentences
from grounding.types import ContextPlan, Source

#: How many of the best sentences (those at or above the floor) are looked at for one announcing the list asked for.
ANNOUNCING_LOOKS = 3

#: A list answer: its text and the sentences it rests on (what the notes of the answer are chosen by).
ListAnswer = tuple[str, list[ScoredSentence]]


def list_answer(plan: ContextPlan, question: str, query: str, query_vector: np.ndarray, best: ScoredSentence,
                ranked: Sequence[ScoredSentence], *, floor: float, embedder: Embedder | None = None,
                overlap_weight: float = 0.3) -> ListAnswer | None:
    """The list answer to a list question (see the module docstring), or None.

    Args:
        plan: the context plan (its sources carry their sentence data, grounding.sentence_rank.with_sentences).
        question: what is asked (its words name a section: "the glossary").
        query: the retrieval query the sentences were ranked against (a follow-up carries what it refers to).
        query_vector: float32 (dim,) unit vector of ``query``.
        best: the sentence the answer would rest on (the best one stating what is asked).
        ranked: all ranked sentences, best first (grounding.sentence_rank.rank_sentences).
        floor: the score (cosine + ``overlap_weight`` x share of the question's terms) a run of list items must reach.
    """
    close = [best] + [s for s in ranked[:ANNOUNCING_LOOKS] if s.score >= floor and s != best]
    return (next(filter(None, (_announced(plan, s, embedder) for s in close)), None)
            or _headed(plan, question, ranked) or _best_run(plan, query, query_vector, floor, embedder, overlap_weight))


def _announced(plan: ContextPlan, best: ScoredSentence, embedder: Embedder | None) -> ListAnswer | None:
    """``best`` cited, then the list it announces; None when it announces none."""
    source = plan.source_map.get(best.label)
    if source is None or best.kind not in ("sentence", "item", "lead"):
        return None
    data = source_sentences(source, embedder)
    if not (0 <= best.position < len(data)) or data.texts[best.position] != best.text:
        return None
    items = announced_list(data.texts, data.kinds, best.position, outline=source.outline, section=source.section)
    return (compose.bulleted(best.text, items, best.label), [best]) if items else None


def _headed(plan: ContextPlan, question: str, ranked: Sequence[ScoredSentence]) -> ListAnswer | None:
    """"<title>, <heading>:" then the sub-headings of the section the question names, from the outline of the first
    source (in ranking order) that has one, cited to that source; None when no source has one."""
    for label in dict.fromkeys(s.label for s in ranked):
        source = plan.source_map.get(label)
        found = headed_list(question, source.outline, source.title) if source is not None else None
        if found:
            head = ScoredSentence(f"{source.title}, {found[0]}:", label, 0.0)
            return compose.bulleted(head.text, found[1], label), [head]
    return None


def _best_run(plan: ContextPlan, question: str, vector: np.ndarray, floor: float, embedder: Embedder | None,
              overlap_weight: float) -> ListAnswer | None:
    """The list (its lead-in and items) whose lead-in or items match the question best (cosine of their stored
    vectors plus term overlap, plus ``overlap_weight`` when its lead-in or its heading names the plural noun the
    question asks for, grounding.list_answers.asked_plural: "You can report a concern through any of these
    channels:" or "## Reporting channels" for "What are the channels for reporting ...?"), when that match reaches
    ``floor``; None otherwise. The lead-in is quoted only when
    it is one (never a fragment cut by a chunk boundary, nor a heading)."""
    terms = content_terms(question)
    plural = asked_plural(question)
    found: tuple[float, Source, int, int] | None = None
    for source in plan.sources:
        data = source_sentences(source, embedder)
        for start, end in _item_runs(data.kinds):
            if end - start < 2:
                continue
            lead = start - 1 if start > 0 and data.kinds[start - 1] in ("lead", "sentence") else start
            cos = max(float(max(data.vectors[i] @ vector, data.context[i] @ vector)) for i in range(lead, end))
            shared = terms & content_terms(" ".join(data.texts[lead:end]))
            score = cos + overlap_weight * len(shared) / (len(terms) or 1)
            if plural and plural <= _run_heads(source, data.texts, data.kinds, lead):
                score += overlap_weight  # "any of these channels:", "## Common goals of an IDP": what is asked for
            if found is None or score > found[0]:
                found = (score, source, lead, end)
    if found is None or found[0] < floor:
        return None
    _, source, lead, end = found
    data = source_sentences(source, embedder)
    head = data.texts[lead] if data.kinds[lead] == "lead" or (
        data.kinds[lead] == "sentence" and quotable(data.texts[lead], "sentence")) else ""
    items = [t for t, k in zip(data.texts[lead:end], data.kinds[lead:end]) if k == "item"]
    return compose.bulleted(head, items, source.label), [ScoredSentence(head or items[0], source.label, 0.0)]


def _run_heads(source: Source, texts: Sequence[str], kinds: Sequence[str], lead: int) -> frozenset[str]:
    """The content terms of what heads a run of list items whose first line (its lead-in, else its first item) is at
    ``lead``: an announcing lead-in ("... any of these channels:"), and the heading right before it (the section's
    own heading, from the source's section label, when the run opens the source)."""
    heads = [texts[lead]] if kinds[lead] == "lead" else []
    if lead > 0 and kinds[lead - 1] == "heading":
        heads.append(texts[lead - 1])
    elif lead == 0 and source.section:
        heads.append(source.section.split(" > ")[-1].split(" · ")[0])
    return content_terms(" ".join(heads))


def _item_runs(kinds: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each run of consecutive list items."""
    runs, start = [], None
    for i, kind in enumerate(list(kinds) + ["end"]):
        if kind == "item" and start is None:
            start = i
        elif kind != "item" and start is not None:
            runs.append((start, i))
            start = None
    return runs
