"""Which clause of a sentence answers a yes/no question: of clauses joined by "; however,", ", but" or ";", the one
about what is asked ("You are allowed to have advanced leave; however, you cannot borrow more leave than you would
earn" answers "Am I allowed to have advanced leave?" by its first). Moved out of grounding.yesno_scope, which reads
the scope of a negation. No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms

__all__ = ["answering_clause"]

#: Where a sentence's second clause begins: "; however,", "; but", ", but", ", however,".
_CLAUSE_BREAK = re.compile(r"\s*(?:;\s*(?:however|but)\b,?|,\s*(?:but|however)\b,?|;)\s*", re.I)


def answering_clause(asking: str, sentence: str) -> str:
    """The clause of ``sentence`` that answers the asking clause ``asking`` (grounding.yesno.asking_clause): when the
    sentence has clauses joined by "; however,", ", but", ", however," or ";", the one whose content terms found in
    ``asking`` include every such term of each other clause and at least one more; otherwise the whole sentence
    ("An IDP is no longer required for requests, but an SF-182 is required for most training requests" stays whole
    for "Do I still need an IDP to request a training?": each clause holds a word of the question the other lacks);
    when no clause holds more, and both the question and one clause say "still", that clause. Before all that, when the
    question asks whether one must or may do an action (:data:`_ASKED_ACTION`) and one clause alone names it, that
    clause."""
    parts = [p for p in _CLAUSE_BREAK.split(sentence) if p.strip()]
    if len(parts) < 2:
        return sentence
    verb = _ASKED_ACTION.search(asking)
    if verb and verb.group(1).lower() not in _LIGHT_VERBS:
        # "Do I need to repay personal purchases on the corporate card?" / "Never use the corporate card for personal
        # purchases; if this happens by mistake, ... repay the amount": the one clause doing what is asked answers,
        # not the one sharing more of its nouns (the s45 new-user run on the demo handbook opened "No.")
        doing = [p for p in parts if content_terms(verb.group(1)) <= content_terms(p)]
        if len(doing) == 1:
            return doing[0]
    asked = content_terms(asking)
    held = [content_terms(p) & asked for p in parts]
    best = max(range(len(parts)), key=lambda i: len(held[i]))
    if all(i == best or (held[i] <= held[best] and len(held[i]) < len(held[best])) for i in range(len(parts))):
        return parts[best]
    if _STILL.search(asking) and len(still := [p for p in parts if _STILL.search(p)]) == 1:
        # "will they still get the group's emails?" / "you can't access public Google Groups ..., but you can still
        # receive email if added to the group directly": the clause saying what holds all the same (fresh41's
        # f41-y06, a development set, opened "No.")
        return still[0]
    return sentence


#: The action a yes/no question asks whether one must or may do: the verb after "need to", "have to", "allowed to"
#: ("Do I need to repay ...?" -> "repay").
_ASKED_ACTION = re.compile(r"\b(?:need|needs|have|has|required|allowed|permitted|supposed|expected)\s+to\s+([a-z]+)",
                           re.I)
#: Verbs that say too little to pick a clause by.
_LIGHT_VERBS = frozenset("be get have do make go".split())


#: "still": what holds in spite of what is said against it.
_STILL = re.compile(r"\bstill\b", re.I)
