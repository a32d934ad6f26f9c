"""Rules of the s40 round from development questions (fresh40's f40-m/v/t/l/y/a/u items, the split "fresh40" of
evaluation/golden/18f_fresh40.jsonl; each test names the item it came from; none is from the 18F test half or
fresh40's held part). Texts are made up unless they quote the question or the handbook page it was written from."""

from __future__ import annotations

from dataclasses import replace

from grounding.answer_types import question_type
from grounding.followup_reading import asks_its_own
from grounding.question_parts import question_parts
from grounding.section_lists import names_heading
from grounding.sentence_leads import part_elsewhere
from grounding.source_types import Source
from grounding.subject_check import pins, unnamed_existent
from grounding.yesno_asking import asks_existence
from grounding.yesno_caps import limit_of_other_action
from tests.grounding.helpers import make_page, offline_answer

MOTHERS_ROOM = ("There's a mother's (aka lactation) room on the 54th floor on the southeast side. It has outlets, a "
                "sink, and a fridge. Ideally you should book time in the room with BookIt.")
CHICAGO_ROOMS = ("In Chicago, you can book rooms using BookIt. Most TTS Chicago-area staff work remotely full-time. "
                 "However, you will often find Ethan Heppner (TTS Tech Operations) working from the Hub on the 35th "
                 "floor Wednesdays.")


def test_f40_u10_whether_a_thing_exists_in_a_named_place_is_not_answered_from_another_places_page(embedder):
    """fresh40's f40-u10: "Is there a lactation or nursing room in the Chicago JCK building?" opened with the New
    York office's "There's a mother's (aka lactation) room on the 54th floor": the Chicago page says nothing of one."""
    new_york = make_page(1, "New York City", "Where are the... > Mother’s rooms", MOTHERS_ROOM)
    chicago = make_page(2, "Chicago", "How do I...? > Book rooms for meetings?", CHICAGO_ROOMS)
    text = offline_answer(embedder, "Is there a lactation or nursing room in the Chicago JCK building?",
                          new_york, chicago)
    assert "54th floor" not in text and "for Chicago" in text, text
    # asked of the place the page is about, it is answered
    text = offline_answer(embedder, "Is there a mother's room in the New York office?", new_york, chicago)
    assert text.startswith("Yes.") and "54th floor" in text, text


def test_f40_u10_asks_existence_reads_the_question_after_the_askers_situation():
    assert asks_existence("Is there a lactation or nursing room in the Chicago JCK building?")
    assert asks_existence("I just had a baby. Is there a nursing room at 1800 F?")
    assert not asks_existence("Do I have to book the mother's room?")
    assert not asks_existence("Can I book the mother's room for a call?")


DELEGATION = ("As you become more comfortable with your new role, you will find that your deliverables, commitments, "
              "and action items will increase exponentially. This will feel overwhelming at times, even for those "
              "who have been a supervisor previously. Instead, you need to delegate to your team.\n"
              "There is no magic formula for delegation. Here are several dimensions and questions you can consider "
              "to help decide what to delegate, and to who:\n"
              "- **Trust-based**: Is this a task that absolutely cannot be missed and/or is there no room for error? "
              "It probably makes sense to delegate to the person whose track record you know the most.\n"
              "- **Learning-based**: Is this a task that would afford someone the ability to learn a new skill, "
              "and/or there is room for mistakes or imperfection? This is a perfect task to delegate to someone to "
              "grow their skills and teach them something new!\n"
              "- **Exposure-based**: Is this a task that would help you advocate or champion someone, and provide "
              "them with additional exposure in the organization? Tasks of this nature are great for someone "
              "pursuing leadership opportunities or promotion.\n"
              "- **Capability-based**: Is this a task that requires a deep level of knowledge/expertise? This is "
              "probably best assigned to a subject matter expert (SME) on the team.\n"
              "Note that none of this is set in stone! Oftentimes, you will have to weigh each of these dimensions.")


def _keyed(candidate, *keywords: str):
    """``candidate`` with its document's front-matter keywords."""
    return replace(candidate, chunk=replace(candidate.chunk, keywords=keywords))


