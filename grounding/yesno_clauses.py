"""Yes/no questions: sentences that hold the asked words but do not state the asked predicate of the asked subject,
unconditionally, in their own main clause (the s15 round's second yes/no pass, issue 18 point 4):

- a cross-reference ("Please refer to the ... section for more information") points at the answer, it states none;
- an exception naming what the question asks about ("All federal information systems (except ... national security
  systems) are subject to NIST's RMF" for "Does the RMF apply to national security systems?") says the rule does
  not reach it: the rule's polarity is not the answer;
- a prohibition bounded by a quantity ("Do not accept gifts ... worth more than $75") that the question does not
  state ("Can I accept a gift from a vendor?") forbids only past the bound: no plain "No.";
- a copular question asking whether its subject is a kind of thing ("Is adjusting a project's staffing a *sign*
  that the project is failing?") is not answered yes by a sentence that never names that kind;
- a non-restrictive relative clause (", which do not rise to the level of ...,") describes its noun: its negation
  is not the main clause's.

Each withholds an opener (grounding.yesno.opener) rather than turn it: the sentence settles nothing by itself.
No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import CONTENT_STOP_WORDS, content_terms, stem
from grounding.yesno_count import THRESHOLD, stated_numbers

__all__ = ["RELATIVE_CLAUSE", "bounded_prohibition", "excepts_asked", "nominal_unstated", "refers_elsewhere"]

#: A sentence pointing the reader elsewhere: "Please refer to the ... section", "See the ... page for more
#: information", "For more information, see ...", "Read more about ...".
_REFERENCE = re.compile(r"^\s*(?:(?:please\s+)?(?:refer\s+to|see|visit|consult|check\s+out|read\s+more)\b|"
                        r"for\s+more\s+(?:information|details|on)\b[^.]*\b(?:see|refer|visit|consult)\b)", re.I)
#: What a pointing sentence points at: a section, page, guide or more information.
_POINTED = re.compile(r"\b(?:section|page|guide|handbook|article|document|link|information|details|below|above)\b",
                      re.I)


def refers_elsewhere(sentence: str) -> bool:
    """True when ``sentence`` is a cross-reference ("Please refer to the "Who can participate ...?" section for more
    information"): it opens by sending the reader to a section, page or more information and states no rule of its
    own (no modal or "is/are" after its pointer's object). The s15 fresh5 set's y5-022 opened "Yes." from one."""
    return bool(_REFERENCE.match(sentence)) and bool(_POINTED.search(sentence)) \
        and not re.search(r"\b(?:must|should|can|cannot|may|will|need to|is|are)\b", _after_quote(sentence), re.I)


def _after_quote(sentence: str) -> str:
    """``sentence`` without quoted titles ("Who can participate ...?" holds a modal of its own)."""
    return re.sub(r"[\"“][^\"”]*[\"”]", " ", sentence)


#: An exception inside a sentence: "(except classified information and national security systems)", ", except
#: contractors,", "other than ...", "excluding ...", up to a closing parenthesis, comma or the sentence's end.
_EXCEPTION = re.compile(r"\b(?:except(?:\s+for)?|excluding|other\s+than|apart\s+from|with\s+the\s+exception\s+of)\b"
                        r"([^),;.]*)", re.I)


def excepts_asked(clause: str, sentence: str) -> bool:
    """True when an exception in ``sentence`` names at least two content terms of the question's asking ``clause``
    that the rest of the sentence does not ("Does NIST's RMF apply to national security systems?" / "All federal
    information systems (except classified information and national security systems) are subject to NIST's
    RMF"): the rule is said of everything but what is asked, so its polarity does not answer (the s14 fresh3 set's
    f3029 opened "Yes." from it). A question that itself asks about an exception is left to the other rules."""
    if _EXCEPTION.search(clause):
        return False
    asked = content_terms(clause)
    for m in _EXCEPTION.finditer(sentence):
        rest = content_terms(sentence[:m.start()] + " " + sentence[m.end():])
        if len((content_terms(m.group(1)) & asked) - rest) >= 2:
            return True
    return False


#: A prohibition: "Do not ...", "Don't ...", "You may not ...", "... must not ...", "never ...".
_PROHIBITION = re.compile(r"\b(?:do\s+not|don['’]t|may\s+not|must\s+not|cannot|can['’]t|never|not\s+allowed|"
                          r"prohibited|forbidden)\b", re.I)
#: The kinds of value a bound is stated in (grounding.yesno_count.stated_numbers).
_BOUNDED = ("amount", "duration", "count")


def bounded_prohibition(question: str, sentence: str) -> bool:
    """True when ``sentence`` prohibits something only past a quantity ("Do not accept gifts from suppliers or
    customers worth more than $75") and ``question`` states no quantity of that unit ("Can I accept a gift from a
    vendor?"): below the bound the sentence allows it, so it is no plain "No." (the demo handbook's new-user run).
    A question stating a quantity is decided by grounding.yesno.over_limit and threshold_applies."""
    m = _PROHIBITION.search(sentence)
    if not m:
        return False
    after = sentence[m.end():]
    if not THRESHOLD.search(after):
        return False
    stated = stated_numbers(after, kinds=_BOUNDED)
    return bool(stated) and not stated.keys() & stated_numbers(question, kinds=_BOUNDED).keys()


#: A non-restrictive relative clause negating its own verb, set off by commas: ", which do not rise to the level of
#: sexual harassment under the employment discrimination laws," (the s15 fresh5 set's y5-010 opened "No." from it).
RELATIVE_CLAUSE = re.compile(r",\s*(?:which|who)\s+[^,;.]*\b(?:not|never|n['’]t)\b[^,;.]*,", re.I)


#: The predicate noun of a copular yes/no question: the last "a/an <noun>" before "that", "of", "for", "to", "when",
#: "if" or the question's end ("Is adjusting a project's staffing a *sign* that ...?", "Is Tock a *tool* for ...?").
_NOMINAL = re.compile(r"^\s*(?:is|are|was|were|isn['’]t|aren['’]t)\b.*\b(?:a|an)\s+([a-z]{3,})"
                      r"(?:\s+(?:that|of|for|to|when|if)\b|\s*\??\s*$)", re.I)


def nominal_unstated(clause: str, text: str) -> bool:
    """True when the asking ``clause`` asks whether its subject is a kind of thing (:data:`_NOMINAL`) and ``text``
    (the sentence with its section path) never names that kind, by stem: "Identify project adjustment needs (e.g.
    staffing or budget changes)" says nothing of adjusting staffing being a *sign* of anything (the s15 development
    question ds15-020 opened "Yes." from it). Such a sentence gives no "Yes."."""
    m = _NOMINAL.match(clause)
    if not m or m.group(1).lower() in CONTENT_STOP_WORDS:
        return False
    return stem(m.group(1).lower()) not in {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
