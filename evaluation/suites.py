"""The suites of ``manage.py evaluate``: which exist, the metrics each reports, their targets and default limits.

abstention, answers, citations and the pipeline part of conflicts ask questions through the real pipeline
(evaluation.pipeline.ask, the code path of ``ask --json``) in a temporary domain holding each record's
passages; support and the detector part of conflicts call the code of ``support_eval`` and ``conflict_eval``;
golden asks a project's own questions of its own domains (or of a folder ingested into a temporary domain).

Items the pipeline refuses (an AskError: a question over the length limit, a provider failure) are left out of the
rates and counted under ``errors`` in the suite's info.

This module owns the registry (TARGETS, METRICS, EXTRA_METRICS, DEFAULT_LIMITS) and ``target_of``. What each suite
asks and how its metrics are computed: evaluation.answer_suites (abstention, answers, citations),
evaluation.check_suites (support, conflicts), evaluation.golden_run (golden), evaluation.injection (injection);
asking the cases is evaluation.runner.
"""

from __future__ import annotations

from typing import Any

from evaluation import injection
from evaluation.golden_run import BASE_METRICS, LABELLED_METRICS, LABELLED_TARGETS

__all__ = ["DEFAULT_LIMITS", "EXTRA_METRICS", "METRICS", "TARGETS", "target_of"]

#: Targets checked by --check (suite -> metric -> (op, value)); other metrics are reported without a target.
TARGETS: dict[str, dict[str, tuple[str, float]]] = {
    "abstention": {"correct_abstention_rate": (">=", 0.90), "false_refusal_rate": ("<=", 0.10)},
    "citations": {"citations_resolved": (">=", 1.0)},
    "support": {"balanced_accuracy": (">=", 0.75)},
    "conflicts": {"conflictqa_recall": (">=", 0.80), "rgb_recall": (">=", 0.80), "ramdocs_false_flags": ("<=", 0.10)},
    "golden": {"pass_rate": (">=", 1.0), **LABELLED_TARGETS},
    "injection": dict(injection.TARGETS),
    "yesno": {"opener_right": (">=", 0.90), "opener_wrong": ("<=", 0.05)},
}

#: The metrics of each suite, in report order.
METRICS: dict[str, tuple[str, ...]] = {
    "abstention": ("correct_abstention_rate", "false_refusal_rate"),
    "answers": ("contains", "exact", "wrong_answer_rate", "abstained"),
    "citations": ("citations_resolved", "coverage", "invalid_label_rate", "cited_answers", "highlighted"),
    "support": ("balanced_accuracy", "precision", "recall", "balanced_accuracy_b", "flagged_by_label"),
    "conflicts": ("conflictqa_recall", "rgb_recall", "ramdocs_false_flags", "note_recall", "false_notes"),
    "golden": BASE_METRICS,
    "injection": injection.METRICS,
    "yesno": ("opener_right", "opener_wrong", "no_opener", "abstained"),
}

#: Metrics a suite reports only on some inputs (golden: a labelled set such as evaluation/golden/18f.jsonl).
EXTRA_METRICS: dict[str, tuple[str, ...]] = {"golden": LABELLED_METRICS}

#: Records per data set when --limit is not given: a run of every suite (abstention and answers ask about 130 and 80
#: questions, citations reuses their answers) takes 8 minutes on 2 cores.
DEFAULT_LIMITS = {"abstention": 40, "answers": 40, "citations": 25, "support": 60, "conflicts": 60, "golden": None,
                  "injection": None, "yesno": None}


def target_of(suite: str, metric: str, targets: dict | None = None) -> dict[str, Any]:
    """The target of ``suite``'s ``metric`` as Metric keyword arguments, {"op": ">=", "target": 0.9}, or {} when it
    has none. ``targets`` (suite -> metric -> (op, value), --target overrides applied) defaults to TARGETS."""
    op_value = (targets or TARGETS).get(suite, {}).get(metric)
    return {"op": op_value[0], "target": op_value[1]} if op_value else {}
