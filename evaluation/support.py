"""The support check measured against expert labels (``manage.py support_eval`` and ``evaluate --suite support``).

Runs grounding.support.check_support on the claims of ExpertQA (Malaviya et al. 2024, NAACL;
../shared/eval/expertqa/rand_test.jsonl by default), each claim with the evidence passages it cites, and compares
the result with the experts' support labels.

Data: one record per question; ``answers -> {system: {claims: [...]}}``; a claim has ``claim_string`` with markers
"[n]", ``evidence`` items "[n] URL\\n\\npassage" (or the URL alone) and ``support`` in Complete / Partial /
Incomplete / Missing / N/A. A claim is used when it has a support label other than N/A and at least one evidence
item with passage text; its sources are {"S<n>": passage}, its markers "[n]" become "[S<n>]" (a claim without any
marker cites all of its evidence). In rand_test every "Missing" claim has no evidence text, so the claims used are
Complete / Partial / Incomplete.

Labels (positive class = "not supported"):

* A, the standard mapping of ExpertQA's own attribution code (modeling/auto_attribution: compute_human_correlation.py
  and finetune_autoais.py count only "Complete" as attributable) and of AttributionBench (Li et al. 2024): gold
  positive = not Complete (Partial, Incomplete, Missing); predicted positive = any factual sentence of the claim is
  flagged (weak, unsupported or uncited). This is the headline figure and it sets the "supported" threshold.
* B, "not supported at all": gold positive = Incomplete or Missing (annotators wrote e.g. "Evidence completely
  unrelated" for Incomplete, "not entirely relevant" for Partial), Partial counting as supported; predicted
  positive = a sentence is unsupported or uncited (the strong mark). It sets the "weak" threshold.

With --calibrate, the records (questions, so one answer's claims never straddle the halves) are shuffled with a fixed
seed and halved; on the calibration half, over the grid 0.30..0.95 by 0.01:

* supported = the threshold with the best balanced accuracy under A (ties to the lower threshold);
* weak = the highest threshold <= supported at which at most MAX_FALSE_ALARM (10%) of the claims the experts judged
  at least partly supported (Complete or Partial) get the strong mark under B. Cosine does not separate Partial from
  Incomplete on these labels (ROC AUC 0.61 and 0.60 against the rest), so a best-balanced-accuracy weak threshold
  lands on the supported one and leaves no weak band; a bounded false-alarm rate for "unsupported" is what the data
  can support.

Both halves are reported; the held-out half is the honest figure. A [stability] line repeats the calibration over
20 other halvings (seeds 0..19) and gives the mean and spread of their held-out figures: one halving of ~150
questions moves balanced accuracy by a few points, so the mean is the figure to quote.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from evaluation.common import CachingEmbedder, EvaluationError, eval_dir
from grounding.citations import parse_markers
from grounding.embeddings import Embedder, default_embedder
from grounding.support import check_support
from grounding.support_report import SupportReport, SupportThresholds, regrade

SEED = 13
STABILITY_SEEDS = tuple(range(20))
MAX_FALSE_ALARM = 0.10
GRID = [round(0.30 + 0.01 * i, 2) for i in range(66)]  # 0.30 .. 0.95
_EVIDENCE = re.compile(r"\[(\d{1,3})\][^\n]*(?:\n\n(.*))?\Z", re.S)


def default_path() -> Path:
    return eval_dir() / "expertqa" / "rand_test.jsonl"


@dataclass(frozen=True)
class Claim:
    """One labelled claim: its record (question) index, answer text with [S#] markers, sources, expert label."""

    record: int
    text: str
    sources: dict[str, str]
    support: str


def load_claims(path: Path, limit: int | None = None) -> tuple[list[Claim], dict[str, int]]:
    """Claims of the first ``limit`` records (all when None) with passage evidence and a support label.

    Returns the claims and counts of the skipped ones by reason. Raises EvaluationError for a missing/broken file.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise EvaluationError(f"cannot read {path}: {exc}")
    claims: list[Claim] = []
    skipped = {"no_label": 0, "no_evidence_text": 0}
    records = [line for line in lines if line.strip()]
    for index, line in enumerate(records[:limit] if limit is not None else records):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvaluationError(f"{path}: record {index + 1} is not JSON: {exc}")
        for answer in record.get("answers", {}).values():
            for claim in answer.get("claims", []):
                support = (claim.get("support") or "").strip()
                if support in ("", "N/A"):
                    skipped["no_label"] += 1
                    continue
                sources: dict[str, str] = {}
                for item in claim.get("evidence") or []:
                    m = _EVIDENCE.match(item)
                    if m and m.group(2) and m.group(2).strip():
                        sources.setdefault(f"S{m.group(1)}", m.group(2).strip())
                if not sources:
                    skipped["no_evidence_text"] += 1
                    continue
                claims.append(Claim(index, _relabel(claim["claim_string"], sources), sources, support))
    return claims, skipped


def _relabel(text: str, sources: dict[str, str]) -> str:
    """Claim text with its "[n]" markers as "[Sn]"; a claim without markers cites all its evidence at its end."""
    markers = parse_markers(text)
    if not markers:
        return text.rstrip() + " " + "".join(f"[{label}]" for label in sources)
    out, pos = [], 0
    for m in markers:
        labels = ", ".join(f"S{lab}" if lab.isdigit() else lab for lab in m.labels)
        out += [text[pos:m.start], f"[{labels}]"]
        pos = m.end
    return "".join(out) + text[pos:]


class _Recorder:
    """Stands in for the embedder on a dry run, to learn which texts the check will embed."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.name = "recorder"
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return np.zeros((len(texts), self.dim), dtype=np.float32)


@dataclass(frozen=True)
class Scores:
    """Confusion counts for the positive class "not supported", and the derived figures."""

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def specificity(self) -> float:
        return self.tn / (self.tn + self.fp) if self.tn + self.fp else 0.0

    @property
    def balanced_accuracy(self) -> float:
        return (self.recall + self.specificity) / 2

    def line(self) -> str:
        return (f"n={self.n} balanced_accuracy={self.balanced_accuracy:.3f} precision={self.precision:.3f} "
                f"recall={self.recall:.3f} tp={self.tp} fp={self.fp} fn={self.fn} tn={self.tn}")


_FLAGGED = {"A": frozenset({"weak", "unsupported", "uncited"}), "B": frozenset({"unsupported", "uncited"})}
_GOLD = {"A": frozenset({"Partial", "Incomplete", "Missing"}), "B": frozenset({"Incomplete", "Missing"})}


def score(claims: Sequence[Claim], reports: Sequence[SupportReport], mapping: str) -> Scores:
    """Confusion counts under mapping "A" or "B" (see the module docstring)."""
    tp = fp = fn = tn = 0
    for claim, report in zip(claims, reports):
        gold = claim.support in _GOLD[mapping]
        flagged = any(s.status in _FLAGGED[mapping] for s in report.sentences)
        tp += gold and flagged
        fp += flagged and not gold
        fn += gold and not flagged
        tn += not gold and not flagged
    return Scores(tp, fp, fn, tn)


def halves(claims: Sequence[Claim], seed: int) -> tuple[list[int], list[int]]:
    """Indices of the calibration and held-out claims: the records shuffled with ``seed`` and cut in two halves."""
    records = sorted({c.record for c in claims})
    random.Random(seed).shuffle(records)
    calibration = set(records[: len(records) // 2])
    return ([i for i, c in enumerate(claims) if c.record in calibration],
            [i for i, c in enumerate(claims) if c.record not in calibration])


def fit_thresholds(claims: Sequence[Claim], reports: Sequence[SupportReport]) -> SupportThresholds:
    """Calibrated thresholds on these claims (see the module docstring): supported by the best balanced accuracy
    under A, weak as the highest threshold <= supported with a false-alarm rate under B of at most MAX_FALSE_ALARM
    (the lowest grid value when none qualifies)."""
    def scores(thresholds: SupportThresholds, mapping: str) -> Scores:
        return score(claims, [regrade(r, thresholds) for r in reports], mapping)

    supported = max(GRID, key=lambda t: (scores(SupportThresholds(t, t), "A").balanced_accuracy, -t))
    weak = max((t for t in GRID if t <= supported
                and 1 - scores(SupportThresholds(supported, t), "B").specificity <= MAX_FALSE_ALARM), default=GRID[0])
    return SupportThresholds(supported=supported, weak=weak)




def check_claims(claims: Sequence[Claim], embedder: Embedder | None = None, *,
                 progress: Callable[..., Iterable] | None = None, batch: int = 128) -> list[SupportReport]:
    """The support check of every claim with the shipped thresholds. All texts are embedded first, in large batches
    (a dry run with a recording embedder learns which); ``progress`` wraps the iteration over those batches."""
    cached = CachingEmbedder(embedder or default_embedder())
    recorder = _Recorder(cached.dim)
    for c in claims:
        check_support(c.text, c.sources, recorder)
    texts = list(dict.fromkeys(recorder.texts))
    starts = range(0, len(texts), batch)
    for start in (progress(starts, desc="support", total=len(starts), unit="batch") if progress else starts):
        cached.prefetch(texts[start:start + batch])
    return [check_support(c.text, c.sources, cached) for c in claims]


def stability(claims: Sequence[Claim], reports: Sequence[SupportReport],
              seeds: Sequence[int] = STABILITY_SEEDS) -> list[float]:
    """Held-out balanced accuracy under A of the calibration repeated over other halvings (one figure per seed; empty
    when a halving leaves a half without claims)."""
    figures = []
    for seed in seeds:
        cal, held = halves(claims, seed)
        if not cal or not held:
            return []
        best = fit_thresholds([claims[i] for i in cal], [reports[i] for i in cal])
        graded = [regrade(reports[i], best) for i in held]
        figures.append(score([claims[i] for i in held], graded, "A").balanced_accuracy)
    return figures
