"""What the contradiction rules read of one sentence (a claim), made once at ingestion and stored with its chunk
(issue 20 point 3): an ask reads it instead of tokenising, extracting values and finding negations again.

    reading(sentence) -> ClaimReading       made from the text (cached per sentence)
    reading_row(sentence) -> dict           the same, JSON-ready, as ingestion stores it per claim
    from_row(sentence, row) -> ClaimReading read back at ask time (no regular expression runs)

A reading holds every per-sentence fact grounding.clash and grounding.contradictions need; each equals what the
function named below gives for the sentence, so the rules find the same on a stored reading as on the text:

    tokens   lower-cased TOKENs of the accent-folded sentence, repeats kept (grounding.alignment.token_set is their set,
             grounding.name_swap.substitution counts them)
    words    lower-cased TOKENs of the NFKC-folded sentence (grounding.lexical.tokens): its length against
             grounding.clash.MAX_CLAIM_WORDS, the other side of grounding.polarity.cue_asymmetry
    terms    grounding.lexical.content_terms (the question's words a pair shares: grounding.notes.Concerns)
    values   grounding.values.typed_values
    cues     grounding.lexical.negation_cues
    polarity grounding.polarity's reading: the negation-normalised words, each negated predicate's stem and cue, the
             stems stated plainly

No Django imports.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from typing import Any, Callable, Mapping, Sequence

from grounding.alignment import token_codes
from grounding.lexical import TOKEN, content_terms, fold_accents, negation_cues, tokens
from grounding.polarity import Reading, polarity_reading, reading_of
from grounding.values import StatedValue, typed_values

__all__ = ["READINGS_VERSION", "ClaimReading", "from_row", "known_readings", "reading", "reading_row",
           "readings_of_rows", "stored_readings", "stored_rows"]

#: The version of what a stored reading holds, counted up when a rule's reading of a sentence changes (a field
#: added, or grounding.values, grounding.lexical or grounding.polarity reading a sentence differently): a chunk's
#: readings of another version are made again when its domain is indexed (knowledge.indexing), and an index of
#: another version is built again when a worker starts.
READINGS_VERSION = 1


class ClaimReading:
    """What the rules read of one sentence (see the module docstring for what each part equals), each part read when
    first asked for: from the stored row when there is one (no regular expression runs), else from the text. A
    sentence that meets no other in an aligned pair is never read beyond its tokens and content words.

    Attributes:
        text: the sentence.
        tokens: lower-cased TOKENs of ``fold_accents(text)``, in order, repeats kept.
        words: lower-cased TOKENs of the NFKC-folded text (grounding.lexical.tokens, without offsets).
        terms: stemmed content words (grounding.lexical.content_terms).
        values: stated values (grounding.values.typed_values).
        cues: number of negation cues (grounding.lexical.negation_cues, >= 0).
        polarity: grounding.polarity.Reading of the text.
        token_set, counts, value_keys: the set of ``tokens``, their counts (a shared Counter: never change it), and
            grounding.values.value_keys of the text.
        token_codes: ``token_set`` as grounding.alignment.token_codes (what lexical alignment counts with).
    """

    def __init__(self, text: str, row: Mapping[str, Any] | None = None) -> None:
        self.text = text
        self._row = row

    def __eq__(self, other: object) -> bool:
        """Readings of one text are equal, whichever way they were read (the same parts, by construction)."""
        return isinstance(other, ClaimReading) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __getattr__(self, name: str) -> Any:
        """A part not read yet: read it (from the row, else the text) and keep it as an attribute, so the next
        access is a plain attribute lookup (functools.cached_property takes a lock on every first access)."""
        part = _PARTS.get(name)
        if part is None:
            raise AttributeError(name)
        value = part(self) if self._row is None else part.stored(self, self._row)
        setattr(self, name, value)
        return value


class _Part:
    """How one part of a ClaimReading is read: ``made(reading)`` from the text, ``stored(reading, row)`` from the
    stored row."""

    def __init__(self, made, stored) -> None:
        self.made, self.stored = made, stored

    def __call__(self, r: ClaimReading) -> Any:
        return self.made(r)


def _words_stored(r: ClaimReading, row: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(row["k"]) if "k" in row else r.tokens


def _polarity_stored(r: ClaimReading, row: Mapping[str, Any]) -> Reading:
    said = tuple(row["w"]) if "w" in row else r.words
    return reading_of(said, row.get("g", {}), frozenset(row.get("p", ())))


def _tokens_made(r: ClaimReading) -> tuple[str, ...]:
    return tuple(t.lower() for t in TOKEN.findall(fold_accents(r.text)))


_PARTS: dict[str, _Part] = {
    "tokens": _Part(_tokens_made, lambda r, row: tuple(row["t"])),
    "words": _Part(lambda r: tuple(w for w, _, _ in tokens(r.text)), _words_stored),
    "terms": _Part(lambda r: content_terms(r.text), lambda r, row: frozenset(row.get("c", ()))),
    "values": _Part(lambda r: typed_values(r.text), lambda r, row: tuple(_value_of(v) for v in row.get("v", ()))),
    "cues": _Part(lambda r: negation_cues(r.text), lambda r, row: int(row.get("q", 0))),
    "polarity": _Part(lambda r: polarity_reading(r.text), _polarity_stored),
    # derived from the parts above, the same way whichever way those were read
    "token_set": _Part(lambda r: frozenset(r.tokens), lambda r, row: frozenset(r.tokens)),
    "counts": _Part(lambda r: Counter(r.tokens), lambda r, row: Counter(r.tokens)),
    "token_codes": _Part(lambda r: token_codes(r.token_set), lambda r, row: token_codes(r.token_set)),
    "value_keys": _Part(lambda r: frozenset(k for v in r.values for k in v.keys),
                        lambda r, row: frozenset(k for v in r.values for k in v.keys)),
}


@functools.lru_cache(maxsize=20_000)
def reading(sentence: str) -> ClaimReading:
    """The reading of a sentence made from its text, each part when first asked for (cached: a sentence split at ask
    time meets many others)."""
    return ClaimReading(sentence)


# --- storing ------------------------------------------------------------------------------------------------------

_VALUE_FIELDS = ("kind", "number", "date", "precision", "text", "hedged", "context", "rate", "keys", "span", "clause",
                 "sides")


def _value_row(v: StatedValue) -> list:
    return [v.kind, v.number, list(v.date) if v.date is not None else None, v.precision, v.text, v.hedged,
            sorted(v.context), v.rate, list(v.keys), list(v.span), list(v.clause), list(v.sides)]


def _value_of(row: Sequence) -> StatedValue:
    kind, number, date, precision, text, hedged, context, rate, keys, span, clause, sides = row
    return StatedValue(kind, float(number), tuple(date) if date is not None else None, float(precision), text,
                       bool(hedged), frozenset(context), rate, tuple(keys), tuple(span), tuple(clause), tuple(sides))


def reading_row(sentence: str) -> dict[str, Any]:
    """The reading of a sentence as ingestion stores it: a JSON-ready dict with short keys, empty parts left out
    ("t" tokens, "k" words when they differ from the tokens, "c" terms, "v" values as lists of StatedValue's
    fields in order, "q" cues, "w" the polarity words when they differ from the words, "g" negated stem -> cue,
    "p" plainly stated stems). Floats round-trip exactly through JSON."""
    r = reading(sentence)
    row: dict[str, Any] = {"t": list(r.tokens)}
    if r.words != r.tokens:
        row["k"] = list(r.words)
    if r.terms:
        row["c"] = sorted(r.terms)
    if r.values:
        row["v"] = [_value_row(v) for v in r.values]
    if r.cues:
        row["q"] = r.cues
    if r.polarity.words != r.words:
        row["w"] = list(r.polarity.words)
    if r.polarity.negated:
        row["g"] = dict(r.polarity.negated)
    if r.polarity.plain:
        row["p"] = sorted(r.polarity.plain)
    return row


def from_row(sentence: str, row: Mapping[str, Any]) -> ClaimReading:
    """The reading of ``sentence`` from what :func:`reading_row` stored for it (its dict, parsed from JSON); each
    part is read from the row when first asked for.

    Raises:
        KeyError: (when its tokens are first read) the row has no tokens ("t").
    """
    return ClaimReading(sentence, row)


def readings_of_rows(sentences: Sequence[str], rows: Sequence[Mapping[str, Any]] | None) -> dict[str, ClaimReading]:
    """sentence -> reading for a chunk's stored claims and their stored rows (in the same order); {} when no rows
    were stored or they do not match the sentences in number."""
    if not rows or len(rows) != len(sentences):
        return {}
    return {s: from_row(s, row) for s, row in zip(sentences, rows)}


def stored_readings(sentences: Sequence[str]) -> dict[str, Any]:
    """What ingestion stores of a chunk's claims: {"version": READINGS_VERSION, "rows": one :func:`reading_row` per
    sentence, in order}."""
    return {"version": READINGS_VERSION, "rows": [reading_row(s) for s in sentences]}


def stored_rows(stored: Any, sentences: Sequence[str]) -> list[dict[str, Any]] | None:
    """The rows of what :func:`stored_readings` made, when they are of this READINGS_VERSION and one per sentence
    of ``sentences``; else None (make them again)."""
    if not isinstance(stored, dict) or stored.get("version") != READINGS_VERSION:
        return None
    rows = stored.get("rows")
    return rows if isinstance(rows, list) and len(rows) == len(sentences) else None


#: Stored readings kept for the process (the most recent): a sentence planned again on a later ask reuses the parts
#: read then, as the rules' caches did for readings made from the text.
KEPT = 20_000
_kept: dict[str, ClaimReading] = {}
_kept_lock = threading.Lock()


def known_readings(sentences: Sequence[str], rows: Callable[[], Sequence[Mapping[str, Any]] | None]
                   ) -> dict[str, ClaimReading]:
    """:func:`readings_of_rows` of a chunk's stored claims, reusing the readings of sentences read on an earlier ask
    (the KEPT most recent); ``rows()`` (the chunk's stored rows, parsed) is called only when a sentence is new."""
    with _kept_lock:
        found = {s: _kept[s] for s in sentences if s in _kept}
    if len(found) == len(set(sentences)):
        return found
    made = readings_of_rows(sentences, rows())
    with _kept_lock:
        for s, r in made.items():
            found.setdefault(s, r)
            _kept[s] = found[s]
        while len(_kept) > KEPT:
            del _kept[next(iter(_kept))]
    return found
