"""grounding.source_scope: pages for different groups, named only in their titles, state two subjects' values."""

from __future__ import annotations

from dataclasses import replace

from grounding.contradictions import detect_conflicts
from grounding.source_scope import scope, scoped_apart
from tests.grounding.test_contradictions import src


def test_the_group_a_page_is_for_is_read_from_its_title_or_section():
    assert scope("Sales Team Guide") == {"sale"} and scope("Intern Program", "Travel") == {"intern"}
    assert scope("Contractors", "Equipment") == {"contractor"}
    assert scope("Travel and Expenses Policy", "Meals") == frozenset()


def test_pages_for_two_groups_are_apart_unless_a_sentence_names_the_group():
    assert scoped_apart("Sales Team Guide", "", "The training budget is $3,000.", "Engineering Team Guide", "",
                        "The training budget is $1,200.")
    assert scoped_apart("Intern Program", "Travel", "The daily meal allowance is $40.", "Travel Policy", "Meals",
                        "The daily meal allowance is $65.")
    assert not scoped_apart("Travel Policy", "", "The meal allowance is $65.", "Expense Guide", "",
                            "The meal allowance is $50.")  # no group: the pages disagree
    assert not scoped_apart("Intern Program", "", "Interns get $40 a day.", "Travel Policy", "",
                            "The daily meal allowance is $65.")  # the sentence says whom it is about


def test_no_contradiction_note_between_two_teams_guides(embedder):
    """The s45 breaker: "What is the training budget for the sales team?" got "Note that the sources disagree: S1
    says the training budget is $3,000 per person per year but S3 says $1,200" over two teams' guides."""
    sales = replace(src("S1", "The training budget is $3,000 per person per year.", doc=1), title="Sales Team Guide",
                    section="Training")
    engineering = replace(src("S2", "The training budget is $1,200 per person per year.", doc=2),
                          title="Engineering Team Guide", section="Training")
    assert detect_conflicts([sales, engineering], embedder) == []
    general = replace(engineering, title="Company Handbook")
    other = replace(sales, title="Benefits Guide")
    assert len(detect_conflicts([other, general], embedder)) == 1  # two pages for everyone disagree

