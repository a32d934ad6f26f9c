"""A follow-up whose best sentence scores under the threshold is answered by a sentence on a page the previous answer
cited that holds the follow-up's own words (grounding.followup_anchor.lifted_on_cited_page; the s30 new user's demo
run refused "who approves it?" after the notice a week off needs)."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.followup import follow_up
from grounding.followup_anchor import cited_titles
from grounding.memory import MemoryTurn
from grounding.tokens import counter_for
from grounding.types import Turn
from tests.grounding.helpers import make_page

PREVIOUS = "how much notice do I need to take a week off?"
PAGES = [make_page(1, "Paid Time Off", "Requesting time off",
                   "Requests longer than three days need at least 4 weeks' notice. Your manager approves or declines "
                   "a request within 3 business days; if there is no response, escalate in the people channel."),
         make_page(2, "Parental Leave", "Taking leave", "You may take it in one continuous block or in up to three "
                                                        "separate blocks of at least 2 weeks each.")]


def test_cited_titles_reads_every_marker():
    history = [Turn("assistant", "A (source: Parental Leave). B (source: Paid Time Off).", 5)]
    assert cited_titles(history, ["Paid Time Off", "Parental Leave", "Travel"]) == {"Paid Time Off", "Parental Leave"}


def _answer(embedder, asked: str, previous_answer: str) -> str:
    counter = counter_for("extractive")
    plan = plan_context(question=asked, candidates=PAGES, system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", PREVIOUS, counter.count(PREVIOUS)),
                                 MemoryTurn("assistant", previous_answer, counter.count(previous_answer))])
    return ExtractiveAnswerer(embedder).compose(follow_up(asked, [PREVIOUS]).query, plan)


def test_the_follow_ups_own_word_on_the_cited_page_answers(embedder):
    cited = "Requests longer than three days need at least 4 weeks' notice (source: Paid Time Off)."
    assert _answer(embedder, "who approves it?", cited).startswith("Your manager approves or declines a request")


def test_a_page_the_previous_answer_did_not_cite_is_not_lifted(embedder):
    other = "You may take it in blocks of at least 2 weeks each (source: Parental Leave)."
    assert "Your manager approves" not in _answer(embedder, "who approves it?", other)
