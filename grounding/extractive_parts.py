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
from grounding.asked_agent import names_agent
from grounding.near_ties import preferred_first
from grounding.keyed_items import looked_up_item
from grounding.answer_types import CHECKED_TYPES, question_type, states
from grounding.lexical import content_terms
from grounding.part_cues import cued, named_item
from grounding.part_subjects import named_case, of_referent, off_subject, saying_names, with_referent
from grounding.question_parts import asked_terms, condition_matches, mentions, specifics, with_ellipsis_filled
from grounding.quoting import repeats
from grounding.sentence_leads import heading_of
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.types import ContextPlan

from grounding.extractive_lists import opens_part
from grounding.extractive_typed import typed_sentences
from grounding.extractive_yesno import decided
from grounding.subject_check import names_in_source

if TYPE_CHECKING:
    from grounding.extractive import ExtractiveAnswerer


def parts_answer(answerer: ExtractiveAnswerer, plan: ContextPlan, parts: Sequence[str], context: str,
                 situation: str = "") -> tuple[str, list[ScoredSentence]] | None:
    """A message asking several questions: the best sentence stating what each part asks for that no earlier part
    took, among those naming the part's own subject (grounding.question_parts.asked_terms) when one of them is
    within ``type_spread`` of the best (a part nothing answers is named at the end, grounding.compose.unanswered: the
    answer does not pass for a whole one; fresh37's f37-m03 answered only its second part); a part naming a place or
    a program is answered from the sentences naming it (or whose source does) when one is within ``type_spread`` of
    the best, as a whole question is. ``context`` (the message's preamble, a
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
    written, parts = parts, with_ellipsis_filled(parts)
    answered: dict[int, list[ScoredSentence]] = {}
    deferred: list[int] = []  # parts whose best sentence is just under the threshold (:data:`PART_MARGIN`)
    rankings: dict[int, tuple[list[ScoredSentence], list[ScoredSentence]]] = {}  # a part's, made once
    own_words: set[int] = set()  # parts matched on their own words only (:func:`decisive`)
    for rounds, floor in ((range(len(parts)), answerer.threshold), (deferred, answerer.threshold - PART_MARGIN)):
        for i in list(rounds):
            if i not in rankings:  # a deferred part is not ranked again (each ranking embeds its query)
                asked = with_referent(parts[i], parts[:i])
                ranked = preferred_first(answerer.rank(f"{context} {asked}".strip(), plan), asked)
                alone = preferred_first(answerer.rank(asked, plan), asked) if context else []
                if context and (decisive(alone, ranked) or (
                        alone and ranked and names_agent(asked, alone[0].text)
                        and not names_agent(asked, ranked[0].text))):
                    # (or names the agent of a who-question's verb, which the preamble's words ranked under others:
                    # "Decisions are made by majority rule" for "how does it make decisions?", fresh41's f41-m12)
                    # the part's own words single out one sentence the preamble drowned ("We're inviting an outside
                    # speaker ... who do we coordinate with for after-hours security?"): it is matched on its own,
                    # read as a fallback on its own words is (within ``type_spread`` of its best)
                    ranked, alone = alone, []
                    own_words.add(i)
                rankings[i] = ranked, alone
            ranked, alone = rankings[i]
            # the part with the preamble first; when no sentence close to its best states what the part asks, the
            # part on its own words ("I pushed an API key to GitHub. How fast do I have to report it, ...?": the
            # preamble's words rank the GitHub advice above the one-hour rule)
            # a sentence stating what the part asks, in either ranking, before the sentence after a best one that
            # states it (:func:`following`): "Every two weeks: Conduct an internal team retrospective" for "How often
            # should the team hold internal retros" ranks under the threshold with the preamble and first on the
            # part's own words (fresh38's f38-m12, a development set, quoted a sprint's length after the preamble's
            # best sentence)
            hit: list[ScoredSentence] = []
            after: list[ScoredSentence] = []  # the first ranking's sentence after its best (:func:`following`)
            for n, ranking in enumerate((ranked, alone)):
                if not ranking or ranking[0].score < floor:
                    continue
                # a fallback (the part's own words, or a part just under the threshold) reads the sentences within
                # ``type_spread`` of its best, as the threshold's own pass reads those above the threshold
                # as is a part whose best names none of its own terms ("does it carry over?" after "How much paid
                # time off do I earn": the policy's opening sentence on earning PTO, over "Up to 5 unused PTO days
                # carry over" under the threshold; the demo handbook)
                relaxed = (n > 0 or i in own_words or floor < answerer.threshold
                           or off_subject(parts, i, context, ranking[0]))
                hit, following_best = _part_sentence(
                    answerer, plan, parts, i, context, situation, ranking,
                    [s for got in answered.values() for s in got[:1]],
                    floor=min(floor, ranking[0].score - answerer.type_spread) if relaxed else answerer.threshold,
                    strict=all(not r or r[0].score < answerer.threshold for r in (ranked, alone)))
                if hit:
                    break
                after = after or following_best
            hit = hit or after
            if hit:
                answered[i] = hit
            elif floor == answerer.threshold and any(
                    r and answerer.threshold - PART_MARGIN <= r[0].score < answerer.threshold for r in (ranked, alone)):
                deferred.append(i)
        if not answered:
            return None  # a part just under the threshold is answered only beside a part above it
    for i in sorted(answered):
        part, fresh = parts[i], answered[i]
        if question_type(part) == "yesno":  # its deciding sentence, and the opener that says so
            fresh, openers[len(chosen)] = decided(answerer, part, fresh, plan.source_map, plan.notes)
        source = plan.source_map.get(fresh[0].label)
        data = source_sentences(source, getattr(answerer, "embedder", None)) if source is not None else None
        if data is not None and (name := named_item(data.texts, data.kinds, fresh[0], part)) is not None:
            # "TTSC calendar" before the item describing it (grounding.part_cues.named_item)
            chosen.append(replace(fresh[0], text=name, position=fresh[0].position - 1))
        chosen.append(fresh[0])
        if question_type(part) not in ("yesno", "list") and (
                looked := looked_up_item(plan, fresh[0], part, getattr(answerer, "embedder", None))):
            chosen.append(looked)  # the keyed item the part looks up ("... for Solutions": "Solutions - ...")
    if not chosen:
        return None
    text = " ".join(compose.sentences([(s.text, s.label)], openers.get(i, "")) for i, s in enumerate(chosen))
    left = [compose.unanswered(written[i]) for i in range(len(parts)) if i not in answered]
    return " ".join([text, *left]), chosen


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


#: How far under the answerer's threshold the best sentence of a part may be when another part of the message is
#: answered above it: the message is on the documents' topic, and the part is answered only by a sentence stating
#: what it asks (its type, a place, a named attribute). "..., and where do technical questions about Concur go?"
#: (best 0.58: the Business Applications Service Desk sentence, written "*Please direct technical questions ...",
#: has a low cosine); "How fast do I have to report it" on its own words (best 0.57: the one-hour rule).
PART_MARGIN = 0.06
#: How many more of a part's own terms (grounding.question_parts.asked_terms) a naming sentence close to the best
#: one must hold to answer the part before it (:func:`_part_sentence`).
OWN_LEAD = 2
#: The share of a part's own terms a sentence must hold to answer it when no ranking of the part reaches the
#: threshold (``strict`` in :func:`_part_sentence`).
STRICT_SHARE = 0.75


def _part_sentence(answerer: ExtractiveAnswerer, plan: ContextPlan, parts: Sequence[str], i: int, context: str,
                   situation: str, ranked: list[ScoredSentence],
                   taken: Sequence[ScoredSentence], floor: float,
                   strict: bool = False) -> tuple[list[ScoredSentence], list[ScoredSentence]]:
    """(the sentences stating what part ``i`` asks, from ``ranked``, best first; [] when none does (see
    :func:`parts_answer`), and then the sentence after the best one that states it, :func:`following`, else []).
    No sentence under ``floor`` is quoted (the threshold, or under it for a fallback); ``strict``: only one holding
    :data:`STRICT_SHARE` of the part's own terms (grounding.question_parts.asked_terms)."""
    part = parts[i]
    names = specifics(part) if question_type(part) != "yesno" else []
    pinned = [s for s in ranked if all(mentions(s.text, n) or names_in_source(plan.source_map[s.label], n)
                                       for n in names)]
    if names and pinned and pinned[0].score >= ranked[0].score - answerer.type_spread:
        ranked = pinned  # the part names a place or a program ("355 McAllister"): what is said of it
    if situation:
        ranked = sorted((replace(s, score=s.score + answerer.condition_bonus)
                         if condition_matches(situation, s.text) else s for s in ranked),
                        key=lambda s: -s.score)
    if names:
        ranked = saying_names(ranked, names, answerer.spread)
    # a sentence naming this part's own subject (a term of what it asks that the other parts and the
    # preamble lack: "advanced" in "how much advanced leave could I ask for?") answers it rather than the
    # other part, when one is close to the best; else the part's whole ranking
    own = asked_terms(part, [*parts[:i], *parts[i + 1:], context])
    if strict:
        # no ranking of the part reaches the threshold: only a sentence naming most of what it asks about answers
        # it ("where do technical questions about Concur go?" / "*Please direct technical questions about Concur
        # to the Business Applications Service Desk ...", not "go to the Travel tab of Concur")
        ranked = [s for s in ranked if len(content_terms(s.text) & own) >= STRICT_SHARE * len(own)]
        if not ranked:
            return [], []
    naming = [s for s in ranked if content_terms(s.text) & own or _headed_by(plan, s, own)]
    close = bool(naming) and naming[0].score >= max(floor, ranked[0].score - answerer.type_spread)
    if close:
        # a naming sentence close to the best of them that names two or more words of the part's own subject more
        # goes first: "KeePassXC is approved for use at GSA and it fully supports managing keys" (approved, GSA,
        # manage) for "which password manager is approved at GSA ...?", not "the key must be listed in an "approved
        # signers" list" (approved; fresh36's f36-m06). One word more is no sign ("Exhausted all leave balances"
        # against "Your Annual Leave will be paid out" for "What happens to my annual leave balance?", q105)
        held = {id(s): len(content_terms(s.text) & own) for s in naming}
        fuller = max((s for s in naming if s.score >= naming[0].score - answerer.spread),
                     key=lambda s: held[id(s)])
        if held[id(fuller)] >= held[id(naming[0])] + OWN_LEAD and not (
                situation and (condition_matches(situation, naming[0].text)  # the asker's case decides first
                               or len(named_case(plan, naming[0], situation))
                               > len(named_case(plan, fuller, situation)))):
            naming = [fuller] + [s for s in naming if s is not fuller]
        naming = of_referent(plan, parts, i, naming, answerer.spread, OWN_LEAD)
    kind = question_type(part)
    for pool in ([naming] if close else []) + [ranked]:
        # the part's best sentence that another part has not taken already: each part asks its own fact ("...,
        # and by when?" is answered by the deadline sentence below the carry-over one the first part took)
        untaken = [s for s in pool if not repeats(s.text, taken)]
        hit = cued(untaken, part) if kind not in (*CHECKED_TYPES, "yesno") else None
        # "where ...?", "what <named attribute> ...?", a quoted prefix: the close sentence stating it
        fresh = [hit] if hit is not None else typed_sentences(
            untaken, kind, limit=answerer.max_sentences, question=part, plan=plan, threshold=floor,
            spread=answerer.spread, type_spread=answerer.type_spread)
        if fresh:
            return fresh, []
    return [], following(ranked, kind)