def test_f40_l06_a_page_keyed_to_the_askers_group_is_said_of_that_group():
    """fresh40's f40-l06 ("As a new supervisor I'm trying to decide who to hand tasks off to. What dimensions does the
    playbook suggest weighing when delegating?") and fresh39's f39-v12 were refused "for supervisor": the page is a
    play of the supervisor playbook ("keywords: supervisor playbook"), whose text says "you", not "supervisors"."""
    play = Source(label="S1", chunk_ids=(1,), document_id=1, title="Play 7 - Learn how to delegate effectively",
                  section="", version="v1", date="", text=DELEGATION, score=0.03, tokens=120)
    sentence = "Here are several dimensions and questions you can consider to help decide what to delegate, and to who:"
    assert not pins(play, sentence, "supervisor")
    assert pins(replace(play, keywords=("supervisor playbook", "leadership")), sentence, "supervisor")
    assert not pins(replace(play, keywords=("leadership",)), sentence, "supervisor")


def test_f40_l06_the_list_is_given_to_the_new_supervisor_the_page_is_for(embedder):
    page = _keyed(make_page(1, "Play 7 - Learn how to delegate effectively", "", DELEGATION),
                  "supervisor playbook", "leadership")
    text = offline_answer(embedder, "As a new supervisor I'm trying to decide who to hand tasks off to. What "
                          "dimensions does the playbook suggest weighing when delegating?", page)
    assert "Trust-based" in text and "Capability-based" in text and "for supervisor" not in text, text


ATO_PHASES = ("There are a few factors that will determine how long it takes a project to get an ATO.\n"
              "- Everything in Phase 1 needs to be done before the project can enter the ATO Sprint. Completing "
              "Phase 1 could take 40 hours of work.\n"
              "- Your Infrastructure Lead conducts the documentation review of Phase 2. Projects are scheduled for "
              "Phase 3 by the Infrastructure Leads as a group.\n"
              "- Phase 3 should take two weeks, assuming the previous Phases were done thoroughly.")


def test_f40_u06_a_duration_said_of_another_numbered_phase_does_not_answer_the_asked_one(embedder):
    """fresh40's f40-u06: "How long does the Phase 2 documentation review for an ATO usually take?" was answered
    "Phase 3 should take two weeks": the page says who does Phase 2, not how long it takes. (Asked here without
    "documentation review", which this one page states no duration of and is refused for already.)"""
    page = make_page(1, "Lifecycle of a Launch", "ATOs", ATO_PHASES)
    text = offline_answer(embedder, "How long does Phase 2 of an ATO take?", page)
    assert "two weeks" not in text and "for Phase 2" in text, text
    text = offline_answer(embedder, "How long should Phase 3 of an ATO take?", page)
    assert "Phase 3 should take two weeks" in text, text


def test_f40_u06_part_elsewhere_reads_parts_named_as_names():
    assert part_elsewhere("How long does Phase 2 take?", ["Phase 3 should take two weeks"]) == "Phase 2"
    assert part_elsewhere("How long does Phase 2 take?", ["Phase 3 should take two weeks", "Phase 2 takes a day"]) == ""
    # a number after an ordinary word names no part: "within 30 days" is not "Within 30"
    assert part_elsewhere("Is it reviewed within 30 days?", ["It is reviewed within 10 days"]) == ""
    assert part_elsewhere("What happens on Day 3?", ["Day 5 (Friday): wrap-up"]) == "Day 3"


REFERRALS = ("If you know an awesome person for a specific TTS role or just know a great person that you'd like to "
             "recommend in general, please check out the referring a person process. Once you have submitted a "
             "referral, a talent team member will reach out and invite the person to our monthly general TTS Info "
             "Session.")


def test_f40_u04_a_thing_asked_for_by_kind_needs_its_head_noun_named(embedder):
    """fresh40's f40-u04: "If someone I refer to TTS ends up getting hired, do I get a referral bonus?" was answered
    with how to submit a referral: the page names referrals, not a bonus for one."""
    page = make_page(1, "Talent", "Referring a person", REFERRALS)
    question = "If someone I refer to TTS ends up getting hired, do I get a referral bonus?"
    assert unnamed_existent(question, [page_source(page)]) == ["referral", "bonus"]
    text = offline_answer(embedder, question, page)
    assert "anything about referral bonus" in text and "Info Session" not in text, text
    # the head named, the thing is there to be asked about
    assert unnamed_existent("Is there a monthly TTS Info Session?", [page_source(page)]) == []
    # a head noun naming a kind of statement is said in other words ("you must be over 21" for "age requirements")
    assert unnamed_existent("Are there any age requirements for the adopter?",
                            [page_source(make_page(3, "Child adoption", "", "You must be over 21 to adopt. Adoption "
                                                   "agencies assess your age and health."))]) == []
    # the thing ends before a preposition: "along" is no head noun (fresh34's f34-y25 was refused "home printer along")
    printers = make_page(2, "Equipment", "Your own printer", "Printers are available as well but require additional "
                         "justification.")
    assert unnamed_existent("I work from home full time. Can I get a home printer along with my remote equipment "
                            "without having to justify it?", [page_source(printers)]) == []


