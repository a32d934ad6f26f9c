"""Whether the sentences an answer rests on are about the thing a question asks, when a sentence just as close names
that thing and they do not: a near miss. "How long is the probationary period for new TTS employees?" was answered
with the six-month check-in, while a closer sentence names the probationary period and states no length; "How much
will GSA pay toward a printer for my home office?" with the maximum GSA salary, while the printer sentences state no
amount. Written on the calibration half and the development set of the 18F golden set. No Django imports.
"""

from __future__ import annotations

import re
from typing import Sequence

from grounding.acronyms import definitions
from grounding.answer_types import question_sentence
from grounding.lexical import content_terms
from grounding.subject_check import ACTIONS, subject_terms
from grounding.typed_values import person_mentions
from grounding.types import Source

__all__ = ["NEAR", "missed_specifics", "names_another_person", "other_kind"]

#: How far below the first quoted sentence's score a sentence naming an asked word that nothing quoted names may be
#: and still count as just as close (in grounding.sentence_rank score units). On the 18F calibration half and the
#: development set such sentences of the near misses scored -0.02 to +0.14 against the quoted one; those of right
#: answers (words said in other words: "renewal" / "extension", "grade" / "GS level") -0.05 or lower, all but two
#: verbs ("what do they charge", "spend fixing"), which :func:`_verb` leaves out.
NEAR = 0.03

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:\.[A-Za-z]+)*")  # a dotted name is one word ("Max.gov")
#: Words after which a question's word is a verb, not a thing asked about ("what do they *charge*", "I *call*").
_DOER = frozenset("i you we they he she it to do does did can could will would should may might must".split())


#: Verbs of what a value is ("What does AdTrav *charge*?", "How much does a pass *cost*?"): they name no thing.
_PRICING = content_terms("charge charges charged cost costs")
#: Nouns naming the asked value itself rather than a thing it belongs to ("what fraction of the meals and incidentals
#: *rate*"): a close sentence naming one does not tell another thing apart (the development set's dc-15 was refused
#: "for rate" over "... plus the 75% of the meal allowance for the following day", a close sentence on the M&IE
#: allowance saying "rate"). "value" is not one: "core values interview" names a thing (fresh31's f31-41).
_VALUE_NOUNS = content_terms("rate rates amount amounts number total figure percentage fraction share")
#: Nouns naming how a thing goes rather than another thing: "the agreement process" is the agreements (fresh35's
#: f35-a02, a development set, was refused "for process" over "Some agreements can take as few as 10 days").
_COURSE_NOUNS = content_terms("process processes procedure procedures")
#: Nouns naming the form a training takes: "its accessibility training class" is the "monthly training sessions" a
#: page hosts (fresh39's f39-v06, a development set, was refused "for class" over "The class is required for all
#: developers", a close sentence on the same training).
_FORM_NOUNS = content_terms("class classes session sessions course courses workshop workshops webinar webinars")


def _verb(words: Sequence[str], i: int) -> bool:
    """True when ``words[i]`` reads as a verb: after a pronoun, "to" or an auxiliary, a gerund ("fixing"), or a verb
    of pricing (:data:`_PRICING`); never a capitalised word within the sentence (a name)."""
    if i > 0 and words[i][0].isupper():
        return False  # a name within the sentence ("do Centers of Excellence staff use")
    return (words[i].lower().endswith("ing") or (i > 0 and words[i - 1].lower() in _DOER)
            or bool(content_terms(words[i]) & _PRICING))


def _acronym(word: str) -> bool:
    """True for a word written in capitals ("BART", "CTA"): the page on a service often names it only in its
    title or in full, and its fare sentences never ("SFO to Civic Center Station is $8.65")."""
    return len(word) > 1 and word.isupper()


def _in_said_name(words: Sequence[str], i: int, said: frozenset[str]) -> bool:
    """True when ``words[i]`` is one word of a name of several capitalised words within the sentence, another of which
    is said ("When was Altrincham Grammar School established?" / "founded as Altrincham County High School": a name
    changes, and the sentence is about the same school)."""
    def cap(j: int) -> bool:
        return j > 0 and words[j][:1].isupper()
    if not cap(i):
        return False
    start, end = i, i
    while start - 1 > 0 and cap(start - 1):
        start -= 1
    while end + 1 < len(words) and cap(end + 1):
        end += 1
    return any(content_terms(words[j]) & said for j in range(start, end + 1) if j != i)


def _phrases(asking: str, terms: frozenset[str], subject: frozenset[str],
             said: frozenset[str] = frozenset()) -> list[str]:
    """Each word of ``asking`` among ``terms`` (first occurrence, not a verb, an acronym or a word of a name partly
    ``said``), with the subject words right after it ("printer", "home office"), in question order."""
    words = _WORD.findall(asking)
    out: list[str] = []
    for i, word in enumerate(words):
        if not content_terms(word) & terms or _verb(words, i) or _acronym(word) or _in_said_name(words, i, said) \
                or any(word in p.split() for p in out):
            continue
        span = [word]
        for j, nxt in enumerate(words[i + 1:i + 3], i + 1):
            if not content_terms(nxt) & subject or _verb(words, j):
                break
            span.append(nxt)
        out.append(" ".join(span))
    return out


