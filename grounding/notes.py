"""The contradiction-note policy: which detected conflicts become context notes of an answer, and how notes follow
their sources when a plan is labelled again.

    conflicts (grounding.contradictions.detect_conflicts over the planned sources)
      -> relevant_notes(conflicts, query): only disagreements about what the question asks, each strong enough
      -> notes in the plan (counted in the token budget) -> relabel_notes when the re-made plan's labels moved
      -> answer_notes: the notes shown with an answer (an injection note only when the answer cites its source)

Pure functions over grounding types; no Django.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from grounding.clash import WEAK_RULES
from grounding.conflict import Conflict
from grounding.lexical import content_terms
from grounding.list_answers import COUNT_WORDS
from grounding.positional import POSITIONAL_RULES
from grounding.types import ContextPlan, Note
from grounding.values import value_keys

__all__ = ["GENERIC_TERMS", "NEGATION_NOTE_SIMILARITY", "NOTE_SIMILARITY", "UNNOTED_RULES", "VALUE_EDIT_SIMILARITY",
           "VALUE_RULES", "VERSION_NOTE_CLOSE", "VERSION_NOTE_RELEVANCE", "Concerns", "answer_notes", "changed_values",
           "concerns", "names_what_changed", "relabel_notes", "relevant_notes"]

#: Words that say how much or how often rather than what about ("days per year", "at any one time"): a note sharing
#: only these with the question is about something else (a meal allowance "per day" under a question on vacation
#: days per year).
GENERIC_TERMS = content_terms("per day days daily week weeks weekly month months monthly year years yearly annual "
                              "annually time times hour hours minute minutes many much get gets need needs one")

#: Aligned sentences of two different documents must be at least this similar for their clash to become a note. The
#: detector's own threshold (0.45) is tuned for recall on the public sets; on handbook text most clashes below 0.6
#: compare sentences about different things (measured on 20 demo-handbook questions: 15 of 20 notes false at 0.45,
#: 4 at 0.6). Two versions of one document are always compared.
NOTE_SIMILARITY = 0.6
#: A polarity clash between two different documents is the least reliable kind ("sick days do not carry over" vs
#: "you continue to accrue sick days" align at about 0.6 but do not contradict): it needs closer sentences.
NEGATION_NOTE_SIMILARITY = 0.75
#: Rules whose finding never becomes a note (grounding.clash.WEAK_RULES). A negation cue in one sentence only ("HR
#: Links is not connecting hours to your timesheet" / "check your hours before submitting your timesheet") finds
#: most of ConflictQA's opposed accounts, but on handbook pages it sets unrelated sentences against each other (14
#: of the 15 polarity notes over the 18F calibration questions; the true one, "GSA IT does not provide wireless
#: peripherals" / "GSA can also provide a wireless keyboard", negates a predicate the other page states). A value
#: matched on one neighbouring word, or on close sentences with one value each, set "4 hours of sick leave per pay
#: period" against "240 hours of advanced sick leave" and "14 pay periods left" against "26 pay periods".
UNNOTED_RULES = WEAK_RULES
#: A version note needs the question this close (cosine to the nearer of its two sentences): a revision changes many
#: sentences of a page, and a question about one of them ("How many credit hours can I bank?") is not about another
#: ("the maximum salary for overtime was $183,500"). On the 18F calibration questions the notes about what was asked
#: lie at 0.54 and above, the off-topic ones mostly below 0.45.
VERSION_NOTE_RELEVANCE = 0.45
#: ... and this close when it shares a single distinctive word with the question ("How much did mileage pay
#: previously?" / "reimburses mileage at $0.70 per mile").
VERSION_NOTE_CLOSE = 0.6
#: ... or, for a changed value, the two versions' sentences this close (the revision changed the value and kept the
#: sentence): one distinctive word of the question in a sentence whose value alone was edited names what was asked
#: ("What is the mileage rate?" / "reimburses mileage at $0.70 per mile", was $0.67: cosine 0.998, question 0.53).
VALUE_EDIT_SIMILARITY = 0.95
#: Rules that find a different value (as opposed to a different verdict: a negation or an antonym).
VALUE_RULES = frozenset({"value", "name", ""})


def _holds_number(text: str) -> bool:
    """True when ``text`` holds a digit (a number, an amount, a code such as "Code 51")."""
    return any(ch.isdigit() for ch in text)


def _distinctive(terms: frozenset[str]) -> frozenset[str]:
    """The question's content words other than GENERIC_TERMS (all of them when it has no other)."""
    return (terms - GENERIC_TERMS) or terms


