"""The page a follow-up's answer is anchored to: the one the previous answer rested on.

A question that refers back ("Could it go faster if I already have an active clearance?" after "If my project needs
me to hold a clearance, who starts the request?") asks about what the previous answer was about, so among sentences
that match it about equally, the one on the page that answer quoted first is the one it refers to, not a page the
previous question's carried words happen to find ("Fast Track PRA clearance" for "clearance request"). The previous
answer's citations are read from its history form, in which an answer's [S#] markers became "(source: Title)"
(grounding.memory.rewrite_stale_labels). No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator, Sequence

from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan, Turn

__all__ = ["ANCHOR_BONUS", "NEXT_BONUS", "NEXT_REACH", "REPEAT_PENALTY", "anchor_title", "anchored", "said_before"]

#: What a sentence of the previous answer's page gains in a follow-up's ranking: enough to settle near ties
#: between pages (a sentence of another page the carried words find), not to outrank a clearly better sentence.
ANCHOR_BONUS = 0.05

#: What a sentence the previous answer quoted loses in a follow-up's order: the follow-up asks something the
#: previous answer did not say ("Can I carry unused days over?" is not answered by the 15 days a year again).
REPEAT_PENALTY = 0.1

#: What a sentence right after one the previous answer quoted (at most NEXT_REACH places on, in the same source)
#: gains in a follow-up's order: the passage goes on with what the follow-up asks next ("Who reviews it?" after the
#: account manager writes the proposal: "They then send it off for the partner agency to review.").
NEXT_BONUS = 0.1
NEXT_REACH = 3

_MARKER = re.compile(r"\(source: ")


def _last_answer(history: Sequence[Turn]) -> str:
    """The text of the last answer in ``history`` ("" when there is none)."""
    return next((t.text for t in reversed(history) if t.role == "assistant"), "")


def _cited(history: Sequence[Turn], titles: Sequence[str]) -> Iterator[str]:
    """The titles (among ``titles``, the current sources' titles) the last answer of ``history`` cites, in the order
    of its markers (the longest title a marker opens with)."""
    answer = _last_answer(history)
    names = sorted(set(titles), key=len, reverse=True)
    for m in _MARKER.finditer(answer):
        rest = answer[m.end():]
        name = next((n for n in names if n and rest.startswith(n) and rest[len(n):len(n) + 1] in (")", ";")), None)
        if name is not None:
            yield name


def anchor_title(history: Sequence[Turn], titles: Sequence[str]) -> str:
    """The title (one of ``titles``, the current sources' titles) of the page the last answer of ``history`` cited
    first, "" when that answer cites none of them (or there is no answer)."""
    return next(_cited(history, titles), "")


def _flat(text: str) -> str:
    """``text`` without citation markers, in lower case, its whitespace collapsed and none before punctuation."""
    flat = " ".join(re.sub(r"\(source: [^)]*\)|\[S\d+\]", " ", text).split()).lower()
    return re.sub(r" (?=[.,;:!?])", "", flat)


def said_before(text: str, history: Sequence[Turn]) -> bool:
    """True when the last answer of ``history`` quoted ``text`` (whole, whitespace and citation markers aside: two
    versions' sentences "In high-cost cities ... the limit is $300" / "... $325" differ only at the end)."""
    return _in_flat(text, _flat(_last_answer(history)))


def _in_flat(text: str, flat_answer: str) -> bool:
    """True when ``text`` (flattened: :func:`_flat`) is in ``flat_answer``, an answer already flattened."""
    head = _flat(text).rstrip(".!?")  # whole: versions' sentences differ only by their value
    return bool(head) and head in flat_answer


def anchored(ranked: list[ScoredSentence], plan: ContextPlan, threshold: float, bonus: float = ANCHOR_BONUS,
             repeat: float = REPEAT_PENALTY, case: frozenset[str] = frozenset(),
             goes_on: bool = True) -> list[ScoredSentence]:
    """``ranked`` (best first) reordered for a follow-up: a sentence of the page the previous answer cited first
    (:func:`anchor_title`) counts ``bonus`` more, one the previous answer quoted (:func:`said_before`) ``repeat``
    less. Only the order changes, not the scores (which sentences are quoted beside the first stays decided by
    theirs), and a sentence below ``threshold`` is never put before one at or above it. A sentence holding a term of
    ``case``, the case a follow-up names instead of the previous one's (grounding.followup_reading.new_case), is
    not a repeat: the previous answer quoted it beside its own ("... 10 paid sick days per calendar year" after the
    vacation days), and "And what about sick days?" asks for it (it led with the sick days' usage rules, the s19
    demo run).
    One rule changes a score: a prose sentence up to NEXT_REACH places after a prose sentence the previous answer
    quoted, in the same source, scores NEXT_BONUS more (so it may pass ``threshold``): the passage goes on with what
    the follow-up asks next ("Who reviews it?" after "... the account manager writes up a short proposal ...": "They
    then send it off for the partner agency to review."; s20). Not a table row or list item: the next row or item
    is another case. Nor for an elliptical follow-up (``goes_on`` False): it names another case ("And what about sick
    days?", "and for remote employees?"), which the passage going on is not."""
    title = anchor_title(plan.history, [s.title for s in plan.sources])
    on_page = {s.label for s in plan.sources if s.title == title} if title else set()
    previous = _flat(_last_answer(plan.history))  # once, not once per ranked sentence
    quoted = {(s.label, s.position) for s in ranked if _in_flat(s.text, previous)}
    # prose only: the next row of a table or item of a list is another case, not the passage going on
    after = {(s.label, s.position + k) for s in ranked if s.kind == "sentence" and (s.label, s.position) in quoted
             for k in range(1, NEXT_REACH + 1)} - quoted
    if after and goes_on:  # the passage going on: scored higher, not only moved
        ranked = [replace(s, score=s.score + NEXT_BONUS) if s.kind == "sentence" and (s.label, s.position) in after
                  else s for s in ranked]

    def key(s: ScoredSentence) -> tuple[bool, float]:
        again = _in_flat(s.text, previous) and not (case and case & content_terms(s.text))
        moved = s.score + (bonus if s.label in on_page else 0.0) - (repeat if again else 0.0)
        return s.score >= threshold, moved

    return sorted(ranked, key=key, reverse=True)


#: How far under the answerer's threshold a follow-up's sentence may score and still be quoted, when it is on a page
#: the previous answer cited and holds every word the follow-up names of its own (:func:`lifted_on_cited_page`).
ON_PAGE_REACH = 0.15


def cited_titles(history: Sequence[Turn], titles: Sequence[str]) -> set[str]:
    """The titles (among ``titles``, the current sources' titles) of every page the last answer of ``history``
    cited."""
    return set(_cited(history, titles))


def lifted_on_cited_page(ranked: list[ScoredSentence], plan: ContextPlan, own: frozenset[str], threshold: float,
                         reach: float = ON_PAGE_REACH) -> list[ScoredSentence]:
    """``ranked`` (best first) for a follow-up whose best sentence scores under ``threshold``: the best sentence
    within ``reach`` under it that is on a page the previous answer cited and holds every one of ``own`` (the words
    the follow-up names of its own, grounding.followup.own_terms) comes first, scored at ``threshold``. A short
    follow-up matches any sentence weakly ("who approves it?" after the notice a week off needs: "Your manager
    approves or declines a request within 3 business days" scored 0.48, the s30 new user's demo run, refused); on the
    page the conversation is about, its own word decides. ``ranked`` unchanged otherwise."""
    if not ranked or not own or ranked[0].score >= threshold:
        return ranked
    pages = cited_titles(plan.history, [s.title for s in plan.sources])
    titles = {s.label: s.title for s in plan.sources}
    hit = next((s for s in ranked if s.score >= threshold - reach and titles.get(s.label) in pages
                and own <= content_terms(s.text)), None)
    if hit is None:
        return ranked
    return [replace(hit, score=threshold)] + [s for s in ranked if s is not hit]
