"""A sentence holding a two-word phrase of the question, word for word, when the best one holds none: "Can I use my
personal laptop for work?" over "Personal laptops and tablets may never be used to access Tallgrass systems."
(0.545) and "Limited personal use, such as checking personal email ..., is allowed, but company laptops are company
property" (0.775). The best sentence holds "personal" and "laptop" apart, in other phrases ("personal use", "company
laptops"); the cosine and the share of the question's words do not see which sentence names the thing asked about.
The s46 new-user trial (and the s44 one) got the permission for personal use, read as a yes. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.lexical import CONTENT_STOP_WORDS, content_terms, stem
from grounding.scored_sentences import ScoredSentence, promoted

__all__ = ["PHRASE_LOOKS", "PHRASE_REACH", "phrase_first", "phrases"]

#: How many of the best sentences are looked at for one holding a phrase of the question.
PHRASE_LOOKS = 8
#: How far under the best sentence's score such a sentence may stand.
PHRASE_REACH = 0.25

_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def phrases(text: str) -> frozenset[tuple[str, str]]:
    """The two-word phrases of ``text``: pairs of adjacent content words (no stop word between or among them,
    stemmed; "personal laptops" -> ("person", "laptop"))."""
    words = [w.lower() for w in _WORD.findall(text)]
    return frozenset((stem(a), stem(b)) for a, b in zip(words, words[1:])
                     if a not in CONTENT_STOP_WORDS and b not in CONTENT_STOP_WORDS and len(a) > 2 and len(b) > 2)


def phrase_first(ranked: Sequence[ScoredSentence], question: str) -> list[ScoredSentence]:
    """``ranked`` (best first) with the first of the best PHRASE_LOOKS sentences that holds a two-word phrase of
    ``question`` (:func:`phrases`) moved first with the best score (grounding.scored_sentences.promoted), when it
    scores within PHRASE_REACH of the best and the best holds that phrase's words only apart; ``ranked`` unchanged
    otherwise. A best sentence not holding the phrase's words at all is no false match: "Close boards rather than
    deleting them" answers "Should I delete our Trello board ...?", not "Trello boards can be private or public"
    (fresh2's f2001, a development set, lost its "No." to a first version of the rule)."""
    asked = phrases(question)
    if not ranked or not asked:
        return list(ranked)
    best = phrases(ranked[0].text)
    words = content_terms(ranked[0].text)
    # the phrases whose words the best sentence holds apart, in other phrases ("personal use", "company laptops"):
    # its match on them is a false one (a phrase it does not hold at all leaves the ranking to the cosine)
    apart = {p for p in asked if p not in best and set(p) <= words}
    if not apart:
        return list(ranked)
    found = next((s for s in ranked[1:PHRASE_LOOKS] if s.score >= ranked[0].score - PHRASE_REACH
                  and apart & phrases(s.text)), None)
    return list(ranked) if found is None else promoted(ranked, found)
