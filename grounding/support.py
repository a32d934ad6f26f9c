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

This module owns the check itself (``check_support``: embedding, closest source unit, the value rule, coverage, and
whether each sentence states what the question asks for). The verdict types, thresholds and grading are in
grounding.support_report, the value matching in grounding.support_values, and the answer's sentences and which of
them are factual in grounding.answer_sentences.

Pure Python and numpy; no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from grounding.answer_sentences import answer_sentences, is_factual, plain_sentence
from grounding.answer_types import CHECKED_TYPES, question_type, states
from grounding.chunking import split_sentences
from grounding.embeddings import Embedder
from grounding.support_report import DEFAULT, SentenceSupport, SupportReport, SupportThresholds, grade
from grounding.support_values import SourceValues, missing_values, source_values, with_unit

__all__ = ["check_support", "support_texts"]


def _join(items: list[str], last: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _source_sentences(text: str) -> list[str]:
    return [s for s in (plain_sentence(s) for s in split_sentences(text)) if s]


_Factual = list[tuple[str, tuple[str, ...], tuple[str, ...]]]  # (sentence, valid labels, invalid labels)


def _factual(text: str, sources: Mapping[str, str]) -> _Factual:
    """The answer's factual sentences (plain text), each with its valid and its invalid cited labels."""
    factual: _Factual = []
    for sentence, markers in answer_sentences(text):
        if not is_factual(sentence, cited=bool(markers)):
            continue
        cited = list(dict.fromkeys(label for m in markers for label in m.labels))
        factual.append((plain_sentence(sentence), tuple(lab for lab in cited if lab in sources),
                        tuple(lab for lab in cited if lab not in sources)))
    return factual


def _plan_embedding(factual: _Factual, sources: Mapping[str, str],
                    source_vectors: Mapping[str, np.ndarray] | None):
    """(cited labels, label -> stored sentence vectors, label -> sentences to embed, the texts to embed in order)."""
    cited_labels = list(dict.fromkeys(lab for _, labels, _ in factual for lab in labels))
    stored = {lab: np.asarray(source_vectors[lab], dtype=np.float32) for lab in cited_labels
              if source_vectors is not None and source_vectors.get(lab) is not None and len(source_vectors[lab])}
    units = {lab: _source_sentences(sources[lab]) for lab in cited_labels if lab not in stored}
    to_embed = list(dict.fromkeys([s for s, labels, _ in factual if labels]
                                  + [s for lab in units for s in units[lab]]))
    return cited_labels, stored, units, to_embed


def support_texts(text: str, sources: Mapping[str, str],
                  source_vectors: Mapping[str, np.ndarray] | None = None) -> list[str]:
    """The texts :func:`check_support` would embed for these arguments (the answer's cited factual sentences, then
    the sentences of cited sources without stored vectors), distinct, in its order: a server embeds them beforehand
    (micro-batched with other asks' texts, grounding.batching) and gives check_support an embedder that knows them
    (grounding.embeddings.KnownVectors), so the check itself makes no model call. CPU only, no model call."""
    factual = _factual(text, sources)
    return _plan_embedding(factual, sources, source_vectors)[3] if factual else []


def check_support(text: str, sources: Mapping[str, str], embedder: Embedder, *,
                  thresholds: SupportThresholds = DEFAULT,
                  source_vectors: Mapping[str, np.ndarray] | None = None, question: str = "",
                  stored_values: Mapping[str, SourceValues] | None = None) -> SupportReport:
    """Grade every factual sentence of an answer against the sources it cites.

    Args:
        text: the answer text with its citation markers ([S1], [S1, S2], 【S1】, ... see grounding.citations).
        sources: label -> that source's text (characters), e.g. {"S1": "Meals are reimbursed up to $65 a day."}.
            Only these labels are valid; others cited in ``text`` are ignored here (they are reported as invalid
            citations by grounding.citation_labels.check_labels).
        embedder: anything with ``embed(list[str]) -> float32 array (n, dim)`` of L2-normalised rows; called at
            most once per answer, with the cited sentences and every sentence of their cited sources that has no
            stored vectors.
        thresholds: cosine thresholds (default: calibrated on ExpertQA, see :data:`DEFAULT`).
        source_vectors: label -> the stored sentence vectors of that source, float32 (sentences, dim) in text order
            (grounding.sentence_data, carried by the plan's sources): those sources' sentences are not embedded
            again, so only the answer's own sentences are.
        question: the question answered; each sentence's ``answers`` then says whether it states what the question
            asks for (grounding.answer_types).
        stored_values: label -> (normalised values, their bare numbers) of that source as ingestion stored them
            (grounding.support_store.plan_values, equal to grounding.support_values.source_values of its text): those
            sources' values are not found in their texts again; the others' are.

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

    factual = _factual(text, sources)
    if not factual:
        return SupportReport(sentences=(), coverage=1.0)

    # One embedding call: the cited sentences, then the distinct sentences of every source they cite.
    cited_labels, stored, units, to_embed = _plan_embedding(factual, sources, source_vectors)
    vectors: dict[str, np.ndarray] = {}
    if to_embed:
        matrix = np.asarray(embedder.embed(to_embed), dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(to_embed):
            raise ValueError(f"embedder returned shape {matrix.shape} for {len(to_embed)} texts")
        vectors = dict(zip(to_embed, matrix))
    unit_matrix = {lab: _units_matrix(list(stored[lab]) if lab in stored else [vectors[s] for s in units[lab]])
                   for lab in cited_labels}
    stored_values = stored_values or {}
    values = {lab: stored_values[lab] if lab in stored_values else source_values(sources[lab]) for lab in cited_labels}

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
        missing = missing_values(sentence, present, cores)
        where = _join(list(labels), "or")
        if missing:
            shown = [with_unit(v, sentence) for v in missing]
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
