"""The suites of ``manage.py evaluate``: what each asks, of which data, and how its metrics are computed.

abstention, answers, citations and the pipeline part of conflicts ask questions through the real pipeline
(evaluation.pipeline.ask, the code path of ``ask --json``) in a temporary domain holding each record's
passages; support and the detector part of conflicts call the code of ``support_eval`` and ``conflict_eval``;
golden asks a project's own questions of its own domains (or of a folder ingested into a temporary domain).

Items the pipeline refuses (an AskError: a question over the length limit, a provider failure) are left out of the
rates and counted under ``errors`` in the suite's info.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from evaluation import data, injection
from evaluation.common import CachingEmbedder, EvaluationError, read_jsonl
from evaluation.data import Case
from evaluation.golden_run import BASE_METRICS, LABELLED_METRICS, LABELLED_TARGETS, run_golden
from evaluation.metrics import Metric, SuiteResult, Tally, contains, contains_all, exact
from evaluation.pipeline import TemporaryDomain, ask, chip_spans

#: Targets checked by --check (suite -> metric -> (op, value)); other metrics are reported without a target.
TARGETS: dict[str, dict[str, tuple[str, float]]] = {
    "abstention": {"correct_abstention_rate": (">=", 0.90), "false_refusal_rate": ("<=", 0.10)},
    "citations": {"citations_resolved": (">=", 1.0)},
    "support": {"balanced_accuracy": (">=", 0.75)},
    "conflicts": {"conflictqa_recall": (">=", 0.80), "rgb_recall": (">=", 0.80), "ramdocs_false_flags": ("<=", 0.10)},
    "golden": {"pass_rate": (">=", 1.0), **LABELLED_TARGETS},
    "injection": dict(injection.TARGETS),
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
}

#: Metrics a suite reports only on some inputs (golden: a labelled set such as evaluation/golden/18f.jsonl).
EXTRA_METRICS: dict[str, tuple[str, ...]] = {"golden": LABELLED_METRICS}

#: Records per data set when --limit is not given: a run of every suite (abstention and answers ask about 130 and 80
#: questions, citations reuses their answers) takes 8 minutes on 2 cores.
DEFAULT_LIMITS = {"abstention": 40, "answers": 40, "citations": 25, "support": 60, "conflicts": 60, "golden": None,
                  "injection": None}

Progress = Callable[..., Iterable]


def no_progress(items: Iterable, **_: Any) -> Iterable:
    return items


def _target(suite: str, metric: str, targets: dict | None = None) -> dict[str, Any]:
    op_value = (targets or TARGETS).get(suite, {}).get(metric)
    return {"op": op_value[0], "target": op_value[1]} if op_value else {}


def _short(text: str, limit: int = 400) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


@dataclass
class Outcome:
    """One answered case: the ``ask`` result, the document title of each source label, and one check per rendered
    citation chip ({"label", "resolved", "highlighted", "problem"})."""

    case: Case
    result: dict[str, Any]
    titles: dict[str, str] = field(default_factory=dict)
    chips: list[dict[str, Any]] = field(default_factory=list)

    @property
    def error(self) -> str:
        return self.result.get("error", "")

    @property
    def abstained(self) -> bool:
        return bool(self.result.get("abstained"))

    @property
    def answer(self) -> str:
        return self.result.get("answer", "")

    def record(self, **extra: Any) -> dict[str, Any]:
        """The JSON entry of this item in a suite's records."""
        c = self.case
        out: dict[str, Any] = {"dataset": c.dataset, "record": c.record, "variant": c.variant,
                               "question": _short(c.question, 300)}
        if self.error:
            out.update(error=self.error, message=self.result.get("message", ""))
        else:
            out.update(answer=_short(self.answer), abstained=self.abstained,
                       sufficient=self.result.get("sufficient", True),
                       cited=[ch["label"] for ch in self.chips],
                       notes=[{"kind": n["kind"], "documents": [self.titles.get(lab, lab) for lab in n["labels"]]}
                              for n in self.result.get("notes", [])])
        out.update(extra)
        return out


_WS = re.compile(r"\s+")


def _flat(text: str) -> str:
    return _WS.sub(" ", text).strip()


