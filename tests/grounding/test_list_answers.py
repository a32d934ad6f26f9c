"""The list a sentence announces (grounding.list_answers): a count of kinds, "the following" or a lead-in colon,
answered by the list items or the sub-headings that follow it in the same source. Texts are made up for the tests."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from grounding.list_answers import (announced_items, announced_list, announces_list, asked_plural, headed_list,
                                     outline_near, outline_of, sub_headings)
from grounding.extractive_lists import referred_lead
from grounding.types import Candidate, Chunk
from tests.grounding.helpers import make_page, offline_answer


@pytest.mark.parametrize("text, count", [
    ("The office offers all 4 types of desks.", 4),
    ("There are three kinds of parking permits.", 3),
    ("You will need the following documents.", 0),
    ("Bring these to your first day:", 0),
    ("The forms are listed below.", 0),
    ("Desks are assigned every morning.", None),
    ("You work 8 hours a day, 5 days a week.", None),  # durations announce no list
    ("Only one type of badge opens the garage.", None),  # one is not a list
])
def test_announces_list_reads_the_announced_count(text, count):
    assert announces_list(text) == count


def test_the_items_right_after_an_announcing_sentence_are_its_list():
    texts = ["Bring the following:", "A photo ID", "A signed offer letter", "Parking is free."]
    kinds = ["lead", "item", "item", "sentence"]
    assert announced_items(texts, kinds, 0) == ["A photo ID", "A signed offer letter"]


def test_sub_headings_after_a_counted_announcement_are_its_list_up_to_the_count():
    texts = ["The office offers all 3 types of desks.", "Book one a day ahead.",
             "Standing", "Raised to elbow height.",
             "Sitting", "- An adjustable chair.", "Sitting",  # a heading repeated where two chunks were merged
             "Shared", "Booked by the hour.",
             "Lockers", "Ask reception for a key."]
    kinds = ["sentence", "sentence", "heading", "sentence", "heading", "item", "heading", "heading", "sentence",
             "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == ["Standing", "Sitting", "Shared"]


def test_a_heading_without_text_of_its_own_is_not_an_item():
    texts = ["There are two kinds of passes.", "Passes", "Day pass", "Valid until midnight.", "Week pass",
             "Valid for seven days."]
    kinds = ["sentence", "heading", "heading", "sentence", "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == ["Day pass", "Week pass"]


def test_a_sentence_that_announces_nothing_or_is_followed_by_running_text_has_no_items():
    assert announced_items(["Desks are assigned daily.", "Standing", "Tall."], ["sentence", "heading", "sentence"],
                           0) == []
    texts = ["There are two kinds of passes.", "Ask reception.", "Passes are free.", "They expire.", "Day pass",
             "Valid today."]
    kinds = ["sentence", "sentence", "sentence", "sentence", "heading", "sentence"]
    assert announced_items(texts, kinds, 0) == []  # more than MAX_GAP sentences before the first heading
    assert announced_items(["Bring the following:", "A photo ID"], ["lead", "item"], 0) == []  # one item: no list


OUTLINE = outline_of([("Desks",), ("Desks", "Desk types"), ("Desks", "Desk types", "Standing"),
                      ("Desks", "Desk types", "Sitting"), ("Desks", "Desk types", "Sitting"),
                      ("Desks", "Desk types", "Shared"), ("Desks", "Booking"), ("Parking",)])


def test_outline_of_keeps_each_section_path_once_in_document_order():
    assert OUTLINE == ("Desks", "Desks > Desk types", "Desks > Desk types > Standing", "Desks > Desk types > Sitting",
                       "Desks > Desk types > Shared", "Desks > Booking", "Parking")


def test_outline_near_is_the_part_below_a_chunks_section_label():
    assert outline_near(OUTLINE, "Desks > Desk types") == ("Desks > Desk types > Standing",
                                                           "Desks > Desk types > Sitting",
                                                           "Desks > Desk types > Shared")
    # a chunk covering two sections is labelled with their common prefix and their headings joined by " · "
    assert outline_near(OUTLINE, "Desks > Desk types · Booking") == OUTLINE[1:6]
    assert outline_near(OUTLINE, "", limit=2) == ("Desks", "Desks > Desk types")


def test_sub_headings_are_the_sections_directly_below_a_heading():
    assert sub_headings(OUTLINE, "desk types") == ["Standing", "Sitting", "Shared"]
    assert sub_headings(OUTLINE, "Desks") == ["Desk types", "Booking"]
    assert sub_headings(OUTLINE, "Lockers") == []


def test_a_counted_list_written_across_chunks_is_named_from_the_outline():
    # this chunk holds two of the three desk types; the third is in the next chunk of the document
    texts = ["The office offers all 3 types of desks.", "Standing", "Raised to elbow height.", "Sitting",
             "With an adjustable chair."]
    kinds = ["sentence", "heading", "sentence", "heading", "sentence"]
    near = outline_near(OUTLINE, "Desks > Desk types")
    assert announced_items(texts, kinds, 0) == ["Standing", "Sitting"]
    assert announced_list(texts, kinds, 0, outline=near, section="Desks > Desk types") == ["Standing", "Sitting",
                                                                                           "Shared"]
    # the outline is not used when its sections are not as many as announced, nor for a list of list items
    texts4 = ["The office offers all 4 types of desks.", *texts[1:]]
    assert announced_list(texts4, kinds, 0, outline=near, section="Desks > Desk types") == ["Standing", "Sitting"]
    # one sub-heading in this chunk (the rest in the next ones), its section not the source's label (a merged run)
    one = ["The office offers all 3 types of desks.", "Standing", "Raised to elbow height."]
    assert announced_list(one, ["sentence", "heading", "sentence"], 0, outline=near,
                          section="Parking") == ["Standing", "Sitting", "Shared"]
    # "the following" with nothing of it in this chunk: the next chunk may hold list items, not the sub-sections
    assert announced_list(["Book one of the following:"], ["lead"], 0, outline=near, section="Desks > Desk types") == []
    items = ["The office offers all 3 types of desks:", "Standing", "Sitting"]
    assert announced_list(items, ["lead", "item", "item"], 0, outline=near,
                          section="Desks > Desk types") == ["Standing", "Sitting"]


def test_headed_list_names_the_sub_sections_of_the_section_a_question_names():
    glossary = outline_of([("Glossary",), ("Glossary", "Uptime"), ("Glossary", "Secrecy"), ("Glossary", "Soundness"),
                           ("Contacts",)])
    assert headed_list("Which three terms does the incident glossary define?", glossary, "Incidents") == (
        "Glossary", ["Uptime", "Secrecy", "Soundness"])
    assert headed_list("Which two terms does the incident glossary define?", glossary, "Incidents") is None
    assert headed_list("Which terms does the incident glossary define?", glossary, "Travel") is None  # title
    assert headed_list("Which contacts handle incidents?", glossary, "Incidents") is None  # no sub-sections


def test_the_rows_of_a_table_after_an_announcing_sentence_are_its_list():
    # "Tallgrass observes the following 11 paid company holidays." then a table of them: the holidays were answered
    # with the sub-headings after the table ("Floating holidays") or with the announcing sentence alone
    texts = ["We observe the following 3 paid holidays.", "A holiday on a Saturday is observed on Friday.",
             "Holiday | Date", "Holiday: New Year's Day; Date: January 1", "Holiday: Labor Day; Date: September 1",
             "Holiday: Christmas Day; Date: December 25", "Floating holidays", "You also get 2 floating days."]
    kinds = ["sentence", "sentence", "header", "row", "row", "row", "heading", "sentence"]
    rows = ["Holiday: New Year's Day; Date: January 1", "Holiday: Labor Day; Date: September 1",
            "Holiday: Christmas Day; Date: December 25"]
    assert announced_items(texts, kinds, 0) == rows
    assert announced_list(texts, kinds, 0, outline=("Holidays", "Holidays > Floating holidays"),
                          section="Holidays") == rows


def test_a_list_announced_by_a_close_sentence_that_is_not_the_best_is_the_answer(embedder):
    page = make_page(1, "Time off", "Company holidays",
                 "If your manager asks you to work on a company holiday, you get a substitute day off.\n"
                 "We observe the following 3 paid company holidays.\n\n"
                 "Holiday | Date\nNew Year's Day | January 1\nLabor Day | September 1\nChristmas Day | December 25")
    text = offline_answer(embedder, "What are the company holidays?", page)
    assert text.startswith("We observe the following 3 paid company holidays [S1].")
    assert "- Holiday: Labor Day; Date: September 1 [S1]." in text


def test_the_list_headed_by_the_noun_asked_for_wins_over_a_closer_one(embedder):
    # the demo handbook: "What are the channels for reporting harassment?" got the steps after a report (a list
    # matching more closely), not the list "any of these channels:" introduces
    assert asked_plural("What are the channels for reporting harassment?") == frozenset({"channel"})
    assert asked_plural("What are my options for getting to the office?") == frozenset()  # a collective noun
    page = make_page(1, "Code of Conduct", "How to report",
                 "Pick whichever of these channels you are most comfortable with:\n"
                 "- Your manager, or any manager you trust.\n"
                 "- People Operations, at conduct@example.org or in person.\n"
                 "- The EthicsLine, an independent hotline.\n\n"
                 "A manager who gets a report of harassment forwards the harassment report within a day.\n"
                 "- Reports of harassment are acknowledged within 2 business days of reporting.\n"
                 "- A trained investigator is assigned to each report of harassment.\n"
                 "- Most harassment reports are investigated within 30 days of reporting.")
    text = offline_answer(embedder, "What are the channels for reporting harassment?", page)
    assert "- The EthicsLine, an independent hotline [S1]." in text
    assert "investigator" not in text


def _adjacent(cid: int, ordinal: int, section: str, text: str, dense: float) -> Candidate:
    """A chunk of one document version ("Mentoring plan", v1), at ``ordinal``, under ``section``."""
    return Candidate(Chunk(chunk_id=cid, document_id=1, title="Mentoring plan", section=section, version="v1",
                           date="", text=text, tokens=len(text.split()), version_id=1, ordinal=ordinal),
                     score=0.03, dense=dense)


def test_a_list_opening_a_merged_chunk_is_headed_by_that_chunks_section_not_by_a_noun_referred_back_to(embedder):
    # 18F development set (d051): "What are the usual goals of an Individual Development Plan?" got "To achieve these
    # goals, we frequently:" from another page, and the "## Common goals of an IDP" list, whose heading is in the
    # section path of the second of two merged chunks (not in the joined text), was never the best run
    intro = _adjacent(1, 0, "Mentoring plan", "A mentoring plan is a tool that helps you grow in your role.\n"
                      "Resources\nSite | Purpose\nLearning portal | Where plans are made\nToolkit | Guides", 0.7)
    goals = _adjacent(2, 1, "Mentoring plan > Common goals of a mentoring plan",
                      "- Learn new skills to meet the goals of your current job\n"
                      "- Reach your career development goals\n- Prepare for a change in role", 0.6)
    other = Candidate(Chunk(chunk_id=3, document_id=2, title="Engagements", section="Discovery",
                            version="v1", date="", version_id=2, tokens=40,
                            text="We set goals for each engagement with the partner and plan the work.\n"
                                 "To achieve these goals, we frequently:\n- Run a workshop with the partner's team\n"
                                 "- Plan a prototype and develop it\n- Write a transition plan"), score=0.03, dense=0.65)
    text = offline_answer(embedder, "What are the usual goals of a mentoring plan?", intro, goals, other)
    assert text.startswith("Mentoring plan, Common goals of a mentoring plan [S1]:\n\n")  # no lead-in: the heading
    assert "- Prepare for a change in role [S1]." in text
    assert "workshop" not in text


def test_a_sentence_continued_by_a_lead_in_that_refers_back_announces_its_list(embedder):
    # 18F development set (d049): "Which things I do in Slack can end up as public records?": the list is led in by
    # "This includes:", two sentences after the one that says what it is about
    page = make_page(1, "Chat records", "Records",
                     "Every chat message may be a record. Assume everything you share in chat will be made public. "
                     "Treat chat as a public forum. This includes:\n"
                     "- Files you upload\n- Channel names\n- Emoji reactions\n\n"
                     "Ask the records team before deleting a channel.")
    text = offline_answer(embedder, "Which things I share in chat can be made public?", page)
    assert text.startswith("Assume everything you share in chat will be made public. Treat chat as a public forum. "
                           "This includes [S1]:") or "This includes [S1]:" in text
    assert "- Emoji reactions [S1]." in text


def test_a_list_question_with_a_possessive_or_a_kind_word_before_its_plural_noun_asks_for_a_list():
    # s18: "What are SOL's initiatives?" quoted "Welcome to SOL's team page!" (read as "other", no list looked for)
    from grounding.answer_types import question_type
    from grounding.lexical import content_terms

    assert question_type("What are SOL's initiatives?") == "list"
    assert question_type("Which AirTable interfaces does TTSC use?") == "list"
    assert question_type("What federal holidays does GSA observe?") == "list"
    # a plural asking one value, or a verb after "what", is no list
    assert question_type("What office hours does the gym keep?") != "list"
    assert question_type("What do new hires need?") != "list"
    assert question_type("What is the team's address?") != "list"
    # the run headed "Our Initiatives" gets the bonus for naming what is asked
    assert asked_plural("What are SOL's initiatives?") == content_terms("initiatives")


def test_numbered_paragraphs_after_a_counted_sentence_are_its_list_by_their_labels():
    # 18F development set fresh15 (f15-l02): "four sources" is no collective noun of a list, but numbered labelled
    # paragraphs follow it; their labels are the list, not the list items under the first of them
    texts = ["We see three layers of safety at every site, and we plan for each.",
             "1. Building level: Doors, alarms and badges.", "Badges are checked daily.", "Alarms are tested.",
             "2. Team level: How a team watches out for each other.", "Buddy checks at night.",
             "3. Personal level: What each of us does.", "Lock your screen."]
    kinds = ["sentence", "sentence", "item", "item", "sentence", "item", "sentence", "item"]
    assert announced_items(texts, kinds, 0) == ["Building level", "Team level", "Personal level"]
    assert announced_list(texts, kinds, 0) == ["Building level", "Team level", "Personal level"]


@pytest.mark.parametrize("texts, kinds", [
    # a count of a value, not of a list: numbered paragraphs must follow it
    (["You earn 4 hours per pay period for 14 pay periods.", "Leave is credited at the end."], ["sentence"] * 2),
    # numbered paragraphs out of sequence are no list
    (["We have two kinds of sites.", "2. Annex: Small.", "1. Main: Large."], ["sentence"] * 3),
])
def test_a_count_without_numbered_paragraphs_in_sequence_announces_no_labels(texts, kinds):
    assert announced_items(texts, kinds, 0) == []


def test_a_sentence_referring_back_to_a_listed_noun_finds_that_lists_lead_in():
    # 18F development set fresh15 (f15-l03): the best sentence ("weigh each of these dimensions") comes after the list
    # its lead-in announces, with a sentence of running text between
    texts = ["There is no single best route.", "Here are several factors you can consider when you choose a route:",
             "Cost: how much the tickets are.", "Time: how long the trip takes.", "None of this is fixed.",
             "Usually you will have to balance each of these factors against the others.",
             "Each of these trips is booked online."]
    kinds = ["sentence", "lead", "item", "item", "sentence", "sentence", "sentence"]
    data = SimpleNamespace(texts=texts, kinds=kinds)
    assert referred_lead(data, 5) == 1
    assert referred_lead(data, 6) is None  # "these trips": the lead-in names no trips, and the list is further back
    assert referred_lead(data, 0) is None  # refers to nothing


def test_headed_list_takes_the_heading_naming_most_of_the_question():
    """"What are the steps to request parental leave?" is about "Requesting leave" (a list of items, no sub-headings),
    not the sub-headings of "How much leave", whose one word "leave" the question also holds (the s45 new-user run)."""
    outline = ("How much leave > Paid parental leave", "How much leave > When to take it",
               "How much leave > Multiple births or adoptions", "Requesting leave", "Returning to work > Phased return",
               "Returning to work > Your role")
    assert headed_list("What are the steps to request parental leave?", outline, "Parental Leave Policy") is None
    assert headed_list("How much leave do I get?", outline, "Parental Leave Policy") == (
        "How much leave", ["Paid parental leave", "When to take it", "Multiple births or adoptions"])
