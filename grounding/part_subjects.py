"""What a part of a message asking several things is about, read against the sentences that may answer it
(grounding.extractive_parts): the part it refers back to ("Does it carry over?" after "How much PTO do I get?"), the
names the asker's situation gives ("I'm flying into Midway ..."), and the names a sentence says in its own words
rather than through its page.

Rules written on the calibration half of the 18F golden set, its development sets and the demo handbook, never on the
test half. No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from grounding.acronyms import definitions
from grounding.followup import follow_up
from grounding.lexical import content_terms
from grounding.question_parts import asked_terms, mentions, specifics
from grounding.sentence_leads import heading_of
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan

__all__ = ["named_case", "of_referent", "off_subject", "saying_names", "with_referent"]


def with_referent(part: str, before: Sequence[str]) -> str:
    """A part of a message as it is matched: with the previous part's content words when it refers back to it ("Does
    it carry over?" after "How much PTO do I get?"; grounding.followup decides, as for a follow-up turn: a referring
    word, an elliptical opener, too few words of its own); unchanged when it names its own topic, when its only sign
    is a weak word such as "it" ("what else do I file if it costs money?": the message's preamble says what "it" is)
    or when it is the first."""
    return _with_previous(part, before[-1]) if before else part


@functools.lru_cache(maxsize=1024)
def _with_previous(part: str, previous: str) -> str:
    """:func:`with_referent` for a part and the part before it (cached: each part is read this way when it is ranked,
    when its best sentence is checked and when its referent is looked for)."""
    decision = follow_up(part, [previous])
    return decision.query if decision.signal in ("opener", "referring", "short") else part


def off_subject(parts: Sequence[str], i: int, context: str, best: ScoredSentence) -> bool:
    """True when part ``i`` refers back to the part before it (:func:`with_referent`), has terms of its own
    (grounding.question_parts.asked_terms) and ``best``, its best sentence, names none of them: the previous part's
    words brought it. (A part that names its own topic and whose best sentence names none of its terms is left to
    the threshold: read further, it quoted unrelated sentences for parts the documents do not answer, fresh15's
    f15-m03 and fresh20's f20-m08.)"""
    if with_referent(parts[i], parts[:i]) == parts[i]:
        return False
    own = asked_terms(parts[i], [*parts[:i], *parts[i + 1:], context])
    return bool(own) and not content_terms(best.text) & own


def of_referent(plan: ContextPlan, parts: Sequence[str], i: int, naming: list[ScoredSentence],
                spread: float, lead: int) -> list[ScoredSentence]:
    """``naming`` (the sentences naming part ``i``'s own terms, best first) with the one naming most of what the
    part refers back to first, when the part refers back (:func:`with_referent`) and that sentence, within
    ``spread`` of the best, holds ``lead`` more of the previous part's terms (an acronym a planned source
    defines counting as its words, grounding.acronyms): "Up to 5 unused PTO days carry over" for "does it carry
    over?" after "How much paid time off do I earn" (the demo handbook), and not "Sick days do not carry over", a
    sentence it leads as far (another subject's)."""
    asked = with_referent(parts[i], parts[:i])
    if asked == parts[i] or len(naming) < 2:
        return naming
    referent = content_terms(asked) - content_terms(parts[i])
    aliases = definitions(source.text for source in plan.sources)

    def held(s: ScoredSentence) -> int:
        terms = content_terms(s.text)
        return len(referent & terms.union(*(aliases[t] for t in terms if t in aliases)))

    best = max((s for s in naming if s.score >= naming[0].score - spread), key=held)
    if held(best) < held(naming[0]) + lead:
        return naming
    # a sentence the best leads as far is of another subject ("Sick days"): not quoted for the part
    return [best] + [s for s in naming if s is not best and held(s) + lead > held(best)]


def named_case(plan: ContextPlan, sentence: ScoredSentence, situation: str) -> set[str]:
    """The names the asker's ``situation`` gives (a place, a program: grounding.question_parts.specifics) that
    ``sentence`` or its section's heading names: "I'm flying into Midway ..." and the sentence under "From Midway"
    ("... it's only a 25 minute ride down the CTA Orange Line"), which a sentence under "From O'Hare" naming more of
    the part's words ("Blue Line trains run from the airport to downtown ... take about 50 minutes") and fewer of the
    asker's names does not replace (fresh39's f39-m02, a development set)."""
    source = plan.source_map.get(sentence.label)
    data = source.sentences if source is not None else None
    heading = ""
    if data is not None and 0 <= sentence.position < len(data.texts) and data.texts[sentence.position] == sentence.text:
        heading = heading_of(data, sentence.position, source.section, source.sections)
    return {n for n in specifics(situation) if mentions(sentence.text, n) or (heading and mentions(heading, n))}


def saying_names(ranked: list[ScoredSentence], names: Sequence[str], spread: float) -> list[ScoredSentence]:
    """``ranked`` (sentences pinned to a part's names, by their own words or their source's) with the best sentence
    naming them all in its own words, not as the case excluded ("Channels that aren't Slack Connect ..."), first when
    the best one does not and it is within ``spread`` of it: "For Slack Connect channels ..., make a request in
    #admins-slack to archive the channel" for "How do I get our Slack Connect channel ... archived", not "When a Slack
    channel is no longer needed ..., the channel should be archived" (fresh39's f39-m12, a development set)."""
    def says(text: str) -> bool:
        return all(mentions(text, n) and not re.search(rf"\b(?:aren['’]t|isn['’]t|not|non-?|other than|except)\s+"
                                                       rf"(?:an?\s+|the\s+)?{re.escape(n)}", text, re.I)
                   for n in names)
    if not ranked or says(ranked[0].text):
        return ranked
    hit = next((s for s in ranked if s.score >= ranked[0].score - spread and says(s.text)), None)
    return ranked if hit is None else [hit, *(s for s in ranked if s is not hit)]
