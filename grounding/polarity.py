"""Polarity rules on two aligned sentences [18.8]: a negated predicate the other sentence states plainly, an antonym,
a negation cue on one side only.

    negated_predicate("Contractors may not use the lounge.", "Contractors may use the lounge.") -> ("not", "affirmative")
    antonym("Pets are allowed.", "Pets are prohibited.") -> ("allowed", "prohibited")
    cue_asymmetry(...)  the sentence-level polarity feature; loose, see grounding.clash.WEAK_RULES

Technique: the polarity and antonymy features of de Marneffe, Rafferty and Manning 2008 ("Finding Contradictions in
Text", ACL) on aligned sentences; negation cues are grounding.lexical's. No Django imports.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from dataclasses import dataclass
from typing import Sequence

from grounding.lexical import STOP_WORDS, is_negation, negation_cues, normalise_negation, stem, tokens

__all__ = ["Reading", "antonym", "antonym_read", "cue_asymmetry", "cue_asymmetry_read", "negated_predicate",
           "negated_only_in_case", "negated_predicate_read", "polarity_reading", "reading_of"]

#: Opposite pairs. Words of position and sequence ("above" / "below", "before" / "after", "first" / "last") are
#: left out: in procedures they point at other steps ("follow the steps above" / "the steps below") far more often
#: than they oppose two claims.
_ANTONYMS = [
    ("allow", "prohibit"), ("allow", "forbid"), ("allow", "ban"), ("permit", "prohibit"), ("permit", "forbid"),
    ("permitted", "prohibited"), ("allowed", "prohibited"), ("allowed", "forbidden"), ("required", "optional"),
    ("mandatory", "optional"), ("must", "optional"), ("include", "exclude"), ("included", "excluded"),
    ("accept", "reject"), ("approve", "deny"), ("approve", "reject"), ("approved", "denied"),
    ("approved", "rejected"), ("increase", "decrease"), ("increase", "reduce"), ("increased", "decreased"),
    ("rise", "fall"), ("gain", "loss"), ("more", "less"), ("more", "fewer"), ("higher", "lower"),
    ("larger", "smaller"), ("bigger", "smaller"), ("greater", "smaller"), ("greater", "less"), ("older", "younger"),
    ("faster", "slower"), ("true", "false"), ("always", "never"), ("same", "different"), ("similar", "different"),
    ("present", "absent"), ("alive", "dead"), ("win", "lose"), ("won", "lost"), ("success", "failure"),
    ("succeed", "fail"), ("positive", "negative"), ("open", "closed"), ("enabled", "disabled"),
    ("eligible", "ineligible"), ("legal", "illegal"), ("safe", "dangerous"), ("safe", "unsafe"),
    ("possible", "impossible"), ("likely", "unlikely"), ("common", "rare"), ("full", "partial"),
    ("paid", "unpaid"), ("paid", "forfeited"), ("public", "private"), ("internal", "external"), ("minimum", "maximum"),
    ("strong", "weak"), ("stronger", "weaker"), ("easy", "difficult"), ("easier", "harder"), ("cheap", "expensive"),
    ("cheaper", "costlier"), ("native", "foreign"), ("natural", "artificial"), ("wild", "domesticated"),
]
_ANTONYM_OF: dict[str, set[str]] = {}
for _x, _y in _ANTONYMS:
    _ANTONYM_OF.setdefault(_x, set()).add(_y)
    _ANTONYM_OF.setdefault(_y, set()).add(_x)
_NEG_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "non-")
#: Words skipped between a negation cue and the predicate it negates ("is not a", "may not be as").
_SCOPE_SKIP = frozenset("a an the be been being as so very quite really yet always necessarily entirely all "
                        "that this to have has had do does did any much many more".split())


def _negated_words(words: list[str]) -> dict[str, str]:
    """Stem of each predicate a negation cue governs -> the cue ("not", "never", "n't", "without", "no").

    Technique: the polarity feature of de Marneffe et al. 2008 on the aligned predicate; the scope is the first
    content word within three words after the cue (grounding.lexical.is_negation decides what a cue is).
    """
    out: dict[str, str] = {}
    for i, w in enumerate(words):
        if not is_negation(w):
            continue
        cue = "n't" if w.endswith("n't") else w
        if cue in ("nor", "neither"):
            continue
        for nxt in words[i + 1: i + 4]:
            if nxt in _SCOPE_SKIP or is_negation(nxt):
                continue
            out.setdefault(stem(nxt), cue)
            break
    return out


def cue_asymmetry(a: str, b: str) -> tuple[str, str] | None:
    """(polarity of a, polarity of b) when exactly one of two aligned sentences is negated, about what the other
    says, else None.

    The polarity feature of de Marneffe et al. 2008 at sentence level ("negation cue in one and not the other",
    grounding.lexical.negation_cues), kept only when the negated clause (up to six words after the first cue, stop
    words aside) shares a content word with the other sentence: "Amazon would not be able to afford the Mona Lisa"
    / "Amazon could afford the Mona Lisa", but not "Hours not available" / "a historic home in Exton".
    """
    return cue_asymmetry_read((negation_cues(a), negation_cues(b)), (_reading(a), _reading(b)),
                              (tuple(w for w, _, _ in tokens(a)), tuple(w for w, _, _ in tokens(b))))


def cue_asymmetry_read(cues: tuple[int, int], readings: tuple["Reading", "Reading"],
                       words: tuple[Sequence[str], Sequence[str]]) -> tuple[str, str] | None:
    """:func:`cue_asymmetry` of two sentences from what is read of them: their negation cue counts
    (grounding.lexical.negation_cues), their :class:`Reading`s and their lower-cased tokens (grounding.lexical.tokens,
    without offsets)."""
    na, nb = cues
    if (na > 0) == (nb > 0):
        return None
    negated, other = (readings[1], words[0]) if nb else (readings[0], words[1])
    said = negated.words
    first = next((i for i, w in enumerate(said) if is_negation(w)), None)
    if first is None:
        return None
    clause = {stem(w) for w in said[first + 1:first + 7] if w not in STOP_WORDS and not is_negation(w)}
    if not clause & {stem(w) for w in other if w not in STOP_WORDS}:
        return None
    cue = "n't" if said[first].endswith("n't") else said[first]
    return ("affirmative", cue) if nb else (cue, "affirmative")


@dataclass(frozen=True, eq=False)
class Reading:
    """What the polarity rules read of one sentence (made once per sentence: cached from its text, or stored at
    ingestion, grounding.claim_readings).

    Attributes:
        words: lower-cased tokens of the sentence with negation normalised (normalise_negation).
        negated: stem of each negated predicate -> its cue (_negated_words).
        plain: stems the sentence states un-negated (at least once more than it negates them).
    """

    words: tuple[str, ...]
    negated: Mapping[str, str]
    plain: frozenset[str]

    @functools.cached_property
    def word_set(self) -> frozenset[str]:
        """The set of ``words``."""
        return frozenset(self.words)

    @functools.cached_property
    def opposed(self) -> frozenset[str]:
        """Every word that would oppose one of ``words`` (antonyms, negative-prefixed forms and their roots)."""
        opposed: set[str] = set()
        for w in self.word_set:
            opposed.update(_ANTONYM_OF.get(w, ()))
            if len(w) >= 5:
                opposed.update(p + w for p in _NEG_PREFIXES)
            opposed.update(w[len(p):] for p in _NEG_PREFIXES if w.startswith(p) and len(w) - len(p) >= 5)
        return frozenset(opposed)


def reading_of(words: Sequence[str], negated: Mapping[str, str], plain: frozenset[str]) -> Reading:
    """A :class:`Reading` from its stored parts (grounding.claim_readings)."""
    return Reading(tuple(words), MappingProxyType(dict(negated)), frozenset(plain))


@functools.lru_cache(maxsize=20_000)
def _reading(sentence: str) -> Reading:
    words = tuple(w for w, _, _ in tokens(normalise_negation(sentence)))
    negated = _negated_words(list(words))
    stated = [stem(w) for w in words]
    plain = frozenset(w for w in stated if stated.count(w) > (w in negated))
    return Reading(words, MappingProxyType(negated), plain)


def polarity_reading(sentence: str) -> Reading:
    """The :class:`Reading` of a sentence (cached per sentence)."""
    return _reading(sentence)


def negated_predicate(a: str, b: str) -> tuple[str, str] | None:
    """(polarity of a, polarity of b) when a predicate negated in one sentence appears un-negated in the other ("may
    not use" / "may use"), else None."""
    return negated_predicate_read(_reading(a), _reading(b))


def negated_predicate_read(ra: Reading, rb: Reading) -> tuple[str, str] | None:
    """:func:`negated_predicate` of two sentences' :class:`Reading`s."""
    neg_a, neg_b = ra.negated, rb.negated
    # stems a sentence states un-negated; a predicate a sentence states both plainly and negated ("Use or Lose ...
    # if you do not use"), or that both sentences negate, is no verdict
    plain_a, plain_b = ra.plain, rb.plain
    for negated, cue in neg_b.items():
        if negated in plain_a and negated not in neg_a and negated not in plain_b and negated not in STOP_WORDS:
            return "affirmative", cue
    for negated, cue in neg_a.items():
        if negated in plain_b and negated not in neg_b and negated not in plain_a and negated not in STOP_WORDS:
            return cue, "affirmative"
    return None


def antonym(a: str, b: str) -> tuple[str, str] | None:
    """(word of a, word of b) when each sentence holds one side of an antonym pair the other lacks ("allowed" /
    "prohibited"), or a word and its negative-prefixed form ("similar" / "dissimilar"), else None. A pair is not
    opposed when a sentence also names the other side in another form ("Private channel content can be publicly
    published" / "The public can request copies": "publicly" and "public" share their stem)."""
    return antonym_read(_reading(a), _reading(b))


def antonym_read(ra: Reading, rb: Reading) -> tuple[str, str] | None:
    """:func:`antonym` of two sentences' :class:`Reading`s."""
    if ra.opposed.isdisjoint(rb.word_set):  # no word of b opposes a word of a: most aligned pairs
        return None
    set_a, set_b = ra.word_set, rb.word_set
    only_a, only_b = set_a - set_b, set_b - set_a
    stems_a = stems_b = None
    for w in sorted(only_a):
        for other in sorted(_ANTONYM_OF.get(w, ())):
            if other in only_b:
                if stems_a is None:
                    stems_a, stems_b = {stem(x) for x in set_a}, {stem(x) for x in set_b}
                if stem(other) in stems_a or stem(w) in stems_b:
                    continue  # a sentence naming both sides ("private channel content can be publicly published")
                return w, other
        for p in _NEG_PREFIXES:
            if len(w) >= 5 and p + w in only_b and not _privative_before(ra.words, w):
                return w, p + w
            if w.startswith(p) and len(w) - len(p) >= 5 and w[len(p):] in only_b \
                    and not _privative_before(rb.words, w[len(p):]):
                return w, w[len(p):]
    return None


#: Words that deny what follows them without a negation cue ("outside of a dedicated workspace" is a non-workspace).
_PRIVATIVE = frozenset("outside without beyond other except away".split())


def _privative_before(words: Sequence[str], word: str, reach: int = 4) -> bool:
    """True when every use of ``word`` in ``words`` has a privative word (:data:`_PRIVATIVE`) within ``reach`` words
    before it: "from transit or outside of a dedicated workspace" says what "from a non-workspace" says (fresh8's
    y8-008 noted them as opposed)."""
    at = [i for i, w in enumerate(words) if w == word]
    return bool(at) and all(any(x in _PRIVATIVE for x in words[max(0, i - reach):i]) for i in at)


#: A leading condition, after a bullet or a label ("*Note: If you don't have a travel card yet, ...", "Note, if you
#: haven't yet started ...:"), or a leading phrase naming the cases a rule is for ("For all requests that are not
#: interviews, ..."), up to its comma, semicolon or colon.
_LEADING_CONDITION = re.compile(r"^[\W_]*(?:(?:please\s+)?(?:note|important|tip)\s*[:,\-–—]\s*)?"
                                r"(?:if|when|whenever|unless|once|until|for\s+(?:all|any|every|each))\b[^,;:]*[,;:]",
                                re.I)


def negated_only_in_case(sentence: str) -> bool:
    """True when every negation cue of ``sentence`` stands in its leading condition ("If the software is not already
    approved, submit a Software Review Request", "For all requests that are not interviews, forward ..."): the
    sentence states what holds in a case, and denies nothing a plain sentence affirms ("GSA has a list of approved
    software"). Such a pair is no polarity clash (fresh6's y6-011, fresh5's y5-011, fresh15's f15-m01 and the
    development set's d037 had such notes). A negated relative clause elsewhere was tried too: on ConflictQA's
    calibration half it carries the claim as often as not ("carrots, which are not root vegetables")."""
    m = _LEADING_CONDITION.match(sentence)
    return bool(m) and negation_cues(m.group(0)) > 0 and negation_cues(sentence[m.end():]) == 0


#: A negation whose clause goes on to "until" or "till" before any clause punctuation: "does not ticket until 72 hours
#: before departure" says when it happens, not that it does not.
_NOT_UNTIL = re.compile(r"[^,;:.!?]*?\b(?:until|till)\b", re.I)


def negated_only_until(sentence: str) -> bool:
    """True when every negation cue of ``sentence`` is followed in its clause by "until" ("government contract airfare
    does not ticket until 72 hours before departure", "you won't be charged until the trip is booked"): the
    sentence says when the thing happens, and denies nothing a sentence saying that it happens affirms (the
    temporal reading of "not ... until", Karttunen 1974, "Until", CLS 10; the 18F development comparisons' cd018
    noted it against "ticketing usually occurs approximately 48-72 hours before departure")."""
    text = normalise_negation(sentence)
    ends = [end for word, _, end in tokens(text) if is_negation(word)]
    return bool(ends) and len(ends) == negation_cues(text) and all(_NOT_UNTIL.match(text, end) for end in ends)
