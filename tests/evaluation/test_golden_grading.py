"""Grading one golden answer (evaluation.golden_run.grade_turn) and reading labelled golden files
(evaluation.golden.load_golden): pure functions, no database, no model."""

from __future__ import annotations

import json

import pytest

from evaluation.common import EvaluationError
from evaluation.golden import Turn, load_golden, revisions
from evaluation.golden_run import grade_turn, normalise

NAMES = {1: {"travel-and-leave/leave.md", "leave.md", "leave"}, 2: {"travel-and-leave/overtime.md", "overtime.md"},
         3: {"getting-started/equipment.md"}}


def names(ids):
    return {i: NAMES[i] for i in ids if i in NAMES}


def result(answer, cited=(1,), planned=None, notes=(), abstained=False):
    labels = {i: f"S{k}" for k, i in enumerate(planned or cited, 1)}
    return {"answer": answer, "abstained": abstained,
            "citations": [{"label": labels[i], "chunk_id": i, "title": "t"} for i in cited],
            "source_chunks": {labels[i]: [i] for i in (planned or cited)}, "notes": list(notes)}


def test_an_answer_is_right_with_one_spelling_of_each_item_and_a_gold_page_cited():
    turn = Turn("How much sick leave for a funeral?", ((("13 days", "104 hours")), ("bereavement",)),
                pages=("travel-and-leave/leave.md",))
    verdict = grade_turn(turn, result("You may use up to **104 hours** of sick leave for\u00a0bereavement [S1]."),
                         names)
    assert verdict["right"] and verdict["missing"] == [] and verdict["page_cited"] and verdict["page_planned"]


def test_a_missing_item_or_another_page_cited_is_wrong():
    turn = Turn("q?", (("13 days", "104 hours"),), pages=("travel-and-leave/leave.md",))
    assert grade_turn(turn, result("You get 12 days [S1]."), names)["missing"] == ["13 days"]
    other = grade_turn(turn, result("You get 13 days [S1].", cited=(2,), planned=(2, 1)), names)
    assert (other["right"], other["page_cited"], other["page_planned"]) == (False, False, True)


def test_an_abstention_is_right_only_for_an_unanswerable_question():
    refused = result("I could not find the answer.", cited=(), planned=(1,), abstained=True)
    assert grade_turn(Turn("q?", abstain=True, pages=("travel-and-leave/leave.md",)), refused, names)["right"]
    answerable = grade_turn(Turn("q?", (("13 days",),), pages=("travel-and-leave/leave.md",)), refused, names)
    assert not answerable["right"] and answerable["abstained"] and answerable["page_planned"]


def test_yes_no_form_is_the_opening_word_matching_the_polarity():
    turn = Turn("Is award leave paid out?", (("not paid out",),), pages=("travel-and-leave/leave.md",))
    no = grade_turn(turn, result("No. Award leave is not paid out [S1]."), names, {"polarity": "no"})
    quote = grade_turn(turn, result("Award leave is not paid out [S1]."), names, {"polarity": "no"})
    wrong = grade_turn(turn, result("Yes, award leave is not paid out [S1]."), names, {"polarity": "no"})
    assert (no["yesno_form"], quote["yesno_form"], wrong["yesno_form"]) == (True, False, False)
    assert quote["right"]  # the content is right; the form is measured apart


def test_comparison_form_needs_every_value_in_a_cited_sentence():
    turn = Turn("Which is longer?", (("16 characters",), ("14 characters",)),
                pages=("getting-started/equipment.md",))
    values = {"values": {"Mac password": "16 characters", "iPhone passcode": "longer than 14 characters"}}
    both = result("The Mac password needs 16 characters [S1]; the passcode must be longer than 14 characters [S1].",
                  cited=(3,))
    uncited = result("The Mac password needs 16 characters [S1]. The passcode must be longer than 14 characters.",
                     cited=(3,))
    assert grade_turn(turn, both, names, values)["comparison_form"] is True
    assert grade_turn(turn, uncited, names, values)["comparison_form"] is False


