"""The item of a keyed list a question looks up, for the offline extractive answerer (grounding.extractive): a
sentence followed by list items that each pair a key with a value ("The Outreach team has a point person for each of
the main business units" then "- 18F - Dahianna Salazar Foreman", "- Solutions - Kristina Britt", ...) answers "Who
is the Outreach point person for Solutions?" only with the item whose key the question names. That item shares one
word with the question, so it never ranks near the sentence that announces the list; it is read like a table row
looked up by its first cell (grounding.table_lookup).

    keyed_item(texts, kinds, 0, "Who is the point person for Solutions?")  -> 2 (the position of "Solutions - ...")

Written from the shape of such lists in Markdown pages (a key, a dash or a colon, a value); no rule names a word of a
particular document. No Django imports.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from grounding.asked_holder import names_a_person
from grounding.embeddings import Embedder
from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.types import ContextPlan

__all__ = ["MAX_GAP", "held_role_item", "item_key", "keyed_item", "looked_up_item"]

#: Sentences of running text allowed between the sentence and the keyed items.
MAX_GAP = 1
#: An item's key: at most five words before " - ", " – ", " — " or ": " and a value after it.
_KEYED = re.compile(r"^(?P<key>[^\s:–—-](?:[^:–—]{0,48}?[^\s:–—-])?)(?:\s+[-–—]\s+|:\s+)(?=\S)")


def item_key(text: str) -> str:
    """The key of a keyed list item ("Solutions - Kristina Britt" -> "Solutions", "Fax: 202-555-0100" -> "Fax"), ""
    when the item pairs no key with a value or its key is longer than five words."""
    m = _KEYED.match(text.strip())
    return m.group("key").strip() if m and len(m.group("key").split()) <= 5 else ""


def keyed_item(texts: Sequence[str], kinds: Sequence[str], position: int, question: str) -> int | None:
    """The position of the list item a question looks up among the keyed items after the sentence at ``position``
    (at most MAX_GAP sentences of running text between) or, when none follow, right before it (the sentence that
    sums a list up: "The final award percentages for Level 5, Level 4 and Level 3 ... will be determined ..."): a run
    of at least three items, most of them keyed (:func:`item_key`), exactly one of whose keys the question names
    (:func:`_named_keys`); None otherwise (also when the sentence is itself an item: the list is its own answer
    then)."""
    if not 0 <= position < len(texts) or kinds[position] == "item":
        return None
    for start, end in (_run_after(kinds, position), _run_before(kinds, position)):
        if end - start < 3:
            continue
        keys = [item_key(texts[i]) for i in range(start, end)]
        if sum(bool(k) for k in keys) * 3 < (end - start) * 2:  # a list of keyed items, not prose items
            continue
        named = _named_keys(keys, content_terms(question))
        return start + named[0] if len(named) == 1 else None
    return None


def _run_after(kinds: Sequence[str], position: int) -> tuple[int, int]:
    """[start, end) of the run of items after ``position``, at most MAX_GAP sentences of running text between."""
    start, gap = position + 1, 0
    while start < len(kinds) and kinds[start] == "sentence" and gap < MAX_GAP:
        start, gap = start + 1, gap + 1
    end = start
    while end < len(kinds) and kinds[end] == "item":
        end += 1
    return start, end


def _run_before(kinds: Sequence[str], position: int) -> tuple[int, int]:
    """[start, end) of the run of items right before ``position`` (no sentence between)."""
    start = position
    while start > 0 and kinds[start - 1] == "item":
        start -= 1
    return start, position


def _named_keys(keys: Sequence[str], asked: frozenset[str]) -> list[int]:
    """The indices of the keys a question names: every content term of the key in the question, or every term that
    tells the key from its siblings (in no other key of the run: "5" of "Level 5 summary ratings" beside "Level 4
    summary ratings") with at least half the key's terms ("What about Level 4?")."""
    terms = [content_terms(key) if key else frozenset() for key in keys]
    keys_holding = Counter(term for own in terms for term in own)
    named = []
    for n, own in enumerate(terms):
        telling = {term for term in own if keys_holding[term] == 1}
        if own and (own <= asked or (telling and telling <= asked and len(own & asked) * 2 >= len(own))):
            named.append(n)
    return named

def looked_up_item(plan: ContextPlan, best: ScoredSentence, question: str,
                   embedder: Embedder | None = None) -> ScoredSentence | None:
    """The keyed item (:func:`keyed_item`) after ``best`` in its source that ``question`` looks up, scored as
    ``best`` (it is quoted right after it), or None."""
    source = plan.source_map.get(best.label)
    if source is None:
        return None
    data = source_sentences(source, embedder)
    if not (0 <= best.position < len(data)) or data.texts[best.position] != best.text:
        return None
    at = keyed_item(data.texts, data.kinds, best.position, question)
    return None if at is None else ScoredSentence(data.texts[at], best.label, best.score, kind="item", position=at)


def held_role_item(plan: ContextPlan, question: str, score: float,
                   embedder: Embedder | None = None) -> ScoredSentence | None:
    """The keyed item naming who holds the role a question asks about, wherever it ranks: "Who is the Director of TTS
    Outreach?" -> "Director - Star Vanamali" on the TTS Outreach page's list of its point persons (fresh16, a
    development set: the sentences ranked first named no person, and the answer was refused). The item is the one
    key of a keyed list the question names (:func:`keyed_item`), it names a person (grounding.asked_holder.
    names_a_person), and its source's title and section path name every other content word of the question; the
    first such in the plan's order, returned with ``score`` (the best ranked sentence's), else None."""
    asked = content_terms(question)
    for source in plan.sources:
        data = source_sentences(source, embedder)
        place = content_terms(f"{source.title}\n{source.section}")
        for position, kind in enumerate(data.kinds):
            at = keyed_item(data.texts, data.kinds, position, question) if kind != "item" else None
            if at is not None and asked - content_terms(item_key(data.texts[at])) <= place \
                    and names_a_person(data.texts[at], question):
                return ScoredSentence(data.texts[at], source.label, score, kind="item", position=at)
    return None