def check_chips(result: dict[str, Any], chunks: dict[int, tuple[str, str]]) -> list[dict[str, Any]]:
    """One check per rendered citation chip of an answer (in text order).

    A chip resolves when its label is a citation of the answer, every chunk of the labelled source is a chunk of the
    domain, the citation names that source's first chunk and its document's title, and its highlighted sentence (the
    chip's span, when it has one) is text of those chunks (whitespace aside). ``highlighted`` says it has one.
    """
    citations = {c["label"]: c for c in result.get("citations", [])}
    spans = result.get("spans", [])
    out = []
    for label, k in chip_spans(result.get("html", "")):
        cited = spans[k]["cited_text"] if 0 <= k < len(spans) and spans[k].get("label") == label else ""
        ids = result.get("source_chunks", {}).get(label, [])
        citation = citations.get(label)
        problem = ""
        if citation is None or not ids:
            problem = "label is not a source of the answer"
        elif any(i not in chunks for i in ids):
            problem = "chunk is not in the domain"
        elif citation["chunk_id"] != ids[0] or citation["title"] != chunks[ids[0]][0]:
            problem = "citation metadata differs from the chunk's"
        elif cited and _flat(cited) not in _flat(" ".join(chunks[i][1] for i in ids)):
            problem = "highlighted text is not in the cited source"
        out.append({"label": label, "resolved": not problem, "highlighted": bool(cited) and not problem,
                    "problem": problem})
    return out


class Runner:
    """Asks cases through the pipeline in one temporary domain (reloaded per record), each case once per run, so
    suites that read the same cases (answers and citations) share the answers."""

    def __init__(self, provider, progress: Progress = no_progress, embedder=None) -> None:
        self.provider = provider
        self.progress = progress
        self.embedder = embedder
        self.memo: dict[tuple, Outcome] = {}
        self.temporary: TemporaryDomain | None = None

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        if self.temporary is not None:
            self.temporary.__exit__(*exc)
            self.temporary = None

    def domain(self) -> TemporaryDomain:
        if self.temporary is None:
            self.temporary = TemporaryDomain(self.embedder).__enter__()
        return self.temporary

    def run(self, cases: Sequence[Case], desc: str) -> list[Outcome]:
        outcomes = []
        for case in self.progress(cases, desc=desc, total=len(cases)):
            if case.key not in self.memo:
                self.memo[case.key] = self._ask(case)
            outcomes.append(self.memo[case.key])
        return outcomes

    def _ask(self, case: Case) -> Outcome:
        temporary = self.domain()
        try:
            temporary.load(case.documents)
        except EvaluationError as exc:
            return Outcome(case, {"error": "ingest", "message": str(exc)})
        result = ask(temporary.domain, case.question, self.provider)
        if "error" in result:
            return Outcome(case, result)
        titles = {label: temporary.chunks[ids[0]][0] for label, ids in result["source_chunks"].items()
                  if ids and ids[0] in temporary.chunks}
        return Outcome(case, result, titles, check_chips(result, temporary.chunks))


def _info(outcomes: Sequence[Outcome], **extra: Any) -> dict[str, Any]:
    per: dict[str, int] = {}
    for o in outcomes:
        per[o.case.dataset] = per.get(o.case.dataset, 0) + 1
    return {"items": len(outcomes), "per_dataset": per, "errors": sum(bool(o.error) for o in outcomes), **extra}


# --- abstention ---------------------------------------------------------------------------------------------------

def abstention_cases(limit: int | None, split: str = "all") -> list[Case]:
    return data.ramdocs_abstention(limit, split) + data.conditionalqa_cases(limit, split=split)


def run_abstention(runner: Runner, limit: int | None, targets: dict | None = None,
                   split: str = "all") -> SuiteResult:
    """Correct abstention rate (abstained / should abstain) and false refusal rate (abstained / should answer) on
    RAMDocs (noise-only sets vs the same noise with the correct documents) and ConditionalQA (not answerable vs
    answerable questions over all pages), per data set and, apart, for records with one gold answer and records
    with several ("ramdocs single", "ramdocs multi", ...). ``split`` picks a half of each set (evaluation.data.
    record_split: tune on "calibration", report "test")."""
    outcomes = runner.run(abstention_cases(limit, split), "abstention")
    correct, refused = Tally(), Tally()
    records = []
    for o in outcomes:
        (correct if o.case.abstain else refused).ensure(o.case.group)
        if not o.error:
            (correct if o.case.abstain else refused).add(o.case.group, o.abstained)
        records.append(o.record(should_abstain=o.case.abstain, group=o.case.group,
                                ok=None if o.error else o.abstained == o.case.abstain))
    metrics = [
        correct.metric("correct_abstention_rate", "abstained, among questions the documents do not answer",
                       **_target("abstention", "correct_abstention_rate", targets)),
        refused.metric("false_refusal_rate", "abstained, among questions the documents answer",
                       **_target("abstention", "false_refusal_rate", targets)),
    ]
    return SuiteResult("abstention", metrics, records, _info(outcomes, limit=limit, split=split))


# --- answers ------------------------------------------------------------------------------------------------------

def answer_cases(limit: int | None) -> list[Case]:
    return data.ramdocs_answers(limit) + data.rgb_answer_cases(limit)


