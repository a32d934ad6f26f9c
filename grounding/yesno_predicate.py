"""The predicate of a yes/no question: what it asks to be true of its subject ("Is lunch *free* for employees?",
"Will the stipend *change* next year?", "Are pets *allowed*?"). A sentence about the subject that does not state the
predicate (nor its opposite) does not settle the question: "Lunch costs $6 for employees" says nothing about lunch
being free in words, and "Employees receive a monthly stipend of $40" nothing about a change. grounding.yesno then
quotes it without "Yes." (a "No." still comes from a negation, a limit or an opposite word).

Without a part-of-speech tagger (none ships offline), predicate words are recognised by form and by a short list:
participles ("reimbursed", "allowed", "covered"), adjectives in -able/-ible ("refundable", "eligible"), the
adjectives policies state of things ("free", "paid", "open", "mandatory", ...) and the verbs of change ("change",
"increase", "expire", ...). No Django imports.
"""

from __future__ import annotations

import re

from grounding.lexical import CONTENT_STOP_WORDS, STOP_WORDS, content_terms, stem

#: Adjectives and verbs that are what a yes/no question asks of its subject, as written in policies.
PREDICATE_WORDS = frozenset(
    "free paid unpaid open closed available unavailable mandatory optional compulsory eligible ineligible required "
    "allowed permitted forbidden prohibited banned taxable refundable transferable reimbursable covered included "
    "excluded exempt valid invalid active expired due late overdue public private confidential remote "
    "change changes changing increase increases decrease decreases rise rises fall falls drop drops expire expires "
    "renew renews end ends stop stops lapse lapses".split())

_WORD = re.compile(r"[a-z]+", re.I)
#: Participles that name who or what rather than what is asked of it ("the approved vendor", "a signed form" come
#: before their noun; after the auxiliary's subject they are the predicate: "Is the form signed?"). Only words after
#: the clause's first content word count (the subject comes first).
_NOT_PREDICATE = frozenset("need needs needed based used called named located related".split())
#: Adjectives of an expletive question that ask whether something may or must be done ("Is it okay to ...?", "Is it
#: necessary to ...?"): a modal ("You can ...", "You must ...") states them; grounding.yesno_scope reads them.
_MODAL_ADJECTIVES = frozenset("okay ok fine alright possible allowed permitted acceptable appropriate necessary "
                              "required mandatory needed".split())


def predicate_words(clause: str) -> list[str]:
    """The predicate words of a yes/no question's asking clause (grounding.yesno.asking_clause), lower case, in order:
    the words after its first content word (the subject comes first; after an expletive "Is it ..." the first content
    word is one too) that are PREDICATE_WORDS, participles in -ed or adjectives in -able/-ible; and the adjective of an
    expletive "Is it <adjective> to ...?" whatever its form ("Is it simple to edit several files?" asks "simple"),
    unless it asks a modality (:data:`_MODAL_ADJECTIVES`, read by grounding.yesno_scope); and the participle of a
    "get" passive standing first ("Do I get paid for ...?" asks "paid")."""
    words = [w.lower() for w in _WORD.findall(clause)]
    content = [i for i, w in enumerate(words) if w not in CONTENT_STOP_WORDS]
    if not content:
        return []
    # "Is it free to add partners?": after an expletive "it" the first content word is the predicate, not a subject
    expletive = len(words) > 2 and words[1] == "it" and words[0] in ("is", "was", "will", "would", "isn't")
    out = []
    first = content[0]
    if expletive and first + 1 < len(words) and words[first + 1] == "to" and words[first] not in _MODAL_ADJECTIVES:
        out.append(words[first])
        first += 1
    for w in words[first + (0 if expletive else 1):]:
        if w in CONTENT_STOP_WORDS or w in _NOT_PREDICATE:
            continue
        if w in PREDICATE_WORDS or (len(w) > 4 and w.endswith(("ed", "able", "ible"))):
            out.append(w)
    # a "get" passive ("Do I get paid for working on a holiday?", "Will I get reimbursed?"): its participle is what
    # is asked even when it is the clause's first content word (the demo handbook's "Yes." from "you receive a
    # substitute day off")
    passive = [words[i + 1] for i in range(len(words) - 1) if words[i] in ("get", "gets") and i + 1 == first
               and words[i + 1] not in out and (words[i + 1] in PREDICATE_WORDS or _PARTICIPLE.fullmatch(words[i + 1]))]
    return passive + out


#: A participle in -ed of five letters or more ("reimbursed", "promoted").
_PARTICIPLE = re.compile(r"[a-z]{3,}ed")


def asked_subject(clause: str) -> frozenset[str]:
    """The content terms a yes/no asking clause names before its first predicate word (:func:`predicate_words`):
    "Is unused travel comp time paid out?" -> {unus, travel, comp, time}; empty when it has no predicate word."""
    predicates = predicate_words(clause)
    if not predicates:
        return frozenset()
    said = [w.lower() for w in _WORD.findall(clause)]
    return content_terms(" ".join(said[:said.index(predicates[0])]))


