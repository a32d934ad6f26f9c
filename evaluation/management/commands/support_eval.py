"""python manage.py support_eval [--file PATH] [--limit N] [--calibrate]: the support check against expert labels.

The data, the label mappings A and B and the calibration are described in evaluation.support, which holds the
logic (shared with ``manage.py evaluate --suite support``); this command prints the figures and calibrates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from evaluation.common import EvaluationError
from evaluation.support import (
    SEED,
    STABILITY_SEEDS,
    Claim,
    check_claims,
    default_path,
    fit_thresholds,
    halves,
    load_claims,
    score,
    stability,
)
from grounding.support_report import DEFAULT, SupportReport, SupportThresholds, regrade

__all__ = ["Command", "load_claims"]


class Command(BaseCommand):
    help = "Run the support check on ExpertQA claims and compare with the experts' support labels."

    def add_arguments(self, parser):
        parser.add_argument("--file", type=Path, default=None, help="a jsonl file in ExpertQA's format "
                            "(default: ../shared/eval/expertqa/rand_test.jsonl)")
        parser.add_argument("--limit", type=int, default=None, help="use only the first N records")
        parser.add_argument("--calibrate", action="store_true",
                            help="sweep thresholds on a calibration half, report on the held-out half")

    def handle(self, *args, file: Path | None, limit: int | None, calibrate: bool, **options):
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        path = file or default_path()
        try:
            claims, skipped = load_claims(path, limit)
        except EvaluationError as exc:
            raise CommandError(str(exc))
        if not claims:
            raise CommandError(f"{path}: no claim with evidence text and a support label")
        labels = {k: sum(c.support == k for c in claims) for k in ("Complete", "Partial", "Incomplete", "Missing")}
        self.stdout.write(f"{path.name}: {len(claims)} claims from {len({c.record for c in claims})} records "
                          f"({', '.join(f'{k} {v}' for k, v in labels.items())}); skipped: "
                          f"{skipped['no_label']} without label or N/A, {skipped['no_evidence_text']} without "
                          f"evidence text")
        reports = check_claims(claims)
        silent = sum(not r.sentences for r in reports)
        if silent:
            self.stdout.write(f"{silent} claim{' has' if silent == 1 else 's have'} no factual sentence (nothing "
                              f"to flag: counted as supported)")
        if not calibrate:
            self._print("all", claims, reports, DEFAULT)
            return
        cal, held = halves(claims, SEED)
        if not cal or not held:
            raise CommandError("--calibrate needs at least two records")
        best = fit_thresholds([claims[i] for i in cal], [reports[i] for i in cal])
        records = len({c.record for c in claims})
        self.stdout.write(f"calibrated thresholds (seed {SEED}, calibration half {records // 2} of {records} "
                          f"records): supported={best.supported:.2f} weak={best.weak:.2f}")
        for name, idx in (("calibration", cal), ("held-out", held)):
            self._print(name, [claims[i] for i in idx], [reports[i] for i in idx], best)
        figures = stability(claims, reports)
        if figures:
            self.stdout.write(f"[stability] held-out balanced accuracy A over {len(figures)} halvings (seeds "
                              f"{STABILITY_SEEDS[0]}..{STABILITY_SEEDS[-1]}): mean={np.mean(figures):.3f} "
                              f"sd={np.std(figures):.3f} min={min(figures):.3f} max={max(figures):.3f}")
        self._print("all", claims, reports, DEFAULT)

    def _print(self, name: str, claims: Sequence[Claim], reports: Sequence[SupportReport],
               thresholds: SupportThresholds) -> None:
        graded = [regrade(r, thresholds) for r in reports]
        self.stdout.write(f"[{name}] thresholds supported={thresholds.supported:.2f} weak={thresholds.weak:.2f}")
        self.stdout.write(f"  A (not supported = not Complete)        {score(claims, graded, 'A').line()}")
        self.stdout.write(f"  B (not supported = Incomplete/Missing)  {score(claims, graded, 'B').line()}")
