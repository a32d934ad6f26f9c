"""Contradiction detection over the planned sources [18.8]: align sentences, then look for a value or polarity clash.

    sources -> claims (pysbd sentences; a fragment such as "Feb 25, 2018 ..." joined to the next) -> ONE embed call
      -> per pair of sources from different documents or versions: aligned sentence pairs (MiniLM cosine >=
         ``similarity``, or a lexical near-copy: >= 3 shared tokens and 60% of the shorter sentence), best first
      -> rules on each aligned pair (grounding.clash), the first clash wins:
           value mismatch (same kind, rate and slot, different value; rounding-, hedge- and unit-aware)
           substitution (the same sentence with one name swapped: "acquired by Facebook" / "by Apple")
           polarity (a negated predicate stated plainly by the other side; an antonym; a negation cue on one side
           only, about a word the other sentence also uses)
      -> optional LLM judge on the best unflagged candidate pairs only (at most ``max_judged`` calls)
      -> at most one Conflict per source pair, the strongest

Technique: the alignment-then-mismatch design of de Marneffe, Rafferty and Manning 2008 ("Finding Contradictions
in Text", ACL), whose contradiction classes this module covers with rules: numeric/date mismatch, negation on an
aligned predicate, antonymy, and the structural "same statement, different argument" case (functional relations,
Ritter et al. 2008, "It's a contradiction - no, it's not"). Sentence alignment uses Sentence-BERT cosine (Reimers and
Gurevych 2019); a bounded LLM judge on the top candidates follows the knowledge-conflict literature (Xie et al. 2024,
"Adaptive Chameleon or Stubborn Sloth", whose ConflictQA set ``manage.py conflict_eval`` measures).

Measured (``manage.py conflict_eval``, similarity 0.45 picked on the calibration half, held-out half reported): recall
0.841 on ConflictQA (n=339), 0.970 on RGB counterfactual pairs (n=101), false flags 0.052 on RAMDocs pairs of correct
documents with the same answer (n=267).

Known limits: ConflictQA recall rests mostly on the negation-cue rule (about nine in ten of its hits); claims that
disagree without a value, a negation or an antonym ("raw carrots are better" / "cooked carrots have more") are left to
the judge. On handbook text the loose alignment that ConflictQA needs also flags loosely related sentences: over 20
questions on the demo handbook (top 8 paragraphs each) the 20 notes hold the 5 real version changes and 15 false
flags (4 at similarity 0.6, where ConflictQA recall falls to about 0.75); the judge, or a higher per-domain
similarity, is the remedy. Boilerplate that names different owners ("Owned by the Travel team." / "... the HR
team.") reads as a substitution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Literal, Sequence

import numpy as np

from grounding.chunking import split_sentences
from grounding.clash import Finding, clash, lexically_aligned, token_set
from grounding.embeddings import Embedder
from grounding.lexical import STOP_WORDS, content_terms, tokens
from grounding.types import Note, Source
from grounding.values import MONTHS

__all__ = ["ALIGN_SIMILARITY", "MAX_SOURCE_PAIRS", "STRONG_MARGIN", "Conflict", "ConflictJudge", "ConflictKind",
           "claims", "detect_conflicts"]

ConflictKind = Literal["value_mismatch", "negation", "version_superseded", "judged"]

#: An LLM judge: (sentence_a, sentence_b) -> one sentence explaining the conflict, or None when they agree.
ConflictJudge = Callable[[str, str], "str | None"]

#: Cosine (MiniLM sentence embeddings) at or above which two sentences are aligned (talk about the same thing).
#: Calibrated with ``manage.py conflict_eval --calibrate`` on the calibration half of ConflictQA, RGB and RAMDocs
#: (the held-out half is reported in the README).
ALIGN_SIMILARITY = 0.45

#: Values with no shared neighbouring word are compared only on sentences aligned this much above ``similarity``
#: (on the demo handbook, "return your old laptop within 14 days" / "ships 5 business days before your start" at
#: cosine 0.55 are different deadlines, not a conflict).
STRONG_MARGIN = 0.1

#: Source pairs examined at most (10 planned sources make 45 pairs).
MAX_SOURCE_PAIRS = 45


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
    """

    labels: tuple[str, str]
    kind: ConflictKind
    text: str
    sentences: tuple[str, str]
    values: tuple[str, str]
    similarity: float = 0.0

    def __post_init__(self) -> None:
        if len(self.labels) != 2 or self.labels[0] == self.labels[1]:
            raise ValueError(f"a conflict needs two different labels, got {self.labels!r}")
        if self.kind not in ("value_mismatch", "negation", "version_superseded", "judged"):
            raise ValueError(f"unknown conflict kind {self.kind!r}")

    def as_note(self) -> Note:
        """The context note for the prompt, the answer and ``ask --json`` (kind, labels, text)."""
        return Note(kind=self.kind, labels=self.labels, text=self.text)