def run_answers(runner: Runner, limit: int | None, targets: dict | None = None) -> SuiteResult:
    """Gold answers in the answer text: ``contains`` (every required gold answer, in one of its accepted forms, as
    whole words after normalisation), ``exact`` (the whole answer is the gold answer), ``wrong_answer_rate`` (the
    answer repeats a misinformation or rewritten answer) and ``abstained`` (answerable questions refused)."""
    outcomes = runner.run(answer_cases(limit), "answers")
    has, equal, wrong, refused = Tally(), Tally(), Tally(), Tally()
    records = []
    for o in outcomes:
        c = o.case
        if o.error:
            records.append(o.record())
            continue
        text = "" if o.abstained else o.answer
        hit, same = contains_all(text, c.answers), exact(text, c.answers)
        misled = any(contains(text, w) for w in c.wrong)
        has.add(c.dataset, hit)
        equal.add(c.dataset, same)
        refused.add(c.dataset, o.abstained)
        if c.wrong:
            wrong.add(c.dataset, misled)
        records.append(o.record(gold=[list(g) for g in c.answers], wrong=list(c.wrong), contains=hit, exact=same,
                                wrong_answer=misled))
    metrics = [
        has.metric("contains", "every gold answer appears in the answer", **_target("answers", "contains", targets)),
        equal.metric("exact", "the answer is exactly a gold answer (normalised)",
                     **_target("answers", "exact", targets)),
        wrong.metric("wrong_answer_rate", "the answer repeats a wrong (misinformation or rewritten) answer",
                     **_target("answers", "wrong_answer_rate", targets)),
        refused.metric("abstained", "answerable questions the answer refused",
                       **_target("answers", "abstained", targets)),
    ]
    return SuiteResult("answers", metrics, records, _info(outcomes, limit=limit))


# --- citations ----------------------------------------------------------------------------------------------------

def citation_cases(limit: int | None) -> list[Case]:
    return answer_cases(limit) + data.conditionalqa_cases(limit, answerable=True)


def run_citations(runner: Runner, limit: int | None, targets: dict | None = None) -> SuiteResult:
    """On answerable questions: the share of rendered citation chips that resolve (label, chunk, title and highlighted
    sentence all found in the domain; see check_chips), the support check's coverage (factual sentences with a valid
    citation, mean per answer), the invalid-label rate (distinct labels per answer that are not sources), answers
    with at least one chip, and chips with a highlighted sentence."""
    outcomes = runner.run(citation_cases(limit), "citations")
    resolved, highlighted, coverage, invalid, cited = Tally(), Tally(), Tally(), Tally(), Tally()
    records = []
    for o in outcomes:
        d = o.case.dataset
        if o.error or o.abstained:
            records.append(o.record())
            continue
        for ch in o.chips:
            resolved.add(d, ch["resolved"])
            highlighted.add(d, ch["highlighted"])
        cited.add(d, bool(o.chips))
        cov = (o.result.get("support") or {}).get("coverage")
        if cov is not None:
            coverage.add(d, float(cov))
        bad, good = len(o.result.get("invalid_citations", [])), len(o.result.get("citations", []))
        if bad + good:
            invalid.add(d, bad, bad + good)
        records.append(o.record(chips=o.chips, coverage=cov, invalid_citations=o.result.get("invalid_citations")))
    metrics = [
        resolved.metric("citations_resolved", "rendered citation chips that resolve to their source and passage",
                        **_target("citations", "citations_resolved", targets)),
        coverage.metric("coverage", "factual answer sentences with a valid citation (mean per answer)",
                        **_target("citations", "coverage", targets)),
        invalid.metric("invalid_label_rate", "cited labels that are not sources of the answer",
                       **_target("citations", "invalid_label_rate", targets)),
        cited.metric("cited_answers", "answers with at least one citation chip",
                     **_target("citations", "cited_answers", targets)),
        highlighted.metric("highlighted", "chips that highlight a sentence of their source",
                           **_target("citations", "highlighted", targets)),
    ]
    answered = sum(1 for o in outcomes if not o.error and not o.abstained)
    return SuiteResult("citations", metrics, records, _info(outcomes, limit=limit, answered=answered))


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
        return Metric(name, description, shown, n, by={"all claims": (shown, n)}, **_target("support", name, targets))

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
    records = [{"record": c.record, "claim": _short(c.text, 300), "support": c.support,
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
                              **_target("conflicts", name, targets)))
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
                      **_target("conflicts", "note_recall", targets)),
        false.metric("false_notes", "pipeline: answers over a consistent set that carry a note",
                     **_target("conflicts", "false_notes", targets)),
    ]
    info = _info(outcomes, limit=limit, similarity=detector["similarity"], seed=detector["seed"],
                 detector={s: parts["all"] for s, parts in detector["suites"].items()})
    return SuiteResult("conflicts", metrics, records, info)
