"""Questions asking what to do ("I lost my laptop. What should I do?", "What do I need to do if my badge is lost?"):
the answer rests on a sentence that says what to do, not on one that restates the situation. On the demo handbook
the s18 new-user run got "A lost or stolen laptop is a security incident" and an incident list's item, both matching
every word of the situation, while "Report it in #sec-incidents within 1 hour, then file a police report ..." ranked
third. A sentence says what to do when it opens with an imperative verb ("Report it", "Submit the form", "Contact
your manager") or tells the reader what they must, should or need to do. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence, TypeVar

from grounding.answer_types import question_sentence

T = TypeVar("T")

#: A question asking what to do.
_ASKS_ACTION = re.compile(r"^(?:so\s+)?(?:what|which steps?)\s+(?:should|do|must|can|shall|would)\s+(?:i|we|you|they|"
                          r"employees|staff)\s+(?:(?:need|have)\s+to\s+)?do\b|"
                          r"^what\s+(?:are|is)\s+(?:the\s+)?(?:next\s+)?steps?\b|"
                          r"^what\s+(?:do|should)\s+(?:i|we)\s+do\s+(?:first|next|now)\b", re.I)
#: A sentence opening with an imperative: a capitalised verb followed by its object or a preposition ("Report it",
#: "Submit the", "Contact your", "Ask in"); words that open a statement instead are left out.
_IMPERATIVE = re.compile(r"^(?!(?:A|An|The|This|That|These|Those|It|Its|Your|Our|Their|My|If|When|While|After|Before|"
                         r"In|On|At|For|From|To|With|By|Each|Every|All|Any|Some|No|Most|Employees?|Staff|You|We|They|"
                         r"There|Here|Once|Only|Also|Please)\b)[A-Z][a-z]+\s+(?:it|them|your|the|a|an|this|that|"
                         r"these|those|to|with|in|on|through|at|for|from|up|out|all|any|our|yourself)\b")
#: A sentence telling the reader what they must, should or need to do.
_OBLIGATION = re.compile(r"\b(?:you|employees?|staff)\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)\b|"
                         r"^(?:Please\s+)?(?:always|never|first|then)\s+[a-z]+\b", re.I)


def asks_action(question: str) -> bool:
    """True when the question's asking clause asks what to do ("What should I do?", "What do I need to do?", "What
    are the next steps?")."""
    return bool(_ASKS_ACTION.search(question_sentence(question).strip()))


def says_action(sentence: str) -> bool:
    """True when ``sentence`` says what to do: it opens with an imperative ("Report it in #sec-incidents within 1
    hour") or says what the reader must, should or needs to do ("You must return your old laptop ...")."""
    text = sentence.strip().lstrip("-*• ").strip()
    return bool(_IMPERATIVE.match(text) or _OBLIGATION.search(text))


def action_first(chosen: Sequence[T], ranked: Sequence[T], text_of, floor: float, score_of, limit: int,
                 continues=None, antecedent=None) -> list[T]:
    """``chosen`` (the sentences an answer quotes, best first) with the best sentence of ``ranked`` that says what
    to do (:func:`says_action`), scoring at least ``floor`` or continuing a chosen sentence (``continues(s)``, e.g.
    "Report it in #sec-incidents within 1 hour ..." right after the chosen "A lost or stolen laptop is a security
    incident.": its pronoun leaves the asked subject to the sentence before it, so its own score is low), put first
    when none of ``chosen`` opens with one; at most ``limit`` sentences. ``chosen`` unchanged when its first sentence
    says what to do (and points back to none of the others) or no close sentence does. ``antecedent(s)``: the
    sentence of ``chosen`` that ``s`` points back to (None for none); it then comes first, right before ``s`` ("A
    lost or stolen laptop is a security incident. Report it ...": "Report it" led the answer, its "it" unsaid, the
    s27 new-user run)."""
    if not chosen:
        return []
    doing = chosen[0] if says_action(text_of(chosen[0])) else next(
        (s for s in ranked if (score_of(s) >= floor or (continues is not None and continues(s)))
         and says_action(text_of(s))), None)
    if doing is None:
        return list(chosen)
    before = antecedent(doing) if antecedent is not None else None
    if doing is chosen[0] and before is None:
        return list(chosen)
    lead = [before, doing] if before is not None and before is not doing else [doing]
    return lead + [s for s in chosen if all(s is not x for x in lead)][:limit - len(lead)]