def _is_claim(sentence: str) -> bool:
    """At least three words that are neither numbers nor month names: "Feb 25, 2018 ..." is not a claim."""
    return sum(1 for w, _, _ in tokens(sentence) if w[0].isalpha() and w.rstrip(".") not in MONTHS) >= 3


def claims(text: str) -> list[str]:
    """The sentences of a text (grounding.chunking.split_sentences), a fragment that states no claim on its own
    ("Feb 25, 2018 ...", "Release date.") joined to the sentence after it (or before it, at the end)."""
    out: list[str] = []
    pending = ""
    for sentence in split_sentences(text):
        joined = f"{pending} {sentence}".strip()
        if _is_claim(sentence):
            out.append(joined)
            pending = ""
        else:
            pending = joined
    if pending:
        if out:
            out[-1] = f"{out[-1]} {pending}"
        elif _is_claim(pending):
            out.append(pending)
    return out


def _order(s: Source, t: Source) -> tuple[Source, Source]:
    """Newer first: a current version before a superseded one, then the later date, then label order."""
    def key(x: Source) -> tuple:
        return (x.status == "superseded", _neg_date(x.date), int(x.label[1:]))
    return (s, t) if key(s) <= key(t) else (t, s)


def _neg_date(date: str) -> tuple[int, ...]:
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


def _text(first: Source, second: Source, finding: Finding, sa: str, sb: str) -> str:
    """The note's one sentence, naming both labels (with date and superseded status) and the differing values."""
    who_a, who_b = _who(first), _who(second)
    if finding.kind == "judged":
        said = split_sentences(" ".join(finding.explanation.split()))
        why = said[0].rstrip(".") if said else "they disagree"
        return f"{who_a} and {who_b} disagree: {why}."
    if finding.kind == "value_mismatch":
        return f"{who_a} says {_clause(sa, finding.values[0])} but {who_b} says {finding.values[1]}."
    return f"{who_a} says \"{_clause(sa, '')}\" but {who_b} says \"{_clause(sb, '')}\"."