def _named(pairs: Sequence[tuple[str, Source]]) -> frozenset[str]:
    """The content terms of (text, its source) pairs: the text, the source's title and section path."""
    out: set[str] = set()
    for text, source in pairs:
        out |= content_terms(f"{source.title}\n{source.section}\n{text}")
    return frozenset(out)


#: The alternative a question sets its subject against ("a voucher from authorization instead of a local voucher"):
#: not what it asks about (fresh36's f36-a03 was refused "for local voucher").
_ALTERNATIVE = re.compile(r"\b(?:instead\s+of|rather\s+than|as\s+opposed\s+to|other\s+than)\b[^,;?]*", re.I)


def missed_specifics(question: str, quoted: Sequence[tuple[str, Source]],
                     close: Sequence[tuple[str, Source]]) -> list[str]:
    """The things the question's asking clause names (each a word with the subject words after it, as written) that
    no ``quoted`` pair names (sentence, title or section path) but one of ``close`` names in its text: ``close``
    holds the sentences not quoted that score within :data:`NEAR` of the first quoted one. The documents tell that
    thing apart, and the quoted sentences are about another one. [] when there is none. The asker's action verbs
    (grounding.subject_check) and words read as verbs (after a pronoun or an auxiliary, gerunds) do not count; an
    acronym a planned source defines (grounding.acronyms) names the words it stands for (fresh9's v9-005, a
    development set: "provide a CAP ... within 30 days" answers a question on a "corrective action plan"). The
    alternative the question sets its subject against ("... instead of a local voucher") is not asked about."""
    asking = _ALTERNATIVE.sub(" ", question_sentence(question))
    subject = subject_terms(asking) - ACTIONS - _VALUE_NOUNS - _COURSE_NOUNS - _FORM_NOUNS
    said = _named(quoted)
    # an acronym a planned source defines names its words ("a CAP" is the "Corrective Action Plan (CAP)" asked)
    aliases = definitions(dict.fromkeys(source.text for _, source in [*quoted, *close]))  # each source once
    said = said.union(*(words for key, words in aliases.items() if key in said))
    missing = subject - said
    if not missing or not close:
        return []
    elsewhere = missing & frozenset().union(*(content_terms(text) for text, _ in close))
    return _phrases(asking, elsewhere, subject, said) if elsewhere else []


#: A question asking a lead time: how far ahead of something ("How far in advance ...?", "How many days ahead of a
#: religious holiday ...?", "How long before my term ends ...?"); not a wait until the asker may do a thing ("how long
#: before I can apply for Public Service Loan Forgiveness?", fresh36's f36-c08: "after 10 years of employment").
_LEAD_ASKED = re.compile(r"\bhow\s+(?:far|long|much\s+time|many\s+(?:business\s+|working\s+|calendar\s+)?"
                         r"(?:minutes|hours|days|weeks|months|years))\s+(?:ahead|in\s+advance|before(?:hand)?"
                         r"(?!\s+(?:i|you|we|they)\s+(?:can|could|may|will|am|are|become|qualify|get)\b)|prior)\b",
                         re.I)
#: A sentence stating a lead time: "at least three business days in advance", "3 months before your leave expires",
#: "two weeks' notice", "prior to", "ahead of", "earlier".
_LEAD_STATED = re.compile(r"\b(?:before(?:hand)?|in\s+advance|advance\s+notice|ahead|prior|notice|earlier)\b", re.I)


def asks_lead_time(question: str) -> bool:
    """True when the question's asking clause asks how far ahead of something a thing is done (:data:`_LEAD_ASKED`)."""
    return bool(_LEAD_ASKED.search(question_sentence(question)))


#: A question asking the asker's own deadline: how soon they must do a thing ("how soon do I have to get my voucher
#: in?", "How long do we have to submit it?", "By when must I ...?"); not a wait ("how long do I have to wait?").
_OWN_DEADLINE = re.compile(r"\bhow\s+(?:soon|long|quickly|fast)\s+(?:do|must|should)\s+(?:i|we)\s+(?:have|need)\s+"
                           r"to\s+(?!wait\b|stay\b|keep\b|work\b)|\bby\s+when\s+(?:do|must|should)\s+(?:i|we)\b", re.I)
#: A time another party takes over a thing ("your travel will be approved within 3-5 business days", "vouchers are
#: reviewed within 5 business days"): a passive verb before the span, no duty of the reader's in the sentence.
#: Or the time a thing takes another party to do ("it'll take a few weeks for IT to set up your account": fresh41's
#: f41-m05, a development set, quoted it for how fast the asker must notify GSA IT).
_PROCESSING = re.compile(r"\b(?:will|would|can|may|should)\s+be\s+\w+(?:ed|en)\s+(?:with)?in\b|"
                         r"\b(?:is|are)\s+\w+(?:ed|en)\s+within\b|"
                         r"\btakes?\s+(?:about\s+|around\s+|up\s+to\s+|approximately\s+)?(?:a\s+few|several|\w+)\s+"
                         r"(?:business\s+)?(?:minutes?|hours?|days?|weeks?|months?)\s+for\s+(?!you\b|yourself\b)\w+"
                         r"(?:\s+\w+){0,2}\s+to\b", re.I)
