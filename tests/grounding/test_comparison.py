"""Comparison sides read with where their sentences stand (grounding.comparison, grounding.comparison_naming,
grounding.comparison_sides): a list item under its side's heading, a sentence of the page named by the other side,
the side asking for a limit, a side whose value sentence ranks below sentences naming it without a value. Each case
comes from the development set of the 18F golden set (d024, d025, d026, d032), written here as small pages."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest

from grounding.comparison import side_sentences
from grounding.comparison_naming import asks_limit, heading_of, named_terms, states_limit, under_side_heading
from grounding.comparison_sides import comparison_sides
from grounding.sentence_data import SentenceData, segment
from grounding.sentence_rank import ScoredSentence
from grounding.source_types import Source
from grounding.types import ContextPlan
from tests.grounding.helpers import answered


@pytest.fixture(scope="module")
def answer(embedder):
    return functools.partial(answered, embedder)


SCHEDULES = ("Standard schedule\nYou arrive and depart at the same time every day that you work.\n"
             "You work 8 hours every day, for all 10 work days per pay period.\n"
             "Variable Day\n- Each day can be slightly longer or shorter than 8 hours, but must add up to 40 hours per "
             "week.\n- The maximum number of hours you can work in a single day is 12.\n"
             "Variable Week\n- Each week can be shorter or longer than 40 hours.\n"
             "- The maximum number of hours you can work in a single day is 12.")


def _source(text: str, *, title: str = "Work schedules", section: str = "Schedule types",
            sections: tuple[tuple[int, str], ...] = ()) -> Source:
    units, _ = segment(text)
    n = len(units)
    data = SentenceData(texts=tuple(u[3] for u in units), spans=tuple((u[0], u[1]) for u in units),
                        kinds=tuple(u[2] for u in units), vectors=np.zeros((n, 4), np.float32),
                        context=np.zeros((n, 4), np.float32))
    return Source(label="S1", chunk_ids=(1,), document_id=1, title=title, section=section, version="v1", date="",
                  text=text, score=0.5, tokens=len(text.split()), sentences=data, sections=sections)


def _at(source: Source, text: str, nth: int = 0) -> int:
    return [i for i, t in enumerate(source.sentences.texts) if t == text][nth]


def test_a_sentence_stands_under_the_last_heading_line_before_it_else_its_section():
    source = _source(SCHEDULES)
    maximum = "The maximum number of hours you can work in a single day is 12."
    assert heading_of(source, _at(source, maximum)) == "Variable Day"
    assert heading_of(source, _at(source, maximum, 1)) == "Variable Week"
    assert heading_of(source, _at(source, "You work 8 hours every day, for all 10 work days per pay period.")) == \
        "Standard schedule"
    # a heading line before the chunk's part of a merged source does not reach into the next part
    merged = _source("Gliding\n- You work 8 hours, 5 days a week.\nYou may start early.",
                     sections=((0, "Types > Gliding"), (39, "Types > Maxiflex")))
    assert heading_of(merged, _at(merged, "You may start early.")) == "Maxiflex"
    assert heading_of(merged, _at(merged, "You work 8 hours, 5 days a week.")) == "Gliding"


def test_a_sentence_names_what_its_heading_and_its_page_title_name():
    source = _source(SCHEDULES, title="Chicago")
    plan = ContextPlan(question="q", sources=(source,))
    i = _at(source, "The maximum number of hours you can work in a single day is 12.")
    s = ScoredSentence(source.sentences.texts[i], "S1", 0.7, kind="item", position=i)
    assert {"variabl", "day", "chicago", "maximum"} <= named_terms(plan, s)
    query = "What's the longest single day I can work on a Variable Day schedule?"
    assert under_side_heading(plan, s, query, frozenset({"variabl"}))
    week = _at(source, "The maximum number of hours you can work in a single day is 12.", 1)
    assert not under_side_heading(plan, ScoredSentence(s.text, "S1", 0.7, kind="item", position=week), query,
                                  frozenset({"variabl"}))  # "Variable Week": the question has no "week"


def test_a_question_asking_for_a_limit_and_a_sentence_stating_one():
    assert asks_limit("What's the longest single day I can work on a standard schedule day?") == "max"
    assert asks_limit("What's the minimum billable time expected in a full 5-day week?") == "min"
    assert asks_limit("Which fare is higher, BART or the CTA?") == ""
    assert states_limit("max", "The maximum number of hours you can work in a single day is 12.")
    assert states_limit("max", "Up to 3 weeks of leave")
    assert not states_limit("max", "Each day can be longer than 8 hours, but must add up to 40 hours per week.")
    assert states_limit("min", "Billable time (minimum hours expected): 32 hours")


def test_a_side_opening_with_a_preposition_is_that_phrase_and_what_follows_is_said_of_both():
    sides = comparison_sides("How much earlier does BART start running on weekdays than on Saturdays in San "
                             "Francisco?")
    assert sides.terms == (frozenset({"weekday"}), frozenset({"saturday"}))
    assert sides.queries == ("How much earlier does BART start running on weekdays in San Francisco?",
                             "How much earlier does BART start running on Saturdays in San Francisco?")


def test_each_side_takes_the_sentence_under_its_own_heading_and_the_limit_asked_for(answer):
    text, verified = answer("What's the longest single day I can work on a Variable Day schedule compared with a "
                            "standard schedule day?", ("Work schedules", "Schedule types", SCHEDULES))
    assert text == ("The maximum number of hours you can work in a single day is 12 [S1]. You work 8 hours every "
                    "day, for all 10 work days per pay period [S1].")
    assert not verified.abstained


def _ranked(plan: ContextPlan, *scored: tuple[str, str, float]) -> list[ScoredSentence]:
    """(label, sentence text, score) -> ScoredSentence at that sentence's position in its source."""
    out = []
    for label, text, score in scored:
        source = plan.source_map[label]
        i = _at(source, text)
        out.append(ScoredSentence(text, label, score, kind=source.sentences.kinds[i], position=i))
    return out


