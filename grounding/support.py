"""Support check, per answer sentence: does the cited source say what the sentence says?

Each sentence of an answer is graded against the sources its own markers cite:

* **uncited**: a factual sentence without a valid citation (no marker, or only labels that are not in the source
  map of this answer);
* **unsupported**: a value the sentence states (amount, date, percentage, code, number, number word; see
  :func:`grounding.values.value_keys`) appears in none of its cited sources, or its meaning is far from every sentence
  of its cited sources (cosine below ``thresholds.weak``);
* **weak**: close in meaning, but below ``thresholds.supported``;
* **supported**: all values present and cosine at or above ``thresholds.supported``.

Closeness is the largest cosine between the sentence and the *units* of its cited sources: each source sentence
and each window of two adjacent sentences (so a sentence that fuses two source sentences, or whose subject is in the
previous one, still finds its match). A window's vector is the re-normalised sum of its two sentence vectors, which
costs no extra model call; on the ExpertQA data it ranks claims as well as embedding the joined text (ROC AUC for
"not supported" 0.616 vs 0.614, sentences alone 0.606; 793 claims, one-off analysis). Granularity follows SummaC
(Laban et al. 2022, TACL: score a claim against document sentences, keep the maximum), with the bundled
all-MiniLM-L6-v2 cosine instead of an NLI model; the value rule addresses the "fine-grained information
insensitivity" that AttributionBench (Li et al. 2024, Findings of ACL) found to be the main failure of attribution
checkers. Coverage is the share of factual sentences
that carry a valid citation (citation recall in the sense of ALCE, Gao et al. 2023, before support).

Not used, on data (ExpertQA rand_test, 793 claims with passage evidence, one-off analyses): a lexical-entailment
shortcut (grade "supported" when almost all content words of the sentence are in one cited source sentence) does not
predict the experts' labels: 23% of the 35 claims with >= 90% of their IDF-weighted content words in one source
unit were judged not fully supported, against 29% overall. A logistic combination of max cosine, mean cosine over
the source and word coverage, fit on a calibration half, gained +0.014 +- 0.015 balanced accuracy over max cosine
alone (30 random halvings): within noise, at the cost of a score the reader can no longer interpret; not used.
The value rule is neutral on ExpertQA, whose experts judged whole web pages of which the evidence is an extract: it
flags 36 sentences (29 of them in Complete claims), and the held-out balanced accuracy over 20 halvings is 0.561 with
it and 0.563 without. It is kept for what it catches in a grounded answer: "$65" cited to a source that says "$50".

Pure Python and numpy; no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from grounding.answer_types import CHECKED_TYPES, question_type, states
from grounding.chunking import split_sentences
from grounding.citations import Marker, parse_markers, strip_markers
from grounding.embeddings import Embedder
from grounding.values import value_keys

__all__ = [
    "DEFAULT",
    "SentenceSupport",
    "Status",
    "SupportReport",
    "SupportThresholds",
    "check_support",
    "grade",
    "is_factual",
    "regrade",
]

Status = Literal["supported", "weak", "unsupported", "uncited"]


@dataclass(frozen=True)
class SupportThresholds:
    """Cosine thresholds of the support check (cosine of L2-normalised all-MiniLM-L6-v2 vectors, -1..1).

    ``supported``: at or above it, a sentence whose values are all in its cited sources is "supported"; below it,
    "weak" (or "unsupported" below ``weak``). Both were calibrated on human labels by ``python manage.py
    support_eval --calibrate`` (see the DEFAULT below for the data set, date and figures).

    Raises:
        ValueError: unless -1 <= weak <= supported <= 1.
    """

    supported: float
    weak: float

    def __post_init__(self) -> None:
        if not (-1.0 <= self.weak <= self.supported <= 1.0):
            raise ValueError(f"thresholds must satisfy -1 <= weak <= supported <= 1, got weak={self.weak} "
                             f"supported={self.supported}")


#: Calibrated 2026-11-29 by ``python manage.py support_eval --calibrate`` on ExpertQA rand_test.jsonl
#: (../shared/eval/expertqa; Malaviya et al. 2024, NAACL): 793 claims with passage evidence from 151 questions
#: (562 Complete, 56 Partial, 175 Incomplete), halved by question with seed 13. ``supported`` = best balanced accuracy
#: for "not supported" = not Complete on the calibration half (430 claims); ``weak`` = the highest threshold at which
#: at most 10% of the Complete/Partial claims of that half would be marked unsupported. Held-out half (363 claims):
#: balanced accuracy 0.609, precision 0.371, recall 0.505 for "not supported" (calibration half 0.551); repeated over
#: 20 halvings the held-out balanced accuracy is 0.561 +- 0.020. The issue's target (0.75) is not reached; for scale,
#: on label-balanced ExpertQA AttributionBench (Li et al. 2024) reports at most 61.8 macro-F1 (FLAN-T5 11B fine-tuned
#: on attribution data; GPT-4 zero-shot with chain of thought 59.2, T5-XXL-TRUE fine-tuned 57.1).
DEFAULT = SupportThresholds(supported=0.65, weak=0.42)


@dataclass(frozen=True)
class SentenceSupport:
    """The support verdict for one factual answer sentence.

    Attributes:
        text: the answer sentence with its citation markers, leading list/heading markup ("- ", "1. ", "## ") and
            emphasis marks ("**", "__", "`") removed, as a reader sees it in the rendered answer.
        labels: the valid labels the sentence cites (labels in ``sources``), first-seen order, no duplicates.
        status: "supported", "weak", "unsupported" or "uncited".
        reason: a short human-readable explanation, shown on hover in the UI ("the value 14 characters is not in
            S1", "closest source sentence similarity 0.41 (S2)", "no citation").
        similarity: the largest cosine between the sentence and a sentence (or two-sentence window) of its cited
            sources; 0.0 when the sentence is uncited.
        missing_values: values stated by the sentence (as written in it, e.g. "$65", "14") found in none of its
            cited sources.
        answers: whether the sentence states what the question asks for (an amount, a duration, a date, a count,
            a person or team: grounding.answer_types), separately from whether it is in its source; None when the
            question was not given or asks for nothing checkable (a yes/no, a list, a procedure).
    """

    text: str
    labels: tuple[str, ...]
    status: Status
    reason: str
    similarity: float
    missing_values: tuple[str, ...] = ()
    answers: bool | None = None

    @property
    def in_source(self) -> bool:
        """True when its cited sources hold it: every value it states is in them and its meaning is close to one of
        their sentences (status supported or weak)."""
        return self.status in ("supported", "weak")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict: text, labels, status, reason, similarity (4 decimals), missing_values, in_source,
        answers."""
        return {"text": self.text, "labels": list(self.labels), "status": self.status, "reason": self.reason,
                "similarity": round(float(self.similarity), 4), "missing_values": list(self.missing_values),
                "in_source": self.in_source, "answers": self.answers}


@dataclass(frozen=True)
class SupportReport:
    """The support check of one answer.

    Attributes:
        sentences: one entry per factual sentence, in text order (headings, questions and hedges such as "The
            documents do not say ..." are not listed: they make no claim to support).
        coverage: share of factual sentences carrying at least one valid citation, 0..1; 1.0 when the answer has
            no factual sentence.
        judge: who graded "supported", "weak" and "unsupported": "similarity" (this check's cosine and value rules,
            measured near chance on ExpertQA: the chat leaves its grades in the trace) or "model" (a model judge: the
            chat marks weak and unsupported sentences). Uncited sentences are marked whoever judged.
    """

    sentences: tuple[SentenceSupport, ...]
    coverage: float
    judge: str = "similarity"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict: {"sentences": [...], "coverage": float, "judge": str}."""
        return {"sentences": [s.as_dict() for s in self.sentences], "coverage": self.coverage, "judge": self.judge}


def grade(similarity: float, thresholds: SupportThresholds = DEFAULT) -> Status:
    """Status of a cited sentence whose values are all present, from its similarity (cosine).

    >= ``thresholds.supported`` -> "supported"; >= ``thresholds.weak`` -> "weak"; else "unsupported".
    """
    if similarity >= thresholds.supported:
        return "supported"
    if similarity >= thresholds.weak:
        return "weak"
    return "unsupported"


def regrade(report: SupportReport, thresholds: SupportThresholds) -> SupportReport:
    """The same report graded with other thresholds (no model call; for calibration sweeps).

    "uncited" sentences and sentences with missing values keep their status; the others get
    ``grade(similarity, thresholds)``. Coverage does not depend on thresholds and is kept.
    """
    return SupportReport(
        sentences=tuple(s if s.status == "uncited" or s.missing_values else
                        SentenceSupport(s.text, s.labels, grade(s.similarity, thresholds), s.reason, s.similarity)
                        for s in report.sentences),
        coverage=report.coverage)


# --- sentences and their markers -------------------------------------------------------------------------------

_LEADING_MARKUP = re.compile(r"^\s*(?:#{1,6}|>+|[-*+•]|\d{1,3}[.)])(?=\s|$)\s*")
_EMPHASIS = re.compile(r"\*\*|__|`")
_HEDGES = re.compile(
    r"^(?:the |these |this |your )?(?:provided |available |cited |given |retrieved )?"
    r"(?:documents?|sources?|passages?|context|excerpts?|materials?|texts?)\b[^.]*?"
    r"\b(?:do not|does not|did not|don't|doesn't|didn't|never|not)\b[^.]*?"
    r"\b(?:say|says|mention|state|specify|cover|contain|include|address|provide|describe|discuss|explain"
    r"|indicate|give|list|define)"
    r"|^I (?:could not|couldn't|cannot|can't|did not|didn't|do not|don't|was unable to|am unable to|am not able to)"
    r" (?:find|locate|determine|tell|see|know|confirm|answer)"
    r"|^(?:there is|there's|I found) no (?:information|mention|details?|data|guidance|indication)"
    r"|^(?:it is|it's) (?:not clear|unclear) (?:from|in|whether)"
    r"|\bnot (?:mentioned|stated|specified|covered|included|addressed|described|given) in (?:the|any|these|your)"
    r" (?:provided |available |cited )?(?:documents?|sources?|passages?|context|excerpts?)",
    re.I)
_WORD = re.compile(r"\w")


def _plain(sentence: str) -> str:
    """A sentence without leading list/heading/quote markup and emphasis marks (for grading and embedding)."""
    return _EMPHASIS.sub("", _LEADING_MARKUP.sub("", sentence)).strip()


def is_factual(sentence: str, *, cited: bool = False) -> bool:
    """True unless a sentence is trivially non-factual.

    Non-factual: a Markdown heading line; a fragment under 4 words that states no value and cites nothing
    ("Summary", "1.", "Yes."; a cited one, "Travel is covered [S3].", is a claim); a line ending with ":" that is
    under 4 words or states no value (a heading or a lead-in to a list, "Options include:", whose items carry the
    claims and citations); a question; a hedge that the documents are silent ("The documents do not say ...", "I
    could not find ...", "There is no information ...", "... is not mentioned in the sources").

    Args:
        sentence: one sentence, citation markers already removed.
        cited: whether the sentence carried a citation marker (valid or not).
    """
    if sentence.lstrip().startswith("#"):
        return False
    plain = _plain(sentence)
    words = [w for w in plain.split() if _WORD.search(w)]
    if not words:
        return False
    if plain.endswith(":") and (len(words) < 4 or not _sentence_values(plain)):
        return False  # a heading or a lead-in to a list ("Options include:"): the items carry the claims
    if len(words) < 4 and not _sentence_values(plain) and not cited:
        return False
    if plain.rstrip(" \"'”’)*_").endswith("?"):
        return False
    return not _HEDGES.search(plain)


def _blank_markers(text: str, markers: list[Marker]) -> str:
    """``text`` with every marker replaced by spaces of the same length (offsets unchanged)."""
    chars = list(text)
    for m in markers:
        chars[m.start:m.end] = " " * (m.end - m.start)
    return "".join(chars)


def sentence_spans(text: str, markers: list[Marker] | None = None) -> list[tuple[int, int, list[Marker]]]:
    """The sentences of an answer as (start, end, the markers it owns), offsets in characters of ``text``; the span
    runs to the end of its last marker when a marker follows the sentence's final punctuation.

    Sentences are found with pysbd on the text with markers blanked out (markers such as "5. [S1]" otherwise
    confuse it). A marker belongs to the sentence it follows, also when it sits after the final punctuation
    ("X is 5. [S1]") or after an ellipsis the splitter cut ("... determined .. [S2]."); markers before the first
    sentence belong to the first one. A piece of punctuation and markers only is the end of the sentence before it.
    ``markers`` are ``parse_markers(text)`` when the caller has them already.
    """
    if markers is None:
        markers = parse_markers(text)
    blanked = _blank_markers(text, markers)
    spans: list[tuple[int, int]] = []
    pos = 0
    for piece in split_sentences(blanked):
        start = blanked.find(piece, pos)
        if start < 0:  # pysbd changed the text: keep the piece's position unknown and move on
            continue
        spans.append((start, start + len(piece)))
        pos = start + len(piece)
    if not spans:
        return []
    owned: list[list[Marker]] = [[] for _ in spans]
    k = 0
    for m in markers:
        while k + 1 < len(spans) and spans[k + 1][0] <= m.start:
            k += 1
        owned[k].append(m)
    out: list[tuple[int, int, list[Marker]]] = []
    for (start, end), mine in zip(spans, owned):
        end = max(end, mine[-1].end if mine else end)
        if out and not any(ch.isalnum() for ch in strip_markers(text, markers, start=start, end=end)):
            # only punctuation around markers (pysbd cut "determined .. [S2]." after the first "."): it is the end
            # of the sentence before, and its markers cite that sentence
            out[-1] = (out[-1][0], end, out[-1][2] + mine)
            continue
        out.append((start, end, mine))
    return out


def _answer_sentences(text: str) -> list[tuple[str, list[Marker]]]:
    """Split an answer into (sentence text with its markers removed, the markers it owns); see sentence_spans."""
    markers = parse_markers(text)
    return [(strip_markers(text, markers, start=start, end=end).strip(), mine)
            for start, end, mine in sentence_spans(text, markers)]


# --- values ------------------------------------------------------------------------------------------------------

_PLAIN_NUMBER = re.compile(r"[$€£¥]?(\d+(?:\.\d+)?)%?")
_LABEL = re.compile(r"\bS\d{1,3}\b")


def _values(text: str) -> frozenset[str]:
    """grounding.values.value_keys of a text (number words in digits: "sixty-five" -> "65"). Source labels named in
    a sentence ("S1 says ... but S7 says ...") are references, not values."""
    return value_keys(_LABEL.sub(" ", text))


def _norm(value: str) -> str:
    """A value key in comparable form: "$65.00" as "$65"."""
    return re.sub(r"(\d)\.0+(?!\d)", r"\1", value)


def _core(value: str) -> str | None:
    """The bare number of a plain amount/percentage/number ("$65" -> "65", "5.5%" -> "5.5"); None for codes/dates."""
    m = _PLAIN_NUMBER.fullmatch(value)
    return m.group(1) if m else None


def _sentence_values(sentence: str) -> frozenset[str]:
    """Values a sentence states, normalised. A lone "one" is not a value (value_keys counts number words from
    "two"): in answers it is mostly a pronoun or determiner ("One option is ...", "one can"), 14 of 14 false alarms
    among ExpertQA's 793 claims."""
    return frozenset(_norm(v) for v in _values(sentence))


def _source_values(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(normalised values, their bare numbers) of a source text."""
    values = frozenset(_norm(v) for v in _values(text))
    return values, frozenset(c for c in (_core(v) for v in values) if c is not None)


def _missing(sentence: str, present: frozenset[str], cores: frozenset[str]) -> tuple[str, ...]:
    """Values of ``sentence`` found in no cited source, as written in the sentence (first occurrence order).

    A value is found when its normalised form is among the sources' values, or when it is a plain number, amount
    or percentage whose bare number is ("$65" matches "65 dollars"); codes and dates must match exactly.
    """
    missing = {v for v in _sentence_values(sentence)
               if v not in present and (_core(v) is None or _core(v) not in cores)}
    if not missing:
        return ()
    shown: list[str] = []
    for token in sentence.split():
        found = _sentence_values(token) & missing
        if found:
            shown.append(token.strip(",.;:!?()[]{}\"'“”‘’"))
            missing -= found
    return tuple(shown) + tuple(sorted(missing))  # a value split over tokens ("5 %") is shown normalised


def _with_unit(value: str, sentence: str) -> str:
    """A bare number followed by its word ("14" in "longer than 14 characters" -> "14 characters")."""
    if not re.fullmatch(r"\d+(?:[.,]\d+)*", value):
        return value
    m = re.search(r"(?<![\w$€£¥.,])" + re.escape(value) + r"\s+([A-Za-z][A-Za-z-]*)", sentence)
    return f"{value} {m.group(1)}" if m else value


def _join(items: list[str], last: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


# --- the check ---------------------------------------------------------------------------------------------------


def _source_sentences(text: str) -> list[str]:
    return [s for s in (_plain(s) for s in split_sentences(text)) if s]


def check_support(text: str, sources: Mapping[str, str], embedder: Embedder, *,
                  thresholds: SupportThresholds = DEFAULT,
                  source_vectors: Mapping[str, np.ndarray] | None = None, question: str = "") -> SupportReport:
    """Grade every factual sentence of an answer against the sources it cites.

    Args:
        text: the answer text with its citation markers ([S1], [S1, S2], 【S1】, ... see grounding.citations).
        sources: label -> that source's text (characters), e.g. {"S1": "Meals are reimbursed up to $65 a day."}.
            Only these labels are valid; others cited in ``text`` are ignored here (they are reported as invalid
            citations by grounding.citations.check_labels).
        embedder: anything with ``embed(list[str]) -> float32 array (n, dim)`` of L2-normalised rows; called at
            most once per answer, with the cited sentences and every sentence of their cited sources that has no
            stored vectors.
        thresholds: cosine thresholds (default: calibrated on ExpertQA, see :data:`DEFAULT`).
        source_vectors: label -> the stored sentence vectors of that source, float32 (sentences, dim) in text order
            (grounding.sentence_data, carried by the plan's sources): those sources' sentences are not embedded
            again, so only the answer's own sentences are.
        question: the question answered; each sentence's ``answers`` then says whether it states what the question
            asks for (grounding.answer_types).

    Returns:
        A :class:`SupportReport`: one :class:`SentenceSupport` per factual sentence, and the citation coverage.

    Raises:
        TypeError: when ``text`` or a source text is not a str.
        ValueError: when the embedder returns an array of the wrong shape.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    for label, source_text in sources.items():
        if not isinstance(source_text, str):
            raise TypeError(f"source {label} must be str, not {type(source_text).__name__}")

    factual: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []  # (sentence, valid labels, invalid labels)
    for sentence, markers in _answer_sentences(text):
        if not is_factual(sentence, cited=bool(markers)):
            continue
        cited = list(dict.fromkeys(label for m in markers for label in m.labels))
        factual.append((_plain(sentence), tuple(lab for lab in cited if lab in sources),
                        tuple(lab for lab in cited if lab not in sources)))
    if not factual:
        return SupportReport(sentences=(), coverage=1.0)

    # One embedding call: the cited sentences, then the distinct sentences of every source they cite.
    cited_labels = list(dict.fromkeys(lab for _, labels, _ in factual for lab in labels))
    stored = {lab: np.asarray(source_vectors[lab], dtype=np.float32) for lab in cited_labels
              if source_vectors is not None and source_vectors.get(lab) is not None and len(source_vectors[lab])}
    units = {lab: _source_sentences(sources[lab]) for lab in cited_labels if lab not in stored}
    to_embed = list(dict.fromkeys([s for s, labels, _ in factual if labels]
                                  + [s for lab in units for s in units[lab]]))
    vectors: dict[str, np.ndarray] = {}
    if to_embed:
        matrix = np.asarray(embedder.embed(to_embed), dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(to_embed):
            raise ValueError(f"embedder returned shape {matrix.shape} for {len(to_embed)} texts")
        vectors = dict(zip(to_embed, matrix))
    unit_matrix = {lab: _units_matrix(list(stored[lab]) if lab in stored else [vectors[s] for s in units[lab]])
                   for lab in cited_labels}
    values = {lab: _source_values(sources[lab]) for lab in cited_labels}

    out: list[SentenceSupport] = []
    for sentence, labels, invalid in factual:
        if not labels:
            reason = ("no citation" if not invalid else
                      f"cites {_join(list(invalid), 'and')}, which {'is' if len(invalid) == 1 else 'are'} not a "
                      f"source of this answer")
            out.append(SentenceSupport(sentence, (), "uncited", reason, 0.0))
            continue
        vector = vectors[sentence]
        best, best_label = 0.0, ""
        for lab in labels:
            if len(unit_matrix[lab]):
                score = float((unit_matrix[lab] @ vector).max())
                if not best_label or score > best:
                    best, best_label = score, lab
        present = frozenset().union(*(values[lab][0] for lab in labels))
        cores = frozenset().union(*(values[lab][1] for lab in labels))
        missing = _missing(sentence, present, cores)
        where = _join(list(labels), "or")
        if missing:
            shown = [_with_unit(v, sentence) for v in missing]
            noun, verb = ("value", "is") if len(shown) == 1 else ("values", "are")
            out.append(SentenceSupport(sentence, labels, "unsupported",
                                       f"the {noun} {_join(shown, 'and')} {verb} not in {where}", best, missing))
            continue
        if not best_label:
            out.append(SentenceSupport(sentence, labels, "unsupported", f"{where} has no text", 0.0))
            continue
        status = grade(best, thresholds)
        reason = f"closest source sentence similarity {best:.2f} ({best_label})"
        out.append(SentenceSupport(sentence, labels, status, reason, best))
    cited_count = sum(1 for s in out if s.labels)
    kind = question_type(question) if question else "other"
    if kind in CHECKED_TYPES:
        out = [replace(s, answers=states(kind, s.text)) for s in out]
    return SupportReport(sentences=tuple(out), coverage=cited_count / len(out))


def _units_matrix(sentence_vectors: list[np.ndarray]) -> np.ndarray:
    """Rows for a source's sentences and its two-sentence windows (re-normalised sums of adjacent rows)."""
    if not sentence_vectors:
        return np.zeros((0, 0), dtype=np.float32)
    rows = np.stack(sentence_vectors).astype(np.float32)
    if len(rows) > 1:
        pairs = rows[:-1] + rows[1:]
        norms = np.linalg.norm(pairs, axis=1, keepdims=True)
        pairs = pairs / np.where(norms > 0, norms, 1.0)
        rows = np.vstack([rows, pairs])
    return rows
