"""A follow-up answered about what the previous turn asked, with the new case (s18): the case an elliptical follow-up
names must be in its answer (grounding.followup_reading.new_case), its answer leans to the page the previous answer
rested on and away from what it already quoted (grounding.followup_anchor), and "one", "that", "it" standing for the
thing asked about before refer back (grounding.followup). Written from the s18 development conversations (pages of
the 18F handbook that calibration and development questions use), not from the test half nor the fresh16 set."""

from __future__ import annotations

import pytest

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.followup import follow_up, refers_back
from grounding.followup_anchor import anchor_title, anchored, said_before
from grounding.followup_reading import new_case
from grounding.memory import MemoryTurn
from grounding.sentence_rank import ScoredSentence
from grounding.tokens import counter_for
from grounding.types import Turn
from tests.grounding.helpers import make_page


def _plan(asked: str, pages: list, previous: str, answer: str = ""):
    counter = counter_for("extractive")
    history = [MemoryTurn("user", previous, counter.count(previous))]
    if answer:
        history.append(MemoryTurn("assistant", answer, counter.count(answer)))
    return plan_context(question=asked, candidates=pages, system_prompt="Answer.", counter=counter, history=history)


def test_the_case_an_elliptical_follow_up_names_instead_of_the_previous_ones():
    assert new_case("What about travel comp time?", "Is comp time paid out if I leave GSA?") == {"travel"}
    assert new_case("And as an organ donor?", "How much leave do I get as a bone marrow donor?") == {"organ"}
    assert new_case("What about the public one?", "Do I have to keep my private key secret?") == {"public"}
    assert new_case("Do they expire?", "How many credit hours can I bank?") == frozenset()  # not elliptical


def test_an_elliptical_follow_up_is_answered_by_a_sentence_holding_the_case_it_names(embedder):
    """dc25 of the s18 development conversations: "What about travel comp time?" quoted the comp time sentence
    the previous answer had quoted ("If you leave GSA, your comp time will be paid out.")."""
    previous, asked = "Is comp time paid out if I leave GSA?", "What about travel comp time?"
    page = make_page(1, "Overtime", "Comp time",
                     "Comp time expires one year after it is earned. If you leave GSA, your comp time will be paid "
                     "out. Travel comp time is earned when you travel outside working hours. If you leave GSA, any "
                     "unused travel comp time will be forfeited.")
    query = follow_up(asked, [previous]).query
    text = ExtractiveAnswerer(embedder).compose(query, _plan(asked, [page], previous))
    assert text.startswith("If you leave GSA, any unused travel comp time will be forfeited"), text


def test_the_page_the_previous_answer_cited_first_is_read_from_its_source_markers():
    history = [Turn("user", "Who starts a clearance request?", 5),
               Turn("assistant", "Your supervisor starts it (source: TS/SCI Clearance). Ask research first "
                                 "(source: PRA for user research; TS/SCI Clearance).", 20)]
    assert anchor_title(history, ["PRA for user research", "TS/SCI Clearance", "TS/SCI"]) == "TS/SCI Clearance"
    assert anchor_title(history, ["Leave"]) == ""
    assert anchor_title(history[:1], ["TS/SCI Clearance"]) == ""  # no answer yet
    assert said_before("Your supervisor starts it.", history) and not said_before("Ask HR.", history)


def test_a_follow_up_prefers_the_previous_answers_page_and_what_it_has_not_said_in_near_ties_only():
    previous, answer = "Who starts a clearance request?", "Your supervisor starts it (source: Clearance)."
    pages = [make_page(1, "PRA", "Fast track", "Fast track clearance is quicker."),
             make_page(2, "Clearance", "Upgrades", "Your supervisor starts it. An active clearance may be quicker.")]
    plan = _plan("Could it go faster?", pages, previous, answer)
    ranked = [ScoredSentence("Fast track clearance is quicker.", "S1", 0.70),
              ScoredSentence("Your supervisor starts it.", "S2", 0.69),
              ScoredSentence("An active clearance may be quicker.", "S2", 0.68),
              ScoredSentence("Something far below.", "S2", 0.40)]
    order = [s.text for s in anchored(ranked, plan, threshold=0.62)]
    # the page the previous answer rested on first; the sentence it quoted behind the new one; scores unchanged
    assert order[:3] == ["An active clearance may be quicker.", "Fast track clearance is quicker.",
                         "Your supervisor starts it."]
    assert [s.score for s in anchored(ranked, plan, threshold=0.62)][:2] == [0.68, 0.70]
    # a clearly better sentence of another page stays first; one below the threshold never moves up past it
    ranked[0] = ScoredSentence("Fast track clearance is quicker.", "S1", 0.90)
    assert anchored(ranked, plan, threshold=0.62)[0].text == "Fast track clearance is quicker."
    low = [ScoredSentence("Fast track clearance is quicker.", "S1", 0.63),
           ScoredSentence("An active clearance may be quicker.", "S2", 0.60)]
    assert anchored(low, plan, threshold=0.62)[0].text == "Fast track clearance is quicker."


@pytest.mark.parametrize("question", [
    "Do I still need one to request a training?", "What about the public one?", "Which one is closer?",
    "Can I get one?", "Is there one in Chicago?"])
