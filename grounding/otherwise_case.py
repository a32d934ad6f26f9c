"""The other case of a rule stated with its condition: "What if the plugin connects to Google Drive?" after "Do I need
approval before I use a Figma plugin?".

"Figma plugins are okay to use and don't require approval as long as they don't integrate with other SaaS products
(e.g. Google Drive) ... Otherwise, each Figma plugin is treated like a new software request, and must undergo review
by GSA IT review." A follow-up naming the case that the first sentence's negated condition rules out asks what holds
otherwise: the sentence opening with "Otherwise" right after it, not the first sentence again (fresh41's f41-v07, a
development set, repeated it). The complement reading of a conditional rule: "P as long as not C. Otherwise, Q." says
Q of C (the "otherwise" conditional: Kruijff-Korbayová and Webber 2001, "Concession, implicature, and alternative
sets").

No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from grounding.lexical import content_terms
from grounding.scored_sentences import ScoredSentence, source_sentences
from grounding.types import ContextPlan

__all__ = ["otherwise_first"]

#: A condition ruling a case out: "as long as they don't integrate with ...", "unless ...", "provided ... not ...".
_NEGATED_CONDITION = re.compile(r"\b(?:as long as|so long as|provided(?: that)?|if)\b[^.;]*?"
                                r"\b(?:not|don['’]t|doesn['’]t|isn['’]t|aren['’]t|never|no)\b[^.;]*|"
                                r"\bunless\b[^.;]*", re.I)
_OTHERWISE = re.compile(r"^\s*otherwise\b", re.I)
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs)\.", re.I)


def otherwise_first(ranked: Sequence[ScoredSentence], plan: ContextPlan, case: frozenset[str],
                    threshold: float) -> Sequence[ScoredSentence]:
    """``ranked`` (a follow-up's ranking, best first) with the sentence right after the best one moved first (scored
    as the best) when the best is at or above ``threshold``, a negated condition of it names a term of ``case`` (the
    content terms the follow-up names of its own) and that next sentence opens with "Otherwise"; ``ranked``
    unchanged otherwise."""
    if not ranked or not case or ranked[0].score < threshold:
        return ranked
    best = ranked[0]
    text = _ABBREVIATION.sub(" ", best.text)  # ("(e.g. Google Drive)" stays in its condition)
    if not any(content_terms(m.group(0)) & case for m in _NEGATED_CONDITION.finditer(text)):
        return ranked
    source = plan.source_map.get(best.label)
    if source is None:
        return ranked
    data = source_sentences(source, None)
    after = best.position + 1
    if not (0 <= best.position < len(data.texts) and after < len(data.texts) and _OTHERWISE.match(data.texts[after])):
        return ranked
    # (a ranking kept to the sentences naming the case, grounding.extractive_turns, may have left it out: it is
    # read from its source then, as its best's neighbour)
    found = next((s for s in ranked if s.label == best.label and s.position == after), None)
    moved = replace(found or best, text=data.texts[after], kind=data.kinds[after], position=after,
                    values=data.values[after], score=best.score)
    return [moved, *(s for s in ranked if s is not found)]
