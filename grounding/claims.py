"""A source's claims: its sentences as contradiction detection and the support check read them (grounding.
contradictions, knowledge.sentences stores them per chunk at ingestion).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.chunking import split_sentences
from grounding.lexical import tokens
from grounding.values import MONTHS

__all__ = ["claims"]


def _is_claim(sentence: str) -> bool:
    """At least three words that are neither numbers nor month names: "Feb 25, 2018 ..." is not a claim."""
    return sum(1 for w, _, _ in tokens(sentence) if w[0].isalpha() and w.rstrip(".") not in MONTHS) >= 3


#: A line break after a word and before a lower-case word or an opening parenthesis: a wrapped line, not a new one.
_SOFT_WRAP = re.compile(r"(?<=[\w,])[ \t]*\n[ \t]*(?=[a-z(])")


def _is_heading(fragment: str) -> bool:
    """A heading line absorbed into a chunk ("Lodging", "Ground transportation"): no digit, no closing punctuation."""
    return not any(ch.isdigit() for ch in fragment) and fragment.rstrip()[-1:] not in ".!?:;,)\"”…"


def claims(text: str) -> list[str]:
    """The sentences of a text (grounding.chunking.split_sentences), a fragment that states no claim on its own
    ("Feb 25, 2018 ...", "Release date.") joined to the sentence after it (or before it, at the end); a heading line
    ("Lodging") is left out, so a note quotes the sentence without it. A line break inside a sentence (hard-wrapped
    Markdown: "... close to - the\nmaximum GS salary ($183,500 in FY23).") does not end it."""
    out: list[str] = []
    pending = ""
    for sentence in split_sentences(_SOFT_WRAP.sub(" ", text)):
        if not _is_claim(sentence) and _is_heading(sentence):
            continue
        joined = f"{pending} {sentence}".strip()
        if _is_claim(sentence):
            out.append(joined)
            pending = ""
        else:
            pending = joined
    if pending:
        if out:
            out[-1] = f"{out[-1]} {pending}"
        elif _is_claim(pending):
            out.append(pending)
    return out