def test_one_standing_for_a_thing_named_before_refers_back(question):
    assert refers_back(question)
    assert follow_up(question, ["Where do I create my IDP?"]).refers


@pytest.mark.parametrize("question", [
    "Can no one see my private channels?", "How many credit hours can I have at one time?",
    "Is there a one-time fee for the gym?", "What is one of the benefits of an IDP?", "Do I get one day off a month?"])
def test_one_as_a_number_or_in_no_one_does_not_refer_back(question):
    assert follow_up(question, ["How long is paid parental leave?"]).signal != "referring"


@pytest.mark.parametrize("question", [
    "Is that paid out if I leave GSA?", "Could it go faster if I already have an active clearance?",
    "Does that apply to contractors working remotely?", "How long does that take from the airport?"])
def test_that_or_it_as_the_subject_of_the_question_refers_back_however_confidently_it_retrieves(question):
    decided = follow_up(question, ["How many credit hours can I bank?"], confidence=lambda q: 0.9)
    assert decided.refers and decided.signal == "referring"


@pytest.mark.parametrize("question", [
    "How much does it cost to park at the DC office?", "Does it matter which browser I use for Concur?",
    "Is it okay to connect my personal laptop to the GSA network?",
    "How long after acknowledging a re-opened performance plan can an employee be rated against it?"])
def test_an_it_standing_for_what_follows_or_later_in_the_question_leaves_a_confident_question_alone(question):
    decided = follow_up(question, ["How many credit hours can I bank?"], confidence=lambda q: 0.9)
    assert not decided.refers


def test_a_sentence_differing_from_a_quoted_one_only_in_its_value_was_not_said_before():
    """The demo's "And what was it in 2024?" after "What about in Seattle?": the 2024 version's "... the limit is
    $300 per night" is not the current "... $325 per night" the previous answer quoted (an 80-character head of the
    sentence took them for one, and the old value was put last)."""
    answer = ("In high-cost cities (New York, San Francisco, Boston, Seattle and Washington, D.C.) the limit is $325 "
              "per night (source: Travel policy).")
    history = [Turn("user", "What about in Seattle?", 5), Turn("assistant", answer, 30)]
    assert said_before("In high-cost cities (New York, San Francisco, Boston, Seattle and Washington, D.C.) the limit "
                       "is $325 per night.", history)
    assert not said_before("In high-cost cities (New York, San Francisco, Boston, Seattle and Washington, D.C.) the "
                           "limit is $300 per night.", history)


def test_a_follow_up_prefers_the_sentence_that_goes_on_from_the_one_the_previous_answer_quoted():
    """f16-c09 of the s18 fresh conversations (development data in s20): "Who reviews it?" after the account manager
    writes the proposal quoted another page's "This document will be reviewed at least annually ..."; the passage
    goes on "They then send it off for the partner agency to review."."""
    previous = "Who writes the proposal once an opportunity is qualified?"
    answer = "The account manager writes up a short proposal (source: Project lifecycle)."
    pages = [make_page(1, "Project lifecycle", "", "The account manager writes up a short proposal. Directors may "
                       "help. They then send it off for the partner agency to review."),
             make_page(2, "Policy", "About", "This document will be reviewed at least annually.")]
    plan = _plan("Who reviews it?", pages, previous, answer)
    ranked = [ScoredSentence("The account manager writes up a short proposal.", "S1", 0.75, position=0),
              ScoredSentence("This document will be reviewed at least annually.", "S2", 0.74, position=0),
              ScoredSentence("They then send it off for the partner agency to review.", "S1", 0.61, position=2),
              ScoredSentence("Directors may help.", "S1", 0.50, position=1)]
    out = anchored(ranked, plan, threshold=0.62)
    assert out[0].text == "They then send it off for the partner agency to review."
    assert out[0].score == pytest.approx(0.71)  # scored higher, so it may pass the threshold
    # an elliptical follow-up names another case: the passage going on is not what it asks
    assert anchored(ranked, plan, threshold=0.62, goes_on=False)[0].text != out[0].text
    # a table row or list item after a quoted one is another case, not the passage going on
    rows = [ScoredSentence("Date: Oct 17; Item: self-assessment due", "S1", 0.75, kind="row", position=0),
            ScoredSentence("Date: Dec 10; Item: awards paid", "S1", 0.70, kind="row", position=5),
            ScoredSentence("Date: Oct 20; Item: audit", "S1", 0.66, kind="row", position=1)]
    plan = _plan("And when are awards paid?", pages, "When is the self-assessment due?",
                 "Date: Oct 17; Item: self-assessment due (source: Project lifecycle).")
    assert [s.score for s in anchored(rows, plan, threshold=0.62)] == [0.70, 0.66, 0.75]


def test_a_predicated_yes_no_question_names_its_subject():
    """"Is alcohol covered?" names alcohol; "covered" is the predicate, which the previous meal answer's "The
    allowance covers breakfast, ..." held too (grounding.followup_reading.predicated_subject)."""
    from grounding.followup_reading import predicated_subject
    assert predicated_subject("Is alcohol covered?") == {"alcohol"}
    assert predicated_subject("Are taxis reimbursed too?") == {"taxi"}
    assert predicated_subject("Is the hotel breakfast included?") == {"hotel", "breakfast"}
    assert predicated_subject("Is it covered?") == frozenset()
    assert predicated_subject("How much is covered?") == frozenset()
