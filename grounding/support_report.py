"""The verdicts of the support check and their grading: what a checked answer sentence is, and the thresholds.

Owns: the statuses ("supported", "weak", "unsupported", "uncited"), the cosine thresholds (``SupportThresholds``) and
their calibrated ``DEFAULT`` (ExpertQA), one sentence's verdict (``SentenceSupport``) and an answer's report
(``SupportReport``), and mapping a similarity to a status (``grade``, ``regrade`` for calibration sweeps). The check
that produces them is grounding.support.check_support.

Pure Python; no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["DEFAULT", "SentenceSupport", "Status", "SupportReport", "SupportThresholds", "grade", "regrade"]

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