class Concerns:
    """The test grounding.contradictions.detect_conflicts applies to an aligned sentence pair before its rules run:
    whether a conflict found on that pair could pass :func:`relevant_notes` for ``query``. Each condition is one that
    relevant_notes asks of every note of that kind, so a rejected pair could only yield a conflict relevant_notes
    drops, and the rules need not run on it (on the 18F handbook about 170 aligned pairs per question without it):

    - the pair's content words include a distinctive word of the question;
    - between two documents: they share at least two of the question's words (one for a one-word question), and the
      sentences are at least NOTE_SIMILARITY close (the least of the two thresholds);
    - between two versions of one document: they share two of the question's words, or the question is at least
      VERSION_NOTE_CLOSE close to one of the sentences.

    A query without content words concerns every pair.
    """

    def __init__(self, query: str) -> None:
        self.terms = content_terms(query)
        self.distinctive = _distinctive(self.terms)
        self.need = min(2, len(self.terms))

    def __call__(self, terms: frozenset[str], *, similarity: float, relevance: float, versions: bool) -> bool:
        """``terms``: the content words of both sentences together; ``similarity``: their cosine; ``relevance``: the
        question's cosine to the closer of the two (0 when unknown); ``versions``: the sentences come from two
        versions of one document."""
        if not self.terms:
            return True
        if self.distinctive.isdisjoint(terms):
            return False
        shared = len(self.terms & terms) >= self.need
        if versions:
            return shared or relevance >= VERSION_NOTE_CLOSE or similarity >= VALUE_EDIT_SIMILARITY
        return shared and similarity >= NOTE_SIMILARITY

    def many(self, terms: Sequence[frozenset[str]], a: np.ndarray, b: np.ndarray, *, similarity: np.ndarray,
             relevance: np.ndarray, versions: np.ndarray) -> np.ndarray:
        """The test of many sentence pairs at once, exactly as :meth:`__call__` on each: pair k joins sentences
        ``a[k]`` and ``b[k]`` (indices into ``terms``, each sentence's content words); ``similarity``, ``relevance``
        (float64) and ``versions`` (bool) are per pair. Returns bool (len(a),). Cost: one membership test per
        sentence and question word, then array operations (grounding.sentence_alignment calls it once per question
        on every aligned pair, about 200)."""
        if not self.terms:
            return np.ones(len(a), dtype=bool)
        asked = sorted(self.terms)
        holds = np.array([[t in words for t in asked] for words in terms], dtype=bool).reshape(len(terms), len(asked))
        distinct = np.array([not self.distinctive.isdisjoint(words) for words in terms], dtype=bool)
        shared = (holds[a] | holds[b]).sum(axis=1) >= self.need
        return (distinct[a] | distinct[b]) & np.where(
            versions, shared | (relevance >= VERSION_NOTE_CLOSE) | (similarity >= VALUE_EDIT_SIMILARITY),
            shared & (similarity >= NOTE_SIMILARITY))


def concerns(query: str) -> Concerns:
    """The :class:`Concerns` test of ``query``."""
    return Concerns(query)


