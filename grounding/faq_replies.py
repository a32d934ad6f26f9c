"""A page's own short reply to its own question: "Do we sign vendor non-disclosure agreements (NDAs)? Generally, no.
As government employees, we aren't allowed to sign ..." answers a yes/no question with the page's words. No Django
imports.
"""

from __future__ import annotations

import re

from grounding.embeddings import Embedder
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.sentence_rank import ScoredSentence, source_sentences
from grounding.types import ContextPlan

__all__ = ["page_reply", "reply_opener"]

#: A reply standing as its own sentence: "Yes.", "No.", "Generally, no.", "Usually yes!"
_REPLY = re.compile(r"^(?:(?:generally|usually|typically|in general|mostly|normally|often),?\s+)?(?:yes|no)[.!]?$",
                    re.I)


def page_reply(sentence: ScoredSentence, plan: ContextPlan, question: str,
               embedder: Embedder | None = None) -> str:
    """The reply ("Generally, no.") that stands right before ``sentence`` in its source, after a question of the
    page that shares a content word (not a generic one) with ``question``: the page answers that question itself,
    and ``sentence`` says why (fresh38's f38-y03, a development set, quoted the reason without the page's "Generally,
    no."; when another sentence settles it the same way, the page's words open the answer). "" when there is
    none."""
    source = plan.source_map.get(sentence.label)
    if source is None:
        return ""
    data = source_sentences(source, embedder)
    at = sentence.position
    if not (2 <= at < len(data.texts)) or data.texts[at] != sentence.text:
        return ""
    reply, asked = data.texts[at - 1].strip(), data.texts[at - 2].strip()
    if not _REPLY.match(reply) or not asked.endswith("?"):
        return ""
    if not (content_terms(asked) & content_terms(question)) - GENERIC:
        return ""
    return reply.rstrip(".!") + "."  # the page's words, in the answer's tone ("Yes!" opens as "Yes.")


def reply_opener(reply: str) -> str:
    """The plain opener a page's reply amounts to: "No." for "Generally, no.", "Yes." for "Usually yes!"."""
    return "No." if re.search(r"\bno\b", reply, re.I) else "Yes."
