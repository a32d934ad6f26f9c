"""The contradiction detector measured on public data (``manage.py conflict_eval`` and ``evaluate --suite conflicts``).

Measures the contradiction detector (grounding.contradictions.detect_conflicts) on public data in ../shared/eval:

- conflictqa (recall): ConflictQA-StrategyQA-GPT4 (Xie et al. 2024), one pair per question: parametric_memory vs
  counter_memory, two passages that argue opposite answers. n = questions; a pair should be flagged.
- rgb (recall): RGB en_fact (Chen et al. 2024, counterfactual robustness), positive[i] vs positive_wrong[i], the same
  passage with the answer rewritten to the fake one. n = passage pairs that differ (a rewrite that changed nothing is
  counted apart as "unchanged"); a pair should be flagged.
- ramdocs (false flags): RAMDocs (Wang et al. 2025), records with at least two documents labelled "correct"; pairs
  of correct documents that give the SAME answer are consistent and should NOT be flagged. n = such pairs. Pairs of
  correct documents with DIFFERENT answers are about different entities that share a name (RAMDocs' ambiguity
  cases, e.g. two towns called Broken Bow): a value mismatch there is a true statement about the passages, so they
  are reported apart ("ambiguous flagged"), not counted as false flags.

Each passage becomes a grounding.types.Source of its own document (labels S1, S2, ...). Records are split into two
halves with a fixed seed (records, not pairs, so the passages of one RGB question never straddle the halves):
``--calibrate`` sweeps the alignment similarity (0.40..0.80) on the calibration half and picks the most conservative
value (the highest: fewest notes) whose calibration figures meet every target, with the false-flag bound tightened to
0.08 (0.02 below the 0.10 target, about one standard error for the ~260 pairs of a half); the held-out half is
reported at the module default (grounding.contradictions.ALIGN_SIMILARITY, set from that calibration). Targets:
recall >= 0.80, false flags <= 0.10.

Cost: one embed call per record; the whole run embeds about 16,000 sentences (about 5 minutes on 2 cores); a cache
makes the calibration sweep cost no more embedding.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from evaluation.common import eval_dir, read_jsonl
from grounding.contradictions import detect_conflicts
from grounding.types import Source

SUITES = ("conflictqa", "rgb", "ramdocs")
TARGET_RECALL = 0.80
TARGET_FALSE_FLAGS = 0.10
CALIBRATION_FALSE_FLAGS = 0.08
SWEEP = tuple(round(0.40 + 0.05 * i, 2) for i in range(9))  # 0.40 .. 0.80
SEED = 13


@dataclass(frozen=True)
class Case:
    """One record of a suite: its passages and which label pairs are expected to conflict or not.

    Attributes:
        record: index of the record in its file.
        texts: the passages, labelled S1.. in this order.
        positive: label pairs that should be flagged (recall suites).
        negative: label pairs that should not be flagged (false-flag suite).
        ambiguous: label pairs reported apart (RAMDocs correct documents with different answers).
        unchanged: pairs left out because both passages are the same text.
    """

    record: int
    texts: tuple[str, ...]
    positive: tuple[tuple[str, str], ...] = ()
    negative: tuple[tuple[str, str], ...] = ()
    ambiguous: tuple[tuple[str, str], ...] = ()
    unchanged: int = 0


def load_conflictqa(limit: int | None) -> list[Case]:
    """ConflictQA: (parametric_memory, counter_memory) per question, both passages non-empty."""
    cases = []
    for i, r in enumerate(read_jsonl(eval_dir() / "conflictqa" / "conflictQA-strategyQA-gpt4.dev.jsonl")):
        if limit is not None and i >= limit:
            break
        a, b = (r.get("parametric_memory") or "").strip(), (r.get("counter_memory") or "").strip()
        if a and b:
            cases.append(Case(i, (a, b), positive=(("S1", "S2"),)))
    return cases


def load_rgb(limit: int | None) -> list[Case]:
    """RGB en_fact: positive[k] paired with positive_wrong[k]; identical pairs are counted as unchanged."""
    cases = []
    for i, r in enumerate(read_jsonl(eval_dir() / "rgb" / "en_fact.dev.json")):
        if limit is not None and i >= limit:
            break
        texts: list[str] = []
        positive: list[tuple[str, str]] = []
        unchanged = 0
        for right, wrong in zip(r.get("positive", []), r.get("positive_wrong", [])):
            if right.strip() == wrong.strip() or not right.strip():
                unchanged += 1
                continue
            texts += [right, wrong]
            positive.append((f"S{len(texts) - 1}", f"S{len(texts)}"))
        cases.append(Case(i, tuple(texts), positive=tuple(positive), unchanged=unchanged))
    return cases


def load_ramdocs(limit: int | None) -> list[Case]:
    """RAMDocs: records with >= 2 correct documents; same-answer pairs are negatives, other pairs ambiguous."""
    cases = []
    for i, r in enumerate(read_jsonl(eval_dir() / "ramdocs" / "RAMDocs_dev.jsonl")):
        if limit is not None and i >= limit:
            break
        correct = [d for d in r.get("documents", []) if d.get("type") == "correct" and d.get("text", "").strip()]
        if len(correct) < 2:
            continue
        negative, ambiguous = [], []
        for x in range(len(correct)):
            for y in range(x + 1, len(correct)):
                pair = (f"S{x + 1}", f"S{y + 1}")
                same = correct[x]["answer"].strip().lower() == correct[y]["answer"].strip().lower()
                (negative if same else ambiguous).append(pair)
        cases.append(Case(i, tuple(d["text"] for d in correct), negative=tuple(negative),
                          ambiguous=tuple(ambiguous)))
    return cases


LOADERS = {"conflictqa": load_conflictqa, "rgb": load_rgb, "ramdocs": load_ramdocs}


def sources_of(suite: str, case: Case) -> list[Source]:
    """One Source per passage, each its own document and version (so every pair is a candidate)."""
    return [Source(label=f"S{k + 1}", chunk_ids=(k + 1,), document_id=k + 1, version_id=k + 1,
                   title=f"{suite} record {case.record} passage {k + 1}", section="", version="", date="",
                   text=text, score=0.0, tokens=0) for k, text in enumerate(case.texts)]


def halves(cases: Sequence[Case], seed: int = SEED) -> tuple[list[Case], list[Case]]:
    """(calibration half, held-out half): records shuffled with a fixed seed, the first half (rounded up) first."""
    order = list(range(len(cases)))
    random.Random(seed).shuffle(order)
    cut = (len(order) + 1) // 2
    return [cases[i] for i in sorted(order[:cut])], [cases[i] for i in sorted(order[cut:])]


@dataclass
class Tally:
    """Counts of one suite (or half): n pairs, flagged among them, and the extras."""

    n: int = 0
    flagged: int = 0
    ambiguous: int = 0
    ambiguous_flagged: int = 0
    unchanged: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def __add__(self, other: Tally) -> Tally:
        kinds = dict(self.kinds)
        for k, v in other.kinds.items():
            kinds[k] = kinds.get(k, 0) + v
        return Tally(self.n + other.n, self.flagged + other.flagged, self.ambiguous + other.ambiguous,
                     self.ambiguous_flagged + other.ambiguous_flagged, self.unchanged + other.unchanged, kinds)

    @property
    def rate(self) -> float:
        return self.flagged / self.n if self.n else 0.0

    def as_dict(self, metric: str) -> dict:
        out = {"n": self.n, "flagged": self.flagged, metric: round(self.rate, 4), "kinds": dict(sorted(
            self.kinds.items()))}
        if self.ambiguous:
            out.update(ambiguous=self.ambiguous, ambiguous_flagged=self.ambiguous_flagged)
        if self.unchanged:
            out["unchanged"] = self.unchanged
        return out


def run_cases(suite: str, cases: Sequence[Case], embedder, similarity: float,
              progress: Callable[..., Iterable] | None = None) -> Tally:
    """Run the detector once per record and count the expected pairs it flags (``progress`` wraps the records)."""
    tally = Tally()
    for case in progress(cases, desc=f"detector {suite}", total=len(cases)) if progress else cases:
        tally.unchanged += case.unchanged
        if len(case.texts) < 2:
            continue
        sources = sources_of(suite, case)
        pairs = len(sources) * (len(sources) - 1) // 2
        conflicts = detect_conflicts(sources, embedder, similarity=similarity, max_pairs=pairs)
        by_pair = {tuple(sorted(c.labels, key=lambda x: int(x[1:]))): c for c in conflicts}
        expected = case.positive or case.negative
        for pair in expected:
            tally.n += 1
            if pair in by_pair:
                tally.flagged += 1
                kind = by_pair[pair].kind
                tally.kinds[kind] = tally.kinds.get(kind, 0) + 1
        for pair in case.ambiguous:
            tally.ambiguous += 1
            tally.ambiguous_flagged += pair in by_pair
    return tally


def metric_of(suite: str) -> str:
    return "false_flags" if suite == "ramdocs" else "recall"


def evaluate(suites: Sequence[str], *, limit: int | None, embedder, similarity: float,
             calibrate: bool = False, seed: int = SEED, progress: Callable[..., Iterable] | None = None) -> dict:
    """Metrics per suite for the calibration half, the held-out half and all records; with ``calibrate``, a sweep of
    the similarity on the calibration half and the value it picks.

    Returns:
        {"similarity", "suites": {suite: {"calibration", "held_out", "all"}}, "sweep"?, "chosen"?, "summary"}.
    """
    loaded = {s: LOADERS[s](limit) for s in suites}
    split = {s: halves(cases, seed) for s, cases in loaded.items()}
    result: dict = {"similarity": similarity, "seed": seed, "limit": limit, "suites": {}}
    if calibrate:
        sweep = []
        for value in SWEEP:
            row = {"similarity": value}
            for s in suites:
                row[s] = round(run_cases(s, split[s][0], embedder, value).rate, 4)
            sweep.append(row)
        result["sweep"] = sweep
        result["chosen"] = choose(sweep, suites)
        similarity = result["chosen"] if result["chosen"] is not None else similarity
        result["similarity"] = similarity
    for s in suites:
        metric = metric_of(s)
        cal = run_cases(s, split[s][0], embedder, similarity, progress)
        held = run_cases(s, split[s][1], embedder, similarity, progress)
        result["suites"][s] = {"calibration": cal.as_dict(metric), "held_out": held.as_dict(metric),
                               "all": (cal + held).as_dict(metric)}
    result["summary"] = summary(result["suites"])
    return result


def choose(sweep: Sequence[dict], suites: Sequence[str]) -> float | None:
    """The most conservative similarity (the highest, so the fewest notes) whose calibration-half figures meet
    every target: recall >= TARGET_RECALL on each recall suite and false flags <= CALIBRATION_FALSE_FLAGS. When no
    value meets them all, the value with the best mean recall among those within the false-flag bound; None when
    none is within it."""
    recall_suites = [s for s in suites if metric_of(s) == "recall"]
    within = [row for row in sweep if "ramdocs" not in suites or row["ramdocs"] <= CALIBRATION_FALSE_FLAGS]
    meeting = [row for row in within if all(row[s] >= TARGET_RECALL for s in recall_suites)]
    if meeting:
        return max(row["similarity"] for row in meeting)
    if not within:
        return None
    best = max(within, key=lambda row: (sum(row[s] for s in recall_suites), row["similarity"]))
    return best["similarity"]


def summary(per_suite: dict) -> dict:
    """Held-out figures against the targets."""
    out = {}
    for s, parts in per_suite.items():
        metric = metric_of(s)
        value = parts["held_out"][metric]
        ok = value >= TARGET_RECALL if metric == "recall" else value <= TARGET_FALSE_FLAGS
        out[s] = {"metric": metric, "held_out": value, "target": TARGET_RECALL if metric == "recall"
                  else TARGET_FALSE_FLAGS, "met": ok}
    return out


def render(result: dict) -> str:
    lines = []
    if "sweep" in result:
        names = [k for k in result["sweep"][0] if k != "similarity"]
        lines.append("calibration sweep (calibration half): similarity " + " ".join(f"{n:>11}" for n in names))
        for row in result["sweep"]:
            lines.append(f"  {row['similarity']:.2f}{'':27}" + " ".join(f"{row[n]:>11.3f}" for n in names))
        lines.append(f"chosen similarity: {result['chosen']}")
    lines.append(f"similarity {result['similarity']}, split seed {result['seed']}"
                 + (f", first {result['limit']} records per suite" if result["limit"] else ""))
    for s, parts in result["suites"].items():
        metric = metric_of(s)
        for half in ("calibration", "held_out", "all"):
            p = parts[half]
            extra = ""
            if "ambiguous" in p:
                extra += f"; ambiguous (different answers) flagged {p['ambiguous_flagged']}/{p['ambiguous']}"
            if "unchanged" in p:
                extra += f"; unchanged pairs left out {p['unchanged']}"
            kinds = ", ".join(f"{k} {v}" for k, v in p["kinds"].items())
            lines.append(f"{s:>10} {half:<11} n={p['n']:<4} {metric} {p[metric]:.3f} "
                         f"({p['flagged']} flagged{': ' + kinds if kinds else ''}){extra}")
    lines.append("summary (held-out half):")
    for s, row in result["summary"].items():
        sign = ">=" if row["metric"] == "recall" else "<="
        lines.append(f"  {s}: {row['metric']} {row['held_out']:.3f} (target {sign} {row['target']:.2f}) "
                     f"{'met' if row['met'] else 'NOT met'}")
    return "\n".join(lines)
