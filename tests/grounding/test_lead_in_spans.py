"""The chip of a lead-in the extractive answerer wrote itself ("<title>, <heading>:", grounding.section_lists) stands
for the section it names, not for a sentence sharing a word with it (the s19 new-user run: "Your First Week at
Tallgrass, Day 1 (Monday) [S3]:" highlighted "Your manager and your onboarding buddy will also check in with you
every day this week.")."""

from __future__ import annotations

from dataclasses import replace

from grounding.answer import cited_span, finalize_answer
from grounding.context import plan_context
from grounding.prompt import DEFAULT_SYSTEM_PROMPT
from grounding.tokens import counter_for
from grounding.types import Candidate

from .helpers import chunk

TITLE = "Your First Week at Tallgrass"
WELCOME = ("Welcome to Tallgrass Robotics! Your manager and your onboarding buddy will also check in with you every "
           "day this week.")
DAY1 = ("- 9:00 a.m. – Arrive at reception.\n- 9:30 a.m. – IT setup with the IT Help Desk.\n"
        "- 2:00 p.m. – Meet your onboarding buddy.")


def merged_plan():
    """The welcome chunk (no heading) and the Day 1 chunk, adjacent chunks of one version merged into one source."""
    lead = replace(chunk(1, WELCOME, title=TITLE, section=""), ordinal=0, version_id=3)
    day1 = replace(chunk(2, DAY1, title=TITLE, section="Day 1 (Monday)"), ordinal=1, version_id=3)
    return plan_context(question="What happens on Day 1?", candidates=[
        Candidate(chunk=day1, score=0.03, dense=0.8), Candidate(chunk=lead, score=0.02, dense=0.7)],
        system_prompt=DEFAULT_SYSTEM_PROMPT, counter=counter_for("extractive"))


def test_a_made_up_lead_in_cites_the_list_under_the_heading_it_names():
    [source] = merged_plan().sources
    assert len(source.sections) == 2, source.sections
    assert cited_span(f"{TITLE}, Day 1 (Monday)", source) == DAY1
    answer = finalize_answer(f"{TITLE}, Day 1 (Monday) [S1]:\n\n- 9:00 a.m. – Arrive at reception [S1].",
                             merged_plan())
    lead, item = answer.spans
    assert lead["cited_text"] == DAY1 and lead["section"] == "Day 1 (Monday)" and lead["chunk_id"] == 2, lead
    assert item["cited_text"] == "9:00 a.m. – Arrive at reception."


def test_a_lead_in_naming_the_sources_own_section_cites_its_text():
    one = replace(merged_plan().sources[0], sections=(), chunk_starts=(), text=DAY1,
                  section="Onboarding > Day 1 (Monday)")
    assert cited_span("Day 1 (Monday):", one) == DAY1
    assert cited_span(f"{TITLE}, Day 2 (Tuesday)", one) != DAY1  # another section: matched by its words as before


def test_a_heading_line_inside_a_chunk_is_cited_as_itself():
    text = f"{DAY1}\nDay 5 (Friday)\n- Attend the Friday Demo Hour, where teams show what they built that week."
    one = replace(merged_plan().sources[0], sections=(), chunk_starts=(), text=text,
                  section="Day 4 (Thursday) · Day 5 (Friday)")
    assert cited_span(f"{TITLE}, Day 5 (Friday)", one) == "Day 5 (Friday)"