def test_a_version_note_must_name_the_superseded_value():
    turn = Turn("Salary cap?", (("$191,900",),), pages=("travel-and-leave/overtime.md",))
    extra = {"asks": "current", "old_value": "$183,500"}
    noted = result("$191,900 [S1].", cited=(2,), notes=[{"kind": "version_superseded", "text": "S2 says $183,500."}])
    other = result("$191,900 [S1].", cited=(2,), notes=[{"kind": "value_mismatch", "text": "S2 says $176,300."}])
    assert grade_turn(turn, noted, names, extra)["version_noted"] is True
    assert grade_turn(turn, other, names, extra)["version_noted"] is False
    injected = result("$191,900 [S1].", cited=(2,), notes=[{"kind": "injection", "text": "S1 withheld"}])
    assert grade_turn(turn, injected, names, extra)["notes"] == 0  # an injection note is not a contradiction note


def test_normalise_drops_markers_emphasis_and_spacing():
    assert normalise("Up to **$65**\u00a0per  day [S1][S2].") == "up to $65 per day."


def write(tmp_path, rows):
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


ROWS = [
    {"id": "q001", "kind": "value", "split": "calibration", "question": "How much?", "expect": [["$5", "5 dollars"]],
     "pages": ["a.md"]},
    {"id": "q002", "kind": "unanswerable", "split": "test", "question": "Who?", "expect": "abstain",
     "pages": ["a.md"], "covers": "what a covers"},
    {"id": "q003", "kind": "conversation", "split": "calibration", "refers": True,
     "turns": [{"question": "How long?", "expect": ["2 weeks"], "pages": ["b.md"]},
               {"question": "Do they expire?", "expect": ["12 months"], "pages": ["b.md"]}]},
    {"id": "q004", "kind": "superseded", "split": "calibration", "question": "What was it?", "expect": ["$4"],
     "pages": ["a.md"], "versions": [{"file": "versions/a/2020-01-02_x.md", "date": "2020-01-02"}],
     "old_value": "$4", "new_value": "$5", "asks": "old"},
]


def test_a_labelled_file_is_read_per_split_with_spellings_and_conversations(tmp_path):
    path = write(tmp_path, ROWS)
    calibration = load_golden(path, needs_domain=False, split="calibration")
    assert [i.id for i in calibration] == ["q001", "q003", "q004"]
    assert calibration[0].expect == (("$5", "5 dollars"),) and calibration[0].turns[0].pages == ("a.md",)
    conversation = calibration[1]
    assert [t.question for t in conversation.turns] == ["How long?", "Do they expire?"]
    assert conversation.extra["refers"] is True and conversation.expect == (("12 months",),)
    test = load_golden(path, needs_domain=False, split="test")
    assert [(i.id, i.abstain) for i in test] == [("q002", True)]
    assert len(load_golden(path, needs_domain=False, split="all")) == 4


def test_revision_files_are_found_above_the_corpus_and_join_their_page(tmp_path):
    corpus = tmp_path / "current" / "pages"
    corpus.mkdir(parents=True)
    (corpus / "a.md").write_text("---\ntitle: A\ndoc_id: page-a\n---\nA is $5.\n", encoding="utf-8")
    (tmp_path / "versions" / "a").mkdir(parents=True)
    (tmp_path / "versions" / "a" / "2020-01-02_x.md").write_text("A is $4.\n", encoding="utf-8")
    items = load_golden(write(tmp_path, ROWS), needs_domain=False)
    [revision] = revisions(items, corpus)
    assert (revision.path, revision.key, revision.date.isoformat()) == (
        tmp_path / "versions" / "a" / "2020-01-02_x.md", "page-a", "2020-01-02")
    with pytest.raises(EvaluationError, match="give --versions DIR"):
        revisions(items, tmp_path.parent / "elsewhere")


@pytest.mark.parametrize("row,message", [
    ({"id": "q1", "kind": "riddle", "split": "test", "question": "q?", "expect": ["x"]}, "unknown kind 'riddle'"),
    ({"id": "q1", "kind": "value", "split": "later", "question": "q?", "expect": ["x"]}, "'split' must be"),
    ({"id": "q1", "kind": "conversation", "split": "test", "turns": [{"question": "q?", "expect": ["x"]}]},
     "needs 'turns', two or more"),
    ({"id": "q1", "kind": "value", "split": "test", "question": "q?", "expect": [["x", 3]]}, "'expect' must be"),
])
def test_a_malformed_labelled_item_is_refused_with_its_line(tmp_path, row, message):
    with pytest.raises(EvaluationError, match=message):
        load_golden(write(tmp_path, [row]), needs_domain=False)
