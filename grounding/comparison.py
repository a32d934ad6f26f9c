"""Answering a comparison with the extractive answerer: for each side ("my laptop password" / "my phone passcode"), the
sentence stating that side's value, the pair chosen so that like is compared with like.

The sides and their own questions come from grounding.comparison_sides.comparison_sides; each side's question is
ranked by grounding.sentence_rank; a side's sentence must state what its question asks for (an answer type,
grounding.answer_types). Bonuses were tuned on the calibration half of the 18F golden set (comparison kind) and
its development set (the heading, limit and widening rules: d024, d025, d026, the s15 round). No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from grounding.answer_types import CHECKED_TYPES, question_type, states, typed_values
from grounding.lexical import content_terms
from grounding.comparison_naming import asks_limit, named_terms, states_limit, under_side_heading
from grounding.comparison_sides import Sides
from grounding.question_parts import mentions, specifics
from grounding.quoting import continuation, same_words, with_value
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan

__all__ = ["HEADING_BONUS", "OWN_TERM_BONUS", "SAME_SOURCE_BONUS", "SAME_STRUCTURE_BONUS", "SAME_VALUE_TYPE_BONUS",
           "parallel", "side_sentences", "units"]

#: Bonus of a comparison side's sentence that names its side (holds one of the side's own terms, not the other's),
#: and again when it names what is compared (a term of both sides' questions).
OWN_TERM_BONUS = 0.1
#: Bonus of a comparison side's sentence standing under a heading that the side's question names whole ("Variable
#: Day" for "... on a Variable Day schedule?"; grounding.comparison_naming.under_side_heading).
HEADING_BONUS = 0.1
#: Bonus of a comparison's pair of sentences from one source, of one list or table, stating values of one type.
SAME_SOURCE_BONUS, SAME_STRUCTURE_BONUS, SAME_VALUE_TYPE_BONUS = 0.15, 0.1, 0.1


_UNIT = re.compile(r"\b\d[\d,.]*\+?\s+([a-z]{3,})", re.I)


def units(text: str) -> set[str]:
    """The words that follow a number in ``text`` ("16 characters", "4 hours" -> {"character", "hour"})."""
    return {m.group(1).lower().removesuffix("s") for m in _UNIT.finditer(text)}


def parallel(a: ScoredSentence, b: ScoredSentence) -> float:
    """How much two sentences read as the two sides of one comparison (like compared with like): SAME_SOURCE_BONUS
    when they come from one source, SAME_STRUCTURE_BONUS when both are list items or both table rows (running
    sentences are too common to say anything), SAME_VALUE_TYPE_BONUS when they state values of one type
    (grounding.answer_types.typed_values: two durations, two amounts; a date and a duration are not compared) or
    numbers of one unit ("16 characters" / "longer than 14 characters")."""
    kinds_a = {v.split(":", 1)[0] for v in typed_values(a.text)}
    kinds_b = {v.split(":", 1)[0] for v in typed_values(b.text)}
    alike = bool((kinds_a & kinds_b) - {"count"}) or bool(units(a.text) & units(b.text))
    return (SAME_SOURCE_BONUS * (a.label == b.label)
            + SAME_STRUCTURE_BONUS * (a.kind == b.kind and a.kind in ("item", "row"))
            + SAME_VALUE_TYPE_BONUS * alike)


def _source_names(plan: ContextPlan, s: ScoredSentence, name: str) -> bool:
    """True when the sentence, or the title, section or text of its source, names ``name``."""
    source = plan.source_map.get(s.label)
    where = s.text if source is None else f"{source.title}\n{source.section}\n{source.text}\n{s.text}"
    return mentions(where, name)


def side_sentences(rankings: Sequence[Sequence[ScoredSentence]], sides: Sides, plan: ContextPlan, *,
                   threshold: float, type_spread: float) -> list[ScoredSentence]:
    """The two sentences answering a comparison, [side one's sentence, side two's].

    ``rankings`` are the plan's sentences ranked against each side's question (grounding.question_parts.Sides
    .queries, grounding.sentence_rank.rank_sentences), in the order of ``sides``. For each side, a candidate is one
    of the close sentences of its ranking (within ``type_spread`` of its best, at least ``threshold`` -
    ``type_spread``) that states what that side's question asks for (its answer type, grounding.answer_types; a
    quantity or a date when it has none; a list item is read with its value, grounding.quoting.with_value) and does
    not name the other side only (it holds one of this side's own terms, or none of the other's: "Training (not at
    a conference) under $2,500" is about training), a sentence naming what its heading and its page's title name
    too (grounding.comparison_naming.named_terms: an item under "Variable Day", a sentence of the Chicago page).
    A side asking for a limit ("the longest single day") keeps the candidates stating one ("The maximum number of
    hours ... is 12") when there are any. A candidate naming its side gains OWN_TERM_BONUS, and so does one naming
    what is compared (a term both sides' questions hold: "longer", "accrual"); one under a heading the side's
    question names whole gains HEADING_BONUS ("Variable Day"); the six best of each side, bonuses counted, are
    paired. The pair with the best scores wins, like compared with like counting for more (:func:`parallel`).

    A side of a checked answer type with no candidate (sentences naming it without its value, "Location: New York
    City ...", ranked above the one stating it) takes its candidates within ``type_spread`` of its best sentence
    stating that type, from a source none of whose close sentences names the side.

    A side whose question names something the other's does not (grounding.question_parts.specifics: "Denver")
    takes its sentence only from a source naming it.

    Returns [] unless both sides get a sentence and one of them reaches ``threshold`` (scores are cosine + bonuses,
    grounding.sentence_rank, with the bonuses above).
    """
    pools: list[list[ScoredSentence]] = []
    subjects: dict[tuple[str, int], ScoredSentence] = {}  # a value sentence -> the sentence naming its subject
    compared = content_terms(sides.queries[0]) & content_terms(sides.queries[1])  # "longer", "accrual"
    # like is compared with like: a side whose own question names no type ("... compared with parking at 355
    # McAllister?" lost its verb to the other side) asks for what the other side's does ("What does parking cost?")
    types = [question_type(q) for q in sides.queries]
    checked = [t for t in types if t in CHECKED_TYPES]
    for ranked, query, own, other, other_query in ((rankings[0], sides.queries[0], *sides.terms, sides.queries[1]),
                                                   (rankings[1], sides.queries[1], *sides.terms[::-1],
                                                    sides.queries[0])):
        # a side pinned by a name ("Denver") is answered only from a source that names it
        names = [n for n in specifics(query) if n not in specifics(other_query)]
        ranked = [s for s in ranked if all(_source_names(plan, s, n) for n in names)]
        kind = question_type(query)
        kind = kind if kind in CHECKED_TYPES or not checked else checked[0]
        kinds = (kind,) if kind in CHECKED_TYPES else ("quantity", "date")
        pool, close = _stating(ranked, plan, kinds, query, own, other,
                               floor=max((ranked[0].score if ranked else 0.0) - type_spread, threshold - type_spread))
        if not pool:
            # no close sentence states it: one naming this side whose value a following sentence of its paragraph
            # states ("... you may park at 355 McAllister Street. ... Fees vary but $4.50 to $2.00 per hour")
            others = [n for n in specifics(other_query) if n not in specifics(query)]
            for s in close:
                following = continuation(s, plan, kinds[0], ranked) if content_terms(s.text) & own else None
                if following is not None and not any(mentions(following.text, n) for n in others):
                    subjects[following.label, following.position] = s
                    pool.append(following)
        if not pool and kind in CHECKED_TYPES and \
                (typed := next((s.score for s in ranked if states(kind, s.text)), None)) is not None:
            # still none: close to the best sentence stating the type the side asks for, as sentences naming the
            # side without its value ("Location: New York City ...; Office guide: ...") pushed it out of reach (a
            # side asking for no type of its own is not widened: "what happens to regular comp time?"). Not from a
            # source where a close sentence names the side and its paragraph states no value: a value a later
            # paragraph states is not known to be that side's ("... you may park at 12 Rue Neuve." / a fee apart)
            naming = {s.label for s in close if content_terms(s.text) & own}
            pool = [s for s in _stating(ranked, plan, kinds, query, own, other,
                                        floor=max(typed - type_spread, threshold - type_spread))[0]
                    if s.label not in naming]
        # the six best with their bonuses (a sentence under the side's own heading may rank below six others)
        pools.append(sorted((replace(s, score=s.score + OWN_TERM_BONUS * bool(named_terms(plan, s) & own)
                                     + OWN_TERM_BONUS * bool(content_terms(s.text) & compared)
                                     + HEADING_BONUS * under_side_heading(plan, s, query, own))
                             for s in pool), key=lambda s: -s.score)[:6])
    pairs = [(a.score + b.score + parallel(a, b), a, b)
             for a in pools[0] for b in pools[1] if same_words(a.text) != same_words(b.text)]
    if not pairs:
        return []
    _, a, b = max(pairs, key=lambda p: p[0])
    if max(a.score, b.score) < threshold:
        return []
    # a value read after the sentence naming its subject is quoted with that sentence, before it
    return [t for s in (a, b) for t in (subjects.get((s.label, s.position)), s) if t is not None]


def _stating(ranked: Sequence[ScoredSentence], plan: ContextPlan, kinds: tuple[str, ...], query: str,
             own: frozenset[str], other: frozenset[str], *, floor: float
             ) -> tuple[list[ScoredSentence], list[ScoredSentence]]:
    """A side's candidates among the ranked sentences scoring at least ``floor``: (those stating one of ``kinds``
    that do not name the other side only, all of them read with their value). A sentence names a side with its own
    words, its heading's or its page title's (grounding.comparison_naming: an item under "Variable Day", a sentence
    of the Chicago page). When the side asks for a limit ("the longest single day") and a candidate states one
    ("The maximum number of hours ... is 12"), only those are kept. A sentence about all other cases ("All other
    normal fares are $2.25") is dropped when the sentence before it is a candidate."""
    close = [s for s in ranked if s.score >= floor]
    close = [s if any(states(k, s.text) for k in kinds) else with_value(s, plan, kinds[0]) for s in close]
    pool = [s for s in close if any(states(k, s.text) for k in kinds)
            and (named_terms(plan, s) & own or not named_terms(plan, s) & other)]
    limit = asks_limit(query)
    if limit and any(states_limit(limit, s.text) for s in pool):
        pool = [s for s in pool if states_limit(limit, s.text)]
    # "Fares from (but not to) either airport cost $5. All other normal fares are $2.25": the sentence about all
    # other cases is not the side's when the case before it is a candidate too
    stated = {(s.label, s.position) for s in pool}
    pool = [s for s in pool if not (_THE_OTHERS.match(s.text) and (s.label, s.position - 1) in stated)]
    return pool, close


#: A sentence stating the rule for the cases other than those just described.
_THE_OTHERS = re.compile(r"^(?:(?:all|any|every) other|other|otherwise|in all other cases|for all other)\b", re.I)
