"""Whether the sentence an answer's value rests on is about another named thing than the one asked, through what it
refers back to: "What's the file size limit if we share files through Max.gov?" / "Intelink's IntelDocs allows users
to share unclassified files. The service has a file size limit of 100MB ..." (fresh35's f35-u12, a development
set: "The service" is IntelDocs). No Django imports.
"""

from __future__ import annotations

import re

from grounding.question_parts import as_written, is_group, mentions, specifics
from grounding.sentence_rank import ScoredSentence
from grounding.types import ContextPlan

__all__ = ["named_elsewhere"]

#: A sentence whose subject refers back to a thing named before it: "The service has ...", "This tool ...", "It ...".
_REFERS_BACK = re.compile(r"^(?:(?:the|this|that)\s+(?:service|tool|platform|system|site|app|application|program|"
                          r"product|option|portal|account|feature)s?|it|they)\b", re.I)


def named_elsewhere(asked: str, first: ScoredSentence, plan: ContextPlan) -> list[str]:
    """The names the question pins its fact with (grounding.question_parts.specifics: "Max.gov") when ``first`` (the
    sentence the answer's value rests on) refers back with its subject (:data:`_REFERS_BACK`) to the sentence before
    it in its source, that sentence names another thing by name ("Intelink's IntelDocs"), and neither names an asked
    one; [] otherwise (the value may be the asked thing's)."""
    names = [n for n in specifics(asked) if not is_group(n)]  # names, not groups of people ("contractors")
    source = plan.source_map.get(first.label)
    data = source.sentences if source is not None else None
    if not names or data is None or not _REFERS_BACK.match(first.text) or not 0 < first.position < len(data.texts) \
            or data.texts[first.position] != first.text:
        return []
    before = data.texts[first.position - 1]
    if any(mentions(first.text, n) or mentions(before, n) for n in names):
        return []
    if not [n for n in specifics(before) if not is_group(n)]:
        return []
    return [as_written(n, asked) for n in names]  # "Max.gov", not "Max"