def detect_conflicts(
    sources: Sequence[Source],
    embedder: Embedder,
    *,
    similarity: float = ALIGN_SIMILARITY,
    max_pairs: int = MAX_SOURCE_PAIRS,
    judge: ConflictJudge | None = None,
    max_judged: int = 5,
    focus: str = "",
) -> list[Conflict]:
    """Find contradictions between planned sources [18.8].

    Args:
        sources: the planned sources (any order; about 10 sources and 100 sentences is the expected size).
        embedder: sentence embedder; called once with every sentence of every source (L2-normalised float32 rows).
        similarity: cosine at or above which two sentences of different sources are aligned (0 < similarity <= 1).
        max_pairs: source pairs examined at most, those with the best-aligned sentences first (>= 0).
        judge: optional LLM judge, (sentence_a, sentence_b) -> one-sentence explanation or None; called only on the
            best aligned sentence pair of source pairs the rules did not flag, best first.
        max_judged: judge calls at most (>= 0).
        focus: the question; within a source pair, clashes in sentences sharing more of its content words are
            examined first, so the conflict reported for the pair is the one the reader asked about.
    Returns:
        at most one Conflict per source pair (its best-aligned clash), sorted by the labels' numbers. Sources of the
        same document version (same document_id and version_id) are never paired. Two versions of one document
        with one superseded give kind "version_superseded".
    Raises:
        ValueError: similarity outside (0, 1], negative max_pairs or max_judged, duplicate labels.
    Cost: one embed call, one (n_sentences x n_sentences) matrix product, rules on the aligned pairs only.
    """
    if not 0 < similarity <= 1:
        raise ValueError(f"similarity must be in (0, 1], got {similarity}")
    if max_pairs < 0 or max_judged < 0:
        raise ValueError(f"max_pairs and max_judged must be >= 0, got {max_pairs} and {max_judged}")
    labels = [s.label for s in sources]
    if len(set(labels)) != len(labels):
        raise ValueError(f"duplicate source labels in {labels}")
    pairs = [(i, j) for i in range(len(sources)) for j in range(i + 1, len(sources))
             if (sources[i].document_id, sources[i].version_id) != (sources[j].document_id, sources[j].version_id)]
    if not pairs or max_pairs == 0:
        return []

    sentences: list[list[str]] = [claims(s.text) for s in sources]
    flat = [x for group in sentences for x in group]
    if not flat:
        return []
    offsets = np.cumsum([0] + [len(g) for g in sentences])
    focus_terms = content_terms(focus) if focus else set()
    vectors = np.asarray(embedder.embed(flat), dtype=np.float32)
    cosine = vectors @ vectors.T
    token_sets = [token_set(x) for x in flat]

    # Aligned sentence pairs per source pair, best first; source pairs ranked by their best alignment.
    aligned: dict[tuple[int, int], list[tuple[float, int, int]]] = {}
    for i, j in pairs:
        block = cosine[offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]
        if block.size == 0:
            continue
        mask = block >= similarity
        for a, b in np.argwhere(~mask):
            mask[a, b] = lexically_aligned(token_sets[offsets[i] + a], token_sets[offsets[j] + b])
        hits = np.argwhere(mask)
        if len(hits):
            aligned[(i, j)] = sorted(((float(block[a, b]), int(a), int(b)) for a, b in hits),
                                     key=lambda t: (-t[0], t[1], t[2]))
            if focus_terms:
                aligned[(i, j)].sort(key=lambda t: -len(focus_terms & (
                    content_terms(sentences[i][t[1]]) | content_terms(sentences[j][t[2]]))))
    ranked = sorted(aligned, key=lambda p: (-aligned[p][0][0], p))[:max_pairs]

    found: dict[tuple[int, int], tuple[Finding, float, str, str]] = {}
    unflagged: list[tuple[float, tuple[int, int], str, str]] = []
    for pair in ranked:
        i, j = pair
        for score, a, b in aligned[pair]:
            sa, sb = sentences[i][a], sentences[j][b]
            finding = clash(sa, sb, strong=score >= similarity + STRONG_MARGIN)
            if finding:
                found[pair] = (finding, score, sa, sb)
                break
        else:
            score, a, b = aligned[pair][0]
            unflagged.append((score, pair, sentences[i][a], sentences[j][b]))

    if judge is not None and max_judged:
        for score, pair, sa, sb in sorted(unflagged, key=lambda t: (-t[0], t[1]))[:max_judged]:
            explanation = judge(sa, sb)
            if explanation:
                found[pair] = (Finding("judged", ("", ""), explanation), score, sa, sb)

    conflicts: list[Conflict] = []
    for (i, j), (finding, score, sa, sb) in found.items():
        first, second = _order(sources[i], sources[j])
        if first is not sources[i]:
            sa, sb = sb, sa
            finding = Finding(finding.kind, (finding.values[1], finding.values[0]), finding.explanation)
        kind: ConflictKind = finding.kind
        if first.document_id == second.document_id and "superseded" in (first.status, second.status):
            kind = "version_superseded"
        conflicts.append(Conflict(labels=(first.label, second.label), kind=kind,
                                  text=_text(first, second, finding, sa, sb), sentences=(sa, sb),
                                  values=finding.values, similarity=round(score, 4)))
    conflicts.sort(key=lambda c: tuple(sorted(int(x[1:]) for x in c.labels)))
    return conflicts
