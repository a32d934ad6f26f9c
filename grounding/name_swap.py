"""The substitution rule of grounding.clash: two aligned sentences that are the same statement with one name swapped
("acquired by Facebook" / "acquired by Apple"), the structural "same statement, different argument" contradiction
(de Marneffe, Rafferty and Manning 2008; functional relations, Ritter et al. 2008), and the places that only look
like a swapped name (a label, a verb opening a line or a clause, a quantified subject, a compound, a name kept with
words added, a table row). No Django imports.
"""

from __future__ import annotations

import difflib
import functools
from typing import Sequence

from grounding.claim_readings import ClaimReading
from grounding.lexical import STOP_WORDS, TOKEN, fold_accents, is_negation
from grounding.rewording import owner_of_noun, word_key
from grounding.values import MONTHS

__all__ = ["substitution"]


def _name_like(token: str) -> bool:
    low = token.lower()
    return token[:1].isupper() and (low not in STOP_WORDS or low in MONTHS)


_Folded = tuple[str, tuple[tuple[int, int], ...], tuple[str, ...], tuple[str, ...]]


@functools.lru_cache(maxsize=20_000)
def _folded_tokens(sentence: str) -> _Folded:
    """(the sentence with accents folded, (start, end) of each TOKEN in it, the tokens, the tokens lower-cased),
    cached: a planned sentence meets many others."""
    folded = fold_accents(sentence)
    marks = [(m.start(), m.end(), m.group(0)) for m in TOKEN.finditer(folded)]
    lower = tuple(word_key(t) for _, _, t in marks)
    return folded, tuple((s, e) for s, e, _ in marks), tuple(t for _, _, t in marks), lower


