"""The contradiction-note policy (grounding.notes): which notes reach an answer, and how they follow their labels."""

from __future__ import annotations

from grounding.conflict import Conflict
from grounding.notes import relabel_notes, relevant_notes
from grounding.types import ContextPlan, Note, Source

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


def test_notes_follow_their_sources_when_labels_change():
    def src(label, cid):
        return Source(label=label, chunk_ids=(cid,), document_id=cid, title="t", section="", version="v", date="",
                      text="x", score=0.5, tokens=1)

    old = ContextPlan(question="q", sources=(src("S1", 10), src("S2", 20), src("S3", 30)))
    new = ContextPlan(question="q", sources=(src("S1", 10), src("S2", 30)))  # chunk 20 fell out of the budget
    notes = [Note("value_mismatch", ("S1", "S3"), "S1 says $65 but S3 says $50."),
             Note("negation", ("S1", "S2"), "S1 and S2 disagree.")]
    assert relabel_notes(notes, old, new) == [Note("value_mismatch", ("S1", "S2"), "S1 says $65 but S2 says $50.")]


SALARY = Conflict(labels=("S1", "S2"), kind="version_superseded",
                  text="S1 (2024-11-26) says the maximum salary is $191,900 but S2 (2023-04-27, superseded) says "
                       "$183,500.",
                  sentences=("If you make the maximum salary ($191,900 in 2024), you cannot receive overtime.",
                             "One is your salary: the maximum GS salary ($183,500 in FY23)."),
                  values=("$191,900", "$183,500"), similarity=0.575, rule="value", relevance=0.38)


def test_a_version_note_about_another_sentence_of_the_page_is_left_out():
    """Both sentences share "time" and "one" with the question ("at any one time"), which say how much, not what
    about; and the question is far from them in meaning (relevance below VERSION_NOTE_RELEVANCE)."""
    from dataclasses import replace

    assert relevant_notes([SALARY], "How many credit hours am I allowed to have banked at any one time?") == []
    assert relevant_notes([replace(SALARY, relevance=0.79)], "At what salary do I stop getting overtime?") == [
        SALARY.as_note()]
    # a single distinctive word in common is enough only when the question is close in meaning
    assert relevant_notes([replace(SALARY, relevance=0.5)], "What was the salary cap previously?") == []
    assert relevant_notes([replace(SALARY, relevance=0.65)], "What was the salary cap previously?") == [SALARY.as_note()]


def test_weak_findings_and_far_apart_verdicts_never_become_notes():
    from dataclasses import replace

    cue = Conflict(labels=("S1", "S2"), kind="negation", text="S1 and S2 disagree.",
                   sentences=("HR Links is not connecting hours to your timesheet.",
                              "Check your hours before submitting your timesheet in HR Links."),
                   values=("not", "affirmative"), similarity=0.9, rule="cue")
    question = "Do my hours reach my timesheet in HR Links?"
    assert relevant_notes([cue], question) == []  # a negation cue on one side only
    assert relevant_notes([replace(cue, rule="predicate")], question) == [cue.as_note()]
    loose = replace(VACATION, rule="loose value")
    assert relevant_notes([loose], "How many vacation days do I get per year?") == []


MILEAGE = Conflict(labels=("S1", "S4"), kind="version_superseded",
                   text="S1 (2025-03-01) says Tallgrass reimburses mileage at $0.70 per mile but S4 (2024-01-15, "
                        "superseded) says $0.67.",
                   sentences=("When you drive your personal car for business, Tallgrass reimburses mileage at $0.70 "
                              "per mile.", "When you drive your personal car for business, Tallgrass reimburses "
                              "mileage at $0.67 per mile."),
                   values=("$0.70", "$0.67"), similarity=0.998, rule="value", relevance=0.525)


def test_a_value_edited_in_a_kept_sentence_is_noted_on_one_shared_word():
    """The demo handbook's "What is the mileage rate?" (s13 new-user run) got no version note: the question shares
    one word ("mileage") with a sentence whose value alone the revision changed ($0.67 -> $0.70), at question cosine
    0.525 (below VERSION_NOTE_CLOSE). A sentence kept but for its value (cosine >= VALUE_EDIT_SIMILARITY) is noted;
    the same clash between reworded sentences is not."""
    from dataclasses import replace

    from grounding.lexical import content_terms
    from grounding.notes import concerns

    assert relevant_notes([MILEAGE], "What is the mileage rate?") == [MILEAGE.as_note()]
    terms = frozenset(content_terms(MILEAGE.sentences[0]) | content_terms(MILEAGE.sentences[1]))
    assert concerns("What is the mileage rate?")(terms, similarity=0.998, relevance=0.525, versions=True)
    assert relevant_notes([replace(MILEAGE, similarity=0.8)], "What is the mileage rate?") == []


def test_a_loose_value_of_one_unit_in_two_close_documents_naming_the_question_is_a_note():
    """The s46 breaker's two pages: "Expense reports must be submitted within 30 days of returning from a trip." /
    "You have 60 days after you get back to submit your expense report." (cosine 0.79, matched loosely: no shared
    neighbour of the values) got no note for "When are expense reports due?". Further apart sentences, values of two
    units or one shared question word stay unnoted."""
    from dataclasses import replace

    expenses = Conflict(labels=("S1", "S2"), kind="value_mismatch",
                        text='S1 says "Expense reports must be submitted within 30 days of returning from a trip" but '
                             'S2 says 60 days.',
                        sentences=("Expense reports must be submitted within 30 days of returning from a trip.",
                                   "You have 60 days after you get back to submit your expense report."),
                        values=("30 days", "60 days"), similarity=0.79, rule="loose value")
    question = "When are expense reports due?"
    assert relevant_notes([expenses], question) == [expenses.as_note()]
    assert relevant_notes([replace(expenses, similarity=0.7)], question) == []
    assert relevant_notes([replace(expenses, values=("30 days", "60 hours"))], question) == []
    assert relevant_notes([expenses], "When is the expense deadline?") == []  # one distinctive word in both


def test_two_pages_giving_two_deadlines_for_expense_reports_get_a_note(embedder):
    """The same two pages through the detector (grounding.contradictions) and the note policy, as an answer reads
    them: the note names both deadlines."""
    from grounding.contradictions import detect_conflicts
    from grounding.notes import concerns

    def page(label: str, n: int, title: str, text: str) -> Source:
        return Source(label=label, chunk_ids=(n,), document_id=n, title=title, section="", version="v1",
                      date="2025-01-01", text=text, score=0.5, tokens=20, version_id=n)

    sources = [page("S1", 1, "Expense policy", "Expense reports must be submitted within 30 days of returning from a "
                                               "trip."),
               page("S2", 2, "Travel FAQ", "How long do I have to file my expenses? You have 60 days after you get "
                                           "back to submit your expense report.")]
    question = "When are expense reports due?"
    notes = relevant_notes(detect_conflicts(sources, embedder, focus=question, concerns=concerns(question)), question)
    assert [n.text for n in notes] == ['S1 (2025-01-01) says "Expense reports must be submitted within 30 days of '
                                       'returning from a trip" but S2 (2025-01-01) says 60 days.']
