"""Sentences that hold a yes/no question's words but do not state its predicate of its subject unconditionally in
their main clause (grounding.yesno_clauses): a cross-reference, an exception naming what is asked, a prohibition
bounded by a quantity the question does not state, a negated relative clause; and a chosen sentence excepting what
is asked leaves the question unsettled (grounding.extractive_yesno.decided). Made-up policies written after wrong
openers of development data (fresh5's y5-010 and y5-022, fresh3's f3029, the demo handbook's gift question); none is
from the 18F golden test half."""

from __future__ import annotations

import pytest

from grounding.extractive import ExtractiveAnswerer
from grounding.extractive_yesno import decided
from grounding.sentence_rank import ScoredSentence
from grounding.types import Source
from grounding.yesno import opener, says_no
from grounding.yesno_clauses import bounded_prohibition, excepts_asked, nominal_unstated, refers_elsewhere


@pytest.mark.parametrize("sentence,pointing", [
    ('Please refer to the "Who can join the review?" section for more information', True),
    ("See the parking page for details", True),
    ("For more information, see the travel guide", True),
    ("See your supervisor before you book a flight", False),             # no section, page or information
    ("Refer to the guide: contractors must not use the lounge", False),   # states a rule of its own
    ("Contractors may use the lounge on Fridays", False),
])
def test_a_cross_reference_is_read_as_pointing_elsewhere(sentence, pointing):
    assert refers_elsewhere(sentence) is pointing


def test_a_cross_reference_opens_no_yes_no_answer():
    assert opener("Will I join this year's review?", 'Please refer to the "Who can join the review?" section for '
                  "more information") == ""


@pytest.mark.parametrize("clause,sentence,excepted", [
    ("Does the badge policy apply to visiting contractors?",
     "All staff (except visiting contractors and interns) must wear a badge", True),
    ("Does the badge policy apply to staff?",
     "All staff (except visiting contractors and interns) must wear a badge", False),    # the rule's own subject
    ("Does the badge policy apply to visiting contractors?",
     "All staff must wear a badge, except visiting contractors", True),
    ("Is anyone other than visiting contractors exempt?",                                 # asks about an exception
     "All staff (except visiting contractors and interns) must wear a badge", False),
])
def test_an_exception_naming_what_is_asked(clause, sentence, excepted):
    assert excepts_asked(clause, sentence) is excepted


def test_a_rule_excepting_what_is_asked_opens_no_yes():
    assert opener("Do visiting contractors have to wear a badge?",
                  "All staff (except visiting contractors and interns) must wear a badge") == ""


@pytest.mark.parametrize("question,sentence,bounded", [
    ("Can I accept a gift from a vendor?", "Do not accept gifts from vendors worth more than $75.", True),
    ("Can I accept a gift from a vendor?", "Do not accept gifts from vendors.", False),     # no bound
    ("Can I accept a $100 gift from a vendor?", "Do not accept gifts from vendors worth more than $75.", False),
    ("Can I take a long lunch?", "Never take breaks longer than 2 hours.", True),
])
def test_a_prohibition_bounded_by_a_quantity_the_question_does_not_state(question, sentence, bounded):
    assert bounded_prohibition(question, sentence) is bounded


def test_a_bounded_prohibition_opens_no_plain_no():
    assert opener("Can I accept a gift from a vendor?", "Do not accept gifts from vendors worth more than $75.") == ""
    assert opener("Can I accept a gift from a vendor?", "Do not accept gifts from vendors.") == "No."


def test_a_negated_relative_clause_does_not_negate_the_main_clause():
    sentence = ("Rude remarks, which do not break the harassment policy, can still lead to discipline in the "
                "workplace")
    assert not says_no("Can rude remarks lead to discipline?", sentence)
    assert says_no("Can rude remarks lead to discipline?", "Rude remarks cannot lead to discipline in the workplace")


def _scored(text: str, score: float, position: int) -> ScoredSentence:
    return ScoredSentence(text=text, label="S1", score=score, kind="sentence", cosine=score, overlap=0.0, values=(),
                          position=position, precision=0.5)


def _sources() -> dict[str, Source]:
    return {"S1": Source(label="S1", chunk_ids=(1,), document_id=1, title="Badges", section="Badges", version="v1",
                         date="", text="", score=0.0, tokens=1)}


def test_a_chosen_sentence_excepting_what_is_asked_leaves_the_question_unsettled():
    question = "Does the badge policy apply to visiting contractors?"
    about = _scored("The badge policy applies to visiting contractors at the front desk.", 0.92, 1)
    excepting = _scored("All staff (except visiting contractors and interns) must follow the badge policy.", 0.9, 2)
    assert decided(ExtractiveAnswerer(), question, [about, excepting], _sources())[1] == ""
    assert decided(ExtractiveAnswerer(), question, [about], _sources())[1] == "Yes."


@pytest.mark.parametrize("clause,text,unstated", [
    ("Is changing a team's budget a sign that the project is late?", "Review budget changes (e.g. staffing) monthly",
     True),
    ("Is changing a team's budget a sign that the project is late?", "A budget change is a sign of scope growth",
     False),                                                                                  # the kind named
    ("Is Tock a tool for tracking time?", "Tock is the time tracking tool we use", False),
    ("Is lunch free?", "Lunch costs $6", False),                                              # no "a/an" kind asked
])
def test_the_kind_a_copular_question_asks(clause, text, unstated):
    assert nominal_unstated(clause, text) is unstated


def test_a_sentence_never_naming_the_asked_kind_opens_no_yes():
    assert opener("Is changing a team's budget a sign that the project is late?",
                  "Review project budget changes (e.g. staffing) monthly") == ""
