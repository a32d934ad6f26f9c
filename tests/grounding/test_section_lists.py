"""A question naming a numbered section ("What happens on Day 1?") is answered with the list under that heading (the
demo handbook's onboarding page, s17 round: it was answered with New Year's Day from the holiday table, and "What
should I do on my first day?" was refused)."""

from __future__ import annotations

from grounding.heading_lookup import named_labels
from grounding.section_lists import names_numbered_heading, numbered_terms
from tests.grounding.helpers import make_page, offline_answer

DAY_1 = ("- 9:00 a.m. – Arrive at reception (Lincoln HQ, 4th floor).\n- 9:30 a.m. – IT setup with the IT Help Desk.\n"
         "- 12:00 p.m. – Team lunch, paid for by Tallgrass.")
DAY_2 = ("- Company orientation with People Operations (10:00 a.m. – 12:00 p.m.).\n"
         "- Set up your Slack profile with your name, pronouns, role and time zone.")
HOLIDAYS = ("Tallgrass observes 11 paid company holidays. New Year's Day is observed on Wednesday, January 1. Labor "
            "Day is observed on Monday, September 1.")


def _pages():
    return (make_page(1, "Your First Week at Tallgrass", "Day 1 (Monday)", DAY_1),
            make_page(2, "Your First Week at Tallgrass", "Day 2 (Tuesday)", DAY_2),
            make_page(3, "Paid Time Off and Holidays", "Company holidays", HOLIDAYS))


def test_a_numbered_heading_is_named_by_its_words_and_its_number_written_any_way():
    assert {"1", "first", "day"} <= numbered_terms("What should I do on my first day?")
    assert names_numbered_heading(numbered_terms("What happens on Day 1?"), "Day 1 (Monday)")
    assert names_numbered_heading(numbered_terms("What should I do on day one?"), "Day 1 (Monday)")
    assert not names_numbered_heading(numbered_terms("What happens on day 2?"), "Day 1 (Monday)")
    assert not names_numbered_heading(numbered_terms("What happens first?"), "Day 1 (Monday)")  # no "day"
    assert not names_numbered_heading(numbered_terms("Which Slack channels are there?"), "Slack channels")  # unnumbered


def test_a_question_naming_a_numbered_section_gets_its_list(embedder):
    answer = offline_answer(embedder, "What happens on Day 1?", *_pages())
    assert answer.startswith("Your First Week at Tallgrass, Day 1 (Monday) [S"), answer
    assert "Arrive at reception" in answer and "Team lunch" in answer and "New Year" not in answer
    answer = offline_answer(embedder, "What should I do on my first day?", *_pages())
    assert "IT setup with the IT Help Desk" in answer and "Company orientation" not in answer, answer
    answer = offline_answer(embedder, "What happens on day two?", *_pages())
    assert "Company orientation" in answer and "Arrive at reception" not in answer, answer


def test_a_question_asking_one_fact_of_a_numbered_section_is_not_answered_with_its_list(embedder):
    """A typed question (here a time) keeps its one-sentence answer: the list answer is for questions asking what a
    section holds."""
    answer = offline_answer(embedder, "What time is the team lunch on Day 1?", *_pages())
    assert answer.startswith("12:00 p.m. – Team lunch"), answer


def test_a_question_whose_own_word_the_best_sentence_states_is_not_answered_with_the_list(embedder):
    """"What do I need to bring on my first day?": the sentence saying what to bring answers it, not the Day 1
    timetable (the s18 new-user run on the demo handbook got the timetable)."""
    before = make_page(4, "Your First Week at Tallgrass", "Before day one",
                       "Remember to bring an unexpired passport, or a driver's license plus a Social Security card, on "
                       "your first day so that People Operations can complete your I-9 employment verification.")
    answer = offline_answer(embedder, "What do I need to bring on my first day?", *_pages(), before)
    assert answer.startswith("Remember to bring an unexpired passport"), answer
    answer = offline_answer(embedder, "What should I do on my first day?", *_pages(), before)
    assert "IT setup with the IT Help Desk" in answer, answer


DAY_3 = ("All new employees must complete the 2-hour Robot Safety Fundamentals course on Wednesday of their first "
         "week. You may not enter the test floor until you pass its final quiz.\nSecurity training\nComplete the "
         "45-minute Security Basics module in the learning portal by the end of Wednesday.")


def _day_3():
    page = make_page(5, "Your First Week at Tallgrass", "Day 3 (Wednesday) > Robot safety training", DAY_3)
    # the chunk spans two sub-sections, as the demo handbook's does
    return page


def test_a_numbered_section_of_prose_is_answered_by_its_sub_sections(embedder):
    """"What happens on Day 3?" over sub-sections of prose (no list): one cited line per sub-section, introduced by
    the page and the heading (the demo handbook refused it)."""
    answer = offline_answer(embedder, "What happens on Day 3?", *_pages(), _day_3())
    lines = answer.splitlines()
    assert lines[0] == "Your First Week at Tallgrass, Day 3 (Wednesday) [S4]:", answer
    assert lines[2].startswith("- Robot safety training: All new employees must complete the 2-hour"), answer
    assert "You may not enter the test floor" in lines[2]
    assert lines[3] == ("- Security training: Complete the 45-minute Security Basics module in the learning portal by "
                        "the end of Wednesday [S4]."), answer
    assert "New Year" not in answer and "orientation" not in answer
    # a word of the question that only the section's sub-heading holds ("training") still names it
    answer = offline_answer(embedder, "What training do I do on my third day?", *_pages(), _day_3())
    assert answer.startswith("Your First Week at Tallgrass, Day 3 (Wednesday) [S"), answer


def test_an_ordinal_naming_another_noun_does_not_name_a_numbered_heading():
    """"day three of the first week": "first" counts the week; the heading named is Day 3, not Day 1."""
    question = "What happens on day three of the first week?"
    terms, named = numbered_terms(question), named_labels(question)
    assert names_numbered_heading(terms, "Day 3 (Wednesday)", named)
    assert not names_numbered_heading(terms, "Day 1 (Monday)", named)


def test_a_heading_phrased_as_the_question_gives_its_list(embedder):
    """The s21 new-user run on the demo handbook: "What counts as a security incident?" got one sentence on lost
    laptops, not the five items under "What counts as an incident"."""
    from grounding.section_lists import asked_by_heading

    incidents = make_page(6, "Security, Passwords and Incident Reporting",
                          "Reporting a security incident > What counts as an incident",
                          "- A lost or stolen laptop, phone or YubiKey\n- Clicking a suspicious link\n"
                          "- Any malware warning on a company device")
    laptop = make_page(7, "Equipment and Laptop Policy", "Loss or theft", "A lost or stolen laptop is a security "
                       "incident. Report it within 1 hour.")
    answer = offline_answer(embedder, "What counts as a security incident?", laptop, incidents)
    assert answer.splitlines()[0] == ("Security, Passwords and Incident Reporting, What counts as an incident "
                                      "[S2]:"), answer
    assert "- Any malware warning on a company device [S2]." in answer.splitlines()
    assert asked_by_heading("What counts as a security incident?", "What counts as an incident")
    assert not asked_by_heading("What counts as a security incident?", "Security incidents")  # not a question
    assert not asked_by_heading("What happens next?", "What happens")  # one content word is no question of its own
