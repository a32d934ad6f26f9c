"""The offline answerer's answer to a message asking several things at once ("How much PTO do I get? Do sick days
carry over?", "How long ..., and who ...?"): one sentence per part, each chosen among the sentences naming that
part's own subject (grounding.question_parts), and whether a source names what a question pins its fact with.

Rules written on the calibration half of the 18F golden set, its development set and the demo handbook, never on
the test half. No Django imports.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from grounding import compose
from grounding.answer_types import CHECKED_TYPES, question_type
from grounding.followup import follow_up
from grounding.lexical import content_terms
from grounding.part_cues import cued
from grounding.question_parts import asked_terms, condition_matches, mentions, specifics, with_ellipsis_filled
from grounding.quoting import repeats
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan

from grounding.extractive_yesno import decided
from grounding.subject_check import names_in_source

if TYPE_CHECKING:
    from grounding.extractive import ExtractiveAnswerer


def parts_answer(answerer: ExtractiveAnswerer, plan: ContextPlan, parts: Sequence[str], context: str,
                 situation: str = "") -> tuple[str, list[ScoredSentence]] | None:
    """A message asking several questions: the best sentence stating what each part asks for that no earlier part
    took, among those naming the part's own subject (grounding.question_parts.asked_terms) when one of them is
    within ``type_spread`` of the best (a part nothing else answers is left out); a part naming a place or a program
    is answered from the sentences naming it (or whose source does) when one is within ``type_spread`` of the best,
    as a whole question is. ``context`` (the message's preamble, a
    follow-up's conversation terms) is matched with every part;
    a sentence whose leading condition matches ``situation`` (the preamble: "I'm leaving next month." / "If you
    leave, ...") gains ``condition_bonus``. A part that elides its noun ("..., and how many can I carry over?") is
    asked with the previous part's (grounding.question_parts.with_ellipsis_filled); one that refers back ("How much
    PTO do I get? Does it carry over?") is matched with the previous part's words (:func:`with_referent`).

    Returns:
        (the answer text, the sentences it quotes in order), None when no part is answered. ``answerer`` gives the
        ranking, the type check and the thresholds (grounding.extractive.ExtractiveAnswerer).
    """
    chosen: list[ScoredSentence] = []
    openers: dict[int, str] = {}  # position in ``chosen`` -> the yes/no opener of its part
    parts = with_ellipsis_filled(parts)
    for i, part in enumerate(parts):
        asked = with_referent(part, parts[:i])
        ranked = answerer.rank(f"{context} {asked}".strip(), plan)
        if context and decisive(alone := answerer.rank(asked, plan), ranked):
            # the part's own words single out one sentence the preamble drowned ("We're inviting an outside speaker
            # ... who do we coordinate with for after-hours security?"): it is matched on its own
            ranked = alone
        if not ranked or ranked[0].score < answerer.threshold:
            continue
        names = specifics(part) if question_type(part) != "yesno" else []
        pinned = [s for s in ranked if all(mentions(s.text, n) or names_in_source(plan.source_map[s.label], n)
                                           for n in names)]
        if names and pinned and pinned[0].score >= ranked[0].score - answerer.type_spread:
            ranked = pinned  # the part names a place or a program ("355 McAllister"): what is said of it
        if situation:
            ranked = sorted((replace(s, score=s.score + answerer.condition_bonus)
                             if condition_matches(situation, s.text) else s for s in ranked),
                            key=lambda s: -s.score)
        # a sentence naming this part's own subject (a term of what it asks that the other parts and the
        # preamble lack: "advanced" in "how much advanced leave could I ask for?") answers it rather than the
        # other part, when one is close to the best; else the part's whole ranking
        own = asked_terms(part, [*parts[:i], *parts[i + 1:], context])
        naming = [s for s in ranked if content_terms(s.text) & own]
        close = bool(naming) and naming[0].score >= max(answerer.threshold, ranked[0].score - answerer.type_spread)
        for pool in ([naming] if close else []) + [ranked]:
            # the part's best sentence that another part has not taken already: each part asks its own fact ("...,
            # and by when?" is answered by the deadline sentence below the carry-over one the first part took)
            untaken = [s for s in pool if not repeats(s.text, chosen)]
            hit = cued(untaken, part) if question_type(part) not in (*CHECKED_TYPES, "yesno") else None
            # "where ...?", "what <named attribute> ...?", a quoted prefix: the close sentence stating it
            fresh = [hit] if hit is not None else answerer._typed(untaken, question_type(part),
                                                                   limit=answerer.max_sentences, question=part,
                                                                   plan=plan)
            if fresh:
                if question_type(part) == "yesno":  # its deciding sentence, and the opener that says so
                    fresh, openers[len(chosen)] = decided(answerer, part, fresh, plan.source_map, plan.notes)
                chosen.append(fresh[0])
                break
    if not chosen:
        return None
    return " ".join(compose.sentences([(s.text, s.label)], openers.get(i, "")) for i, s in enumerate(chosen)), chosen


#: How far the best sentence for a part's own words must lead the next one, and the best for the part with the
#: message's preamble, for the part to be matched on its own words (:func:`decisive`). On the development set the one
#: part a preamble drowned led by 0.21 and 0.32 (Office of Mission Assurance); where the preamble or a leading frame
#: chooses rightly ("I'm leaving federal service ..." / annual leave paid out; "If I switch to Maxiflex, ..."; "When
#: our engagement ends, ...") the part's own best led its next one by 0.02 at most.
DECISIVE = 0.1


def decisive(alone: Sequence[ScoredSentence], ranked: Sequence[ScoredSentence], lead: float = DECISIVE) -> bool:
    """True when the ranking of a part's own words (``alone``) singles out one sentence: its best leads the next one
    by ``lead`` or more and the best of ``ranked`` (the part matched with the message's preamble) by as much."""
    if not alone:
        return False
    second = alone[1].score if len(alone) > 1 else 0.0
    top = ranked[0].score if ranked else 0.0
    return alone[0].score - second >= lead and alone[0].score - top >= lead


def with_referent(part: str, before: Sequence[str]) -> str:
    """A part of a message as it is matched: with the previous part's content words when it refers back to it ("Does
    it carry over?" after "How much PTO do I get?"; grounding.followup decides, as for a follow-up turn: a referring
    word, an elliptical opener, too few words of its own); unchanged when it names its own topic, when its only sign
    is a weak word such as "it" ("what else do I file if it costs money?": the message's preamble says what "it" is)
    or when it is the first."""
    if not before:
        return part
    decision = follow_up(part, [before[-1]])
    return decision.query if decision.signal in ("opener", "referring", "short") else part
