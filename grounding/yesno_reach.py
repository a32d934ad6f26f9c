"""How far a sentence's rule reaches, for a yes/no question (grounding.yesno reads its polarity; grounding.yesno_scope
its clauses and modality):

- A sentence whose only negation is "without" and the noun phrase after it ("You may work from anywhere in the
  country ... without additional approval"): the negation is of that circumstance, not of what the sentence says
  of its subject; unless the question names it, it turns no answer (:func:`unasked_without`).
- A question asking permission and a sentence granting it only with someone's approval ("Working from another
  country, even for one day, requires approval from People Operations" for "Can I work from another country?"): a
  conditional yes (:func:`approval_required`; grounding.yesno opens it "Yes, with approval.").
- A sentence opening as an example ("For example: you went on FMLA for 4 weeks ... and used your accrued Sick Leave
  in order to be paid"): it illustrates one case of a rule stated elsewhere, under that case's conditions, and
  settles no "Yes." (:func:`illustrates`; an example of what may not be done, "For example: if you're working with
  NIH, you cannot collect data for NIH using GSA's Qualtrics account", still says no to that case).
- A question about everyone ("Can anyone ...?") and a sentence restricting who ("only", "if you are on a flexible
  schedule"): not everyone, "No." (:func:`restricts_everyone`).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms
# the modality and negation cues are grounding.yesno_scope's
from grounding.yesno_scope import _ASKS_PERMISSION, _STATES_REQUIREMENT, NEGATION

#: "without" and the noun phrase after it, up to four words before a punctuation mark or a clause word
#: ("without additional approval", "without a receipt from the vendor").
_WITHOUT_PHRASE = re.compile(r"\bwithout\s+((?:[\w'’-]+\s*){1,4}?)(?=[,;:.!?()]|\s+(?:as|if|when|unless|while|"
                             r"and|or|but|because|so|for|from|to|in|on|at|by|until|before|after)\b|\s*$)", re.I)


def unasked_without(asking: str, clause: str) -> str:
    """``clause`` without each "without <noun phrase>" whose words the asking clause does not name: "You may work
    from anywhere in the country ... without additional approval, as long as ..." then negates nothing for "Can I
    work from another country?", while "Can I work abroad without approval?" and "Do I need approval to work from
    home?" keep it (they ask about the approval). What the sentence says of its subject is not negated by the
    circumstance it holds in."""
    asked = content_terms(asking)
    return _WITHOUT_PHRASE.sub(lambda m: m.group(0) if content_terms(m.group(1)) & asked else " ", clause)


#: Someone's consent to an action, as a sentence requires it.
_APPROVAL = re.compile(r"\b(?:approval|approved|permission|authori[sz]ation|authori[sz]ed|sign-?off|consent)\b", re.I)


def approval_required(asking: str, sentence: str) -> bool:
    """True when the asking clause asks permission without naming any approval ("Can I work from another country?")
    and ``sentence`` (its answering clause) states a requirement of an approval and negates nothing ("Working from
    another country, even for one day, requires approval from People Operations at least 3 weeks in advance"): the
    answer is yes only with that approval, which a bare "Yes." would drop. A question naming the approval ("Do I need
    approval to ...?", "Can I ... without approval?") is answered by the sentence's polarity as it is."""
    return bool(_ASKS_PERMISSION.search(asking)) and not _APPROVAL.search(asking) and not NEGATION.search(asking) \
        and bool(_STATES_REQUIREMENT.search(sentence)) and bool(_APPROVAL.search(sentence)) \
        and not NEGATION.search(sentence)


#: A question about everyone ("Can anyone earn credit hours?", "Do all employees get ...?", "Can any employee ...?").
_EVERYONE_ASKED = re.compile(r"\b(?:anyone|anybody|everyone|everybody|any\s+(?:employee|staff|person|one|member)s?|"
                             r"all\s+(?:employees|staff|people|members))\b", re.I)
#: A sentence restricting who: "only", or a condition on the person ("if you are on a flexible schedule", "as long as
#: you hold ...").
_RESTRICTED = re.compile(r"\bonly\b|\b(?:if|when|as long as|provided that)\s+(?:you|they|the employee|employees)\s+"
                         r"(?:are|is|have|has|hold|work|make|earn)\b", re.I)


def restricts_everyone(asking: str, sentence: str) -> bool:
    """True when the asking clause asks about everyone ("Can anyone earn credit hours?") without a negation and
    ``sentence`` restricts who ("Yes, you can earn/use credit hours if you are on a flexible schedule", "Only people
    on flexible work schedules can earn and use credit hours"): not everyone, so no. A sentence saying everyone too
    ("Anyone can join; only the host can record") restricts something else."""
    return bool(_EVERYONE_ASKED.search(asking)) and not NEGATION.search(asking) \
        and bool(_RESTRICTED.search(sentence)) and not _EVERYONE_ASKED.search(sentence)


#: A sentence opening as an example of what another states.
_EXAMPLE_OPENER = re.compile(r"^\s*(?:for example|for instance|e\.g\.|example|as an example|say)\b\s*[:,]?", re.I)


def illustrates(sentence: str) -> bool:
    """True when ``sentence`` opens as an example ("For example: ...", "For instance, ..."): the case it tells is one
    the rule it illustrates holds in, under that case's conditions, so no "Yes." rests on it."""
    return bool(_EXAMPLE_OPENER.match(sentence))
