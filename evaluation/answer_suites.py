"""The answer suites of ``manage.py evaluate``, asked through the pipeline: abstention, answers, citations and yes/no.

Owns, for each of the four, which cases it asks (RAMDocs, ConditionalQA, RGB; evaluation.data) and how its metrics
are computed from the answers (evaluation.runner asks them; answers and citations share the answers).
"""

from __future__ import annotations

import re

from evaluation import data
from evaluation.data import Case
from evaluation.metrics import SuiteResult, Tally, contains, contains_all, exact
from evaluation.runner import Runner, suite_info
from evaluation.suites import target_of

__all__ = ["abstention_cases", "answer_cases", "citation_cases", "opener", "run_abstention", "run_answers",
           "run_citations", "run_yesno"]


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
                       **target_of("abstention", "correct_abstention_rate", targets)),
        refused.metric("false_refusal_rate", "abstained, among questions the documents answer",
                       **target_of("abstention", "false_refusal_rate", targets)),
    ]
    return SuiteResult("abstention", metrics, records, suite_info(outcomes, limit=limit, split=split))


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
        has.metric("contains", "every gold answer appears in the answer", **target_of("answers", "contains", targets)),
        equal.metric("exact", "the answer is exactly a gold answer (normalised)",
                     **target_of("answers", "exact", targets)),
        wrong.metric("wrong_answer_rate", "the answer repeats a wrong (misinformation or rewritten) answer",
                     **target_of("answers", "wrong_answer_rate", targets)),
        refused.metric("abstained", "answerable questions the answer refused",
                       **target_of("answers", "abstained", targets)),
    ]
    return SuiteResult("answers", metrics, records, suite_info(outcomes, limit=limit))


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
                        **target_of("citations", "citations_resolved", targets)),
        coverage.metric("coverage", "factual answer sentences with a valid citation (mean per answer)",
                        **target_of("citations", "coverage", targets)),
        invalid.metric("invalid_label_rate", "cited labels that are not sources of the answer",
                       **target_of("citations", "invalid_label_rate", targets)),
        cited.metric("cited_answers", "answers with at least one citation chip",
                     **target_of("citations", "cited_answers", targets)),
        highlighted.metric("highlighted", "chips that highlight a sentence of their source",
                           **target_of("citations", "highlighted", targets)),
    ]
    answered = sum(1 for o in outcomes if not o.error and not o.abstained)
    return SuiteResult("citations", metrics, records, suite_info(outcomes, limit=limit, answered=answered))


# --- yes/no -------------------------------------------------------------------------------------------------------

_OPENER = re.compile(r"\s*(Yes|No)\b")


def opener(answer: str) -> str | None:
    """"yes" or "no" when the answer opens with that word as the golden suite reads it (evaluation.golden_run:
    "Yes," / "No." / "No [S1]" at the very start, capitalised), else None."""
    m = _OPENER.match(answer)
    return m.group(1).lower() if m else None


def run_yesno(runner: Runner, limit: int | None, targets: dict | None = None, split: str = "all") -> SuiteResult:
    """How yes/no questions on unseen policy pages are opened: ConditionalQA's answerable questions whose gold
    answers are all "yes" or all "no" (evaluation.data.conditionalqa_yesno_cases), each asked of the domain of every
    page. ``opener_right``: the answer opens with the gold Yes or No; ``opener_wrong``: with the other one (the
    worst outcome: a reader told the opposite of the documents); ``no_opener``: neither, the answer quoting without
    settling it (a refusal counts here and in ``abstained`` too). Rates over the questions asked, per gold answer
    ("conditionalqa yes", "conditionalqa no"). ``split`` picks a half (evaluation.data.record_split)."""
    outcomes = runner.run(data.conditionalqa_yesno_cases(limit, split=split), "yesno")
    right, wrong, none, refused = Tally(), Tally(), Tally(), Tally()
    records = []
    for o in outcomes:
        if o.error:
            records.append(o.record())
            continue
        gold = o.case.answers[0][0]
        group = f"{o.case.dataset} {gold}"
        said = None if o.abstained else opener(o.answer)
        right.add(group, said == gold)
        wrong.add(group, said is not None and said != gold)
        none.add(group, said is None)
        refused.add(group, o.abstained)
        records.append(o.record(gold=gold, opener=said, ok=said == gold))
    metrics = [
        right.metric("opener_right", "yes/no questions whose answer opens with the gold Yes or No",
                     **target_of("yesno", "opener_right", targets)),
        wrong.metric("opener_wrong", "yes/no questions whose answer opens with the opposite of the gold answer",
                     **target_of("yesno", "opener_wrong", targets)),
        none.metric("no_opener", "yes/no questions answered without a Yes or No (refusals included)",
                    **target_of("yesno", "no_opener", targets)),
        refused.metric("abstained", "yes/no questions refused", **target_of("yesno", "abstained", targets)),
    ]
    return SuiteResult("yesno", metrics, records, suite_info(outcomes, limit=limit, split=split))