def _plan(*sources: Source) -> ContextPlan:
    return ContextPlan(question="q", sources=sources)


SF_TRAIN = "Trains run from the airport to downtown every 15 minutes with the actual travel time around 35 minutes."
BLUE_LINE = "Blue Line trains run from the airport to downtown 24/7 and take about 50 minutes."
ORANGE_LINE = "From Midway it's only a 25 minute ride down the CTA Orange Line."


def test_a_sentence_of_the_page_the_other_side_names_does_not_answer_this_side():
    sf = replace(_source(f"Public transit from SFO to the TTS office is cheap.\n{SF_TRAIN}", title="San Francisco",
                         section="From SFO"), label="S1")
    chicago = replace(_source(f"{BLUE_LINE}\n{ORANGE_LINE}", title="Chicago", section="Getting here"), label="S2")
    plan = _plan(sf, chicago)
    sides = comparison_sides("Which is a quicker train ride from the airport: SFO to the SF office, or Midway to the "
                             "Chicago office?")
    rankings = [_ranked(plan, ("S1", "Public transit from SFO to the TTS office is cheap.", 0.815),
                        ("S1", SF_TRAIN, 0.727), ("S2", BLUE_LINE, 0.640)),
                _ranked(plan, ("S2", ORANGE_LINE, 0.807), ("S2", BLUE_LINE, 0.760), ("S1", SF_TRAIN, 0.714))]
    # the Blue Line sentence names neither side in its words; its page is the other side's (Chicago): one source
    # and one unit with the Orange Line sentence made it the SFO side's sentence
    chosen = side_sentences(rankings, sides, plan, threshold=0.62, type_spread=0.2)
    assert [s.text for s in chosen] == [SF_TRAIN, ORANGE_LINE]


DC_HOURS = "Please note that the building closes at 6 pm, a GSA badge is required for after hours access."
NY_HOURS = "Building hours are 6am - 7pm."
NY_ROW = "Location: New York City, NY; Address: One World Trade Center, 10007; GSA region: 2"


def test_a_side_whose_value_sentence_ranks_below_sentences_naming_it_without_a_value_still_gets_it():
    dc = replace(_source(DC_HOURS, title="Washington, D.C.", section="After hours"), label="S1")
    ny = replace(_source(f"{NY_HOURS}\nOur office is at One World Trade Center.", title="New York City",
                         section="After hours"), label="S2")
    contacts = replace(_source(f"New York City: 18f-nyc@gsa.gov\n{NY_ROW}", title="General contacts",
                               section="Offices"), label="S3")
    plan = _plan(dc, ny, contacts)
    sides = comparison_sides("Which office building closes earlier in the evening, 1800 F in DC or One World Trade "
                             "in New York?")
    # the contacts page names the New York office without its hours, above the hours sentence of the New York page
    rankings = [_ranked(plan, ("S2", NY_HOURS, 0.641), ("S1", DC_HOURS, 0.607)),
                _ranked(plan, ("S3", NY_ROW, 0.725), ("S3", "New York City: 18f-nyc@gsa.gov", 0.638),
                        ("S2", NY_HOURS, 0.508), ("S1", DC_HOURS, 0.497))]
    chosen = side_sentences(rankings, sides, plan, threshold=0.62, type_spread=0.2)
    assert [s.text for s in chosen] == [DC_HOURS, NY_HOURS]