def substitution(ra: ClaimReading, rb: ClaimReading) -> tuple[str, str] | None:
    """(span of a, span of b) when two sentences (their readings) are the same statement with one name swapped, else
    None.

    The sentences (at least four tokens each) share at least three tokens and half of the longer one, differ in at
    most two places of at most four tokens each, and one of those places replaces a capitalised name by another
    ("acquired by Facebook" / "acquired by Apple", "on January 5" / "on May 5"), while no place adds or removes a
    negation (that is a polarity clash between two subjects). Accents, apostrophe styles and the punctuation inside a
    name are ignored ("Bayamón" / "Bayamon", "GSA’s" / "GSA's", "D.C." / "DC"). Each span is the whole name: the
    swapped words with the capitalised words around them that both sides share ("CO-Transit Subsidy"). A swapped
    label that opens both ("Boston: meals are $75" / "Denver: meals are $75") names two subjects and is no swap, as is
    a name after an opening "In", "At", "For" or "The" ("In Glasgow the limit is £110" / "In Bristol ..."); nor
    is a swap right after a quantifier opening both ("All GSA employees are ..." / "All TTSC staff are ...": one rule
    of two classes), nor names moved within the sentence ("GSA launched 18F" / "18F was launched within GSA"), nor
    names quoted as samples (in a quotation of six words at most), nor a word capitalised because it opens a clause
    after a colon ("Adobe Creative Cloud: Submit a request": a verb), nor a name and a compound of it ("18F-themed" /
    "18F"), nor a name kept with words added ("GSA IR" / "GSA's Incident Response (IR)"), nor a place across a
    table's cell separator.
    """
    na, nb = len(ra.tokens), len(rb.tokens)
    if min(na, nb) < 4:
        return None
    # the tokens both share, counted with repeats, bound what any alignment matches: too few to meet the rules below
    # (half of the longer, at most 2 x 4 tokens changed on each side) rules the pair out before difflib runs; the
    # counts are the readings' (made at ingestion), the token offsets are found only for a pair that passes
    bound = sum((ra.counts & rb.counts).values())
    if bound < max(3, max(na, nb) / 2) or max(na, nb) - bound > 8:
        return None
    (fa, ma, ta, la), (fb, mb, tb, lb) = _folded_tokens(ra.text), _folded_tokens(rb.text)
    matcher = difflib.SequenceMatcher(None, la, lb, autojunk=False)
    blocks = matcher.get_opcodes()
    shared = sum(i2 - i1 for tag, i1, i2, _, _ in blocks if tag == "equal")
    edits = [op for op in blocks if op[0] != "equal"]
    if shared < max(3, max(len(ta), len(tb)) / 2) or not edits or len(edits) > 2:
        return None
    if any(i2 - i1 > 4 or j2 - j1 > 4 for _, i1, i2, j1, j2 in edits):
        return None
    if any(is_negation(" ".join(ta[i1:i2])) != is_negation(" ".join(tb[j1:j2])) for _, i1, i2, j1, j2 in edits):
        return None  # "Contractors may use" / "Employees may not use": a polarity clash about two subjects
    for tag, i1, i2, j1, j2 in edits:
        span_a, span_b = ta[i1:i2], tb[j1:j2]
        if "".join(la[i1:i2]) == "".join(lb[j1:j2]):
            continue  # one name in two spellings: "D.C." / "DC", "Wi-Fi" / "WiFi"
        if span_a and span_b and (span_a[0].startswith(f"{span_b[0]}-") or span_b[0].startswith(f"{span_a[0]}-")):
            continue  # one name and a compound of it: "18F-themed templates" / "18F templates"
        if _kept_within(la[i1:i2], lb[j1:j2]):
            continue  # "GSA IR" / "GSA's Incident Response (IR)": the name kept, words added around it
        if _across_cells(fa, ma, i1, i2) or _across_cells(fb, mb, j1, j2):
            continue  # a place across a table's cell separator ("Location | 50"): a row's label and value, no name
        if tag == "replace" and any(map(_name_like, span_a)) and any(map(_name_like, span_b)):
            if i1 == j1 == 0 and _labels(fa, ma[i2 - 1][1]) and _labels(fb, mb[j2 - 1][1]):
                continue  # the label of a "Key: value" line or a row swapped: two subjects, not two values
            if i1 == j1 == 1 and la[0] == lb[0] and la[0] in _SUBJECT_OPENERS and _same_shared_quantity(ra, rb):
                continue  # "In Glasgow the nightly hotel limit is £110" / "In Bristol ...", "The Hull office opens at
                # 07:30" / "The York office ...": two places may share one quantity; one owner or address may not
            if i1 == j1 == 0 and max(i2, j2) <= 3 and i2 < len(la) and j2 < len(lb) \
                    and la[i2] in _DETERMINERS and lb[j2] in _DETERMINERS:
                continue  # "Acknowledge a Mid-Year Progress Review" / "Create & Submit a Performance plan": words
                # opening a line before an article are capitalised because they open it: verbs (two steps), not names
            if i1 == j1 == 0 and (_ends_in_function_word(ta[i1:i2]) or _ends_in_function_word(tb[j1:j2])):
                continue  # "Visit Concur at ..." / "Log into Concur ...": a verb opening a line, before its object
            if _opens_clause_verb(fa, ma, la, i1, i2) or _opens_clause_verb(fb, mb, lb, j1, j2):
                continue  # "Adobe Creative Cloud: Submit a Software Request": a verb capitalised after a colon
            if owner_of_noun(la, ta, i1, i2) and owner_of_noun(lb, tb, j1, j2) and la[i2] == lb[j2]:
                continue  # "As you set up your TTS accounts" / "... your 18F accounts": whose accounts, two subjects
            if _quantified_subject(la, i1) and _quantified_subject(lb, j1):
                continue  # "All GSA employees are responsible ..." / "All TTSC staff are ...": two classes, one rule
            if {t for t, w in zip(la[i1:i2], span_a) if _name_like(w)} <= set(lb) \
                    and {t for t, w in zip(lb[j1:j2], span_b) if _name_like(w)} <= set(la):
                continue  # "GSA officially launched 18F" / "18F was officially launched within GSA": names moved
            if _in_quotes(fa, ma[i1][0]) and _in_quotes(fb, mb[j1][0]):
                continue  # 'cannot be listed as "Dominic Sale, TTS/GSA"' / '... as "Sally Smith, TTS/GSA"': samples
            # the swapped word with the rest of its name, which both sides share ("FAS-Transit Subsidy" / "CO-Transit
            # Subsidy", not "FAS-Transit" / "CO-Transit")
            def spaced(f: str, m: tuple, k: int) -> bool:  # only spaces between token k - 1 and token k
                return not f[m[k - 1][1]:m[k][0]].strip()

            while i1 > 0 and j1 > 0 and la[i1 - 1] == lb[j1 - 1] and _name_like(ta[i1 - 1]) \
                    and spaced(fa, ma, i1) and spaced(fb, mb, j1):
                i1, j1 = i1 - 1, j1 - 1
            while i2 < len(ta) and j2 < len(tb) and la[i2] == lb[j2] and _name_like(ta[i2]) \
                    and spaced(fa, ma, i2) and spaced(fb, mb, j2):
                i2, j2 = i2 + 1, j2 + 1
            return fa[ma[i1][0]:ma[i2 - 1][1]], fb[mb[j1][0]:mb[j2 - 1][1]]
    return None


def _in_quotes(text: str, at: int) -> bool:
    """True when character ``at`` of ``text`` stands inside a short quotation of six words at most (a name quoted as
    a sample: "be listed in the agenda as “Dominic Sale, TTS/GSA.”", which two pages may choose differently without
    disagreeing: fresh19's f19r-u10); a longer quotation reports a claim ("“Facebook announced today that it has
    reached an agreement to acquire Instagram ...”": RGB's counterfactual passages swap names inside it)."""
    opened = max(text.rfind("“", 0, at), text.rfind('"', 0, at))
    if opened < 0 or (text[opened] == '"' and text[:opened].count('"') % 2) or "”" in text[opened:at]:
        return False
    closing = [i for i in (text.find("”", at), text.find('"', at)) if i >= 0]
    return bool(closing) and len(text[opened + 1:min(closing)].split()) <= 6


