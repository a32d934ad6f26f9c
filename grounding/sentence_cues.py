"""What the sentence ranker (grounding.sentence_rank) reads of a question and of a sentence besides their words and
vectors: questions asking for a phone number, a quantity, how much of something one gets (an allotment), an example,
what a term covers; sentences giving a phone number, a quantity, an allotment, the numbers they state, the sentences
of a worked example, a table row's key, a term's definition. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.lexical import content_terms
from grounding.sentence_data import SentenceData
from grounding.table_lookup import row_key
from grounding.types import Source

__all__ = ["ALLOTMENT", "ALLOTMENT_QUESTION", "ASKS_EXAMPLE", "CLOCK", "CLOCK_QUESTION", "EXAMPLE", "HAS_QUANTITY",
           "PHONE", "PHONE_QUESTION", "POINTS_BACK",
           "NUMBER_WORDS", "QUANTITY_QUESTION", "asked_numbers", "asked_role", "continues_one", "defined_term",
           "defines", "example_sentences", "named_page_labels", "names_role_holder", "names_row_key", "numbers",
           "on_named_pages"]

#: A sentence opening by pointing back to what the one before it names: "It ...", "This ...", or a verb and its
#: pronoun object ("Report it in #sec-incidents within 1 hour ...", not "GSA IT can provide ...").
POINTS_BACK = re.compile(r"^(?:[Ii]t|[Tt]hey|[Tt]his|[Tt]hese|[Tt]hat|[Tt]hose)\b"
                         r"|^[A-Za-z]+\s+(?:it|them|this|these|those)\b")


def continues_one(at: set[tuple[str, int]], label: str, position: int, text: str) -> bool:
    """True when sentence ``text``, at ``position`` among the sentences of the source labelled ``label``, comes right
    after one of ``at`` ((label, position) pairs) and points back to it (:data:`POINTS_BACK`): "Report it in
    #sec-incidents within 1 hour ..." after "A lost or stolen laptop is a security incident."."""
    return (label, position - 1) in at and bool(POINTS_BACK.match(text))


def pointed_back(chosen, s):
    """The sentence of ``chosen`` (objects with ``label``, ``position`` and ``text``, as grounding.sentence_rank.
    ScoredSentence) that sentence ``s`` comes right after in its source and points back to (:func:`continues_one`);
    None when there is none."""
    if not POINTS_BACK.match(s.text):
        return None
    return next((c for c in chosen if (c.label, c.position) == (s.label, s.position - 1)), None)


#: A question asking for a phone number ("What is the EthicsLine phone number?", "What number do I call ...?").
PHONE_QUESTION = re.compile(r"\b(?:phone|telephone|hotline|helpline|fax)(?:\s+\w+)?\s+number\b|\bwhat number\b|"
                            r"\bnumber\b[^?]{0,30}\b(?:call|dial|phone|text)\b", re.I)
#: A phone number: "1-800-555-0147", "(202) 555-0147", "+1 202 555 0147", "extension 4357".
PHONE = re.compile(r"(?<![\w-])(?:\+?\d{1,3}[\s.-])?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?![\w-])|"
                   r"\b(?:ext(?:ension)?\.?|x)\s?\d{3,5}\b", re.I)
#: A question asking for a time of day ("What time does my first day start?", "By what time ...?") and a sentence
#: stating one ("9:00 a.m. – Arrive at reception", "at noon", "16:00"): a date or a duration ("5 business days before
#: your start date") states when, not at what time (the s22 round's new-user run on the demo handbook).
CLOCK_QUESTION = re.compile(r"\bwhat time\b|\bwhat hour\b", re.I)
CLOCK = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b(?:[01]?\d|2[0-3]):[0-5]\d\b|"
                   r"\b(?:noon|midnight)\b", re.I)
#: A question asking how much of something one is given ("How many PTO days do I get?", "How much leave do new
#: employees earn?") and a sentence stating an allotment ("Employees accrue 1.5 days ... which adds up to 18 days"):
#: the sentence with the question's words but another predicate ("Up to 5 unused PTO days carry over") is a rule
#: about the thing, not how much of it one gets (the demo handbook, s14).
ALLOTMENT_QUESTION = re.compile(r"\bhow (?:many|much)\b[^?]*?\b(?:do|does|will|would|can|could|did)\s+"
                                r"(?:[\w-]+\s+){1,3}?(?:get|receive|earn|accrue|have)\b|\bentitled to\b", re.I)
