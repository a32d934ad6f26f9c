"""python manage.py conflict_eval [--limit N] [--suite conflictqa|rgb|ramdocs|all] [--calibrate] [--json]

Measures the contradiction detector on ConflictQA, RGB en_fact and RAMDocs (../shared/eval). The data, the pairs,
the halves and the calibration are described in evaluation.conflicts, which holds the logic (shared with
``manage.py evaluate --suite conflicts``); this command prints the figures and calibrates.
"""

from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from evaluation.common import CachingEmbedder, EvaluationError
from evaluation.conflicts import SEED, SUITES, evaluate, render
from grounding.contradictions import ALIGN_SIMILARITY


class Command(BaseCommand):
    help = ("Measure the contradiction detector: recall on ConflictQA and RGB, false flags on RAMDocs' consistent "
            "correct documents (../shared/eval).")

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None, help="first N records of each suite")
        parser.add_argument("--suite", choices=SUITES + ("all",), default="all")
        parser.add_argument("--similarity", type=float, default=ALIGN_SIMILARITY,
                            help=f"alignment cosine (default {ALIGN_SIMILARITY}, the calibrated value)")
        parser.add_argument("--calibrate", action="store_true",
                            help="sweep the similarity on the calibration half and report at the chosen value")
        parser.add_argument("--seed", type=int, default=SEED, help="seed of the calibration/held-out split")
        parser.add_argument("--json", action="store_true", help="print the metrics as JSON")

    def handle(self, *args, limit, suite, similarity, calibrate, seed, json, **options):
        if limit is not None and limit < 1:
            raise CommandError("--limit must be >= 1")
        if not 0 < similarity <= 1:
            raise CommandError("--similarity must be in (0, 1]")
        from grounding.embeddings import default_embedder

        suites = SUITES if suite == "all" else (suite,)
        try:
            result = evaluate(suites, limit=limit, embedder=CachingEmbedder(default_embedder()),
                              similarity=similarity, calibrate=calibrate, seed=seed)
        except EvaluationError as exc:
            raise CommandError(str(exc))
        if json:
            self.stdout.write(jsonlib.dumps(result, indent=2))
            return
        self.stdout.write(render(result))
