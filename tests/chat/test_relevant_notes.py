"""Which contradiction notes reach an answer: only those about what the question asks."""

from __future__ import annotations

from chat.answering import relevant_notes
from grounding.contradictions import Conflict

MEALS = Conflict(labels=("S2", "S7"), kind="version_superseded",
                 text="S2 (2025-03-01) says the daily meal allowance is $65 per day but S7 (2024-01-15, superseded) "
                      "says $50.",
                 sentences=("The daily meal allowance is $65 per day when travelling overnight.",
                            "The daily meal allowance is $50 per day."),
                 values=("$65", "$50"), similarity=0.97)
VACATION = Conflict(labels=("S1", "S3"), kind="value_mismatch",
                    text="S1 says employees get 25 vacation days per year but S3 says 20.",
                    sentences=("Employees get 25 vacation days per year.", "Staff receive 20 vacation days a year."),
                    values=("25", "20"), similarity=0.9)


def test_a_note_sharing_only_how_often_words_with_the_question_is_left_out():
    """"days" and "per year" are shared by the meal allowance note and a vacation question: not what was asked."""
    notes = relevant_notes([MEALS, VACATION], "How many vacation days do I get per year?")
    assert [n.labels for n in notes] == [("S1", "S3")]


def test_the_note_about_what_was_asked_is_kept():
    assert [n.labels for n in relevant_notes([MEALS, VACATION], "What is the meal allowance per day?")] == [("S2", "S7")]
    # a question of generic words only still matches on them
    assert [n.labels for n in relevant_notes([MEALS], "How much per day?")] == [("S2", "S7")]