def following(ranked: Sequence[ScoredSentence], kind: str) -> list[ScoredSentence]:
    """A sentence right after the best one in its source, of its kind (within :data:`FOLLOWING`), when the best names
    what a part asks about but states no value of the part's checked ``kind`` and the next one does: the subject,
    then its attribute ("TTSC pulse check surveys have been conducted separately within 18F and CoE. These help us
    ... Surveys are conducted three or four times per year." for "How often are the TTSC pulse check surveys run");
    [] otherwise."""
    if kind not in CHECKED_TYPES or not ranked or states(kind, ranked[0].text):
        return []
    top = ranked[0]
    after = sorted((s for s in ranked if s.label == top.label and s.kind == top.kind
                    and top.position < s.position <= top.position + FOLLOWING), key=lambda s: s.position)
    return next(([s] for s in after if states(kind, s.text)), [])


#: How many sentences after the best one :func:`following` reads (one list item or paragraph of a few sentences:
#: "TTSC pulse check surveys have been conducted ... These help us identify ... Surveys are conducted three or four
#: times per year.").
FOLLOWING = 2


def _headed_by(plan: ContextPlan, sentence: ScoredSentence, own: frozenset[str]) -> bool:
    """True when ``sentence`` opens its section (the first line of its source or of a merged source's part,
    grounding.extractive_lists.opens_part, or the line after a heading) and that section's heading
    (grounding.sentence_leads.heading_of) names one of ``own``, a part's own terms: the heading is the opening
    sentence's subject ("Look for room 1232A at the back of the health center" under "Nursing/Pumping rooms" for
    "..., and where's the nursing room?", before "After 4 p.m., you can access the nursing/pumping room directly
    ..."; fresh37's f37-m07). A later sentence of the section may be about a case of it (a worked example under
    "Advanced annual leave": the calibration half's q110)."""
    source = plan.source_map.get(sentence.label)
    data = source.sentences if source is not None else None
    i = sentence.position
    if data is None or not (0 <= i < len(data.texts)) or data.texts[i] != sentence.text:
        return False
    opens = i == 0 or data.kinds[i - 1] == "heading" or opens_part(source, data, i)
    return opens and bool(content_terms(heading_of(data, i, source.section, source.sections)) & own)
