"""python manage.py evaluate --suite NAME [--limit N] [--provider NAME] [--out DIR] [--check] [--target ...]

Measures the product on public data sets (../shared/eval) and on a project's own golden questions, through the same
code path as a chat answer, and writes DIR/results.json and DIR/report.html (one chart per metric). Suites
(evaluation.suites registers them and names the module that says exactly what each asks and computes):

    abstention  correct abstention rate (>= 0.90) and false refusal rate (<= 0.10): RAMDocs, ConditionalQA
    answers     gold answers contained in / equal to the answer, wrong answers repeated: RAMDocs, RGB en_fact
    citations   rendered citations that resolve (>= 1.0), coverage, invalid-label rate: RAMDocs, RGB, ConditionalQA
    support     the support check against ExpertQA's human labels: balanced accuracy (>= 0.75)
    conflicts   detector recall (>= 0.80) and false flags (<= 0.10), and notes through the pipeline: ConflictQA,
                RGB en_fact, RAMDocs consistent sets
    golden      --file QUESTIONS.jsonl: pass rate (>= 1.0) of a project's own questions; a labelled set
                (evaluation/golden/18f.jsonl with --corpus ../shared/corpora/18f-handbook/current/pages) is
                reported per kind on one split (--split calibration|test|dev|all, default calibration): answers right
                with the right page cited (>= 0.90), close-but-unanswerable questions refused (>= 0.90), false
                refusals (<= 0.10), the gold page among the planned sources (>= 0.95), yes/no and comparison forms
                (>= 0.90), notes
    injection   BIPIA and CyberSecEval payloads in documents (held-apart half; --half development for the other):
                flag rate (>= 0.95), answers repeating a payload's goal (<= 0), false flags on clean contexts
    yesno       ConditionalQA's yes/no questions (--split calibration|test|all): answers opening with the gold Yes or
                No (>= 0.90), with the opposite one (<= 0.05), with neither
    all         every suite above (golden only with --file)

Passages are ingested into a temporary domain that is deleted at the end of the run; the user's domains are only
read (golden). A progress bar goes to stderr when it is a terminal; the summary table goes to stdout. With --check the
command exits non-zero, listing the metrics under their targets, those with a target that measured nothing, and the
suites where the pipeline failed on an item (an AskError, a passage that could not be ingested); --target
SUITE.METRIC>=VALUE (or <=, or = to keep the direction) changes or adds a target, e.g. for a CI run on a small slice.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from evaluation import report, suites
from evaluation.answer_suites import run_abstention, run_answers, run_citations, run_yesno
from evaluation.check_suites import run_conflicts, run_support
from evaluation.common import EvaluationError
from evaluation.golden import SPLITS as GOLDEN_SPLITS
from evaluation.golden_run import kind_table, run_golden
from evaluation.injection import run_injection
from evaluation.pipeline import PROVIDERS, make_provider
from evaluation.runner import Runner

SUITES = ("abstention", "answers", "citations", "support", "conflicts", "golden", "injection", "yesno")
_TARGET = re.compile(r"^(\w+)\.(\w+)\s*(>=|<=|=)\s*(-?[0-9]*\.?[0-9]+)$")


def parse_targets(specs: list[str]) -> dict[str, dict[str, tuple[str, float]]]:
    """suites.TARGETS with the --target overrides applied. Raises CommandError for a malformed one."""
    targets = {suite: dict(metrics) for suite, metrics in suites.TARGETS.items()}
    for spec in specs:
        m = _TARGET.match(spec.replace(" ", ""))
        if not m:
            raise CommandError(f"--target {spec!r}: expected SUITE.METRIC>=VALUE, SUITE.METRIC<=VALUE or "
                               f"SUITE.METRIC=VALUE")
        suite, metric, op, value = m.group(1), m.group(2), m.group(3), float(m.group(4))
        if suite not in SUITES:
            raise CommandError(f"--target {spec!r}: unknown suite {suite!r}")
        known = suites.METRICS[suite] + suites.EXTRA_METRICS.get(suite, ())
        if metric not in known:
            raise CommandError(f"--target {spec!r}: {suite} has no metric {metric!r} (it has "
                               f"{', '.join(known)})")
        if op == "=":
            if metric not in targets.get(suite, {}):
                raise CommandError(f"--target {spec!r}: {suite}.{metric} has no target to change; give >= or <=")
            op = targets[suite][metric][0]
        targets.setdefault(suite, {})[metric] = (op, value)
    return targets


def progress_bar(enabled: bool):
    """A tqdm wrapper writing to stderr (disabled: the items unchanged)."""
    from tqdm import tqdm

    def wrap(items, desc: str = "", total: int | None = None, unit: str = "item"):
        if not enabled:
            return items
        return tqdm(items, desc=desc, total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=True)

    return wrap


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=settings.BASE_DIR, capture_output=True,
                             text=True, timeout=5, check=False)
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


class Command(BaseCommand):
    help = ("Evaluate abstention, answers, citations, support, conflicts or golden questions through the real "
            "pipeline; write results.json and report.html.")

    def add_arguments(self, parser):
        parser.add_argument("--suite", action="append", required=True, choices=SUITES + ("all",),
                            help="suite to run (repeat for several; 'all' for every suite)")
        parser.add_argument("--limit", type=int, default=None,
                            help="records per data set (defaults per suite: "
                                 + ", ".join(f"{k} {v}" for k, v in suites.DEFAULT_LIMITS.items() if v) + ")")
        parser.add_argument("--provider", choices=PROVIDERS, default="extractive",
                            help="answer provider (default: the offline extractive answerer)")
        parser.add_argument("--out", type=Path, default=None,
                            help="output folder (default: var/evaluation/<UTC time>)")
        parser.add_argument("--check", action="store_true",
                            help="exit non-zero when a metric misses its target")
        parser.add_argument("--target", action="append", default=[], metavar="SUITE.METRIC>=VALUE",
                            help="change or add a target (repeatable), e.g. abstention.correct_abstention_rate>=0.5")
        parser.add_argument("--file", type=Path, default=None, help="golden questions (JSON lines)")
        parser.add_argument("--corpus", type=Path, default=None,
                            help="golden: ingest this file or folder into a temporary domain and ask every "
                                 "question there")
        parser.add_argument("--split", choices=GOLDEN_SPLITS, default=None,
                            help="which half to ask: golden labelled sets (default: calibration; dev for a "
                                 "development file such as evaluation/golden/18f_dev.jsonl, fresh for "
                                 "evaluation/golden/18f_fresh.jsonl, fresh2 for "
                                 "evaluation/golden/18f_fresh2.jsonl, fresh3 for "
                                 "evaluation/golden/18f_fresh3.jsonl, fresh4 for "
                                 "evaluation/golden/18f_fresh4.jsonl, fresh5 for "
                                 "evaluation/golden/18f_fresh5.jsonl, fresh6 for "
                                 "evaluation/golden/18f_fresh6.jsonl, fresh7 for "
                                 "evaluation/golden/18f_fresh7.jsonl, fresh8 for "
                                 "evaluation/golden/18f_fresh8.jsonl, fresh9 for "
                                 "evaluation/golden/18f_fresh9.jsonl, fresh10 for "
                                 "evaluation/golden/18f_fresh10.jsonl, fresh11 for "
                                 "evaluation/golden/18f_fresh11.jsonl, fresh12 for "
                                 "evaluation/golden/18f_fresh12.jsonl, fresh13 for "
                                 "evaluation/golden/18f_fresh13.jsonl, fresh13r for "
                                 "evaluation/golden/18f_fresh13r.jsonl, fresh15 for "
                                 "evaluation/golden/18f_fresh15.jsonl, fresh16 for "
                                 "evaluation/golden/18f_fresh16.jsonl, fresh19y for "
                                 "evaluation/golden/fresh19_yesno.jsonl, fresh19r for "
                                 "evaluation/golden/18f_fresh19_nearmiss.jsonl, fresh20m for "
                                 "evaluation/golden/18f_fresh20_multi.jsonl, fresh20r for "
                                 "evaluation/golden/18f_fresh20_nearmiss.jsonl, fresh20c for "
                                 "evaluation/golden/18f_fresh20_conv.jsonl, fresh23c for "
                                 "evaluation/golden/18f_fresh23_conv.jsonl, fresh31 for "
                                 "evaluation/golden/18f_fresh31.jsonl, fresh33 for "
                                 "evaluation/golden/18f_fresh33.jsonl, fresh34 for "
                                 "evaluation/golden/18f_fresh34.jsonl, fresh35 for "
                                 "evaluation/golden/18f_fresh35.jsonl, fresh36 for "
                                 "evaluation/golden/18f_fresh36.jsonl, fresh37 for "
                                 "evaluation/golden/18f_fresh37.jsonl, fresh38 for "
                                 "evaluation/golden/18f_fresh38.jsonl, fresh39 for "
                                 "evaluation/golden/18f_fresh39.jsonl, fresh-versions for "
                                 "evaluation/golden/18f_versions.jsonl) and the abstention and yesno "
                                 "suites' public sets (default: all; calibration, test or all); the README reports "
                                 "test")
        parser.add_argument("--domain", default="",
                            help="golden: ask every question of this existing domain (read only)")
        parser.add_argument("--versions", type=Path, default=None,
                            help="golden with --corpus: the folder the items' revision files are relative to "
                                 "(default: the nearest parent of --corpus holding them)")
        parser.add_argument("--half", choices=("held_apart", "development"), default="held_apart",
                            help="injection: which half of the public sets to run (default: the held-apart half)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, suite, limit, provider, out, check, target, file, corpus, no_progress,
               half="held_apart", split=None, domain="", versions=None, **options):
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        chosen = list(dict.fromkeys(s for name in suite for s in (
            [x for x in SUITES if x != "golden" or file] if name == "all" else [name])))
        if "golden" in chosen and file is None:
            raise CommandError("--suite golden needs --file QUESTIONS.jsonl")
        if split not in (None, "calibration", "test", "all") and chosen != ["golden"]:
            raise CommandError(f"--split {split} applies to --suite golden only (the public sets have calibration "
                               "and test halves)")
        if corpus is not None and not corpus.exists():
            raise CommandError(f"--corpus {corpus}: no such file or folder")
        targets = parse_targets(target)
        try:
            answerer = make_provider(provider)
        except EvaluationError as exc:
            raise CommandError(str(exc))
        stamp = dt.datetime.now(dt.timezone.utc)
        out = out or Path(settings.VAR_DIR) / "evaluation" / stamp.strftime("%Y%m%d-%H%M%S")
        progress = progress_bar(not no_progress and sys.stderr.isatty())
        started = time.monotonic()
        results = []
        try:
            with Runner(answerer, progress) as runner:
                for name in chosen:
                    n = limit if limit is not None else suites.DEFAULT_LIMITS[name]
                    began = time.monotonic()
                    if name == "support":
                        results.append(run_support(n, targets, progress))
                    elif name == "injection":
                        results.append(run_injection(runner, n, targets, half=half))
                    elif name == "golden":
                        results.append(run_golden(file, answerer, n, corpus=corpus, domain=domain,
                                                  split=split or "calibration", versions=versions,
                                                  targets=targets, progress=progress))
                    elif name == "abstention":
                        results.append(run_abstention(runner, n, targets, split=split or "all"))
                    elif name == "yesno":
                        results.append(run_yesno(runner, n, targets, split=split or "all"))
                    else:
                        run = {"answers": run_answers, "citations": run_citations, "conflicts": run_conflicts}[name]
                        results.append(run(runner, n, targets))
                    results[-1].info.setdefault("limit", n)
                    results[-1].info["seconds"] = round(time.monotonic() - began, 1)
        except EvaluationError as exc:
            raise CommandError(str(exc))
        run_info = {
            "command": "python manage.py evaluate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
            if len(sys.argv) > 1 and sys.argv[1] == "evaluate" else "python manage.py evaluate (called from code)",
            "suites": chosen, "provider": answerer.name, "limit": limit, "started": stamp.isoformat(timespec="seconds"),
            "seconds": round(time.monotonic() - started, 1), "commit": _commit(),
            "targets": {s: {m: f"{op} {v:g}" for m, (op, v) in t.items()} for s, t in targets.items() if s in chosen},
        }
        json_path, html_path = report.write(out, results, run_info)
        self.stdout.write(report.summary_table(results))
        for r in results:
            if r.suite == "golden" and (table := kind_table(r)):
                self.stdout.write(f"\ngolden per kind ({r.info.get('split')} split):\n{table}")
        self.stdout.write(f"\nwrote {json_path} and {html_path} ({run_info['seconds']} s)")
        missing = report.unmeasured(results)
        if missing:
            self.stdout.write(f"not measured (no items): {', '.join(missing)}")
        errors = [f"{r.suite}: {r.info['errors']} item(s) failed in the pipeline" for r in results
                  if r.info.get("errors")]
        if errors:
            self.stdout.write("; ".join(errors) + f" (see {json_path})")
        failed = report.failures(results) + [f"{m} not measured" for m in missing] + errors
        if check and failed:
            raise CommandError("check failed: " + "; ".join(failed))
        if check:
            self.stdout.write("check passed: every metric with a target meets it")
