"""Yes/no questions whose answer a sentence gives the other way round than its words read.

- "Is it okay if I don't set up commit signing?" asks whether doing without is fine: a sentence saying "you do not
  need to configure signing" answers yes, one saying "you must set up signing" answers no. The question is read as
  the requirement it turns round ("Do I need to set up commit signing?") and that answer's opener is turned
  (:func:`required_instead`).
- "Can I resubmit my timesheet more than once?" over "There is no limit on how many times you can resubmit your
  timesheet": the "no" of an absent limit grants what is asked (:func:`unlimited_grant`); asked "Is there a limit
  ...?", the same sentence says no, as the sentence reads.

From the s31 round's fresh31 set (f31-11, f31-14), written by a helper from 31 handbook pages; both opened "No."
when their sentence was quoted first. No Django imports.
"""

from __future__ import annotations

import re

from grounding.answer_types import question_sentence
from grounding.lexical import content_terms

__all__ = ["required_instead", "turned", "unlimited_grant"]

#: "Is it okay if I don't X?", "Is it fine not to X?", "Would it be alright to not X?": whether doing without X is
#: fine ("a problem" would turn it twice and is not read).
_OKAY_WITHOUT = re.compile(
    r"^(?:is it|would it be|will it be)\s+(?:ok|okay|fine|alright|all right|acceptable)\s+"
    r"(?:if\s+(?P<who>I|we)\s+(?:don['’]t|do not|never)\s+|not\s+to\s+|to\s+not\s+)(?P<act>[^?]+?)\s*\??$", re.I)


def required_instead(question: str) -> str | None:
    """The requirement a question asking whether doing without something is fine turns round ("Is it okay if I
    don't set up commit signing?" -> "Do I need to set up commit signing?"); None for any other question. Read in
    the asking sentence (grounding.answer_types.question_sentence); the asker's situation before it is kept before
    the requirement ("I only edit through github.com in my browser. Do I need to set up commit signing?"): a rule
    holding in another case ("If you do any work with git repos on your local computer, you need to ...") is not
    theirs."""
    asking = question_sentence(question).strip()
    m = _OKAY_WITHOUT.match(asking)
    if m is None:
        return None
    situation = question.strip()[:-len(asking)] if question.strip().endswith(asking) else ""
    return f"{situation}Do {m.group('who') or 'I'} need to {m.group('act')}?"


def turned(opener: str) -> str:
    """The opener answering the question a :func:`required_instead` requirement was read from: "Yes." for "No.",
    "No." for "Yes."; "" for any other opener (a qualified yes does not turn into a plain no)."""
    return {"Yes.": "No.", "No.": "Yes."}.get(opener, "")


#: A sentence saying a thing has no limit: "There is no limit on how many times you can ...", "no maximum to how
#: much ...", "unlimited".
_NO_LIMIT = re.compile(r"\b(?:there\s+(?:is|are)\s+no|with\s+no|without\s+(?:any\s+|a\s+)?)\s*(?:limit|maximum|"
                       r"cap|ceiling|restriction)s?\s+(?:on|to)\s+how\s+(?:many|much|often|long)\b|\bunlimited\b",
                       re.I)
#: A question asking about the limit itself ("Is there a limit ...?", "How many times ...?"): the sentence's "no"
#: answers it as written.
_ASKS_LIMIT = re.compile(r"\b(?:limit|limits|limited|maximum|max|cap|capped|ceiling|restrict\w*|how\s+many|"
                         r"how\s+much|how\s+often)\b", re.I)
#: The words of "how many times you can ..." that name nothing of what is done.
_COUNTING = content_terms("times time can may")


def unlimited_grant(question: str, sentence: str) -> bool:
    """True when ``sentence`` says there is no limit on how many times (much, often, long) one may do something, the
    question asks whether one may do it (not about the limit) and names what the sentence says it of: the question's
    asking sentence holds at least half the content words after "how many times" (one at least; "times", "can" and
    "may" not counted): "Can I resubmit my HR Links timesheet more than once?" / "There is no limit on how many times
    you can resubmit your timesheet"."""
    asking = question_sentence(question)
    m = _NO_LIMIT.search(sentence)
    if m is None or _ASKS_LIMIT.search(asking):
        return False
    said = content_terms(sentence[m.end():]) - _COUNTING
    return bool(said) and len(said & content_terms(asking)) * 2 >= len(said)
