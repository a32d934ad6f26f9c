"""Who does a thing: the sentence naming the one by whom it is done, before one that only mentions the thing.

"Who normally has to sign the request letter?" is answered by "Normally, the letter needs to be signed by the
executive of the entity", not by "As we wait for the signed letter, the Account Manager can begin drafting ...",
which the question's preamble ("We're drafting an IGCA ...") ranked above it: the second names a person, but as the
one who drafts, and the letter only as signed (fresh41's f41-m02, fresh36's f36-m07 and fresh39's f39-m11 on the
same page; "Who has to approve a GSA Pages corrective action plan?" / "... must be approved by the GSA Pages system
owner, ...", fresh10's f10-m04; all development sets). So is how a third party does a thing: "how does it make
decisions?" by "Decisions are made by majority rule", not "The Council can make decisions about its own activities"
(fresh41's f41-m12); and "Whose job is it to ...?" by the sentence saying whose responsibility it is (fresh40's
f40-m05). The passive with its "by" phrase names the agent of the asked verb outright: the answer to a who-question
is the agent of its verb (the semantic-role reading of factoid questions: Shen and Lapata 2007, "Using semantic roles
to improve question answering", EMNLP).

No Django imports.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.lexical import stem
from grounding.scored_sentences import ScoredSentence, promoted

__all__ = ["agent_first", "names_agent"]

#: A who-question's asking clause, and the words after "who"; or a question asking how a third party does a thing
#: ("how does it make decisions?": the means, "by majority rule"; not "How do I request leave?", the asker's steps).
_WHO = re.compile(r"^\s*(?:and\s+)?(?:(?:who|whom)\b|how\s+(?:does|do|is|are)\s+(?!(?:i|we|you)\b))(?P<rest>.*)$",
                  re.I | re.S)
#: "Whose job is it to ...?" asks whose duty a thing is: answered by a sentence saying so ("It is the responsibility of
#: the TTS supervisor to ensure this is complete": fresh40's f40-m05, a development set, quoted the thing to do).
_WHOSE_DUTY = re.compile(r"^\s*(?:and\s+)?whose\s+(?:job|responsibility|role|task|duty)\b", re.I)
_DUTY_OF = re.compile(r"\bresponsib(?:le|ility)\b|\b(?:job|duty|task|role)\s+of\b", re.I)
#: Irregular past participles, as the verb they are of ("made by majority rule" answers "make").
_IRREGULAR = {"made": "make", "done": "do", "given": "give", "taken": "take", "written": "write", "chosen": "choose",
              "held": "hold", "paid": "pay", "sent": "send", "kept": "keep", "built": "build", "run": "run",
              "set": "set", "led": "lead", "drawn": "draw", "known": "know", "shown": "show", "seen": "see",
              "brought": "bring", "bought": "buy", "met": "meet", "read": "read", "told": "tell", "sold": "sell"}
#: A past participle before "by": "signed by", "approved by", "written by".
_BY_AGENT = re.compile(r"\b(?P<verb>[A-Za-z]+)\s+by\s+(?:the\s+|a\s+|an\s+|your\s+)?[A-Za-z]", re.I)


def names_agent(asked: str, text: str) -> bool:
    """True when ``asked`` is a who-question ("Who has to approve a ... plan?"), or asks how a third party does a
    thing ("how does it make decisions?"), and ``text`` puts a verb of it in the passive with its agent or means
    ("... must be approved by the GSA Pages system owner ...", "Decisions are made by majority rule"; irregular
    participles read as their verb); or ``asked`` asks whose job a thing is and ``text`` says whose responsibility
    it is (:data:`_WHOSE_DUTY`)."""
    duty, verbs = _asked(asked)
    if duty:
        return bool(_DUTY_OF.search(text))  # "whose job is it to ...?" / "It is the responsibility of the ..."
    return bool(verbs) and any(stem(_IRREGULAR.get(v, v)) in verbs for b in _BY_AGENT.finditer(text)
                               if (v := b.group("verb").lower()).endswith(("ed", "en", "wn")) or v in _IRREGULAR)


@functools.lru_cache(maxsize=1024)
def _asked(asked: str) -> tuple[bool, frozenset[str]]:
    """(whether ``asked`` asks whose job a thing is, the stems of its words after "who" or "how does" when it asks
    who does a thing or how a third party does it; empty otherwise), read once per question."""
    asking = question_sentence(asked)
    if _WHOSE_DUTY.match(asking):
        return True, frozenset()
    m = _WHO.match(asking)
    return False, frozenset(stem(w) for w in re.findall(r"[A-Za-z]+", m.group("rest"))) if m else frozenset()


def agent_first(ranked: Sequence[ScoredSentence], asked: str, *, reach: float = 0.12) -> Sequence[ScoredSentence]:
    """``ranked`` (best first), with the first sentence within ``reach`` (cosine + bonus units) of the best that
    names the agent of the asked verb (:func:`names_agent`) moved first, with the best's score, when the best does
    not name it; ``ranked`` unchanged otherwise (and for any question asking neither who nor whose job)."""
    duty, verbs = _asked(asked)
    if not ranked or not (duty or verbs) or names_agent(asked, ranked[0].text):
        return ranked
    best = ranked[0]
    for s in ranked[1:]:
        if s.score < best.score - reach:
            break
        if names_agent(asked, s.text):
            return promoted(ranked, s)
    return ranked