def page_source(candidate) -> Source:
    """A planned source holding ``candidate``'s chunk whole."""
    c = candidate.chunk
    return Source(label="S1", chunk_ids=(c.chunk_id,), document_id=c.document_id, title=c.title, section=c.section,
                  version=c.version, date=c.date, text=c.text, score=candidate.score, tokens=c.tokens)


TEAM_VALUES = ("- Attentiveness\n- Empathy\n- User-Centric, Iterative and Agile\n- Measurable & data driven\n"
               "- Transparency\n- Collaboration\n- Strategic Thinking")
SUPERVISOR_DUTIES = ("TTS has a general List of Supervisor Job Duties, and each team will have unique/specific duties, "
                     "too.\n- Schedule 1-on-1s with each team member\n- Learn what their skills and talents are, and "
                     "if they’re able to leverage them in their work\n- Learn where they see themselves in the team")


def test_f40_l01_a_list_question_naming_a_headings_words_gets_the_list_under_it(embedder):
    """fresh40's f40-l01: "I'm interviewing to join the Talent team. What values does the team list for itself?"
    was answered with another page's supervisor duties: the Talent page's "Team Values" are one or two words each,
    too short to rank, and the heading over them names what is asked."""
    values = make_page(1, "Talent", "Talent Team Overview > Team Values", TEAM_VALUES)
    duties = make_page(2, "Play 1 - Understand the power differential", "Onboarding your team", SUPERVISOR_DUTIES)
    question = "I'm interviewing to join the Talent team. What values does the team list for itself?"
    text = offline_answer(embedder, question, duties, values)
    assert "Attentiveness" in text and "Strategic Thinking" in text and "Supervisor Job Duties" not in text, text
    assert names_heading(question, "Team Values") and not names_heading(question, "Values")
    assert not names_heading("What are the Talent team's values?", "Team Values and Key Objectives")


FUNERALS = ("You can use up to 13 days (104 hours) per year of your sick leave for bereavement, funeral planning, "
            "and/or attending the funeral of a family member. You can receive 3 days (24 hours) of funeral leave to "
            "plan or attend services of an immediate relative who has suffered a combat-related death.")
VETERANS = ("Funeral leave is also available for anyone who needs to plan or attend services of an immediate relative "
            "who has suffered a combat-related death.")


def test_f40_v02_a_relative_clause_asks_nothing_of_its_own():
    """fresh40's f40-v02: "What about if it's a relative who died in combat?" after "How much of my sick leave can I
    use for that?" asks the amount again: its "who" opens a relative clause, not a question."""
    assert not asks_its_own("What about if it's a relative who died in combat?")
    assert not asks_its_own("What about the team which runs it?")
    assert asks_its_own("And who approves it?") and asks_its_own("And for contractors, who approves it?")
    assert asks_its_own("And which form do I use?") and asks_its_own("And how does it make decisions?")


