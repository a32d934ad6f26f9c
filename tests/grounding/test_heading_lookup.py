"""A numbered section the question names ("What happens on Day 3?") is looked up by its heading in retrieval: the
demo handbook's Day 3 chunk (a robot safety course and a security module under "Day 3 (Wednesday)") never says "Day
3" in its text, ranked 22nd of 46 and was refused; and "my third day" or "day three" name it as well."""

from __future__ import annotations

import numpy as np

from grounding.heading_lookup import label_map, looked_up_rows, named_labels, section_labels, with_looked_up
from grounding.index_store import StoredIndex


def test_a_question_names_a_numbered_label_in_words_digits_or_as_an_ordinal():
    assert named_labels("What happens on Day 3?") == {"day 3"}
    assert named_labels("What do I do on day three?") == {"day 3"}
    assert named_labels("What do I do on my third day?") == {"day 3"}
    assert named_labels("What is the 2nd step?") == {"step 2"}
    assert named_labels("What's in Step 12?") == {"step 12"}
    assert named_labels("How long is paid parental leave?") == frozenset()


def test_a_heading_segment_opening_with_a_word_and_a_number_is_a_label():
    assert section_labels("Day 3 (Wednesday) > Robot safety training · Security training") == {"day 3"}
    assert section_labels("Day 4 (Thursday) · Day 5 (Friday)") == {"day 4", "day 5"}
    assert section_labels("Step 1: Submit the software for an IT Standards review") == {"step 1"}
    assert section_labels("Step 1 - Submit a time request") == {"step 1"}
    assert section_labels("Before day one") == frozenset()  # the number does not open the heading
    assert section_labels("Form 1040 instructions") == frozenset()  # four digits: not a section number
    assert section_labels("") == frozenset()


def test_the_rows_a_question_names_are_found_in_the_label_map():
    labels = label_map(["Before day one", "Day 1 (Monday)", "Day 1 (Monday) > Your onboarding buddy",
                        "Day 3 (Wednesday) > Robot safety training", "", "Day 4 (Thursday) · Day 5 (Friday)"])
    assert labels == {"day 1": [1, 2], "day 3": [3], "day 4": [5], "day 5": [5]}
    assert looked_up_rows("What happens on Day 3?", labels) == [3]
    assert looked_up_rows("And on day five?", labels) == [5]
    assert looked_up_rows("What happens on Day 2?", labels) == []  # no such heading
    assert looked_up_rows("How many sick days do I get?", labels) == []


def test_looked_up_items_go_behind_the_first_and_are_not_repeated():
    assert with_looked_up(["a", "b", "c", "d"], ["c"], key=str) == ["a", "c", "b", "d"]
    assert with_looked_up(["a", "b"], ["x", "y"], key=str) == ["a", "x", "y", "b"]  # not retrieved: added
    assert with_looked_up(["a", "b", "c"], ["a", "c"], key=str) == ["a", "c", "b"]  # already first: stays first
    assert with_looked_up(["a", "b"], [], key=str) == ["a", "b"]
    assert with_looked_up([], ["x"], key=str) == ["x"]


def _unit_rows(n: int, dim: int = 16, seed: int = 5) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_the_index_finds_the_chunk_under_the_named_heading_with_its_scores(tmp_path):
    sections = ["Day 1 (Monday)", "Day 2 (Tuesday)", "Day 3 (Wednesday) > Robot safety training", "Holidays"]
    texts = ["Arrive at reception.", "Company orientation.", "Complete the robot safety course.", "New Year's Day."]
    matrix = _unit_rows(4)
    records = [{"chunk_id": 10 + i, "section": s, "text": t} for i, (s, t) in enumerate(zip(sections, texts))]
    index = StoredIndex.build(tmp_path / "idx", [10, 11, 12, 13], matrix, texts, records=records)
    assert (tmp_path / "idx" / "section_labels.json").is_file()
    hits = index.label_hits("What happens on Day 3?", matrix[0])
    assert [(h.row, h.key, h.looked_up) for h in hits] == [(2, 12, True)]
    assert abs(hits[0].dense - float(matrix[2] @ matrix[0])) < 1e-6  # its cosine, as search would give it
    assert index.label_hits("What happens on Day 9?", matrix[0]) == []
    assert index.label_hits("How long is the course?", matrix[0]) == []


def test_an_index_built_before_the_label_file_reads_its_labels_from_the_records(tmp_path):
    texts = ["Arrive at reception.", "Complete the robot safety course."]
    records = [{"chunk_id": 1, "section": "Day 1 (Monday)", "text": texts[0]},
               {"chunk_id": 2, "section": "Day 3 (Wednesday)", "text": texts[1]}]
    StoredIndex.build(tmp_path / "idx", [1, 2], _unit_rows(2), texts, records=records)
    (tmp_path / "idx" / "section_labels.json").unlink()
    assert StoredIndex(tmp_path / "idx").section_labels() == {"day 1": [0], "day 3": [1]}


def test_planning_keeps_a_looked_up_chunk_whatever_its_relevance():
    """"What do I do on my third day?" matched the Day 3 chunk at a cosine of 0.14, below the 0.2 a planned source
    needs: found by its heading, it is kept; another chunk as weak is still left out."""
    from dataclasses import replace

    from grounding.context import plan_context
    from grounding.tokens import counter_for
    from tests.grounding.helpers import make_page

    best = make_page(1, "Paid Time Off and Holidays", "Company holidays", "Tallgrass observes 11 paid holidays.")
    day3 = replace(make_page(2, "Your First Week", "Day 3 (Wednesday)", "Complete the robot safety course."),
                   dense=0.14, looked_up=True)
    weak = replace(make_page(3, "Travel", "Meals", "The daily meal allowance is $65."), dense=0.14)
    plan = plan_context(question="What do I do on my third day?", candidates=[best, day3, weak],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    assert [s.section for s in plan.sources] == ["Company holidays", "Day 3 (Wednesday)"]
    assert [d.chunk_id for d in plan.dropped if d.reason == "below_threshold"] == [3]
