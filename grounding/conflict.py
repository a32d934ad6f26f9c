"""A contradiction between two planned sources, and the one sentence that tells it: the Conflict type and the
note's wording [18.8].

    Conflict(labels=("S1", "S3"), kind="version_superseded", values=("$65", "$50"), ...)
    note_text(first, second, finding, sa, sb)
        -> "S1 (2025-03-01) says the daily meal allowance is $65 but S3 (2024-01-15, superseded) says $50."

grounding.contradictions finds conflicts; grounding.notes decides which become notes. No Django imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Literal

from grounding.alignment import token_set
from grounding.chunking import split_sentences
from grounding.clash import Finding
from grounding.lexical import STOP_WORDS
from grounding.types import Note, Source
from grounding.values import value_keys

__all__ = ["Conflict", "ConflictKind", "disputed", "newer_first", "note_text", "past_common_start", "recency"]

ConflictKind = Literal["value_mismatch", "negation", "version_superseded", "judged"]


@dataclass(frozen=True)
class Conflict:
    """A contradiction between two labelled sources.

    Attributes:
        labels: the two source labels, the newer (or current) source first when dates or statuses tell, else in
            label order.
        kind: "value_mismatch", "negation", "version_superseded" (two versions of one document, one of them
            superseded) or "judged" (an LLM judge's finding).
        text: one sentence for the reader and the model naming both labels and the differing values ("S1
            (2025-03-01) says the daily meal allowance is $65 but S3 (2024-01-15, superseded) says $50.").
        sentences: the two aligned sentences, in ``labels`` order.
        values: the differing values in ``labels`` order ("$65", "$50"); for a polarity clash the polarity of each
            side ("affirmative" or the negation cue, or the two antonyms); ("", "") for a judged conflict.
        similarity: cosine of the aligned sentences (the conflict's strength).
        rule: the rule that found it (grounding.clash.Finding.rule: "value", "loose value", "name", "predicate",
            "antonym", "cue", "reworded", "judged"), "" when unknown.
        relevance: the larger cosine between the question (``focus``) and either sentence; 0.0 without a question.
    """

    labels: tuple[str, str]
    kind: ConflictKind
    text: str
    sentences: tuple[str, str]
    values: tuple[str, str]
    similarity: float = 0.0
    rule: str = ""
    relevance: float = 0.0

    def __post_init__(self) -> None:
        if len(self.labels) != 2 or self.labels[0] == self.labels[1]:
            raise ValueError(f"a conflict needs two different labels, got {self.labels!r}")
        if self.kind not in ("value_mismatch", "negation", "version_superseded", "judged"):
            raise ValueError(f"unknown conflict kind {self.kind!r}")

    def as_note(self) -> Note:
        """The context note for the prompt, the answer and ``ask --json`` (kind, labels, text)."""
        return Note(kind=self.kind, labels=self.labels, text=self.text)


def newer_first(s: Source, t: Source) -> tuple[Source, Source]:
    """Newer first: a current version before a superseded one, then the later date, then label order."""
    def key(x: Source) -> tuple:
        return (x.status == "superseded", recency(x.date), int(x.label[1:]))
    return (s, t) if key(s) <= key(t) else (t, s)


def recency(date: str) -> tuple[int, ...]:
    """Sort key of an effective date, the newest first ("2025-03-01" before "2024-01-15"); an undated version last."""
    digits = [int(p) for p in re.findall(r"\d+", date)[:3]]
    return tuple(-d for d in digits) if digits else (1,)


def _who(s: Source) -> str:
    meta = [m for m in (s.date, "superseded" if s.status == "superseded" else "") if m]
    return f"{s.label} ({', '.join(meta)})" if meta else s.label


def _clause(sentence: str, value: str, limit: int = 160) -> str:
    """The sentence as a reported clause: first letter lowered (unless a name or acronym), final stop removed,
    cut to about ``limit`` characters around ``value``."""
    text = sentence.strip().lstrip("-*•· ").rstrip(".!?;:").strip()
    first = text.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower() and first.lower() in STOP_WORDS | {"each", "every", "our", "all"}:
        text = text[0].lower() + text[1:]
    if len(text) > limit:
        at = max(text.find(value), 0) if value else 0
        lo = max(0, at - limit * 2 // 3)
        hi = min(len(text), lo + limit)
        text = ("…" if lo else "") + text[lo:hi].strip() + ("…" if hi < len(text) else "")
    return text


def _same_wording(a: str, b: str) -> bool:
    """True when two sentences use the same words apart from their numbers (80% of the words of either, tokens
    with a digit left out)."""
    wa, wb = ({t for t in token_set(x) if not any(ch.isdigit() for ch in t)} for x in (a, b))
    return bool(wa | wb) and len(wa & wb) >= 0.8 * len(wa | wb)


def _with_designated(value_a: str, value_b: str, sa: str, sb: str) -> str:
    """``value_b``, or the word both sentences put before a short designator with it: "Visitors park in lot C." /
    "... in lot D." says "lot D", not "D" (the s45 breaker's note read "S2 says D")."""
    if len(value_b) > 2:
        return value_b
    m = re.search(rf"\b([A-Za-z]+)\s+{re.escape(value_b)}\b", sb)
    if m and re.search(rf"\b{re.escape(m.group(1))}\s+{re.escape(value_a)}\b", sa):
        return f"{m.group(1)} {value_b}"
    return value_b


def note_text(first: Source, second: Source, finding: Finding, sa: str, sb: str) -> str:
    """The note's one sentence, naming both labels (with date and superseded status) and the differing values: the
    second side's value, or its whole clause when the two are one sentence (the same words) with two values or more
    changed."""
    who_a, who_b = _who(first), _who(second)
    if finding.kind == "judged":
        said = split_sentences(" ".join(finding.explanation.split()))
        why = said[0].rstrip(".") if said else "they disagree"
        return f"{who_a} and {who_b} disagree: {why}."
    if finding.rule == "list":  # sa, sb: the list's lead-in; the values: the items added and those removed
        added, removed = finding.values
        head = sa.strip()
        if added and removed:
            return f'{who_a} lists "{added}" but {who_b} listed "{removed}" under "{head}".'
        if removed:
            return f'{who_b} lists "{head} {removed}", which {who_a} no longer states.'
        return f'{who_a} lists "{head} {added}", which {who_b} did not.'
    if finding.kind == "value_mismatch" and finding.rule not in ("reworded", "rewritten"):
        said = _clause(sa, finding.values[0])
        if said[:1].isupper():  # "Submit expense reports ...", a name: quoted rather than reported mid-sentence
            said = f'"{said}"'
        other = _with_designated(finding.values[0], finding.values[1], sa, sb)
        if min(len(value_keys(sa) - value_keys(sb)), len(value_keys(sb) - value_keys(sa))) >= 2 \
                and _same_wording(sa, sb):
            # one sentence with several values changed ("56 ... (14 pay periods x 4 hours)" / "84 ... (13 pay periods
            # x 6 hours)"): the other side's clause, not its first value alone
            other = f'"{_clause(sb, other)}"'
        return f"{who_a} says {said} but {who_b} says {other}."
    if finding.rule in ("reworded", "rewritten"):
        sa, sb = past_common_start(sa, sb)
    return f"{who_a} says \"{_clause(sa, '')}\" but {who_b} says \"{_clause(sb, '')}\"."


def past_common_start(a: str, b: str, limit: int = 160, least: int = 3) -> tuple[str, str]:
    """Two versions of a sentence, each from the first word they do not share on, marked "…", when either is longer
    than ``limit`` characters and they open with at least ``least`` words in common: a long rewritten sentence is
    quoted from where the revision changed it ("…what happens depends on whether you are an exempt or non-exempt
    employee: If you are non-exempt: you will be paid out the hours" rather than a cut before the old value);
    otherwise both unchanged."""
    if max(len(a), len(b)) <= limit:
        return a, b
    wa, wb = a.split(), b.split()
    n = 0
    while n < min(len(wa), len(wb)) and wa[n].lower() == wb[n].lower():
        n += 1
    if n < least or n == len(wa) or n == len(wb):
        return a, b
    return "…" + " ".join(wa[n:]), "…" + " ".join(wb[n:])


def disputed(sentence: str, label: str, notes: Iterable[Note]) -> bool:
    """True when a contradiction note (not a version note: the current version decides) concerns source ``label``
    and quotes ``sentence`` (its first eight words, case and spacing aside) as one side of the disagreement."""
    head = " ".join(sentence.lower().split()[:8]).rstrip(".")
    plain = " ".join(sentence.lower().split())
    return any(n.kind in ("value_mismatch", "negation", "judged") and label in n.labels
               and (head in " ".join(n.text.lower().split()) or _said_value(n.text, label) in plain) for n in notes)


def _said_value(text: str, label: str) -> str:
    """What a note's text says source ``label`` says when it gives its value alone ("... but S2 says 60 days." ->
    "60 days"), lower case; a quoted sentence or a clause of more than four words is not a value ("\0" when none:
    no sentence holds it). "Is the expense report deadline 30 days?" opened "No." from S2's "You have 60 days after you
    get back to submit your expense report", which the note sets against S1's 30 days (the s46 breaker)."""
    m = re.search(rf"\b{re.escape(label)}\b(?:\s*\([^)]*\))?\s+says\s+([^\"“.][^.]*?)(?:\s+but\s+S\d+\b|\.?\s*$)", text)
    value = " ".join(m.group(1).lower().split()) if m else ""
    return value if value and len(value.split()) <= 4 else "\0"
