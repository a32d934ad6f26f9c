"""Rules of the s35 round from development questions and the calibration half (each test names the item it came
from; none is from the 18F test half). Texts are made up unless they quote the question."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.memory import MemoryTurn
from grounding.tokens import counter_for
from tests.grounding.helpers import make_page


def _follow_up_plan(previous: str, asked: str, *pages):
    """The plan of the follow-up ``asked`` after ``previous`` (one user turn of history)."""
    counter = counter_for("extractive")
    return plan_context(question=asked, candidates=list(pages), system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])


def test_q207_a_follow_up_asking_for_a_similar_limit_is_settled_by_the_sentence_denying_one(embedder):
    """The calibration half's q207: "Is there a similar limit for sick leave?" after "How much annual leave can I
    carry over into the new year?" quoted three sentences counting other sick leave ("up to 13 days ... for family
    health needs") and not "There is no maximum amount of sick leave you can accrue", which answers it: No."""
    previous = "How much annual leave can I carry over into the new year?"
    asked = "Is there a similar limit for sick leave?"
    page = make_page(1, "Leave", "Sick leave", "You can use up to 13 days of sick leave per year for family health "
                     "needs and bereavement. You can use sick leave for your physical and mental health needs. "
                     "There is no maximum amount of sick leave you can accrue, and accrued sick leave transfers "
                     "with you.")
    annual = make_page(2, "Leave", "Annual leave", "You can carry over a maximum of 240 annual leave hours from one "
                       "leave year to the next.")
    text = ExtractiveAnswerer(embedder).compose(f"{asked} annual leave carry new year",
                                                _follow_up_plan(previous, asked, page, annual))
    assert text.startswith("No. There is no maximum amount of sick leave you can accrue"), text
    # a follow-up asking whether its case differs, with no sentence denying a limit on it, still opens with nothing
    other = ExtractiveAnswerer(embedder).compose(f"{asked} annual leave carry new year",
                                                 _follow_up_plan(previous, "Is it different for sick leave?", page,
                                                                 annual))
    assert not other.startswith(("Yes", "No")), other