_READERS_DUTY = re.compile(r"\byou\s+(?:must|should|need|have|are\s+required)\b|^(?:please\s+)?(?:submit|file|send|"
                           r"complete|fill)\b", re.I)


def asks_own_deadline(question: str) -> bool:
    """True when the asking sentence asks how soon the asker must do a thing (:data:`_OWN_DEADLINE`)."""
    return bool(_OWN_DEADLINE.search(question_sentence(question)))


def states_only_processing(sentence: str) -> bool:
    """True when ``sentence`` states only the time another party takes (:data:`_PROCESSING`, and no duty of the
    reader's): "Your voucher will be reviewed in 3-5 business days" does not say how soon the asker must file it
    (fresh37's f37-m10: "within 5 business days of getting back")."""
    return bool(_PROCESSING.search(sentence)) and not _READERS_DUTY.search(sentence)


def states_lead_time(sentence: str) -> bool:
    """True when ``sentence`` states a time ahead of something (:data:`_LEAD_STATED`): a duration without it ("you
    will receive 8 hours for a holiday") does not answer "How many days ahead of a religious holiday ...?"."""
    return bool(_LEAD_STATED.search(sentence))


#: Number words and words of time: "any one time" and "any given time" name no two kinds of time, nor "the old hotel
#: limit" and "the nightly hotel limit" two kinds of limit.
_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve first second third fourth "
                          "fifth last next old new current previous former latest earlier original prior".split())


def _kind_pairs(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(modifier terms, head terms) of each two adjacent words of ``text`` that are both content words without a
    digit or a number word (or word of time), within one run of words without punctuation: "vacation days" ->
    ({"vacat"}, {"day"})."""
    pairs = []
    for span in re.split(r"[^\w\s'’-]", text):  # not across punctuation ("Item: Self-assessment")
        words = re.findall(r"[A-Za-z0-9][\w'’-]*", span)
        terms = [frozenset() if any(ch.isdigit() for ch in w) or w.lower() in _NUMBER_WORDS else content_terms(w)
                 for w in words]
        pairs += [(a, b) for a, b in zip(terms, terms[1:]) if a and b]
    return pairs


def other_kind(question: str, sentence: str) -> bool:
    """True when ``sentence`` names the thing the question's asking clause asks about with another word in front of
    it, and never the question's own: "Every employee receives 10 paid *sick days* ..." for "How many *vacation days*
    do I get?", "a *substitute day* off" for the same; the sentence is about another kind of that thing. "Employees
    accrue 1.5 days of paid time off" is not (a number is no kind), nor any sentence naming the question's word
    ("vacation"), nor one whose word in front is a word of the question ("a remote kit" for "the remote worker
    home kit", "using Code 51" for "Which code do I use"). Used to put the quoted sentences about the asked kind first (the demo handbook's new-user run of
    the s17 round quoted the sick days and the substitute day before the paid-time-off accrual)."""
    asked = _kind_pairs(question_sentence(question))
    if not asked:
        return False
    said, mine = content_terms(sentence), content_terms(question)
    stated = _kind_pairs(sentence)
    return any(not (modifier & said) and any(head & h and not m & mine for m, h in stated)
               for modifier, head in asked)


#: A name of two capitalised words or more opening a sentence ("Jane Doe is the HR Specialist"), which
#: grounding.typed_values does not read as a name (a sentence's first word is capitalised anyway).
_OPENING_NAME = re.compile(r"^[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")
#: "Contact" used as a verb ("Contact your HR Specialist", "contact the team"): it names nobody.
_CONTACT_VERB = re.compile(r"\bcontact\s+(?:your|the|us|them|our|their|a|an|him|her|me|you)\b", re.I)


def names_another_person(question: str, sentence: str) -> bool:
    """True when ``sentence`` states a person or team (grounding.typed_values.person_mentions) that is more than the
    words of the question's asking clause: "Our Workforce Relations HR Specialist can help" names only the role
    that "Who is the Workforce Relations HR Specialist?" asks to be named, and "the GSA Incident Response team will
    contact you" only the team "Who leads the GSA Incident Response team?" asks the leader of. An e-mail address
    not in the question always counts; "contact" as a verb ("Contact your ...") does not."""
    asking = question_sentence(question)
    asked = content_terms(asking)
    words = _WORD.findall(asking)
    initials = {"".join(w[0] for w in words[i:j]).upper() for i in range(len(words))
                for j in range(i + 2, min(i + 7, len(words) + 1))}
    text = _CONTACT_VERB.sub(lambda m: m.group(0)[len("contact"):], sentence)
    pieces = person_mentions(text) + [m.group(0) for m in _OPENING_NAME.finditer(text)]
    for piece in pieces:
        if "@" in piece and piece.lower() not in question.lower():
            return True
        if piece.isupper() and piece in initials:
            continue  # "IR" for the question's "Incident Response"
        terms = content_terms(piece)
        if terms and not terms <= asked:
            return True
    return False
