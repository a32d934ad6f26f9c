"""Yes/no questions asking whether a thing has a limit at all ("Is there a cap on how many sick leave hours I can
build up?", "Is there a word limit for blog posts?"): the close sentence denying any limit on the thing asked
settles them "No." ("There is no maximum amount of sick leave you can accrue"), and sentences that neither state nor
deny a limit settle nothing and do not answer them ("Weather and Safety Leave does not count against any of your
other leave balances" for a yearly cap on that leave). Written in the s34 round from the fresh34 development set
(f34-y16, f34-u04) and the development near misses f19y-u02, f19y-u03. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.answer_types import question_sentence
from grounding.comparison_naming import states_limit
from grounding.followup import GENERIC
from grounding.lexical import content_terms
from grounding.polarity import polarity_reading

__all__ = ["LIMIT_TERMS", "asks_fee", "asks_limit", "denies_limit", "denies_asked_action", "speaks_of_fee",
           "speaks_of_limit", "denying_sentence", "limit_of_other_action"]

#: Words naming a limit (as written; "upper limit", "cap", "ceiling", "minimum": "Is there a minimum project
#: budget ...?", fresh35's f35-u16).
_LIMIT_WORDS = "cap|caps|limit|limits|maximum|max|minimum|ceiling|restriction|restrictions"
_LIMIT_WORD = f"(?:{_LIMIT_WORDS})"
#: "Is there a (yearly) cap on ...?", "Are there any limits to ...?", "Does X have a maximum ...?"
_ASKS = re.compile(r"^\s*(?:(?:is|are)\s+there|(?:does|do|did)\s+(?:[\w'’-]+\s+){1,5}?(?:have|has)|has\s+"
                   r"(?:[\w'’-]+\s+){1,5}?got)\s+(?:a|an|any)\s+(?:[\w'’-]+\s+){0,2}?" + _LIMIT_WORD + r"\b", re.I)
#: A sentence saying the thing has no limit: "There is no maximum ...", "no limit on", "unlimited", "not capped".
_DENIES = re.compile(r"\b(?:there\s+(?:is|are)\s+no|no|without\s+(?:a|any))\s+(?:[\w-]+\s+){0,2}?"
                     + _LIMIT_WORD + r"\b|\bunlimited\b|\b(?:is|are)\s+not\s+(?:capped|limited)\b", re.I)
#: A sentence speaking of a limit at all: a limit word, "up to", "at most", "no more than", "not to exceed", "at
#: least", a comparison with a figure ("worth more than $75": the demo's "Is there a maximum value?" after a question
#: on gifts from suppliers, a follow-up the s35 round's refusal reached).
_SPEAKS = re.compile(r"\b(?:" + _LIMIT_WORDS + r"|capped|limited|unlimited|up\s+to|at\s+most|no\s+more\s+than|"
                     r"not\s+to\s+exceed|(?:may|can|must)\s+not\s+exceed|exceed(?:s|ed|ing)?|allowance|"
                     r"at\s+least|no\s+(?:less|fewer)\s+than|"
                     # a threshold stated as a comparison with a figure ("gifts worth more than $75")
                     r"(?:more|less|fewer|greater|higher|lower)\s+than\s+(?:a\s+|an\s+)?[$€£]?\d[\d,.]*)\b",
                     re.I)
#: A question asking for a lower bound (a sentence stating one: grounding.comparison_naming.states_limit "min").
_ASKS_LOWER = re.compile(r"\bminimum\b", re.I)
#: The content terms of a limit asked about and of its period ("a yearly cap", "an upper limit").
LIMIT_TERMS = frozenset(content_terms("cap caps limit limits maximum max minimum ceiling restriction restrictions "
                                      "upper lower "
                                      "yearly annual monthly weekly daily many much"))


def asks_limit(question: str) -> bool:
    """True when the asking clause of ``question`` (grounding.answer_types.question_sentence) asks whether a limit
    exists ("Is there a cap on ...?", "Does the program have a maximum ...?")."""
    return bool(_ASKS.search(question_sentence(question)))


def denies_limit(sentence: str) -> bool:
    """True when ``sentence`` says something has no limit ("There is no maximum amount of sick leave you can
    accrue", "unlimited", "is not capped")."""
    return bool(_DENIES.search(sentence))


def denies_asked_action(question: str, sentence: str) -> bool:
    """True when ``sentence`` says a verb of the question's asking clause does not happen at all ("Sick days do not
    carry over" for "Is there a cap on how much sick leave I can carry over?"; the negated predicates as
    grounding.polarity reads them): no amount of it is allowed, which answers whether there is a limit on it (the s34
    round's new-user run on the demo handbook, where such a question was refused)."""
    asked = content_terms(question_sentence(question)) - GENERIC - LIMIT_TERMS
    return bool(asked & polarity_reading(sentence).negated.keys())


def speaks_of_limit(sentence: str, question: str = "") -> bool:
    """True when ``sentence`` states or denies a limit of some kind (a limit word, "up to", "no more than", ...):
    what a question asking whether there is a limit needs of a sentence that answers it. A ``question`` asking for
    a minimum needs a lower bound ("at least", "minimum") or a denial of any limit: "there are a limited number of
    us" says nothing of a minimum project budget (fresh35's f35-u16)."""
    if question and _ASKS_LOWER.search(question_sentence(question)):
        return states_limit("min", sentence) or denies_limit(sentence) or bool(_REQUIRED_VALUE.search(sentence))
    return bool(_SPEAKS.search(sentence))


#: The action a limit question asks about, after its doer and a modal: "how many hours ... I can donate" -> donate.
_LIMITED_ACTION = re.compile(r"\b(?:i|we|you|they|employees?|staff|one)\s+(?:can|could|may|(?:am|are|is)\s+"
                             r"(?:allowed|permitted|able)\s+to)\s+([a-z]+)", re.I)


def limit_of_other_action(question: str, limits: Sequence[str], sources: Sequence[str]) -> bool:
    """True when ``question`` asks for a limit on an action it names after its doer ("Is there a cap on how many hours
    of annual leave I can donate ...?"), the ``sources`` (the planned texts) name that action, and none of the
    sentences speaking of a limit (``limits``) does: they limit another action ("You can carry over a maximum of 240
    annual leave hours"; fresh40's f40-u05). False when the question names no such action or the documents never
    name it (then it is asked in other words than theirs: "build up" / "accrue")."""
    m = _LIMITED_ACTION.search(question_sentence(question))
    action = content_terms(m.group(1)) - GENERIC - LIMIT_TERMS if m else frozenset()
    return bool(action) and bool(limits) and not any(action & content_terms(t) for t in limits) \
        and any(action & content_terms(t) for t in sources)


#: A value a sentence requires ("Text should have a contrast ratio of 4.5:1", "Passwords must be 12 characters"): the
#: least that meets the rule, which a question asking for a minimum asks (fresh38's f38-v09, a development set: "What's
#: the minimum color contrast ratio we should use?" was refused as stating no minimum).
_REQUIRED_VALUE = re.compile(r"\b(?:should|must|need(?:s)? to|ha(?:s|ve) to)\s+(?:have|be|use|contain|include)\b"
                             r"[^.;:!?]{0,40}?\d", re.I)


def denying_sentence(question: str, texts: Sequence[str]) -> int | None:
    """The index in ``texts`` (close sentences, best first) of the first that denies a limit (:func:`denies_limit`)
    on what ``question`` asks about: it holds two of the question's subject terms (its content terms less the
    generic ones and the limit words; all of them when fewer); None when there is none."""
    subject = content_terms(question_sentence(question)) - GENERIC - LIMIT_TERMS
    need = min(2, len(subject))
    if not need:
        return None
    return next((i for i, text in enumerate(texts)
                 if denies_limit(text) and len(subject & content_terms(text)) >= need), None)


#: A yes/no question asking whether something costs money ("Does GSA charge a fee when my landlord uses The Work
#: Number?", "Is there a fee for ...?", "Does it cost anything?", "Do I have to pay for ...?"); not whether one is
#: paid ("Do I get paid for overtime?").
_ASKS_FEE = re.compile(r"^\s*(?:(?:is|are)\s+there\s+(?:a\s+|any\s+)?(?:fees?|charges?|costs?)\b|(?:does|do|will|would|"
                       r"is|are)\b.*\b(?:charge|charged|cost|costs|fee|fees|"
                       r"pay\s+(?:for|to|a|an|anything|extra))\b)", re.I)
#: A sentence speaking of money asked for: a fee, a cost, a price, a charge, paying, free of charge, an amount.
_FEE_SAID = re.compile(r"\b(?:fees?|costs?|costing|charges?|charged|prices?|priced|pay|pays|paid|paying|payment|free|"
                       r"no\s+cost|billed|bills?)\b|[$€£]\s?\d", re.I)


def asks_fee(question: str) -> bool:
    """True when the asking clause of a yes/no ``question`` asks whether something costs money (:data:`_ASKS_FEE`)."""
    return bool(_ASKS_FEE.search(question_sentence(question)))


def speaks_of_fee(sentence: str) -> bool:
    """True when ``sentence`` speaks of money asked for (:data:`_FEE_SAID`): "There is no cost to program offices",
    "$5 per month", "free of charge"; "GSA employees who need employment verification should utilize The Work Number"
    does not, and does not settle whether it charges a fee (fresh36's f36-u05)."""
    return bool(_FEE_SAID.search(sentence))