def relevant_notes(conflicts: Sequence[Conflict], query: str,
                   headings: Mapping[str, str] | None = None) -> list[Note]:
    """Notes of the conflicts whose sentences share content words with the question (two, or one for a one-word
    question), at least one of them not among GENERIC_TERMS when the question has such words: a disagreement
    elsewhere in a source is not what the reader asked about. A version note also needs the question's cosine to
    its sentences (Conflict.relevance) at least VERSION_NOTE_RELEVANCE, and may share a single distinctive word
    when that cosine is at least VERSION_NOTE_CLOSE. A conflict between two documents also needs aligned
    sentences at least NOTE_SIMILARITY close (NEGATION_NOTE_SIMILARITY for a polarity clash); between two versions
    of one document (or, for a value the revision edited in a sentence it kept, VALUE_EDIT_SIMILARITY close
    sentences) a changed value needs no such closeness (a revision may reword the sentence it updates), a
    changed verdict needs NOTE_SIMILARITY; a reworded sentence needs the changed words themselves to share a
    distinctive word with the question ("Can I earn credit hours by staying late?" is not about "ask your supervisor"
    becoming "talk to your supervisor"), and a change holding no number the question's cosine at least
    VERSION_NOTE_CLOSE, unless both sides of the change hold a number (a reworded value). A swapped name below
    VERSION_NOTE_CLOSE needs the names themselves to share a distinctive word with the question. No conflict found
    by a rule of UNNOTED_RULES becomes a note.

    Args:
        conflicts: the detector's conflicts, in its order.
        query: the retrieval query (the question, with a follow-up's borrowed words).
        headings: each source label's title and section ("Meeting Room Booking Booking rules"), read with its
            sentence where a loose value match must name the question's words (:func:`firm_loose_value`).
    Returns:
        the kept conflicts' notes (kind, labels, text), in the conflicts' order.
    """
    terms = content_terms(query)
    distinctive = _distinctive(terms)
    need = min(2, len(terms))

    def shared(c: Conflict) -> frozenset[str]:
        return terms & (content_terms(c.sentences[0]) | content_terms(c.sentences[1]))

    def close_enough(c: Conflict) -> bool:
        if c.kind == "version_superseded":  # a changed value is what a revision does; a changed verdict needs
            return c.rule in VALUE_RULES | POSITIONAL_RULES or c.similarity >= NOTE_SIMILARITY  # the edited
            # sentence to stay close, unless it stands in the place of the old one (grounding.positional)
        return c.similarity >= (NEGATION_NOTE_SIMILARITY if c.kind == "negation" else NOTE_SIMILARITY)

    def about_the_question(c: Conflict) -> bool:
        common = shared(c)
        if not common & distinctive:
            return False
        if c.kind != "version_superseded" or not c.relevance:  # no question cosine: the words alone decide
            return len(common) >= need
        edited = c.rule in VALUE_RULES and c.similarity >= VALUE_EDIT_SIMILARITY
        if c.relevance < VERSION_NOTE_RELEVANCE or (len(common) < need and c.relevance < VERSION_NOTE_CLOSE
                                                    and not edited):
            return False
        if c.rule == "name" and c.relevance < VERSION_NOTE_CLOSE:
            # a swapped name the question does not name, on a sentence it is not close to: a renaming elsewhere in
            # the asked passage ("your 18F accounts" / "your TTS accounts" under "Is 1Password approved?")
            return bool(distinctive & (content_terms(c.values[0]) | content_terms(c.values[1])))
        if c.rule == "list":  # the items added or removed name what was asked
            return bool(distinctive & (content_terms(c.values[0]) | content_terms(c.values[1])))
        if c.rule in ("reworded", "rewritten") and not all(map(_holds_number, c.values)):
            # the words a revision changed, not only their sentence, concern the question; a change without any
            # number (a negation, a condition) also needs the question close to the sentence ("come out of my annual
            # leave" is not about comp time "paid out" when you leave, at cosine 0.49); a number changed on both sides
            # ("up to 56" / "the 80 maximum") is a changed value of the sentence asked about, as for VALUE_RULES
            if not any(map(_holds_number, c.values)) and c.relevance < VERSION_NOTE_CLOSE:
                return False
            return bool(distinctive & (content_terms(c.values[0]) | content_terms(c.values[1])))
        return True

    return [c.as_note() for c in conflicts
            if (c.rule not in UNNOTED_RULES or firm_loose_value(c, distinctive, headings)) and close_enough(c)
            and about_the_question(c)]