#: Words before a name opening a sentence that make it the sentence's subject or setting ("In Glasgow ...", "The Hull
#: office ..."): a name swapped there names two subjects when both state the same quantity (the s47 breaker: "S1 says
#: in Glasgow the nightly hotel limit is £110 but S3 says Bristol"). A name opening the sentence alone may be the value
#: ("Facebook acquired ..." / "Apple acquired ..."), as is the owner of one duty or address ("The Parks team is
#: responsible for ..." / "The Finance team ...", "The Springfield office is at 50 Main Plaza" / "The Shelbyville
#: office ...").
_SUBJECT_OPENERS = frozenset("in at for the".split())

#: Kinds of value (grounding.values) two subjects may each have: amounts, percentages, durations, times and dates.
_SHAREABLE = ("amount:", "percent", "duration", "time", "date")


def _same_shared_quantity(ra: ClaimReading, rb: ClaimReading) -> bool:
    """True when both sentences state the same values, all of a kind two subjects may share (:data:`_SHAREABLE`)."""
    values = [(v.kind, v.text) for v in ra.values]
    return bool(values) and values == [(v.kind, v.text) for v in rb.values] \
        and all(kind.startswith(_SHAREABLE) for kind, _ in values)

#: Words that open a noun phrase: after a sentence's first word, they show it is a verb ("Submit the form", "Complete
#: a review"), not a name ("Apple acquired ...").
_DETERMINERS = frozenset("a an the your my our their his her its this that these those each every all any".split())


def _ends_in_function_word(span: Sequence[str]) -> bool:
    """True when a place of two words or more ends in a lower-case stop word ("Log *into*"): a name does not end so;
    at a line's opening its capital is the line's, and the place is a verb with its preposition (fresh41's f41-a05
    noted "Visit Concur at travel.gsa.gov" / "Log into Concur travel.gsa.gov" as a swapped name)."""
    return len(span) >= 2 and span[-1].islower() and span[-1] in STOP_WORDS


def _opens_clause_verb(text: str, marks: tuple, lower: tuple, i1: int, i2: int) -> bool:
    """True when the span of tokens ``i1:i2`` is one word opening a clause after a colon ("Adobe Creative Cloud:
    *Submit* a Software Request") followed by a determiner: capitalised because it opens the clause, a verb, not a
    name (fresh2's f2026 noted "S2 says Submit")."""
    return i2 - i1 == 1 and 0 < i1 and i2 < len(lower) and lower[i2] in _DETERMINERS \
        and ":" in text[marks[i1 - 1][1]:marks[i1][0]]


#: Determiners that make a subject a whole class ("All GSA employees", "Each Sketch plugin", "Any contractor").
_QUANTIFIERS = frozenset("all each every any".split())
#: What may stand before a sentence's subject: a connective adverb ("Otherwise, each Figma plugin ...").
_CONNECTIVES = frozenset("otherwise however also similarly likewise additionally then so and but".split())


def _quantified_subject(lower: tuple, i1: int) -> bool:
    """True when the swapped place at token ``i1`` stands right after a quantifier opening the sentence (after a
    connective adverb at most): the sentence states a rule of a whole class ("All TTSC staff are responsible for
    records management"), and the same rule of another class ("All GSA employees ...") does not contradict it. The
    issue's rule: different subjects are not a contradiction (fresh2's f2023 and fresh6's y6-003 had such
    notes)."""
    before = lower[:i1]
    while before and before[0] in _CONNECTIVES:
        before = before[1:]
    return len(before) == 1 and before[0] in _QUANTIFIERS


def _kept_within(a: Sequence[str], b: Sequence[str]) -> bool:
    """True when the words of one place (a possessive "'s" dropped) are all among the other's."""
    wa, wb = ({w.removesuffix("'s").removesuffix("’s") for w in x} for x in (a, b))
    return bool(wa) and bool(wb) and (wa <= wb or wb <= wa)


def _across_cells(text: str, marks: tuple, i1: int, i2: int) -> bool:
    """True when the tokens ``i1:i2`` (at least one) span a table's cell separator "|"."""
    return i2 > i1 and "|" in text[marks[i1][0]:marks[i2 - 1][1]]


def _labels(text: str, end: int) -> bool:
    """True when the text before ``end`` is a label: what follows it is ":" or a table cell separator "|"
    ("New York City: 18f-nyc@gsa.gov", "Chicago | 312-555-0100"): what the line is about, its subject; a label
    may close a bracket first ("Once a week (ideally): meet with your supervisor" / "Bi-weekly: Meet with your
    supervisor", two pages' schedules noted as disagreeing in fresh35's f35-u02 and two earlier development sets)."""
    return text[end:].lstrip(" )]")[:1] in (":", "|")
