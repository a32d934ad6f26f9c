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
- A sentence of parallel cases ("If you spent less than the allowance, you get to keep the difference, and if you
  spend more, you must pay the difference"): the case the question states answers it (:func:`matching_case`).
- A sentence allowing something only under a condition ("..., but only if your authorization to travel has been
  approved") and a question placing itself before or without it ("... before my trip is approved?"): no
  (:func:`only_if_unmet`). (A question stating no such case is answered by the sentence's polarity: "Yes. You can
  use title/position ..., but only if provided as one of a number of other biographical details" is right on the
  fresh set, f026.)
- A question about everyone ("Can anyone ...?") and a sentence restricting who ("only", "if you are on a flexible
  schedule"): not everyone, "No." (:func:`restricts_everyone`).

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import content_terms, stem
from grounding.question_parts import mentions, specifics
# the modality and negation cues are grounding.yesno_scope's
from grounding.yesno_scope import ASKS_PERMISSION, NEGATION, STATES_REQUIREMENT

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
    return bool(ASKS_PERMISSION.search(asking)) and not _APPROVAL.search(asking) and not NEGATION.search(asking) \
        and bool(STATES_REQUIREMENT.search(sentence)) and bool(_APPROVAL.search(sentence)) \
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


#: Where a sentence's next case begins: ", and if", "; when", ", but if".
_NEXT_CASE = re.compile(r"[,;]\s*(?:(?:and|but|while|whereas)\s+)?(?=(?:if|when)\b)", re.I)
_CASE_WORD = re.compile(r"[a-z0-9&]+", re.I)
#: Words that name no case ("if you ...", "the ...").
_NO_CASE = frozenset("if when you your i my me we our they the a an to of is are be do does it".split())


def _case_words(text: str) -> set[str]:
    """The words of a case, lower case and stemmed, comparatives kept ("spent less than the allowance" -> spent, less,
    than, allow...)."""
    from grounding.lexical import stem

    return {stem(w.lower()) for w in _CASE_WORD.findall(text) if w.lower() not in _NO_CASE}


def matching_case(question: str, asking: str, sentence: str) -> str:
    """Of a sentence going on to another case ("If you spent less than the allowance, you get to keep the
    difference, and if you spend more, you must pay the difference"; "There is no maximum amount of sick leave you
    can accrue, and if you've transferred to TTS from another federal agency, your accrued sick leave will transfer
    with you"), the case whose condition
    shares the most words with the question's situation (what it says outside its asking clause ``asking``: "If I
    spend less than my M&IE allowance"); ``sentence`` as it is when it has one case, the question states none, or no
    case is the single best."""
    parts = [p.strip() for p in _NEXT_CASE.split(sentence) if p.strip()]
    mine = _case_words(question) - _case_words(asking)
    if len(parts) < 2 or not mine:
        return sentence
    # a part opening with "if" / "when" is a case; a part before the first case is the rule without one
    scores = [len(_case_words(p.split(",")[0]) & mine) if re.match(r"(?:if|when)\b", p, re.I) else 0 for p in parts]
    best = max(scores)
    return parts[scores.index(best)] if best and scores.count(best) == 1 else sentence


#: A sentence opening with the case its rule holds for ("If you only use GitHub from the web interface, ..."): the
#: condition, up to its comma.
CASE_OPENING = re.compile(r"\s*(?:if|when)\b([^,;]*)", re.I)


def case_shared(question: str, asking: str, sentence: str) -> int:
    """How many words of the situation ``question`` states (outside its asking clause ``asking``: "If I only use
    GitHub through the website") the leading condition of ``sentence`` (:data:`CASE_OPENING`) shares ("If you only
    use GitHub from the web interface, ..." -> 3); 0 when the sentence opens with no "if" / "when" condition."""
    m = CASE_OPENING.match(sentence)
    return len(_case_words(m.group(1)) & (_case_words(question) - _case_words(asking))) if m else 0


#: A condition only under which the sentence's rule holds ("but only if your authorization to travel has been
#: approved", "only when the conditions ... are met").
_ONLY_IF = re.compile(r"\bonly\s+(?:[a-z]+\s+){0,2}?(?:if|when|after|once)\s+(?P<condition>[^,;.]+)", re.I)
#: A question placing itself before, without or until what a condition names ("before my trip is approved").
_BEFORE = re.compile(r"\b(?:before|without|until|prior to)\s+(?P<situation>[^?,;]+)", re.I)


def only_if_unmet(question: str, sentence: str) -> bool:
    """True when ``sentence`` holds its rule only under a condition and the question asks about the time before it,
    or about doing without it, naming a word of it ("Can I get a cash advance from an ATM before my trip is
    approved?" / "You may use your travel card to get a cash advance from an ATM, but only if your authorization to
    travel has been approved"): the condition is unmet, so no."""
    only, before = _ONLY_IF.search(sentence), _BEFORE.search(question)
    return bool(only and before) and bool(_case_words(before.group("situation"))
                                          & _case_words(only.group("condition")))


def only_if_unstated(question: str, sentence: str) -> bool:
    """True when ``sentence`` holds its rule only under a condition ("You can only make a new claim for Housing
    Benefit if either of the following apply: you're in supported ...") whose content words the question (with the
    situation it states) names none of: whether the asker meets it is not known, so the sentence settles no "Yes."
    (ConditionalQA calibration record 19, where the asker did not). A condition of approval is left to
    :func:`approval_required` ("Yes, with approval.")."""
    only = _ONLY_IF.search(sentence) or _ONLY_THEN_IF.search(sentence)
    return bool(only) and _condition_unnamed(question, only.group("condition"))


def if_unstated(question: str, sentence: str) -> bool:
    """True when ``sentence`` states a rule (a requirement or a permission: "must", "have to", "may", "can", ...)
    followed by the condition it holds under ("You must change it immediately if you suspect it has been exposed,
    if the Security team asks you to, or if you typed it into a phishing page") whose content words the question
    names none of: the rule is about another case than the one asked ("Do I have to change my password every 90
    days?"), so it settles no "Yes." nor "No." (the s21 new-user run on the demo handbook: "Yes." from that
    sentence, while "You do not need to change your password on a schedule." answers no). Only "if": "when" and
    "unless" mostly say when or except when the rule holds. A condition of approval is left to
    :func:`approval_required`."""
    m = _RULE_IF.search(sentence)
    return bool(m) and _condition_unnamed(question, m.group("condition"))


def _condition_unnamed(question: str, condition: str) -> bool:
    """True when the ``condition`` a rule holds under names a case (not "if either of the following apply") that is
    not approval, and the question names none of its content words but the acronyms it writes in capitals (the
    organisation every page names: "only if you're collecting feedback that is directly helping GSA" is not met by
    "Can I use GSA's Qualtrics license to survey their users for them?", which opened "Yes."; the s31 round's fresh31
    f31-18)."""
    terms = content_terms(condition) - _NO_CONDITION
    named = terms & content_terms(question) - content_terms(" ".join(_ACRONYM.findall(condition)))
    return bool(terms) and not terms & _APPROVAL_TERMS and not named


#: A word written in capitals: an organisation's acronym ("GSA", "TTS").
_ACRONYM = re.compile(r"\b[A-Z]{2,}s?\b")


#: A rule, then "if" and the condition it holds under, in one clause ("You must change it immediately if you ...").
_RULE_IF = re.compile(r"\b(?:must|have\s+to|has\s+to|need\s+to|needs\s+to|required\s+to|may|can|should)\b"
                      r"[^,;.:]*?\sif\s+(?P<condition>[^;.]+)", re.I)
#: "only" then its rule then the condition ("You can only make a new claim for Housing Benefit if ...").
_ONLY_THEN_IF = re.compile(r"\bonly\s+(?:[\w’'-]+\s+){3,8}?(?:if|when|once)\s+(?P<condition>[^,;.]+)", re.I)
#: Words of a condition that name no case ("if either of the following apply", "if one of these is true").
_NO_CONDITION = frozenset(stem(w) for w in "either following follow apply applies one these those true met".split())
#: Words of a condition of approval.
_APPROVAL_TERMS = frozenset(stem(w) for w in "approved approval authorised authorized authorization permission "
                            "consent agreed agreement".split())


#: A leading condition naming the case a sentence's rule is for ("If you receive a Windows PC, ...").
_CASE_CONDITION = re.compile(r"^\s*(?:if|when|whenever|for)\b([^,;:]*)[,;:]\s*\S", re.I)


def other_named_case(question: str, sentence: str) -> bool:
    """True when ``sentence`` opens with a condition naming a thing by its name ("If you receive a Windows PC, you
    can request the JAWS Screen Reader") and the question names another one that the condition does not
    ("Does a GSA Mac come with a screen reader?", grounding.question_parts.specifics), naming nothing the condition
    names ("If rooms within the TTS group are set to public" is the case of a question naming TTS and Mural): the
    rule is for another case and says nothing of the asked one (the development set's d109 opened "Yes." with it;
    the page's next sentence, "If you receive a Mac, the VoiceOver app is already pre-installed", is the asker's
    case)."""
    m = _CASE_CONDITION.match(sentence)
    if not m:
        return False
    condition = m.group(1)
    named = [w for w in re.findall(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w-]*", condition) if content_terms(w)]
    asked = [n for n in specifics(question) if n[:1].isupper()]
    return bool(named) and bool(asked) and not any(mentions(condition, n) for n in asked) \
        and not any(mentions(question, w) for w in named)
