"""Evaluation cases built from the public sets in ../shared/eval (read in place): a question, the passages to ingest
for it, and what a good answer does (abstain or not, the gold answers, the wrong answers).

Passages of RAMDocs, RGB and ConflictQA have no titles; each becomes "Document <k>" in record order. ConditionalQA's
full pages are not in the snapshot (only each question's gold evidence sentences, HTML fragments), so each gov.uk
page is rebuilt as the union of the evidence of all dev questions about it, in file order, and every page goes into
one domain: a question must find its page among 59, as in a real domain.

``limit`` always counts records of one data set (so a run is comparable across suites); which records are used is
said per loader.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from evaluation.common import EvaluationError, eval_dir, read_jsonl
from evaluation.pipeline import EvalDocument


@dataclass(frozen=True)
class Case:
    """One question to ask.

    Attributes:
        dataset: "ramdocs", "conditionalqa", "rgb" or "conflictqa".
        record: index of the record in its file.
        variant: which document set of the record ("noise_only", "with_correct", "all", ...).
        question: the question as a user would type it.
        documents: the passages of the domain the question is asked in.
        abstain: True when the documents do not hold the answer, False when they do.
        answers: required gold answers, each a tuple of accepted forms (a good answer contains one form of each).
        wrong: answers that come from misinformation (RAMDocs) or a rewritten passage (RGB).
        pairs: (title, title) pairs of passages that contradict each other (conflicts).
        multi: whether the record has several gold answers (RAMDocs' ambiguous names, ConditionalQA's answers under
            conditions) or one; None when the record has no answer at all (ConditionalQA's not answerable).
    """

    dataset: str
    record: int
    variant: str
    question: str
    documents: tuple[EvalDocument, ...]
    abstain: bool = False
    answers: tuple[tuple[str, ...], ...] = ()
    wrong: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()
    multi: bool | None = None

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.dataset, self.record, self.variant)

    @property
    def group(self) -> str:
        """The data set and whether the record has one answer or several ("ramdocs single", "conditionalqa
        multi"; the data set alone for a record without an answer)."""
        return self.dataset if self.multi is None else f"{self.dataset} {'multi' if self.multi else 'single'}"


#: Salt of the fixed calibration/test split of the public abstention sets (never changed once results were seen).
SPLIT_SALT = "grounded-chat-abstention-split-2026-11"


def record_split(dataset: str, record: int) -> str:
    """The half a public record belongs to: "calibration" or "test", by the first byte of
    SHA-256("<SPLIT_SALT>:<dataset>:<record index>") (even: calibration). Rules and thresholds are tuned on the
    calibration half; the README reports the test half."""
    digest = hashlib.sha256(f"{SPLIT_SALT}:{dataset}:{record}".encode()).digest()
    return "calibration" if digest[0] % 2 == 0 else "test"


def _in_split(dataset: str, record: int, split: str) -> bool:
    return split == "all" or record_split(dataset, record) == split


def _docs(texts: Sequence[str]) -> tuple[EvalDocument, ...]:
    return tuple(EvalDocument(f"Document {k + 1}", t) for k, t in enumerate(texts))


def _limited(records, limit: int | None):
    for i, r in enumerate(records):
        if limit is not None and i >= limit:
            return
        yield i, r


# --- RAMDocs ----------------------------------------------------------------------------------------------------

def ramdocs_records() -> list[dict]:
    return list(read_jsonl(eval_dir() / "ramdocs" / "RAMDocs_dev.jsonl"))


def _typed(record: dict, *types: str) -> list[str]:
    return [d["text"] for d in record.get("documents", []) if d.get("type") in types and d.get("text", "").strip()]


def ramdocs_abstention(limit: int | None, split: str = "all") -> list[Case]:
    """Two cases per record that has both noise and correct documents (the first ``limit`` such records of
    ``split``, see record_split): its noise documents alone (abstain: by RAMDocs' labels they do not hold the
    answer) and the same noise documents with the record's correct documents added (answer). Misinformation
    documents are left out of both, so the only difference between the two is the presence of the answer."""
    cases: list[Case] = []
    used = 0
    for i, r in enumerate(ramdocs_records()):
        if limit is not None and used >= limit:
            break
        noise, correct = _typed(r, "noise"), _typed(r, "correct")
        if not noise or not correct or not _in_split("ramdocs", i, split):
            continue
        used += 1
        gold = tuple((a,) for a in r.get("gold_answers", []))
        multi = len(gold) > 1
        cases.append(Case("ramdocs", i, "noise_only", r["question"], _docs(noise), abstain=True, multi=multi))
        cases.append(Case("ramdocs", i, "with_correct", r["question"], _docs(correct + noise), abstain=False,
                          answers=gold, multi=multi))
    return cases


def ramdocs_answers(limit: int | None) -> list[Case]:
    """The first ``limit`` records with a correct document, with all their documents (correct, misinformation and
    noise, in file order); gold answers are all required (several for ambiguous names), wrong answers are the
    misinformation's."""
    cases = []
    for i, r in _limited(ramdocs_records(), limit):
        if not _typed(r, "correct"):
            continue
        texts = _typed(r, "correct", "misinfo", "noise")
        cases.append(Case("ramdocs", i, "all", r["question"], _docs(texts), abstain=False,
                          answers=tuple((a,) for a in r.get("gold_answers", [])),
                          wrong=tuple(r.get("wrong_answers", []))))
    return cases


# --- ConditionalQA ----------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _conditionalqa() -> tuple[dict, ...]:
    path = eval_dir() / "conditionalqa" / "dev.json"
    if not path.is_file():
        raise EvaluationError(f"missing evaluation file {path}")
    try:
        return tuple(json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as exc:
        raise EvaluationError(f"{path}: not JSON: {exc}") from exc


def page_title(url: str) -> str:
    """A gov.uk page's title from its address: https://www.gov.uk/apply-special-guardian -> "Apply special guardian"."""
    slug = url.rstrip("/").rsplit("/", 1)[-1]
    words = "".join(ch if ch.isalnum() else " " for ch in slug).split()
    title = " ".join(words) or "Page"
    return title[:1].upper() + title[1:]


@lru_cache(maxsize=1)
def conditionalqa_pages() -> tuple[EvalDocument, ...]:
    """One HTML document per gov.uk page: the union of the dev questions' evidence sentences, in file order."""
    pages: dict[str, list[str]] = {}
    for r in _conditionalqa():
        seen = pages.setdefault(r["url"], [])
        for e in r.get("evidences", []):
            if e.strip() and e not in seen:
                seen.append(e)
    return tuple(EvalDocument(page_title(url), "\n".join(ev), html=True) for url, ev in pages.items() if ev)


def conditionalqa_question(r: dict) -> str:
    """The user's message: the scenario, then the question (ConditionalQA's questions depend on the scenario)."""
    return f"{r['scenario'].strip()} {r['question'].strip()}".strip()


def conditionalqa_cases(limit: int | None, *, answerable: bool | None = None, split: str = "all") -> list[Case]:
    """The first ``limit`` not-answerable records and, when ``answerable`` is not False, the first ``limit``
    answerable ones (only the latter with ``answerable=True``), of ``split`` (see record_split), each asked of the
    domain of all pages. Only 14 of the 285 dev questions are not answerable, so the two kinds are taken separately
    to keep both in a short run."""
    pages = conditionalqa_pages()
    records = [(i, r) for i, r in enumerate(_conditionalqa()) if _in_split("conditionalqa", i, split)]
    kinds = {None: (True, False), True: (False,), False: (True,)}[answerable]
    cases = []
    for not_answerable in kinds:
        chosen = [(i, r) for i, r in records if bool(r.get("not_answerable")) == not_answerable]
        for i, r in chosen[:limit] if limit is not None else chosen:
            gold = tuple((a[0],) for a in r.get("answers", []) if a and isinstance(a[0], str))
            cases.append(Case("conditionalqa", i, "pages", conditionalqa_question(r), pages,
                              abstain=not_answerable, answers=gold, multi=len(gold) > 1 if gold else None))
    return sorted(cases, key=lambda c: c.record)


def conditionalqa_yesno_cases(limit: int | None, *, split: str = "all") -> list[Case]:
    """ConditionalQA's answerable yes/no questions of ``split`` (see record_split): every gold answer "yes", or every
    one "no" (a record answered "yes" under one condition and "no" under another is left out: no opener is right
    for it), the first ``limit`` of them, each asked of the domain of all pages. ``answers`` is (("yes",),) or
    (("no",),)."""
    pages = conditionalqa_pages()
    cases = []
    for i, r in enumerate(_conditionalqa()):
        if r.get("not_answerable") or not _in_split("conditionalqa", i, split):
            continue
        said = {a[0].strip().lower() for a in r.get("answers", []) if a and isinstance(a[0], str)}
        if len(said) != 1 or not said <= {"yes", "no"}:
            continue
        cases.append(Case("conditionalqa", i, "pages", conditionalqa_question(r), pages, answers=((said.pop(),),)))
        if limit is not None and len(cases) >= limit:
            break
    return cases


# --- RGB en_fact ------------------------------------------------------------------------------------------------

def rgb_records() -> list[dict]:
    return list(read_jsonl(eval_dir() / "rgb" / "en_fact.dev.json"))


def rgb_answers(answer) -> tuple[tuple[str, ...], ...]:
    """RGB's answer field as required groups of accepted forms: "Norway" -> (("Norway",),); [["Jun 2020", "June
    2020"]] -> (("Jun 2020", "June 2020"),)."""
    if isinstance(answer, str):
        return ((answer,),)
    groups = []
    for item in answer or []:
        forms = (item,) if isinstance(item, str) else tuple(x for x in item if isinstance(x, str))
        if forms:
            groups.append(forms)
    return tuple(groups)


def rgb_answer_cases(limit: int | None) -> list[Case]:
    """The first ``limit`` records with their correct passages and their noise passages (positive + negative, RGB's
    noise-robustness setting); the rewritten passages are left out. Wrong = the fake answer."""
    cases = []
    for i, r in _limited(rgb_records(), limit):
        texts = [t for t in r.get("positive", []) + r.get("negative", []) if t.strip()]
        fake = r.get("fakeanswer")
        cases.append(Case("rgb", i, "positive_negative", r["query"], _docs(texts), abstain=False,
                          answers=rgb_answers(r.get("answer")),
                          wrong=(fake,) if isinstance(fake, str) and fake else ()))
    return cases


# --- conflicts through the pipeline -------------------------------------------------------------------------------

def conflict_cases(limit: int | None) -> list[Case]:
    """The conflict sets of evaluation.conflicts (the same records and pairs the detector is measured on) as
    questions: ConflictQA's two opposing passages and RGB's correct/rewritten passage pairs (``pairs`` should get a
    note), RAMDocs' consistent sets, records whose correct documents all give the same answer (no note expected;
    records with namesakes are left out)."""
    from evaluation.conflicts import LOADERS

    questions = {
        "conflictqa": [r.get("question", "") for r in read_jsonl(
            eval_dir() / "conflictqa" / "conflictQA-strategyQA-gpt4.dev.jsonl")],
        "rgb": [r.get("query", "") for r in rgb_records()],
        "ramdocs": [r.get("question", "") for r in ramdocs_records()],
    }
    cases = []
    for dataset, load in LOADERS.items():
        for c in load(limit):
            if len(c.texts) < 2 or (dataset == "ramdocs" and c.ambiguous):
                continue
            docs = _docs(c.texts)
            title = {f"S{k + 1}": d.title for k, d in enumerate(docs)}
            pairs = tuple((title[a], title[b]) for a, b in c.positive)
            cases.append(Case(dataset, c.record, "conflict", questions[dataset][c.record], docs,
                              abstain=False, pairs=pairs))
    return cases
