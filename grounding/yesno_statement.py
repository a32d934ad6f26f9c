"""Whether a quoted text states something a yes/no question can rest on, or only names a thing (a label, a heading-like
item, an indirect question): read by grounding.extractive_yesno, whose deciding sentence must state. No Django imports.
"""

from __future__ import annotations

import re

__all__ = ["states_something"]

#: A verb that makes a text a statement rather than a label ("Bike parking is free." states; "Court leave" names).
_VERB = re.compile(r"\b(?:is|are|was|were|be|been|isn['’]t|aren['’]t|can|cannot|can['’]t|could|may|might|must|will|"
                   r"won['’]t|would|should|shall|do|does|did|don['’]t|doesn['’]t|has|have|had|need|needs)\b", re.I)


def states_something(text: str) -> bool:
    """True when a quoted text states something (six words or more, or three or more with a verb, and not an
    indirect question opening with "Whether" or "See if", "Check whether" nor a gerund phrase without an auxiliary
    or a verb of which it is the subject, "Putting sensitive data in a public channel"): a label or a heading-like
    item ("Court leave") settles no yes/no question. "Working from another country, even for one day, requires
    approval" states (the s14 new-user run: read as a label, it left "Can I work from another country?" to the
    sentence on working inside the country)."""
    if _INDIRECT_QUESTION.match(text) or (_GERUND_LABEL.match(text) and not _VERB.search(text)
                                          and not _GERUND_PREDICATE.search(text)):
        return False
    words = len(text.split())
    return words >= 6 or (words >= 3 and bool(_VERB.search(text)))


#: A text opening as an indirect question ("Whether the requested accommodation would be effective", a list item
#: of what a decision weighs), or as an instruction to find something out ("See if your partner is able to view
#: your calendar", "Check whether ..."; the s11 fresh yes/no set, f005): it asks, it does not state.
_INDIRECT_QUESTION = re.compile(r"^\s*(?:whether\b|(?:please\s+)?(?:see|check|find out|ask|confirm|verify|make sure "
                                r"to check)\s+(?:if|whether)\b)", re.I)
#: A text opening with a gerund ("Putting sensitive data in a public Slack channel", an item of a list of what not
#: to do): without an auxiliary it names an action, it does not state anything about it.
_GERUND_LABEL = re.compile(r"^\s*[A-Za-z]+ing\b")
#: A verb in the third person that a gerund subject governs ("Working abroad *requires* approval", "Sharing a
#: password *counts* as an incident"): with one, a gerund phrase states something. Closed-class: the verbs policies
#: state rules with (no part-of-speech tagger ships offline).
_GERUND_PREDICATE = re.compile(r"\b(?:requires|needs|counts|means|includes|involves|takes|applies|allows|costs|"
                               r"makes|gives|lets|remains|becomes|qualifies|violates|constitutes|depends|triggers)\b",
                               re.I)
