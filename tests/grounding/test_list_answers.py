"""The list a sentence announces (grounding.list_answers): a count of kinds, "the following" or a lead-in colon,
answered by the list items or the sub-headings that follow it in the same source. Texts are made up for the tests."""

from __future__ import annotations

import pytest

from grounding.list_answers import announced_items, announces_list


@pytest.mark.parametrize("text, count", [
    ("The office offers all 4 types of desks.", 4),
    ("There are three kinds of parking permits.", 3),
    ("You will need the following documents.", 0),
    ("Bring these to your first day:", 0),
    ("The forms are listed below.", 0),
    ("Desks are assigned every morning.", None),
    ("You work 8 hours a day, 5 days a week.", None),  # durations announce no list
    ("Only one type of badge opens the garage.", None),  # one is not a list
])
def test_announces_list_reads_the_announced_count(text, count):
    assert announces_list(text) == count


def test_the_items_right_after_an_announcing_sentence_are_its_list():
    texts = ["Bring the following:", "A photo ID", "A signed offer letter", "Parking is free."]
    kinds = ["lead", "item", "item", "sentence"]
    assert announced_items(texts, kinds, 0) == ["A photo ID", "A signed offer letter"]


def test_sub_headings_after_a_counted_announcement_are_its_list_up_to_the_count():
    texts = ["The office offers all 3 types of desks.", "Book one a day ahead.",
             "Standing", "Raised to elbow height.",
             "Sitting", "- An adjustable chair.", "Sitting",  # a heading repeated where two chunks were merged
             "Shared", "Booked by the hour.",
             "Lockers", "Ask reception for a key."]
    kinds = ["sentence", "sentence", "heading", "sentence", "heading", "item", "heading", "heading", "sentence",
             "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == ["Standing", "Sitting", "Shared"]


def test_a_heading_without_text_of_its_own_is_not_an_item():
    texts = ["There are two kinds of passes.", "Passes", "Day pass", "Valid until midnight.", "Week pass",
             "Valid for seven days."]
    kinds = ["sentence", "heading", "heading", "sentence", "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == ["Day pass", "Week pass"]


def test_a_sentence_that_announces_nothing_or_is_followed_by_running_text_has_no_items():
    assert announced_items(["Desks are assigned daily.", "Standing", "Tall."], ["sentence", "heading", "sentence"],
                           0) == []
    texts = ["There are two kinds of passes.", "Ask reception.", "Passes are free.", "They expire.", "Day pass",
             "Valid today."]
    kinds = ["sentence", "sentence", "sentence", "sentence", "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == []  # more than MAX_GAP sentences before the first heading
    assert announced_items(["Bring the following:", "A photo ID"], ["lead", "item"], 0) == []  # one item: no list