def test_f40_v02_what_about_another_case_is_answered_with_the_amount_for_it(embedder):
    from grounding.context import plan_context
    from grounding.extractive import ExtractiveAnswerer
    from grounding.followup import retrieval_query
    from grounding.memory import MemoryTurn
    from grounding.tokens import counter_for

    pages = [make_page(1, "Leave types", "Types of leave > Sick leave", FUNERALS),
             make_page(2, "Veteran & service member resources", "Leave", VETERANS)]
    first = ("My grandmother passed away and I need time to help plan the funeral. How much of my sick leave can I use "
             "for that?")
    # the follow-up as the conversation asks it: its own words, then the previous question's (grounding.followup)
    followup = "What about if it's a relative who died in combat?"
    counter = counter_for("extractive")
    answer = "You can use up to 13 days (104 hours) per year of your sick leave for bereavement [S1]."
    plan = plan_context(question=followup, candidates=pages, system_prompt="Answer.", counter=counter,
                        history=[MemoryTurn("user", first, counter.count(first)),
                                 MemoryTurn("assistant", answer, counter.count(answer))])
    text = ExtractiveAnswerer(embedder).compose(retrieval_query(followup, [first]), plan)
    # the amount for the new case first, not a sentence saying only that such leave exists
    assert text.startswith("You can receive 3 days (24 hours) of funeral leave"), text


def test_f40_m05_and_m03_a_second_question_after_whose_or_what_it_leaves_out_is_a_part_of_its_own():
    """fresh40's f40-m05 ("How long does a detail normally last, and whose job is it to make sure their security
    status gets verified with GSA?") was read as one question and refused "for security status"; f40-m03's "...,
    and besides the request forms, what record of my past leave do I need to email my HR specialist?" as one too."""
    _, parts = question_parts("How long does a detail normally last, and whose job is it to make sure their security "
                              "status gets verified with GSA?")
    assert parts == ["How long does a detail normally last",
                     "whose job is it to make sure their security status gets verified with GSA?"]
    _, parts = question_parts("How long do I have to have been a federal employee to qualify for paid parental "
                              "leave, and besides the request forms, what record of my past leave do I need?")
    assert parts == ["How long do I have to have been a federal employee to qualify for paid parental leave",
                     "besides the request forms, what record of my past leave do I need?"]
    # one question naming two things is still one part
    assert len(question_parts("How long do detailees and their supervisors have to file the forms?")[1]) == 1


TRAVEL_CARD = ("Visit the GSA SmartPay 3 travel card page for more information. You'll also need to apply for a GSA "
               "travel card, and once you receive it, update your Concur profile. This process takes about two weeks.")


def test_f40_u03_a_credit_limit_asks_an_amount_of_money(embedder):
    """fresh40's f40-u03: "What's the credit limit on the GSA travel card I'm applying for?" was answered "This
    process takes about two weeks": a credit limit is an amount of money, and the page states none."""
    assert question_type("What's the credit limit on the GSA travel card I'm applying for?") == "amount"
    assert question_type("What is the spending limit on a purchase card?") == "amount"
    assert question_type("What is the file size limit?") == "quantity"  # a limit of other things as before
    text = offline_answer(embedder, "What's the credit limit on the GSA travel card I'm applying for?",
                          make_page(1, "Get a travel card", "", TRAVEL_CARD))
    assert "two weeks" not in text and "do not state the amount" in text, text


VLTP = ("You can donate hours to your colleagues through VLTP or the Emergency Leave Transfer Program (ELTP). To "
        "donate, fill out the donor form and send it to your HR specialist.")
ANNUAL_LEAVE = ("Annual leave accrues each pay period. You can carry over a maximum of 240 annual leave hours, from "
                "one leave year to the next.")


def test_f40_u05_a_limit_on_another_action_does_not_answer_whether_the_asked_one_has_a_limit(embedder):
    """fresh40's f40-u05: "Is there a cap on how many hours of annual leave I can donate to a colleague through VLTP
    in one year?" was answered with the carry-over maximum: a limit on carrying leave over, not on donating it."""
    question = "Is there a cap on how many hours of annual leave I can donate to a colleague through VLTP in one year?"
    text = offline_answer(embedder, question, make_page(1, "Voluntary Leave Transfer Program", "Donating", VLTP),
                          make_page(2, "Leave types", "Annual leave", ANNUAL_LEAVE))
    assert "240" not in text and "whether there is a limit" in text, text
    limits = ["You can carry over a maximum of 240 annual leave hours, from one leave year to the next."]
    assert limit_of_other_action(question, limits, [VLTP, ANNUAL_LEAVE])
    # the asked action limited, or never named by the documents (asked in other words), it answers
    assert not limit_of_other_action("Is there a cap on how much annual leave I can carry over?", limits,
                                     [ANNUAL_LEAVE])
    assert not limit_of_other_action("Is there a cap on how many hours I can build up?", limits, [ANNUAL_LEAVE])
