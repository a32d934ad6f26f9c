"""The action a yes/no question asks about: the lexical verb of its asking clause ("Can I *delete* the message?",
"Do teams have to *submit* the checklist?", "Does NIST's Risk Management Framework *apply* to ...?"). A sentence
that does not state that action says nothing about whether it may, must or does happen: "You can edit a message for
5 minutes after it is posted" does not answer "Can I delete the message?", nor "Each project team must document
their need ... by filling in a checklist" whether teams must *submit* it. grounding.yesno then quotes such a sentence
without "Yes." or "No." (precision first: a wrong opener is worse than none).

Without a part-of-speech tagger (none ships offline) the verb is read by position: after an auxiliary or modal and
a subject this module can delimit (a personal pronoun, one bare noun, a run of capitalised words, a possessive
determiner with one or two nouns), past "have to", "need to", "be able to" and adverbs. A clause read no other way
("Is lunch free?", a copula question: grounding.yesno_predicate) gives no action and is left alone. Light verbs
("get", "have", "be", "do", "make", "take", "go") name no action by themselves and are left alone too.

No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import CONTENT_STOP_WORDS, stem
from grounding.yesno_scope import LEADING_PHRASE

#: An auxiliary or modal opening the asking clause ("Can I ...", "Do teams ...").
_AUX = frozenset("can could may might should must shall will would do does did".split())
#: A copula opening a clause that asks a modality of its subject ("Am I allowed to work ...?").
_COPULA = frozenset("am is are".split())
_MODALITY = frozenset("allowed permitted required able supposed expected eligible obligated".split())
_PRONOUNS = frozenset("i we you they he she it".split())
_DETERMINERS = frozenset("my our your their his her its the a an this that these those every each all any".split())
#: Words between the subject and the verb: the requirement or ability said of the subject, and adverbs.
_BEFORE_VERB = frozenset("have has need needs ought be able allowed permitted required expected to ever still also "
                         "just really actually always even now already legally officially".split())

#: Verbs that name no action by themselves ("Do I get paid?", "Can I have a second monitor?", "Does a Mac come with
#: a screen reader?"):
#: what they ask is in their object or participle (grounding.yesno_predicate reads that).
_LIGHT = frozenset("be get have do make take go come let keep put give see know want like feel".split())
#: Past forms that share no stem with their verb ("Do I pay for ...?" / "... is paid by the agency").
_IRREGULAR = {"pay": ("paid",), "buy": ("bought",), "bring": ("brought",), "leave": ("left",), "send": ("sent",),
              "spend": ("spent",), "lose": ("lost",), "hold": ("held",), "meet": ("met",), "sell": ("sold",),
              "tell": ("told",), "find": ("found",), "write": ("written", "wrote"), "choose": ("chosen", "chose"),
              "run": ("ran",), "begin": ("began", "begun"), "fly": ("flew", "flown"), "drive": ("drove", "driven"),
              "speak": ("spoke", "spoken"), "forget": ("forgot", "forgotten"), "withhold": ("withheld",)}

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
_LEADING = re.compile(rf"^\s*{LEADING_PHRASE}", re.I)



def asked_actions(clause: str) -> tuple[str, ...]:
    """The candidate verbs (lower case) of a yes/no asking clause (grounding.yesno_asking.asking_clause; a leading
    phrase, grounding.yesno_scope.LEADING_PHRASE, skipped: "Under the 2021 guidance, can I travel ...?"), or () when
    its shape is not read or a candidate is a light verb (:data:`_LIGHT`). After a personal pronoun, the one word
    past "have to", "need to", "be able to" and adverbs; after any other subject (its determiner, then its first
    word, then a run of capitalised words), the next one or two such words up to a function word, either of which
    may be the verb ("our product lead modify": "lead" and "modify"; "TTS staff join": "staff" and "join").

    "Can I delete the message?" -> ("delete",); "Do teams have to submit the checklist?" -> ("submit",);
    "Am I allowed to work abroad?" -> ("work",); "Is lunch free?" -> ()."""
    words = _WORD.findall(_LEADING.sub("", clause, count=1))
    lower = [w.lower() for w in words]
    if len(words) < 3 or lower[0] not in _AUX | _COPULA:
        return ()
    i = 1
    single = lower[i] in _PRONOUNS
    if not single:
        i += lower[i] in _DETERMINERS
        i += 1
        while i < len(words) and words[i][:1].isupper():
            i += 1
    else:
        i += 1
    if lower[0] in _COPULA:
        if i + 1 >= len(words) or lower[i] not in _MODALITY or lower[i + 1] != "to":
            return ()
    while i < len(words) and lower[i] in _BEFORE_VERB:
        i += 1
    verbs = []
    for w in lower[i:i + (1 if single else 2)]:
        if w in CONTENT_STOP_WORDS:
            break
        verbs.append(w)
    if not verbs or any(v in _LIGHT for v in verbs):
        return ()
    return tuple(verbs)


def action_unstated(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` names an action (:func:`asked_actions`) and ``sentence`` states none of its
    candidates, in any form: the same stem, a word opening with the verb less a final "e" or "y" when at least four
    letters stay ("submit" / "submission", "modify" / "modification", "delete" / "deletion"), or a listed irregular
    past ("pay" / "paid"). "Can I delete the message?" / "You can edit a message ... for 5 minutes" -> True;
    "Do I have to stay in all of them?" / "you don't have to stay" -> False."""
    verbs = asked_actions(clause)
    if not verbs:
        return False
    words = [w.lower() for w in _WORD.findall(sentence)]
    stems = {stem(w) for w in words}
    for verb in verbs:
        root = verb[:-1] if verb.endswith(("e", "y")) and len(verb) > 4 else verb
        if stem(verb) in stems or any(w.startswith(root) for w in words) \
                or any(w in _IRREGULAR.get(verb, ()) for w in words):
            return False
    return True
