"""The check suites of ``manage.py evaluate``: support and conflicts.

Owns how each is run and scored: support runs the support check on ExpertQA claims as ``support_eval`` does
(evaluation.support); conflicts measures the contradiction detector as ``conflict_eval`` does (evaluation.conflicts)
and then asks the same records through the pipeline (evaluation.runner) for the notes the answers carry.
"""

from __future__ import annotations

from evaluation import data
from evaluation.common import CachingEmbedder, EvaluationError
from evaluation.metrics import Metric, SuiteResult, Tally
from evaluation.runner import Outcome, Progress, Runner, no_progress, shorten, suite_info
from evaluation.suites import target_of

__all__ = ["run_conflicts", "run_support"]


# --- support ------------------------------------------------------------------------------------------------------

def run_support(limit: int | None, targets: dict | None = None, progress: Progress = no_progress) -> SuiteResult:
    """The support check (shipped thresholds) on ExpertQA claims with the experts' labels, as ``support_eval``:
    balanced accuracy, precision and recall of "not supported" under mapping A (not Complete), balanced accuracy
    under B (Incomplete/Missing), and the share of claims flagged per expert label."""
    from evaluation.support import check_claims, default_path, load_claims, score
    from grounding.support_report import DEFAULT, regrade

    path = default_path()
    claims, skipped = load_claims(path, limit)
    if not claims:
        raise EvaluationError(f"{path}: no claim with evidence text and a support label")
    reports = [regrade(r, DEFAULT) for r in check_claims(claims, progress=progress)]
    a, b = score(claims, reports, "A"), score(claims, reports, "B")
    flagged = Tally()
    for label in ("Complete", "Partial", "Incomplete", "Missing"):
        for c, r in zip(claims, reports):
            if c.support == label:
                flagged.add(label, any(s.status in ("weak", "unsupported", "uncited") for s in r.sentences))

    def single(name: str, description: str, value: float, n: int, defined: bool = True) -> Metric:
        shown = value if n and defined else None
        return Metric(name, description, shown, n, by={"all claims": (shown, n)}, **target_of("support", name, targets))

    def balanced(s) -> tuple[float, int, bool]:  # undefined unless both classes occur
        return s.balanced_accuracy, s.n, bool(s.tp + s.fn) and bool(s.tn + s.fp)

    metrics = [
        single("balanced_accuracy", "balanced accuracy of 'not supported' (A: gold = not Complete)", *balanced(a)),
        single("precision", "flagged claims the experts did not judge Complete (A)", a.precision, a.tp + a.fp),
        single("recall", "claims not judged Complete that are flagged (A)", a.recall, a.tp + a.fn),
        single("balanced_accuracy_b", "balanced accuracy of 'unsupported' (B: gold = Incomplete or Missing)",
               *balanced(b)),
        flagged.metric("flagged_by_label", "claims flagged weak, unsupported or uncited, per expert label"),
    ]
    records = [{"record": c.record, "claim": shorten(c.text, 300), "support": c.support,
                "statuses": [s.status for s in r.sentences]} for c, r in zip(claims, reports)]
    info = {"limit": limit, "claims": len(claims), "records": len({c.record for c in claims}), "skipped": skipped,
            "thresholds": {"supported": DEFAULT.supported, "weak": DEFAULT.weak},
            "A": a.line(), "B": b.line()}
    return SuiteResult("support", metrics, records, info)


# --- conflicts ----------------------------------------------------------------------------------------------------

def _pair_noted(o: Outcome) -> bool:
    wanted = {frozenset(p) for p in o.case.pairs}
    return any(frozenset(o.titles.get(lab, lab) for lab in n["labels"]) in wanted for n in o.result.get("notes", []))


def run_conflicts(runner: Runner, limit: int | None, targets: dict | None = None) -> SuiteResult:
    """The contradiction detector as ``conflict_eval`` measures it (recall on ConflictQA and RGB pairs, false flags
    on RAMDocs' consistent pairs; calibration half, held-out half and all records at the shipped similarity), then
    the same records asked through the pipeline: ``note_recall`` (the answer carries a note between a conflicting
    pair) and ``false_notes`` (a consistent set's answer carries any note)."""
    from evaluation.conflicts import SUITES, evaluate, metric_of
    from grounding.contradictions import ALIGN_SIMILARITY
    from grounding.embeddings import default_embedder

    detector = evaluate(SUITES, limit=limit, embedder=CachingEmbedder(runner.embedder or default_embedder()),
                        similarity=ALIGN_SIMILARITY, progress=runner.progress)
    metrics = []
    for suite, parts in detector["suites"].items():
        name = f"{suite}_{metric_of(suite)}"
        what = ("conflicting passage pairs flagged" if metric_of(suite) == "recall"
                else "consistent passage pairs flagged")
        by = {half: (parts[half][metric_of(suite)] if parts[half]["n"] else None, parts[half]["n"])
              for half in ("calibration", "held_out", "all")}
        metrics.append(Metric(name, f"detector: {what} ({suite})", by["all"][0], parts["all"]["n"], by=by,
                              **target_of("conflicts", name, targets)))
    outcomes = runner.run(data.conflict_cases(limit), "conflicts")
    recall, false = Tally(), Tally()
    records = []
    for o in outcomes:
        if o.error:
            records.append(o.record())
            continue
        if o.case.pairs:
            hit = _pair_noted(o)
            recall.add(o.case.dataset, hit)
        else:
            hit = bool(o.result.get("notes"))
            false.add(o.case.dataset, hit)
        records.append(o.record(expected_pairs=[list(p) for p in o.case.pairs], noted=hit))
    metrics += [
        recall.metric("note_recall", "pipeline: answers noting a conflicting pair of their record",
                      **target_of("conflicts", "note_recall", targets)),
        false.metric("false_notes", "pipeline: answers over a consistent set that carry a note",
                     **target_of("conflicts", "false_notes", targets)),
    ]
    info = suite_info(outcomes, limit=limit, similarity=detector["similarity"], seed=detector["seed"],
                 detector={s: parts["all"] for s, parts in detector["suites"].items()})
    return SuiteResult("conflicts", metrics, records, info)
