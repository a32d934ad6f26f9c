"""Asking evaluation cases through the pipeline, once each, and what every pipeline suite records of an answer.

Owns: ``Runner`` (one temporary domain, reloaded per record; a case asked once per run, so suites reading the same
cases share the answers), ``Outcome`` (one answered case and its JSON record), ``check_chips`` (does each rendered
citation chip resolve to its source and passage), ``suite_info`` (the info every pipeline suite reports) and the
progress callback type. Used by evaluation.answer_suites, evaluation.check_suites and evaluation.injection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from evaluation.common import EvaluationError
from evaluation.data import Case
from evaluation.pipeline import TemporaryDomain, ask, chip_spans

__all__ = ["Outcome", "Progress", "Runner", "check_chips", "no_progress", "shorten", "suite_info"]

Progress = Callable[..., Iterable]


def no_progress(items: Iterable, **_: Any) -> Iterable:
    """The Progress callback that shows nothing: ``items`` unchanged."""
    return items


def shorten(text: str, limit: int = 400) -> str:
    """``text`` with its whitespace runs as single spaces, cut to ``limit`` characters (an ellipsis marks a cut)."""
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
                               "question": shorten(c.question, 300)}
        if self.error:
            out.update(error=self.error, message=self.result.get("message", ""))
        else:
            out.update(answer=shorten(self.answer), abstained=self.abstained,
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


def suite_info(outcomes: Sequence[Outcome], **extra: Any) -> dict[str, Any]:
    """The info of a pipeline suite: {"items", "per_dataset": {dataset: items}, "errors", **extra}."""
    per: dict[str, int] = {}
    for o in outcomes:
        per[o.case.dataset] = per.get(o.case.dataset, 0) + 1
    return {"items": len(outcomes), "per_dataset": per, "errors": sum(bool(o.error) for o in outcomes), **extra}