def firm_loose_value(c: Conflict, distinctive: frozenset[str], headings: Mapping[str, str] | None = None) -> bool:
    """True for a value matched loosely (grounding.clash's "loose value", one of WEAK_RULES) that is a note all the
    same: two documents' sentences at least NEGATION_NOTE_SIMILARITY close, both naming two or more of the question's
    distinctive words (``distinctive``), stating values of one unit ("within 30 days of returning from a trip" /
    "You have 60 days after you get back to submit your expense report" for "When are expense reports due?": two
    pages disagreeing, no note, the s46 breaker). The loose matches that made the rule unnoted ("4 hours of sick
    leave per pay period" / "240 hours of advanced sick leave") are further apart or name less of the question. A
    sentence names what its source's title and section (``headings``, by label) name: "A single booking may last at
    most 4 hours" under "Meeting Room Booking > Booking rules" is said of meeting rooms (the s48 new-user run's two
    pages, 4 hours and 2, got no note)."""
    if c.kind != "value_mismatch" or c.rule != "loose value" or c.similarity < NEGATION_NOTE_SIMILARITY:
        return False
    headings = headings or {}
    both = distinctive & (content_terms(c.sentences[0]) | content_terms(headings.get(c.labels[0], ""))) \
        & (content_terms(c.sentences[1]) | content_terms(headings.get(c.labels[1], "")))
    units = [_unit(v) for v in c.values]
    return len(both) >= 2 and bool(units[0]) and units[0] == units[1]


#: A number or a count word, and the words after a value's number that are not its unit.
_NUMBER = re.compile(rf"[\d.,]+|\b(?:{'|'.join(w for w, n in COUNT_WORDS.items() if n)})\b", re.I)


def _unit(value: str) -> str:
    """A value's unit: its words without the number ("30 days" and "three days" -> "days", "$65" -> "$"); "" when
    the value has no number."""
    if not _NUMBER.search(value):
        return ""
    return " ".join(_NUMBER.sub(" ", value.lower()).split())


def relabel_notes(notes: Sequence[Note], old: ContextPlan, new: ContextPlan) -> list[Note]:
    """Notes of ``old``'s labels expressed in ``new``'s labels (through the chunks the labels stand for); a note whose
    sources are not both in ``new`` is dropped. The labels named in the note's text are renamed too."""
    to_chunk = {s.label: s.chunk_id for s in old.sources}
    to_label = {s.chunk_id: s.label for s in new.sources}
    out = []
    for note in notes:
        mapping = {lab: to_label.get(to_chunk.get(lab, -1)) for lab in note.labels}
        if not all(mapping.values()):
            continue
        text = re.sub(r"\bS\d{1,3}\b", lambda m: mapping.get(m.group(0), m.group(0)), note.text)
        out.append(replace(note, labels=tuple(mapping[lab] for lab in note.labels), text=text))
    return out


#: What a note's text says of its sources rather than of its subject: their labels and the dates of their versions
#: ("S1 (2025-01-01) says ... but S2 (2024-01-01, superseded) says ...").
_NOTE_FRAME = re.compile(r"\bS\d{1,3}\b|\((?:\d{4}-\d{2}-\d{2}|undated)[^)]*\)")
#: A sentence a note quotes ("S1 says "if you leave GSA, your comp time will be paid out" but ..."), at least 20
#: characters, maybe cut with an ellipsis.
_QUOTED = re.compile(r"\"([^\"]{20,}?)…?\"")