ALLOTMENT = re.compile(r"\b(?:accrue[sd]?|earn(?:s|ed)?|receive[sd]?|gets?|(?:is|are) (?:entitled to|given|granted|"
                       r"allotted|allowed)|adds? up to|totals?)\b", re.I)
QUANTITY_QUESTION = re.compile(r"\b(how (many|much|long|often|soon|far|old)|what (percentage|amount|number|"
                               r"time|date|day)|when|deadline|limit|maximum|minimum)\b", re.I)
HAS_QUANTITY = re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                          r"hundred|thousand|half|once|twice|daily|weekly|monthly|annually|yearly)\b", re.I)
#: Number words from zero to twenty, each as its digits ("four" -> "4").
NUMBER_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                                 "thirteen fourteen fifteen sixteen seventeen eighteen nineteen "
                                                 "twenty".split())}
_NUMBER_TOKEN = re.compile(r"\b(?:\d+(?:\.\d+)?|" + "|".join(NUMBER_WORDS) + r")\b", re.I)


def numbers(text: str) -> frozenset[str]:
    """The numbers a text states, number words as digits ("four people" -> {"4"}; "one" is left out: a pronoun as
    often as a count)."""
    out = {NUMBER_WORDS.get(m.group(0).lower(), m.group(0)) for m in _NUMBER_TOKEN.finditer(text)}
    return frozenset(out - {"1"} if "one" in text.lower() and "1" not in text else out)


#: A number that opens a name rather than stating a quantity: a street number before its street ("355 McAllister",
#: "1800 F St"), a number before a capitalised word.
_NAME_NUMBER = re.compile(r"\b\d+(?=\s+[A-Z])")


def asked_numbers(question: str) -> frozenset[str]:
    """The numbers a question states as quantities (:func:`numbers`), without those that open a name ("parking at
    355 McAllister": an address, which the sentence naming the place states whatever it says of it)."""
    return numbers(_NAME_NUMBER.sub(" ", question))


#: A sentence that opens a worked example ("For example: you went on FMLA ...", "E.g. ...", "Say you ...", "Let's say
#: ...", "Suppose ...", "Imagine ...", "As an example, ..."); a parenthetical "(e.g. ...)" inside a rule is not one.
EXAMPLE = re.compile(r"^(?:for (?:example|instance)\b|e\.\s?g\.|say (?:you|your|that|an?|the)\b|let'?s say\b|"
                     r"suppose\b|imagine\b|as an example\b|example\s*\d*\s*:)", re.I)
#: A question asking for an example or a worked case ("Can you give an example of ...?", "What happens if, say, ...").
ASKS_EXAMPLE = re.compile(r"\b(?:examples?|for instance|scenario|sample|illustrat\w*|walk me through)\b", re.I)


def example_sentences(source: Source, data: SentenceData) -> frozenset[int]:
    """The indices of ``data``'s sentences that belong to a worked example (:data:`EXAMPLE`): the sentence opening
    it and the sentences after it on the same line of ``source.text`` (its paragraph or list item: "For example:
    you went on FMLA for 4 weeks in March 2022 ... You will only have 8 weeks of FMLA available until March
    2023.")."""
    out: set[int] = set()
    for i, text in enumerate(data.texts):
        if EXAMPLE.match(text):
            out.add(i)
        elif i - 1 in out and data.kinds[i] == data.kinds[i - 1] and data.spans[i - 1][1] <= data.spans[i][0] \
                and "\n" not in source.text[data.spans[i - 1][1]:data.spans[i][0]]:
            out.add(i)
    return frozenset(out)


