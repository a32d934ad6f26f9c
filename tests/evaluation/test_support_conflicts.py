"""`evaluate --suite support` and `--suite conflicts`: the figures of support_eval and conflict_eval (same code),
and the conflicts asked through the pipeline.

support ``--limit 8`` reads the slice hand-checked in tests/chat/test_support_eval.py: 23 claims (10 Complete, 2
Partial, 11 Incomplete); with the shipped thresholds mapping A has tp=5 fp=3 fn=8 tn=7, so balanced accuracy
(5/13 + 7/10)/2, precision 5/8, recall 5/13; mapping B tp=1 fp=1 fn=10 tn=11. Flagged per expert label: Complete
3/10 (.577 .589 .359), Partial 1/2 (.639), Incomplete 4/11 (.575 .502 .646 .294).

conflicts ``--limit 2``, the detector (as tests/chat/test_conflict_eval.py reads the first records): ConflictQA 0-1
both flagged (negation), RGB 0-1 3 + 4 rewritten pairs all flagged, RAMDocs 0-1 2 + 3 correct documents with one
answer each (1 + 3 consistent pairs), none flagged. Through the pipeline (the question asked of the record's
passages): the ConflictQA answers carry no note, because a polarity clash between two documents becomes a note only
when the aligned sentences have cosine >= 0.75 (grounding.notes.NEGATION_NOTE_SIMILARITY); each RGB answer notes a
rewritten pair (RGB 0: documents 5 and 6; RGB 1: 7/8, 1/2 and 5/6), so note recall is 2/4 (ConflictQA 0/2, RGB
2/2); the RAMDocs answers carry no note (false notes 0/2).
"""

from __future__ import annotations

import pytest

from evaluation.suites import METRICS
from tests.evaluation.helpers import by, evaluate


@pytest.fixture(scope="module")
def support(embedder, tmp_path_factory):
    return evaluate(tmp_path_factory.mktemp("support"), "--suite", "support", "--limit", "8")


@pytest.fixture(scope="module")
def conflicts(django_db_setup, django_db_blocker, embedder, tmp_path_factory):
    with django_db_blocker.unblock():
        return evaluate(tmp_path_factory.mktemp("conflicts"), "--suite", "conflicts", "--limit", "2")


def test_support_figures_match_support_eval(support):
    ba = support.metric("support", "balanced_accuracy")
    assert ba["value"] == pytest.approx((5 / 13 + 7 / 10) / 2, abs=1e-4)
    assert (ba["n"], ba["target"], ba["op"], ba["met"]) == (23, 0.75, ">=", False)
    precision, recall = support.metric("support", "precision"), support.metric("support", "recall")
    assert (precision["value"], precision["n"]) == (pytest.approx(5 / 8, abs=1e-4), 8)
    assert (recall["value"], recall["n"]) == (pytest.approx(5 / 13, abs=1e-4), 13)
    assert support.metric("support", "balanced_accuracy_b")["value"] == pytest.approx((1 / 11 + 11 / 12) / 2,
                                                                                      abs=1e-4)
    flagged = by(support.metric("support", "flagged_by_label"))
    assert flagged == {"Complete": (0.3, 10), "Partial": (0.5, 2), "Incomplete": (pytest.approx(4 / 11, abs=1e-4),
                                                                                   11)}
    info = support.suite("support")["info"]
    assert info["A"] == "n=23 balanced_accuracy=0.542 precision=0.625 recall=0.385 tp=5 fp=3 fn=8 tn=7"
    assert info["skipped"] == {"no_label": 0, "no_evidence_text": 29}


def test_detector_figures_match_conflict_eval(conflicts):
    assert [m["name"] for m in conflicts.suite("conflicts")["metrics"]] == list(METRICS["conflicts"])
    cq, rgb = conflicts.metric("conflicts", "conflictqa_recall"), conflicts.metric("conflicts", "rgb_recall")
    ram = conflicts.metric("conflicts", "ramdocs_false_flags")
    assert (cq["value"], cq["n"], cq["met"]) == (1.0, 2, True)
    assert (rgb["value"], rgb["n"], rgb["met"]) == (1.0, 7, True)
    assert (ram["value"], ram["n"], ram["target"], ram["op"], ram["met"]) == (0.0, 4, 0.1, "<=", True)
    assert set(by(cq)) == {"calibration", "held_out", "all"}
    halves = by(rgb)
    assert halves["calibration"][1] + halves["held_out"][1] == halves["all"][1] == 7


def test_notes_through_the_pipeline(conflicts):
    recall = conflicts.metric("conflicts", "note_recall")
    assert (recall["value"], recall["n"]) == (0.5, 4)
    assert by(recall) == {"conflictqa": (0.0, 2), "rgb": (1.0, 2)}
    false = conflicts.metric("conflicts", "false_notes")
    assert (false["value"], false["n"]) == (0.0, 2) and by(false) == {"ramdocs": (0.0, 2)}
    records = conflicts.records("conflicts")
    assert {"Document 5", "Document 6"} in [set(n["documents"]) for n in records[("rgb", 0, "conflict")]["notes"]]
    assert records[("conflictqa", 0, "conflict")]["notes"] == []