def concerns_answer(note: str, answer: str) -> bool:
    """True when a contradiction or version note (its text) is about what ``answer`` (its text, or the sentences it
    quotes) says: the note states no value, or the answer states one of the note's values (grounding.values.
    value_keys; the sources' labels and version dates in the note are not values) or quotes a sentence the note
    quotes (its first 40 characters, case and an opening "…" aside). Only the values that changed count
    (:func:`changed_values`): an answer stating the "15 paid days" both sides of the military leave code's revision
    state is not about the code (calibration q114, q209). A page's revision of another of its rules ("Submit expense
    reports within 30 days" / 45 days, under an answer on when Finance reimburses: the demo handbook; the military
    leave code's revision under an answer on relocation leave: calibration q007) is not about the answer."""
    keys = changed_values(note)
    if not keys or keys & value_keys(answer):
        return True
    said = " ".join(answer.lower().split())
    return any(" ".join(q.lstrip("…").lower().split())[:40] in said for q in _QUOTED.findall(note))


#: A word as names are written: letters and digits run together ("1Password", "18F", "KeePassXC").
_WORD = re.compile(r"[^\W_]+")


def names_what_changed(note: str, question: str, answer: str) -> bool:
    """True when the question names something (a word after its first that is capitalised or has a capital inside:
    "1Password", "Google Sheets") that a version note's text states and the answer does not: the question asks
    about what a revision rewrote or removed ("Is 1Password one of our approved password managers?" under a note
    that "1Password and KeePassX are password managers approved" became "We recommend using KeePassXC"), and the
    note is the answer's word on it."""
    names = {w.lower() for k, w in enumerate(_WORD.findall(question))
             if k and (w[:1].isupper() or any(ch.isupper() for ch in w[1:]))}
    said = {w.lower() for w in _WORD.findall(answer)}
    stated = {w.lower() for w in _WORD.findall(_NOTE_FRAME.sub(" ", note))}
    return bool((names & stated) - said)


#: Where a note's second side starts ("... but S2 (2024-01-01, superseded) says ...").
_SECOND_SIDE = re.compile(r"\bbut (?=S\d{1,3}\b)")


def changed_values(note: str) -> frozenset:
    """The values (grounding.values.value_keys) a note's text gives on one side only: what changed between its two
    sentences ("Code 51" / "Code 50", not the "15 paid days" both sentences state), else every value it states (a
    note with one side, or with the same values on both). The sources' labels and version dates are not values."""
    sides = _SECOND_SIDE.split(note, maxsplit=1)
    keys = value_keys(_NOTE_FRAME.sub(" ", note))
    if len(sides) == 2:
        first, second = (value_keys(_NOTE_FRAME.sub(" ", side)) for side in sides)
        return frozenset(first ^ second) or frozenset(keys)
    return frozenset(keys)


def answer_notes(notes: Sequence[Mapping[str, Any]], cited: Iterable[str], answer: str = ""
                 ) -> list[Mapping[str, Any]]:
    """The notes shown with an answer, from its plan's notes (JSON form: ``kind``, ``labels``, ``text``) and the
    labels the answer cites.

    An injection note (kind "injection": a passage of that source addressed to an AI assistant was withheld) is about
    what the answer read: it is shown only when the answer cites a source it names. A planned source the answer does
    not use (or a refusal, which cites none) does not concern the reader, and the note on every such answer read as
    if the answer had been tampered with. The plan keeps every note (the model is given them; the plan frame and the
    trace record them); contradiction and version notes chosen for the question (relevant_notes) are shown when
    they concern what the answer says (:func:`concerns_answer` on ``answer``, its text; all of them when it is
    empty).
    """
    used = set(cited)
    return [n for n in notes if (used & set(n.get("labels", ())) if n.get("kind") == "injection"
                                 else not answer or concerns_answer(str(n.get("text", "")), answer))]
