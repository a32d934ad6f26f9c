"""`evaluate --suite yesno`: ConditionalQA's yes/no questions, and how each answer opens.

The cases are read from ../shared/eval/conditionalqa/dev.json; the metrics are computed from answers given by a
stand-in runner (the pipeline itself is what the other suites' tests run), so no model and no database here.
"""

from __future__ import annotations

import json

import pytest

from evaluation import data
from evaluation.answer_suites import opener, run_yesno
from evaluation.runner import Outcome
from evaluation.suites import METRICS, TARGETS


def _file_records() -> list[dict]:
    return json.loads((data.eval_dir() / "conditionalqa" / "dev.json").read_text(encoding="utf-8"))


def test_the_cases_are_the_answerable_records_with_one_yes_or_no_answer():
    records = _file_records()
    wanted = []
    for i, r in enumerate(records):
        said = {a[0].strip().lower() for a in r["answers"]}
        if not r["not_answerable"] and said in ({"yes"}, {"no"}):
            wanted.append((i, said.pop()))
    cases = data.conditionalqa_yesno_cases(None)
    assert [(c.record, c.answers[0][0]) for c in cases] == wanted
    assert len(cases) == 135  # of 285 records; a few more say yes under one condition and no under another
    first = cases[0]
    assert first.question == data.conditionalqa_question(records[first.record])
    assert first.documents == data.conditionalqa_pages()  # asked of every page, as the abstention suite asks


def test_the_halves_are_disjoint_and_follow_record_split():
    calibration = data.conditionalqa_yesno_cases(None, split="calibration")
    test = data.conditionalqa_yesno_cases(None, split="test")
    assert calibration and test
    assert {c.record for c in calibration} | {c.record for c in test} == {
        c.record for c in data.conditionalqa_yesno_cases(None)}
    assert all(data.record_split("conditionalqa", c.record) == "test" for c in test)
    assert len(data.conditionalqa_yesno_cases(3, split="test")) == 3


@pytest.mark.parametrize("answer, said", [
    ("Yes, you can apply within 10 days [S1].", "yes"),
    ("No. Contractors are not eligible [S2].", "no"),
    ("No [S1]: the page says otherwise.", "no"),
    ("Nobody is named in the documents.", None),
    ("Not every claim is paid [S1].", None),
    ("The page says you must apply [S1]. Yes, it is free.", None),  # only the opening word counts
    ("yes, lower case is not an opener the golden suite reads", None),
])
def test_an_opener_is_a_capitalised_yes_or_no_word_at_the_start(answer, said):
    assert opener(answer) == said


class _Runner:
    """Answers each case with the text given for its record (a dict of abstained results for None)."""

    def __init__(self, answers: dict[int, str | None | dict]):
        self.answers = answers

    def run(self, cases, desc):
        out = []
        for c in cases:
            given = self.answers.get(c.record, "")
            if isinstance(given, dict):
                result = given
            elif given is None:
                result = {"answer": "I could not find the answer to this question in the documents.",
                          "abstained": True}
            else:
                result = {"answer": given, "abstained": False}
            out.append(Outcome(c, result))
        return out


def test_the_metrics_count_right_wrong_and_missing_openers_per_gold_answer():
    cases = data.conditionalqa_yesno_cases(None, split="calibration")
    yes = [c.record for c in cases if c.answers[0][0] == "yes"][:3]
    no = [c.record for c in cases if c.answers[0][0] == "no"][:2]
    answers = {yes[0]: "Yes, you can [S1].", yes[1]: "No, you cannot [S1].", yes[2]: None,
               no[0]: "No. It is not paid [S2].", no[1]: {"error": "provider", "message": "down"}}
    chosen = set(answers)
    runner = _Runner(answers)
    original = data.conditionalqa_yesno_cases
    try:
        data.conditionalqa_yesno_cases = lambda limit, split="all": [c for c in original(None, split=split)
                                                                     if c.record in chosen]
        result = run_yesno(runner, None, split="calibration")
    finally:
        data.conditionalqa_yesno_cases = original
    assert [m.name for m in result.metrics] == list(METRICS["yesno"])
    right, wrong, none, refused = (result.metric(n) for n in METRICS["yesno"])
    # the errored item is left out of every rate and counted in the info
    assert right.n == wrong.n == none.n == refused.n == 4 and result.info["errors"] == 1
    assert right.value == 2 / 4 and wrong.value == 1 / 4 and none.value == 1 / 4 and refused.value == 1 / 4
    assert right.by == {"conditionalqa yes": (1 / 3, 3), "conditionalqa no": (1.0, 1)}
    assert (right.target, right.op) == (TARGETS["yesno"]["opener_right"][1], ">=")
    assert (wrong.target, wrong.op) == (0.05, "<=")
    records = {r["record"]: r for r in result.records}
    assert records[yes[1]]["opener"] == "no" and records[yes[1]]["ok"] is False
    assert records[yes[2]]["opener"] is None and records[yes[2]]["abstained"] is True
    assert records[no[1]]["error"] == "provider"
    assert result.info["split"] == "calibration"
