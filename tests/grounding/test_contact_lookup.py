"""grounding.contact_lookup: "Who do I contact about ...?" is answered by the contact section of the page it asks
about."""

from __future__ import annotations

import pytest

from grounding.contact_lookup import asks_contact, contact_heading, contact_rows, contacts_first
from grounding.scored_sentences import ScoredSentence


@pytest.mark.parametrize("question, asks", [
    ("Who do I contact about equipment?", True),
    ("Who should I ask about my laptop?", True),
    ("Who's the point of contact for Tock?", True),
    ("How do I reach the IT Help Desk?", True),
    ("Who can I talk to about my benefits?", True),
    ("Who approves my PTO?", False),
    ("What should I do if a member of the press contacts me?", False),
    ("How long does it take for the Office of Acquisition to contact me?", False),
])
def test_a_question_asking_whom_to_contact(question, asks):
    assert asks_contact(question) is asks


def test_a_contact_heading_is_a_whole_heading():
    assert contact_heading("Contact") and contact_heading("Travel > Questions?") and contact_heading("Getting help")
    assert contact_heading("Returning equipment when you leave · Contact")  # a merged source's second part
    assert not contact_heading("Emergency contacts") and not contact_heading("Questions about entering expenses")
    assert not contact_heading("")


def test_the_contact_rows_of_the_first_candidate_page_that_has_one():
    sections = {3: (7, "Laptops"), 9: (7, "Contact"), 12: (8, "Questions?"), 13: (8, "Questions?")}
    assert contact_rows([7, 8], sections) == [9]
    assert contact_rows([5, 8], sections) == [12]  # page 5 has none
    assert contact_rows([5], sections) == []


def test_the_contact_sentence_is_put_first_by_more_than_the_answerers_spread():
    scored = [ScoredSentence("Report damage to the IT Help Desk.", "S1", 0.66, "sentence", 0.6, 0.2, (), 0, 0.5),
              ScoredSentence("IT Help Desk: #it-help on Slack, extension 4357.", "S4", 0.30, "sentence", 0.3, 0.0, (),
                             0, 0.1)]
    lifted = {s.label: s.score for s in contacts_first(scored, [("S4", 0)])}
    assert lifted["S4"] == pytest.approx(0.81) and lifted["S1"] == 0.66


def test_the_page_asked_about_is_named_by_the_questions_own_words():
    """In a conversation about laptops, "Who do I contact about PTO?" was retrieved with the laptop questions' words
    and quoted the equipment page's help desk: the question's own topic picks the page."""
    from types import SimpleNamespace as S

    from grounding.contact_lookup import contact_page

    equipment = S(title="Equipment and Laptop Policy", keywords=("laptop",), score=0.06, document_id=1,
                  status="current")
    pto = S(title="Paid Time Off and Holidays", keywords=("PTO", "vacation"), score=0.04, document_id=2,
            status="current")
    assert contact_page([equipment, pto], "Who do I contact about PTO?") == 2
    assert contact_page([equipment, pto], "Who do I ask?") == 1  # no topic: the most relevant
    assert contact_page([], "Who do I contact about PTO?") is None
