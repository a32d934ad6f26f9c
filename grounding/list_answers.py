"""The list a sentence announces: "GSA allows all 5 types of flexible schedules." / "You will need the following:"
followed, in the same source, by list items or by sub-headings (one heading per kind of thing, each with its own
text), so that a list question is answered with the list, not with the sentence that announces it.

    announces_list("The office offers three kinds of desks.")       -> 3
    announces_list("Bring the following:")                           -> 0 (a list of unknown length)
    announces_list("Desks are assigned daily.")                      -> None
    announced_items(texts, kinds, position)                          -> ["Standing", "Sitting", "Shared"]

Written from the shapes of announced lists in Markdown pages (a count and a collective noun, "the following", a
lead-in ending with a colon); no rule names a word of a particular document. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

_COUNT_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
#: Collective nouns a count announces a list of ("5 types of", "three kinds of", "four pieces of paperwork").
_COLLECTIVE = (r"(?:types|kinds|sorts|forms|categories|classes|options|choices|ways|methods|steps|stages|phases|"
               r"levels|tiers|pieces|items|things|parts|components|elements|properties|principles|documents|"
               r"requirements|criteria|conditions|tools|topics|areas|groups|roles|values|rules|questions|sections)")
_COUNTED = re.compile(rf"\b(\d{{1,2}}|{'|'.join(_COUNT_WORDS)})\s+(?:[\w-]+\s+){{0,2}}?{_COLLECTIVE}\b", re.I)
_FOLLOWING = re.compile(r"\b(?:the following|as follows|listed below|below are|are listed below)\b", re.I)

#: Sentences of running text allowed between an announcing sentence and the first item or sub-heading it announces
#: ("GSA allows all 5 types of flexible schedules. For schedules that change ...: you should ... ." then the types).
MAX_GAP = 2


def announces_list(text: str) -> int | None:
    """How many things a sentence announces: the count before a collective noun ("all 5 types of", "three kinds
    of"; 2..12), 0 when it announces a list of unknown length ("the following", "listed below", a lead-in ending
    with ":"), None when it announces none."""
    m = _COUNTED.search(text)
    if m:
        word = m.group(1).lower()
        count = int(word) if word.isdigit() else _COUNT_WORDS[word]
        if 2 <= count <= 12:
            return count
    if _FOLLOWING.search(text) or text.rstrip().endswith(":"):
        return 0
    return None


def announced_items(texts: Sequence[str], kinds: Sequence[str], position: int) -> list[str]:
    """The items the sentence at ``position`` announces, read from the sentences that follow it in the same source
    (``texts`` and ``kinds`` as grounding.sentence_data gives them):

    - list items right after it (at most MAX_GAP sentences of running text between): the run of consecutive items;
    - else sub-headings after it: each heading that has text of its own under it, its text skipped, in order,
      without repeats (a heading repeated where two chunks were merged), up to the announced count.

    [] when the sentence announces no list (:func:`announces_list`), or fewer than two items follow it.
    """
    count = announces_list(texts[position]) if 0 <= position < len(texts) else None
    if count is None:
        return []
    start, gap = position + 1, 0
    while start < len(kinds) and kinds[start] == "sentence" and gap < MAX_GAP:
        start, gap = start + 1, gap + 1
    if start >= len(kinds):
        return []
    if kinds[start] == "item":
        end = start
        while end < len(kinds) and kinds[end] == "item":
            end += 1
        items = list(texts[start:end])
    elif kinds[start] == "heading":
        items = []
        for i in range(start, len(kinds)):
            if kinds[i] != "heading" or texts[i] in items:
                continue
            if i + 1 < len(kinds) and kinds[i + 1] != "heading":  # a heading with text of its own under it
                items.append(texts[i])
    else:
        return []
    items = items[:count] if count else items
    return items if len(items) >= 2 else []
