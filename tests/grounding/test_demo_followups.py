"""Rules from the s19 new-user run on the demo handbook: a heading ending with a parenthetical, a follow-up adding a
group whose rule is a share of the value asked before, and a follow-up asking the earlier value of "it"."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.extractive_turns import own_subject
from grounding.followup import follow_up
from grounding.followup_reading import previous_subject
from grounding.index_files import ANSWER_DATA
from grounding.lexical import content_terms
from grounding.memory import MemoryTurn
from grounding.sentence_data import segment
from grounding.tokens import counter_for
from tests.grounding.helpers import make_page


def test_a_short_line_ending_with_a_parenthetical_is_a_heading():
    units, _ = segment("- Shadow a teammate for the day.\nDay 5 (Friday)\n- Attend the Friday Demo Hour.")
    assert [kind for _, _, kind, _ in units] == ["item", "heading", "item"]
    # a parenthetical holding sentence punctuation, or a line ending with a full stop, is not a heading
    assert [k for _, _, k, _ in segment("Call us (see below.)")[0]] == ["sentence"]
    assert [k for _, _, k, _ in segment("See the guide (PDF).")[0]] == ["sentence"]


def test_the_stored_answer_data_is_counted_up_for_the_heading_change():
    """Layouts (sentence kinds) are stored in the index: an index built before the heading rule is built again."""
    assert ANSWER_DATA >= 9


def test_per_is_not_a_subject_a_follow_up_keeps():
    assert previous_subject("And for part-time staff?", "How many vacation days do I get per year?") == \
        content_terms("vacation")


def test_a_follow_up_adding_a_group_whose_rule_is_a_share_is_answered_with_the_share_and_its_base(embedder):
    previous, asked = "How many vacation days do I get per year?", "And for part-time staff?"
    pages = [make_page(1, "Paid Time Off", "", "This policy explains how full-time employees earn paid time off. "
                                               "Part-time employees accrue PTO pro rata based on their scheduled "
                                               "hours."),
             make_page(2, "Paid Time Off", "Accrual", "Employees accrue 1.5 days of paid time off per month, which "
                                                      "adds up to 18 days per calendar year."),
             make_page(3, "Paid Time Off", "Sick leave", "Sick leave is separate from PTO: 10 paid sick days per "
                                                         "calendar year.")]
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=pages, system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])
    text = ExtractiveAnswerer(embedder).compose(follow_up(asked, [previous]).query, plan)
    assert "pro rata" in text and "1.5 days" in text, text
    assert "say nothing specific" not in text and "sick days" not in text, text


def test_a_question_asking_the_past_of_it_names_no_subject_of_its_own():
    assert own_subject("What was it before the current policy?") == frozenset()
    assert own_subject("And what was it under the old rules?") == frozenset()
    assert own_subject("What was the mileage rate in 2024?") == content_terms("mileage rate")
    assert own_subject("What is the current policy on pets?") == content_terms("current policy pets")


def test_a_sentence_quoted_before_beside_the_answer_leads_when_the_follow_up_asks_its_case(embedder):
    """The previous answer quoted the sick days' count beside the vacation days: "And what about sick days?" asks for
    it, so it is not moved back as a repeat (it was, and the answer led with the sick days' usage rules)."""
    from grounding.followup_anchor import anchored
    from grounding.followup_reading import new_case
    from grounding.sentence_rank import rank_sentences, with_sentences

    previous, asked = "How many vacation days do I get?", "And what about sick days?"
    said = "Employees accrue 18 days of paid time off per year [S1]. Every employee receives 10 paid sick days " \
           "per calendar year [S1]."
    page = make_page(1, "Paid Time Off", "Sick leave", "Every employee receives 10 paid sick days per calendar "
                                                       "year. Use sick days for your own illness or to care for a "
                                                       "sick family member.")
    counter = counter_for("extractive")
    plan = with_sentences(plan_context(question=asked, candidates=[page], system_prompt="Answer.", counter=counter,
                                       history=[MemoryTurn("user", previous, counter.count(previous)),
                                                MemoryTurn("assistant", said, counter.count(said))]), embedder)
    ranked = rank_sentences(f"{asked} vacation days", plan, embedder, asked=f"{previous} {asked}")
    first = [s.text for s in ranked if s.text.startswith("Every employee")][0]
    case = new_case(asked, previous)
    assert case == content_terms("sick")
    assert anchored(ranked, plan, 0.0, case=case)[0].text == first
    assert anchored(ranked, plan, 0.0, repeat=1.0)[0].text != first  # without the case it is a repeat


def test_a_numbered_part_is_a_word_and_its_number_not_a_clock_time():
    from grounding.sentence_leads import numbered_parts, other_part

    assert numbered_parts("What happens on Day 3?") == {("day", "3")}
    assert numbered_parts("Attend the Demo Hour (3:00 p.m. Central)") == set()
    assert other_part("What happens on Day 3?", "Day 5 (Friday)")
    assert not other_part("What happens on Day 3?", "Day 3 (Wednesday)")
    assert not other_part("What happens on Day 3?", "Robot safety training")  # no part named: not another one
    assert not other_part("What do I do first?", "Day 5 (Friday)")  # no part asked


def test_a_sentence_under_another_numbered_part_is_not_the_answer(embedder):
    """"What happens on Day 3?" quoted Day 5's Demo Hour ("3:00 p.m." matched the 3) from a chunk packing Day 4 and
    Day 5: a sentence under another day's heading is ranked down."""
    from grounding.sentence_rank import rank_sentences, with_sentences

    page = make_page(1, "Your First Week", "Day 4 (Thursday) · Day 5 (Friday)",
                     "- Shadow a teammate for the day.\nDay 5 (Friday)\n- Attend the Friday Demo Hour (3:00 p.m. "
                     "Central), where teams show what they built that week.")
    plan = with_sentences(plan_context(question="What happens on Day 3?", candidates=[page], system_prompt="Answer.",
                                       counter=counter_for("extractive")), embedder)
    ranked = {s.text[:10]: s.score for s in rank_sentences("What happens on Day 3?", plan, embedder)}
    alone = {s.text[:10]: s.score for s in rank_sentences("What happens on Day 5?", plan, embedder)}
    assert ranked["Attend the"] < 0.62 <= alone["Attend the"], (ranked, alone)


def test_the_heading_a_sentence_stands_under_names_the_rest_of_what_is_asked(embedder):
    """"What training do I need to complete in my first week?" was refused (0.566): the sentence stating it holds
    every word but "training", which its heading, "Robot safety training", holds."""
    from grounding.sentence_rank import rank_sentences, with_sentences

    question = "What training do I need to complete in my first week?"
    text = ("All new employees must complete the 2-hour Robot Safety Fundamentals course on Wednesday of their first "
            "week.")
    others = [make_page(2, "Office", "Badges", "You need a badge to enter the office. Badges are printed on your first "
                                                "day."),
              make_page(3, "Learning", "Budgets", "Training budgets are set each year. Ask your manager what you need.")]
    plans = [with_sentences(plan_context(question=question, candidates=[make_page(1, "First Week", section, text),
                                                                         *others],
                                         system_prompt="Answer.", counter=counter_for("extractive")), embedder)
             for section in ("Day 3 (Wednesday) > Robot safety training", "Day 3 (Wednesday) > Robot safety")]
    under, other = ([s for s in rank_sentences(question, plan, embedder) if s.text == text][0] for plan in plans)
    assert under.overlap > other.overlap
    # a quantity question keeps its own heading rule (grounding.sentence_rank heading_bonus), not this one
    quantity = "How long is the training in my first week?"
    same = [[s.overlap for s in rank_sentences(quantity, plan, embedder) if s.text == text] for plan in plans]
    assert same[0] == same[1]


INTERNET = ("Fully remote employees are reimbursed up to $50 per month for home internet. Hybrid employees are not "
            "eligible for the internet reimbursement.")


def test_a_follow_up_for_another_group_is_answered_by_the_denial_said_of_it(embedder):
    # the s27 new-user run: "And for hybrid employees?" after the remote employees' internet reimbursement was refused
    # ("... do not state the amount"): the sentence denying it to hybrid employees states no amount
    previous, asked = "What is the internet reimbursement for remote employees?", "And for hybrid employees?"
    pages = [make_page(1, "Remote and Hybrid Work Policy", "Home office setup > Internet", INTERNET),
             make_page(2, "Remote and Hybrid Work Policy", "Home office setup > Stipend",
                       "Hybrid employees receive a one-time stipend of $400.")]
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=pages, system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", previous, counter.count(previous))])
    text = ExtractiveAnswerer(embedder).compose(follow_up(asked, [previous]).query, plan)
    assert text.startswith("Hybrid employees are not eligible for the internet reimbursement [S1]."), text
    assert "$400" not in text, text
