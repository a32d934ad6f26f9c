"""A message that names its topic first and asks about it with a pronoun: "what about floating holidays, do those
carry over?", "What about sick days - do they carry over?". The s46 new-user trial got "each employee gets 2 floating
holidays per calendar year" and no "No.": the message was not read as a yes/no question (it opens with "what"), and
"those" named nothing. It is answered as the question it asks, the topic put in place of the pronoun: "do floating
holidays carry over?". No Django imports.
"""

from __future__ import annotations

import re

__all__ = ["with_fronted_topic"]

#: "what about X, <question>?", "and how about X: <question>?", "What about X - <question>?".
_FRONTED = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:what|how)\s+about\s+(?P<topic>[^,;:?–—]+?)\s*"
                      r"(?:[,;:]|\s[-–—]\s)\s*(?P<rest>[^?]+\?)\s*$", re.I)
#: The pronoun the question refers to the topic with (its first one is replaced).
_PRONOUN = re.compile(r"\b(?:they|them|those|these|it)\b", re.I)


def with_fronted_topic(question: str) -> str:
    """``question`` asked as its second part with the fronted topic in place of its first pronoun ("what about
    floating holidays, do those carry over?" -> "do floating holidays carry over?"); ``question`` unchanged when it
    is not of that form or its second part has no such pronoun."""
    m = _FRONTED.match(question)
    if m is None or not _PRONOUN.search(m.group("rest")):
        return question
    asked = _PRONOUN.sub(m.group("topic").strip(), m.group("rest").strip(), count=1)
    return asked[:1].upper() + asked[1:]
