"""A question's misspelled words read as the documents' words before retrieval ("how many vacaton days do i get" is
searched as "... vacation days ..."; "what is the minimum pasword length" as "... password length").

A word is respelled when all of these hold:

- it has five letters or more, and its stem is not a term of the domain's lexical index (the documents never use
  it);
- the embedding model's vocabulary does not hold it whole (more than one WordPiece, as "vacaton" -> "vac", "##aton";
  "through" is one piece: a known word is never respelled, grounding.sentence_rank's rule for planned words);
- exactly one word of the documents (one stem: "vacation" and "vacations" are one) misspells it by a letter
  (grounding.lexical.misspells on the words as written: the same first letter, a length within one, difflib's ratio
  0.9 or more; on stems "vacaton" / "vacat" differ by two letters).

The documents' words are every word of five letters or more in the index's stored records, gathered once per index
(:class:`DomainWords`) and looked up by first letter and length. A misspelling the planned sentences hold apart is
read by grounding.sentence_rank too; this module lets retrieval find the passage in the first place (the s47 new-user
trial: "how many vacaton days do i get" was refused with "they do not say anything about vacaton").

Technique: dictionary-based spelling correction restricted to one edit (Damerau 1964; Norvig's corrector), the
dictionary being the collection's own words. No Django.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable, Container, Iterable, Sequence

from grounding.lexical import misspells, stem

__all__ = ["DomainWords", "respellings", "respelled"]

#: A word that may be respelled: letters only, five or more (shorter words are too often abbreviations or names).
WORD = re.compile(r"\b[A-Za-z]{5,}\b")


class DomainWords:
    """The words of a document collection (lower case, five letters or more), looked up by first letter and length.

    Args:
        words: the collection's words (duplicates and case are folded here).
    """

    def __init__(self, words: Iterable[str]) -> None:
        self._by_key: dict[tuple[str, int], list[str]] = defaultdict(list)
        for word in {w.lower() for w in words}:
            self._by_key[word[0], len(word)].append(word)

    @classmethod
    def of_text(cls, text: bytes | str) -> DomainWords:
        """The words of a text or of raw (UTF-8, ASCII-compatible) bytes, such as an index's records."""
        if isinstance(text, bytes):
            return cls(w.decode("ascii") for w in re.findall(rb"\b[A-Za-z]{5,}\b", text))
        return cls(WORD.findall(text))

    def nearest(self, word: str) -> str | None:
        """The one word of the collection that ``word`` (lower case) misspells by a letter (several words of one stem
        count as one: the closest by difflib's ratio is returned), or None when none or several stems do."""
        found = [w for n in (len(word) - 1, len(word), len(word) + 1) for w in self._by_key.get((word[:1], n), ())
                 if w != word and misspells(word, w)]
        stems = {stem(w) for w in found}
        if len(stems) != 1:
            return None
        return min(found, key=lambda w: (abs(len(w) - len(word)), w))


def respellings(text: str, *, terms: Container[str], words: Callable[[], DomainWords],
                pieces: Callable[[Sequence[str]], Sequence[int]] | None) -> dict[str, str]:
    """{word as typed (lower case): the collection's word} for each word of ``text`` to respell (the module
    docstring's rules). ``terms``: the stems the domain's lexical index holds; ``words``: the collection's words,
    called only when some word of the text is not among ``terms`` (gathering them reads the whole index once);
    ``pieces``: the embedding tokenizer's piece count of each word (grounding.embeddings count_tokens); None: nothing
    is respelled (no way to tell a known word)."""
    unknown = sorted({w for w in (m.lower() for m in WORD.findall(text)) if stem(w) not in terms})
    if not unknown or pieces is None:
        return {}
    unknown = [w for w, n in zip(unknown, pieces(unknown)) if n > 1]
    if not unknown:
        return {}
    collection = words()
    return {w: near for w in unknown if (near := collection.nearest(w)) is not None}


def respelled(text: str, found: dict[str, str]) -> str:
    """``text`` with each word of ``found`` (:func:`respellings`) replaced by its respelling, in the case it was
    typed in ("Vacaton" -> "Vacation", "PASWORD" -> "PASSWORD")."""
    if not found:
        return text

    def swap(m: re.Match) -> str:
        typed = m.group(0)
        near = found.get(typed.lower())
        if near is None:
            return typed
        if typed.isupper():
            return near.upper()
        return near.capitalize() if typed[:1].isupper() else near

    return WORD.sub(swap, text)