def test_the_difference_between_two_things_is_a_comparison_of_those_two():
    # written for development in the s15 round ("What's the difference between the paid parental leave and parental
    # bereavement leave?" was answered as one question: three sentences naming the leaves, neither length)
    from grounding.answer_types import is_comparison

    question = "What's the difference between the paid parental leave and parental bereavement leave?"
    assert is_comparison(question)
    assert comparison_sides(question).queries == ("What's the paid parental leave?",
                                                  "What's the parental bereavement leave?")
    assert comparison_sides("What is the difference in cost between a cab from DCA and a cab from Dulles?").queries \
        == ("What is a cab from DCA in cost?", "What is a cab from Dulles in cost?")
    assert comparison_sides("What's the difference between the old cycle and how often we buy now?").queries[1] == \
        "how often we buy now?"  # a side worded as a question is asked as it is
    assert not is_comparison("How much time is there between the offer and the start date?")  # a length


def test_each_side_of_a_difference_gets_its_own_value(answer):
    leave = ("Leave types", "Parental leave", "You are entitled to 12 weeks of paid time off for the birth, adoption "
             "or placement of a new child.\nYou can receive two weeks (80 hours) of parental bereavement leave for "
             "the passing of your child.\nParental Bereavement Leave Memorandum")
    text, verified = answer("What's the difference between the paid parental leave and parental bereavement leave?",
                            leave)
    assert "12 weeks of paid time off" in text and "two weeks (80 hours)" in text and not verified.abstained


def test_a_yes_no_question_setting_two_things_against_each_other_is_a_comparison_not_a_threshold():
    # written for development in the s15 round: "Does relocating with a military spouse get more administrative
    # leave than being a bone marrow donor?" opened with a wrong "Yes." (5 days against up to 7 days)
    from grounding.answer_types import is_comparison, question_type

    question = "Does relocating with a military spouse get more administrative leave than being a bone marrow donor?"
    assert is_comparison(question) and question_type(question) == "other"  # no Yes/No opener
    assert comparison_sides(question).queries == ("Does relocating with a military spouse get administrative leave?",
                                                  "Does being a bone marrow donor get administrative leave?")
    assert comparison_sides("Is the hotel limit in Boston higher than in Chicago?").queries == (
        "Is the hotel limit in Boston higher?", "Is the hotel limit in Chicago higher?")
    for threshold in ("Can I work more than 8 hours in a day?", "Does our app need more than just a password?",
                      "Do I get more than a week of leave?"):
        assert not is_comparison(threshold) and question_type(threshold) == "yesno"


def test_a_yes_no_comparison_quotes_both_values_without_an_opener(answer):
    leave = ("Leave types", "Administrative leave", "If you must accompany the relocation of your military spouse, "
             "you are entitled to 5 days of administrative leave.\nYou can access up to 7 days of Administrative "
             "Leave during a calendar year to serve as a bone marrow donor.")
    text, verified = answer("Does relocating with a military spouse get more administrative leave than being a bone "
                            "marrow donor?", leave)
    assert not text.startswith(("Yes", "No")) and "5 days of administrative leave" in text and "up to 7 days" in text