def predicate_unstated(clause: str, text: str) -> bool:
    """True when the asking ``clause`` has predicate words (:func:`predicate_words`) and ``text`` (the sentence, with
    its section headings) states none of them (compared by stem: "reimbursed" / "reimbursement" do not match,
    "reimbursed" / "reimburses" do). A predicate word standing right before a word of the question's subject (what
    the clause names before its first predicate word) qualifies that noun and states nothing of it: "We must have a
    signed interagency agreement" does not say whether the agreement is "signed between me and the receiving
    agency" (the development set's d111), nor does "You have to be eligible for FMLA to receive Paid Parental Leave"
    say that FMLA is paid (a word inside a name: :func:`_in_name`)."""
    predicates = predicate_words(clause)
    asked = {stem(w) for w in predicates}
    if not asked:
        return False
    said = [w.lower() for w in _WORD.findall(clause)]
    # the subject's own words: a preposition of it ("within" of "details ... within TTS") qualifies nothing, so
    # "should be openly shared and competed within the organization" states "competed" (fresh13's f13-y01, s32)
    subject = {stem(w) for w in said[:said.index(predicates[0])] if w not in STOP_WORDS}
    raw = _WORD.findall(text)
    words = [w.lower() for w in raw]
    stated = {stem(w) for i, w in enumerate(words)
              if not (stem(w) in asked and i + 1 < len(words) and (stem(words[i + 1]) in subject
                                                                     or _in_name(raw, i)))}
    if asked & _PERMISSION and stated & _MAY:  # "am I allowed to use ...?" / "You can also use ..."
        return False
    return not asked & stated


def _in_name(raw: list[str], i: int) -> bool:
    """True when the word ``raw[i]`` is capitalised inside a text, as is the word after it: part of a name ("to
    receive *Paid* Parental Leave"), not a predicate stated of anything."""
    return i > 0 and raw[i][:1].isupper() and raw[i + 1][:1].isupper() and raw[i - 1][:1].islower()


#: Permission, as a question asks it ("allowed", "permitted") and as a sentence may grant it ("can", "may").
_PERMISSION = frozenset({stem("allowed"), stem("permitted")})
_MAY = frozenset({"can", "may", stem("allowed"), stem("permitted")})


#: A cost denied: "do not cost any money", "doesn't cost anything", "at no cost", "without charge", "free of charge",
#: "no fee". Said of what a question asks to be free, it states that it is (the s11 fresh yes/no set, f007: "Is it free
#: to add our agency partners to Mural?" / "Guests do not cost any money to add").
_NO_COST = re.compile(r"\b(?:(?:do|does|did|will|would)\s+not|(?:don|doesn|didn|won|wouldn)['’]t)\s+cost"
                      r"(?:\s+(?:anything|any\s+money|money|a\s+(?:thing|penny|cent)))?"
                      r"|\b(?:at|for|with)\s+no\s+(?:additional\s+|extra\s+)?(?:cost|charge|fee)s?\b"
                      r"|\bwithout\s+(?:any\s+)?(?:cost|charge|fee)s?\b|\bfree\s+of\s+charge\b"
                      r"|\bno\s+(?:additional\s+|extra\s+)?(?:cost|charge|fee)s?\b", re.I)


def cost_read_as_free(clause: str, sentence: str) -> str:
    """``sentence`` with each denied cost (_NO_COST) written "free", when the asking ``clause`` asks whether something
    is free (:func:`predicate_words` holds "free"); otherwise ``sentence`` as it is. "Guests do not cost any money to
    add" then states the predicate asked, without a negation cue, and answers "Is it free to add partners?" yes
    rather than no."""
    if "free" not in predicate_words(clause):
        return sentence
    return _NO_COST.sub("free", sentence)


#: A restriction a question asks about ("Do we bill only for our time?"), and the words a sentence states one with.
_ASKS_ONLY = re.compile(r"\b(?:only|solely|exclusively|just)\b(?!\s+(?:in case|as|like|about)\b)", re.I)
_STATES_ONLY = re.compile(r"\b(?:only|solely|exclusively|just|limited|restricted|sole|nothing but|no other|except|"
                          r"other than)\b", re.I)


def restriction_unstated(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether something holds only of something ("Do we bill client agencies
    only for our time?") and ``sentence`` states no restriction ("We charge our clients for our actual time and
    material costs, plus a fixed overhead amount"): the sentence says what holds, not that nothing else does, and
    settles no "Yes." ("just in case", "just as" restrict nothing)."""
    return bool(_ASKS_ONLY.search(clause)) and not _STATES_ONLY.search(sentence)


#: A question asking whether the asker must pay ("Do I have to pay to take the training?", "Will I need to pay for
#: ...?", "Must we pay ...?").
_ASKS_PAYMENT = re.compile(r"\b(?:have|has|need|needs)\s+to\s+pay\b|^\s*(?:must|should)\s+\w+\s+pay\b", re.I)


def cost_denied(clause: str, sentence: str) -> bool:
    """True when the asking ``clause`` asks whether the asker must pay (:data:`_ASKS_PAYMENT`) and ``sentence`` denies
    a cost (:data:`_NO_COST`: "you can access the DoD training at no cost"): the sentence says no, though it states
    no requirement (fresh2's f2008 had no opener)."""
    return bool(_ASKS_PAYMENT.search(clause)) and bool(_NO_COST.search(sentence))
