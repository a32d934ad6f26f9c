"""The public abstention sets are split once into a calibration and a test half (evaluation.data.record_split), and
reported apart for records with one gold answer and records with several. No database, no model."""

from __future__ import annotations

import hashlib

from evaluation import data


def test_the_split_is_sha256_of_the_salted_record_and_never_moves():
    digest = hashlib.sha256(f"{data.SPLIT_SALT}:ramdocs:0".encode()).digest()
    assert data.record_split("ramdocs", 0) == ("calibration" if digest[0] % 2 == 0 else "test")
    halves = [data.record_split("ramdocs", i) for i in range(250)]
    assert 100 <= halves.count("calibration") <= 150  # about half


def test_the_halves_hold_different_records_and_together_all_of_them():
    calibration = {c.key for c in data.ramdocs_abstention(None, "calibration")}
    test = {c.key for c in data.ramdocs_abstention(None, "test")}
    assert calibration and test and not calibration & test
    assert calibration | test == {c.key for c in data.ramdocs_abstention(None)}
    unanswerable = [c for c in data.conditionalqa_cases(None, split="test") if c.abstain]
    assert unanswerable and all(data.record_split("conditionalqa", c.record) == "test" for c in unanswerable)


def test_records_are_grouped_by_how_many_gold_answers_they_have():
    cases = data.ramdocs_abstention(None)
    groups = {c.group for c in cases}
    assert groups == {"ramdocs single", "ramdocs multi"}
    assert all((c.group == "ramdocs multi") == (len(c.answers) > 1) for c in cases if not c.abstain)
    qa = data.conditionalqa_cases(None)
    assert {c.group for c in qa if c.abstain} == {"conditionalqa"}  # no answer at all
    assert {c.group for c in qa if not c.abstain} == {"conditionalqa single", "conditionalqa multi"}