def test_a_verdict_only_where_safe_to_say():
    from grounding.comparison_verdict import asks_which_is_higher, verdict

    question = "Which airport train fare is higher: BART from SFO to Civic Center, or the CTA from O'Hare in Chicago?"
    sides = comparison_sides(question)
    bart = ScoredSentence("SFO to Civic Center Station costs $8.65 one way.", "S1", 0.8)
    cta = ScoredSentence("Fares from O'Hare airport cost $5.", "S2", 0.8)
    assert verdict(question, sides, [bart, cta]) == \
        "Higher: BART from SFO to Civic Center, $8.65 [S1], against $5 [S2]."
    # two values in one sentence, a bound, another unit, the same value, the lower asked: nothing said
    two = ScoredSentence("All other normal fares are $2.25, plus $0.25 for a transfer.", "S2", 0.8)
    bound = ScoredSentence("Fares from O'Hare cost up to $5.", "S2", 0.8)
    other_unit = ScoredSentence("The ride takes 45 minutes.", "S2", 0.8)
    same = ScoredSentence("Fares from O'Hare airport cost $8.65.", "S2", 0.8)
    assert [verdict(question, sides, [bart, s]) for s in (two, bound, other_unit, same)] == ["", "", "", ""]
    assert verdict(question, sides, [bart, ScoredSentence("It's a 25 minute ride.", "S1", 0.7), cta]) == ""
    assert asks_which_is_higher("Which is a quicker train ride from the airport: SFO or Midway?") == ""
    assert asks_which_is_higher("Which has to be longer: my laptop password or my phone passcode?") == "longer"
    assert verdict("What do fares cost: BART from SFO to Civic Center, or the CTA from O'Hare in Chicago?", sides,
                   [bart, cta]) == ""  # not asked which is higher


def test_a_comparison_asking_which_is_higher_opens_with_the_verdict(answer):
    sf = ("San Francisco", "BART", "SFO to Civic Center Station costs $8.65 one way.")
    chicago = ("Chicago", "CTA", "Fares from O'Hare airport cost $5.")
    text, verified = answer("Which airport train fare is higher: BART from SFO to Civic Center, or the CTA from "
                            "O'Hare in Chicago?", sf, chicago)
    assert text == ("Higher: BART from SFO to Civic Center, $8.65 [S1], against $5 [S2]. SFO to Civic Center Station "
                    "costs $8.65 one way [S1]. Fares from O'Hare airport cost $5 [S2].")
    assert [c.label for c in verified.citations] == ["S1", "S2"] and not verified.abstained


AIRPORT_FARE = "Fares from (but not to) either airport cost $5."
OTHER_FARES = "All other normal fares are $2.25, and include one transfer to another CTA bus or train for $0.25."
BART_FARE = "SFO to Civic Center Station is $8.65; OAK to Civic Center Station is $10.05."


def test_the_sentence_about_all_other_cases_is_not_the_side_when_the_case_before_it_is_a_candidate():
    # the 18F development set, d022: the CTA side quoted the $2.25 of all other fares, not the airport's $5
    sf = replace(_source(BART_FARE, title="San Francisco", section="BART"), label="S1")
    chicago = replace(_source(f"Take the Blue Line from O'Hare.\n{AIRPORT_FARE} {OTHER_FARES}", title="Chicago",
                              section="Public transit"), label="S2")
    plan = _plan(sf, chicago)
    sides = comparison_sides("Which airport train fare is higher: BART from SFO to Civic Center, or the CTA from "
                             "O'Hare in Chicago?")
    rankings = [_ranked(plan, ("S1", BART_FARE, 0.900)),
                _ranked(plan, ("S2", OTHER_FARES, 0.695), ("S2", AIRPORT_FARE, 0.572))]
    chosen = side_sentences(rankings, sides, plan, threshold=0.62, type_spread=0.2)
    assert [s.text for s in chosen] == [BART_FARE, AIRPORT_FARE]
    # alone, the sentence about the other fares is still a candidate
    alone = [_ranked(plan, ("S1", BART_FARE, 0.900)), _ranked(plan, ("S2", OTHER_FARES, 0.695))]
    assert [s.text for s in side_sentences(alone, sides, plan, threshold=0.62, type_spread=0.2)] == \
        [BART_FARE, OTHER_FARES]


def test_how_much_hyphenated_time_asks_a_length():
    # written for development in the s15 round: "How much non-billable time is allowed in a 4 day week compared with a
    # 1 day week?" was typed as an amount of money, so no side's row (hours) stated it and three rows were quoted
    from grounding.answer_types import question_type

    assert question_type("How much non-billable time is allowed in a 4 day week?") == "duration"
    assert question_type("How much does a cab cost?") == "amount"


def test_a_question_asking_how_one_side_compares_with_the_other_has_two_sides():
    # the s27 new-user run on the demo handbook: only the hybrid employees' stipend was quoted, the $750 missing
    sides = comparison_sides("How does the home office stipend for remote employees compare with hybrid employees?")
    assert sides is not None and sides.phrases == ("remote employees", "hybrid employees")
    assert sides.queries == ("How does the home office stipend for remote employees?",
                             "How does the home office stipend for hybrid employees?")
