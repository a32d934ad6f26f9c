"""`evaluate --suite answers --suite citations`: gold answers and citation checks on records read by hand.

One run with ``--limit 2`` asks (../shared/eval):

answers (each record with all its passages):

* RAMDocs 0 "population of Broken Bow?" (gold "3,559 people", misinformation "10,000 people"): the answer quotes
  "The geographic center of Nebraska lies approximately 10 miles northwest of Broken Bow [S1]." - neither.
* RAMDocs 1 "What sport is Bobby Carpenter associated with?" (gold "American football", no wrong answer): "...
  is a former American football linebacker [S2]." - contains the gold answer.
* RGB 0 "Super Bowl 2021 location" (gold "Tampa, Florida", fake "Glendale, Arizona"; correct and noise passages):
  "... Raymond James Stadium in Tampa, Florida, ..." - contains it.
* RGB 1 "Which country won the most medals at the 2018 Winter Olympics?" (gold "Norway", fake "U.S."): "Norway
  collected 39 medals in 2018 ... [S2]." - contains it.

contains = 3/4 (RAMDocs 1/2, RGB 2/2); exact = 0/4 (the offline answerer quotes whole sentences); wrong answers
0/3 (RAMDocs 1 has none); no answerable question refused.

citations (the same four answers, shared with the answers suite, plus ConditionalQA dev-0 and dev-1 over all pages):
chips in order RAMDocs 0 [S1], RAMDocs 1 [S2], RGB 0 [S2], RGB 1 [S2][S1][S5], dev-0 [S1], dev-1 [S1] (the answers
rest on the sentence that answers, issue 18: one quote each, RGB 1 three): 8 chips, each resolving to a chunk of the
temporary domain with its title, and all 8 highlight a sentence: RGB 0
quotes a snippet ending in "... already determined .. [S2]."; the text before the marker is stripped before the
previous sentence end is looked for, so the citing sentence is the quote, not the empty text after its "..". The
support check's sentence splitter cuts that quote after its first "." and leaves ". [S2]." as a piece of its own; a
piece of punctuation and markers only is the end of the sentence before, so the quote is cited and every answer has
full coverage (6/6).
No invalid labels: 8 distinct cited labels per answer summed (1 + 1 + 1 + 3 + 1 + 1).
"""

from __future__ import annotations

import pytest

from evaluation.runner import check_chips
from evaluation.suites import METRICS
from tests.evaluation.helpers import by, evaluate


@pytest.fixture(scope="module")
def run(django_db_setup, django_db_blocker, embedder, tmp_path_factory):
    with django_db_blocker.unblock():
        return evaluate(tmp_path_factory.mktemp("answers"), "--suite", "answers", "--suite", "citations",
                        "--limit", "2")


def test_answer_metrics(run):
    assert [m["name"] for m in run.suite("answers")["metrics"]] == list(METRICS["answers"])
    assert [m["name"] for m in run.suite("citations")["metrics"]] == list(METRICS["citations"])
    contains = run.metric("answers", "contains")
    assert (contains["value"], contains["n"], contains["target"]) == (0.75, 4, None)
    assert by(contains) == {"ramdocs": (0.5, 2), "rgb": (1.0, 2)}
    assert run.metric("answers", "exact")["value"] == 0.0
    wrong = run.metric("answers", "wrong_answer_rate")
    assert (wrong["value"], wrong["n"]) == (0.0, 3) and by(wrong) == {"ramdocs": (0.0, 1), "rgb": (0.0, 2)}
    assert (run.metric("answers", "abstained")["value"], run.metric("answers", "abstained")["n"]) == (0.0, 4)
    records = run.records("answers")
    assert {k: r["contains"] for k, r in records.items()} == {
        ("ramdocs", 0, "all"): False, ("ramdocs", 1, "all"): True,
        ("rgb", 0, "positive_negative"): True, ("rgb", 1, "positive_negative"): True}
    assert records[("ramdocs", 0, "all")]["gold"] == [["3,559 people"]]


def test_citation_metrics(run):
    resolved = run.metric("citations", "citations_resolved")
    assert (resolved["value"], resolved["n"], resolved["target"], resolved["met"]) == (1.0, 8, 1.0, True)
    assert by(resolved) == {"ramdocs": (1.0, 2), "rgb": (1.0, 4), "conditionalqa": (1.0, 2)}
    highlighted = run.metric("citations", "highlighted")
    assert (highlighted["value"], highlighted["n"]) == (1.0, 8)
    coverage = run.metric("citations", "coverage")
    assert (coverage["value"], coverage["n"]) == (1.0, 6)
    assert by(coverage)["rgb"] == (1.0, 2)
    invalid = run.metric("citations", "invalid_label_rate")
    assert (invalid["value"], invalid["n"]) == (0.0, 8)
    assert (run.metric("citations", "cited_answers")["value"], run.metric("citations", "cited_answers")["n"]) == (1.0,
                                                                                                                  6)
    rgb0 = run.records("citations")[("rgb", 0, "positive_negative")]
    assert [(c["label"], c["resolved"], c["highlighted"]) for c in rgb0["chips"]] == [("S2", True, True)]
    assert rgb0["coverage"] == 1.0


def test_answers_and_citations_share_the_pipeline_runs(run):
    answers = {(r["dataset"], r["record"]): r["answer"] for r in run.suite("answers")["records"]}
    citations = {(r["dataset"], r["record"]): r["answer"] for r in run.suite("citations")["records"]}
    assert all(citations[k] == v for k, v in answers.items())


def _result(html: str, citations: list, spans: list, source_chunks: dict) -> dict:
    return {"html": html, "citations": citations, "spans": spans, "source_chunks": source_chunks}


def test_a_chip_resolves_only_to_its_own_chunk_title_and_text():
    chunks = {10: ("Leave policy", "Annual leave is 25 days. Sick leave is separate."), 11: ("Travel", "Meals $65.")}
    chip = '<button type="button" class="cite" data-label="{}" data-span="{}" aria-label="x">{}</button>'
    html = "".join(chip.format(lab, k, lab) for k, lab in enumerate(["S1", "S2", "S3", "S4", "S1"]))
    citations = [{"label": "S1", "chunk_id": 10, "title": "Leave policy"},
                 {"label": "S2", "chunk_id": 11, "title": "Leave policy"},     # wrong title
                 {"label": "S3", "chunk_id": 99, "title": "Gone"}]             # chunk not in the domain
    spans = [{"label": "S1", "cited_text": "Annual leave is   25 days."},       # whitespace aside: found
             {"label": "S2", "cited_text": "Meals $65."},
             {"label": "S3", "cited_text": ""},
             {"label": "S4", "cited_text": ""},
             {"label": "S1", "cited_text": "Annual leave is 30 days."}]        # not in the source
    checks = check_chips(_result(html, citations, spans, {"S1": [10], "S2": [11], "S3": [99]}), chunks)
    assert [(c["label"], c["resolved"], c["highlighted"]) for c in checks] == [
        ("S1", True, True), ("S2", False, False), ("S3", False, False), ("S4", False, False), ("S1", False, False)]
    assert [c["problem"] for c in checks] == [
        "", "citation metadata differs from the chunk's", "chunk is not in the domain",
        "label is not a source of the answer", "highlighted text is not in the cited source"]