def names_row_key(question: str, row: str) -> bool:
    """True when ``question`` names, as written, the first cell of a table row read as "column: value; ..." pairs
    (its part before a comma; two characters or more, not a plain number: grounding numbers are matched apart)."""
    first = row_key(row).rstrip(".")
    key = first.split(",")[0].strip()
    if len(key) < 2 or key.replace(".", "").isdigit():
        return False
    return bool(re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", question, re.I))


#: A question asking what a term means or covers ("What counts as confidential data?", "What is considered
#: overtime?", "What does FOIA mean?", "What is meant by a detail?"); group "term".
_DEFINITION_QUESTION = re.compile(r"^\s*(?:what|which\s+\w+)\s+(?:counts?\s+as|(?:is|are)\s+(?:considered|classed\s+as|"
                                  r"meant\s+by|defined\s+as))\s+(?:an?\s+|the\s+)?(?P<term>[^?]{2,60}?)\s*\??\s*$|"
                                  r"^\s*what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?P<term2>[^?]{2,60}?)\s+mean\s*\??\s*$",
                                  re.I)
#: A sentence defining a term: the term (a few words), then a dash, a colon or "means" ("Confidential – customer
#: contracts, unreleased robot designs.", "Overtime: work beyond 40 hours ...", "A detail means ...").
_DEFINITION = re.compile(r"^\W*(?P<head>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\W*\s*(?:[–—:]|-\s|\s(?:means|refers to|is defined "
                         r"as)\b)", re.I)


def defined_term(question: str) -> str:
    """The term a question asks the meaning or the scope of ("What counts as confidential data?" -> "confidential
    data"); "" when it asks something else."""
    m = _DEFINITION_QUESTION.match(question)
    return (m.group("term") or m.group("term2") or "").strip() if m else ""


#: A question asking who holds a role ("Who is the decision maker for a reasonable accommodation request?", "Who will be
#: my approver?"); group "role", up to a preposition or relative word (so "point of contact" reads "point").
_ROLE_QUESTION = re.compile(r"^\s*who\s+(?:is|are|will\s+be|would\s+be)\s+(?:the|my|our|your)\s+(?P<role>[\w'’-]+"
                            r"(?:\s+[\w'’-]+){0,3}?)(?=\s+(?:for|of|on|in|at|that|who|when|if|to)\b|\s*\?|\s*$)", re.I)


def asked_role(question: str) -> str:
    """The role a question asks the holder of ("Who is the decision maker for ...?" -> "decision maker"); "" when it
    asks something else."""
    m = _ROLE_QUESTION.match(question)
    return m.group("role").strip() if m else ""


def names_role_holder(role: str, sentence: str) -> bool:
    """True when ``sentence`` says who holds ``role``: "<someone> will be the decision maker (DM) ...", "... serves
    as the point of contact" (the s28 new user's "Who is the decision maker for a reasonable accommodation request?"
    quoted sentences about what the decision maker does)."""
    return bool(role) and bool(re.search(rf"\b(?:is|are|will\s+be|shall\s+be|serves?\s+as|acts?\s+as|becomes?)\s+"
                                         rf"(?:the\s+|your\s+)?{re.escape(role)}\b", sentence, re.I))


def defines(term: str, sentence: str) -> bool:
    """True when ``sentence`` opens by defining ``term`` (:data:`_DEFINITION`): its head before the dash, colon or
    "means" names nothing but words of the term ("Confidential – customer contracts ..." for "confidential data";
    not "Sending Confidential data to the wrong person", which names it inside another statement)."""
    m = _DEFINITION.match(sentence)
    head = content_terms(m.group("head")) if m else frozenset()
    return bool(head) and head <= content_terms(term)


def named_page_labels(sources: Sequence[Source], q_terms: frozenset[str]) -> frozenset[str]:
    """The labels of the sources whose page title the question names, every content term of it ("Advanced sick
    leave" for "What's the most advanced sick leave I can request?"; not "Leave types"), or the heading of one of
    their sections ("Which of the performance management quick links deals with that?": the overview's
    "Performance management quick links", not the mid-year page's "Mid year performance review quick links", whose
    table repeats the row; fresh37's f37-t04)."""
    return frozenset(s.label for s in sources
                     if any((named := content_terms(name)) and named <= q_terms
                            for name in (s.title, *(part.split(" > ")[-1] for part in s.section.split(" · ")))))


def on_named_pages(scores: Sequence[tuple[str, str, float]], named: frozenset[str]) -> list[float]:
    """The scores of ``scores`` ((text, source label, score) of each ranked sentence) where a sentence that two or
    more sources state is given, on a page whose title or section heading the question names (``named``:
    :func:`named_page_labels`), the best score of its copies (a hair above it, a tie too: two tables' copies of a row
    score the same): it is quoted from the page about it rather than from an overview repeating it with other context
    (the calibration conversation q202 cited "Leave types" for the advanced sick leave limit the "Advanced sick leave"
    page states in the same words)."""
    best: dict[str, float] = {}
    copies: dict[str, int] = {}
    for text, _, score in scores:
        best[text] = max(best.get(text, score), score)
        copies[text] = copies.get(text, 0) + 1
    return [best[text] + 1e-6 if label in named and copies[text] > 1 and score <= best[text] else score
            for text, label, score in scores]
