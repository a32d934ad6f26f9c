"""Yes/no questions asking whether a named thing belongs to a closed list: "Is Veterans Day a company holiday?" over
"Tallgrass observes the following 11 paid company holidays." and the eleven rows of its table. No row names Veterans
Day and no planned source names it anywhere else, and the list says it is whole (the count it announces is the count
of its items): the answer is "No." with the list, each item cited, so the reader sees what is on it. The s45 round's
new-user trial got the rule for working on a holiday instead, no opener.

Only when nothing could say otherwise: the thing is named by none of the planned sources (not in another passage, not
by a word it shares with an item, not as the initials of an item's words: "MLK Day" / "Martin Luther King Jr.
Day"; a word that two items or more share, "Day", tells nothing), the list's lead-in names every word of the kind
asked about, and the list is closed (a count equal to its items; or "the following" with no "such as", "including"
or "for example"). A member that an item names is left to the usual reading (the row says yes). No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding import compose
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.list_answers import COUNT_WORDS, announced_list, announces_list
from grounding.scored_sentences import ScoredSentence, source_sentences
from grounding.types import ContextPlan

__all__ = ["asked_membership", "closed_list_no"]

#: "Is Veterans Day a company holiday?", "Are Fridays one of the office days?", "Is Zoom among the approved tools?":
#: the named thing (starting with a capital or a digit, after an optional "the") and the kind it is asked to be.
_MEMBERSHIP = re.compile(
    r"^\s*(?:is|are)\s+(?:the\s+)?(?P<member>[A-Z0-9][\w.'’&-]*(?:\s+[\w.'’&-]+){0,5}?)\s+"
    r"(?:(?:one|part)\s+of\s+(?:the|our|your|its|their)\s+|among\s+(?:the|our|your|its|their)\s+|"
    r"on\s+the\s+list\s+of\s+|(?:a|an)\s+)(?P<kind>[\w\s'’-]{3,60}?)\s*\?\s*$", re.IGNORECASE)

#: A named thing that is a word pointing elsewhere, not a name ("Is it a holiday?", "Is this a paid holiday?").
_POINTING = frozenset({"it", "this", "that", "these", "those", "there", "they", "he", "she", "i", "we", "you"})

#: A lead-in whose list gives examples, not the whole of it.
_OPEN_ENDED = re.compile(r"\b(?:such as|includ(?:e|es|ing)|for example|for instance|e\.g\.|among others|some of|"
                         r"examples?|typical(?:ly)?|common(?:ly)?|may|might|can)\b", re.IGNORECASE)

#: A count and the words after it ("11 paid company holidays").
_COUNT = re.compile(rf"\b(\d{{1,3}}|{'|'.join(COUNT_WORDS)})\s+((?:[\w'’-]+\s+){{0,3}}[\w'’-]+)", re.IGNORECASE)

#: An ordinal's suffix after a number ("July 4th" names "July 4").
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b", re.IGNORECASE)


def asked_membership(question: str) -> tuple[str, str] | None:
    """(the named thing, the kind it is asked to be) of a membership question ("Veterans Day", "company holiday"),
    or None when ``question`` (one sentence) is not of that form; a starting "the" is left out of the thing's name
    and a capital letter is required of it as written (the question's own capitals are kept)."""
    m = _MEMBERSHIP.match(question)
    if m is None:
        return None
    member = m.group("member").strip()
    kind = m.group("kind").strip()
    if member.split()[0].lower() in _POINTING or not member[0].isupper() and not member[0].isdigit():
        return None
    return member, kind


def closed_list_no(question: str, ranked: Sequence[ScoredSentence], plan: ContextPlan, *, floor: float,
                   embedder: Embedder | None = None) -> tuple[str, list[ScoredSentence]] | None:
    """The answer "No. <lead-in> [S#]" then the list's items, each cited (grounding.compose.bulleted), with the
    lead-in as the sentence it rests on, when ``question`` asks whether a thing belongs to a kind and a planned
    source lists the whole of that kind without it (see the module docstring); None otherwise.

    Args:
        question: the question as asked (one sentence).
        ranked: the ranked sentences, best first (grounding.sentence_rank.rank_sentences); the sources of those at
            or above ``floor`` are the ones whose lists are read.
        plan: the context plan (its sources with their sentence data).
        floor: the score (cosine + overlap bonus) a sentence's source needs to be read.
        embedder: reads a source's sentences when the plan does not carry them.
    """
    asked = asked_membership(question)
    if asked is None:
        return None
    member, kind = asked
    named = _terms(member)
    wanted = content_terms(kind)
    if not named or not wanted or _named_anywhere(member, named, plan):
        return None
    labels = list(dict.fromkeys(s.label for s in ranked if s.score >= floor))
    for label in labels:
        source = plan.source_map.get(label)
        if source is None:
            continue
        data = source_sentences(source, embedder)
        for position, text in enumerate(data.texts):
            count = announces_list(text)
            if count is None or not wanted <= content_terms(text) or data.kinds[position] == "heading":
                continue
            items = announced_list(data.texts, data.kinds, position, outline=source.outline, section=source.section)
            stated = _stated_count(text, wanted)
            closed = len(items) == stated if stated is not None else not _OPEN_ENDED.search(text)
            if len(items) < 2 or not closed:
                continue
            held = [_terms(item) for item in items]
            # a word most items share ("Day" of "Memorial Day", "Labor Day") does not tell one from another
            telling = {t for t in named if sum(t in h for h in held) < 2}
            if not telling or any(telling & h for h in held) or any(_initials_of(member, i) for i in items):
                return None  # an item names it, or a telling word of it: the usual reading decides
            lead = ScoredSentence(text=text, label=label, score=ranked[0].score, kind=data.kinds[position],
                                  position=position)
            return compose.bulleted(text, items, label, opener="No."), [lead]
    return None


def _stated_count(lead: str, wanted: frozenset[str]) -> int | None:
    """The count a lead-in states of the kind asked about (a number or a count word followed, within four words, by
    one of ``wanted``'s terms: "the following 11 paid company holidays"), None when it states none."""
    for m in _COUNT.finditer(lead):
        if wanted & content_terms(m.group(2)):
            word = m.group(1).lower()
            return int(word) if word.isdigit() else COUNT_WORDS[word]
    return None


def _terms(text: str) -> frozenset[str]:
    """The content terms of ``text`` with ordinals read as their numbers ("4th" -> "4")."""
    return content_terms(_ORDINAL.sub(r"\1", text))


def _named_anywhere(member: str, named: frozenset[str], plan: ContextPlan) -> bool:
    """True when a planned source's text, title or section names ``member`` as written (whole words, any case) or
    holds every one of its terms in one sentence."""
    phrase = re.compile(rf"(?<!\w){re.escape(member)}(?!\w)", re.IGNORECASE)
    for source in plan.sources:
        if any(phrase.search(t) for t in (source.text, source.title, source.section)):
            return True
        if named <= content_terms(f"{source.title} {source.section}") or \
                any(named <= content_terms(line) for line in source.text.splitlines()):
            return True
    return False


def _initials_of(member: str, item: str) -> bool:
    """True when a word of ``member`` in capitals (two letters or more) is the initials of consecutive words of
    ``item`` ("MLK" of "Martin Luther King Jr. Day")."""
    words = re.findall(r"[A-Za-z]+", item)
    initials = "".join(w[0].lower() for w in words)
    return any(len(w) >= 2 and w.isupper() and w.lower() in initials for w in re.findall(r"[A-Za-z]+", member))
