"""A sentence that denies what a value question asks for: "Hybrid employees are not eligible for the internet
reimbursement." answers "How much is the internet reimbursement for hybrid employees?" (none), though it states no
amount. The offline answerer's answer-type check (grounding.answer_types.states) keeps such a sentence as one stating
the answer: without it, the answer quoted the next sentence about hybrid employees that states an amount ("Hybrid
employees receive a one-time stipend of $400") and read as the asked value (s9 new user, demo handbook).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.question_parts import mentions, specifics

#: Words saying that something is not given, does not apply or is not paid.
_NOT_GIVEN = r"(?:eligible|entitled|covered|reimbursed|reimbursable|available|paid|allowed|offered|provided)"
_DENIAL = re.compile(rf"\b(?:(?:is|are|be|was|were)\s+not\s+{_NOT_GIVEN}|(?:isn['’]t|aren['’]t)\s+{_NOT_GIVEN}|"
                     r"ineligible|not\s+apply|(?:does|do)\s+not\s+(?:receive|get|qualify|cover|include)|"
                     r"(?:doesn['’]t|don['’]t)\s+(?:receive|get|qualify|cover|include)|"
                     r"cannot\s+(?:receive|get|claim)|no\s+longer\s+(?:eligible|offered|available|paid))\b", re.I)


def denies(question: str, sentence: str, *, shared: int = 2, context: str = "") -> bool:
    """True when ``sentence`` says that what ``question`` asks for is not given: it holds a denial
    (:data:`_DENIAL`: "are not eligible for", "does not cover", "is not reimbursed"), names every specific the
    question pins its fact with (grounding.question_parts.specifics: "hybrid", "Denver"; a question naming none
    is never denied) and holds at least ``shared`` of the question's content terms that are not generic
    (grounding.followup.GENERIC), or of ``context``'s: the previous question an elliptical follow-up asks again for
    another case ("And for hybrid employees?" after "What is the internet reimbursement for remote employees?":
    "Hybrid employees are not eligible for the internet reimbursement", the s27 new-user run)."""
    names = specifics(question)
    if not names or not _DENIAL.search(sentence):
        return False  # a denial answers for the group (or place) asked about, never for a question naming none
    if not all(mentions(sentence, name) for name in names):
        return False
    asked = content_terms(f"{question} {context}" if context else question) - GENERIC
    return len(asked & content_terms(sentence)) >= shared
