"""A near miss: a sentence as close as the quoted one names what the question asks about and the quoted ones do not
(18F calibration: "How long is the probationary period?" was answered with a six-month check-in)."""

from __future__ import annotations

from grounding.asked_attribute import asks_lead_time, missed_specifics, states_lead_time
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

ONBOARDING = ("TTS will remind you to do a check-in with the new employee six months after their start date.\n"
              "You will be asked if the new employee should continue past their probationary period.")


def _plan(question: str, text: str, title: str = "Onboarding new staff"):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section="", version="v1", date="", text=text,
                           tokens=40, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_a_thing_named_by_a_close_sentence_but_not_by_the_quoted_one_is_missed():
    source = _plan("How long is the probationary period?", ONBOARDING).sources[0]
    check_in, probation = ONBOARDING.splitlines()
    assert missed_specifics("How long is the probationary period for new employees?", [(check_in, source)],
                            [(probation, source)]) == ["probationary period"]
    # nothing close names it: the quoted sentence may say it in other words
    assert missed_specifics("How long is the probationary period for new employees?", [(check_in, source)], []) == []
    # the quoted sentence names it
    assert missed_specifics("How long is the probationary period?", [(probation, source)], [(check_in, source)]) == []


def test_a_missed_thing_is_a_noun_not_a_verb_a_name_in_capitals_or_a_pricing_word():
    source = _plan("q", ONBOARDING).sources[0]
    quoted = [("Keep in mind the $35 fee for using AdTrav.", source)]
    close = [("There is no additional charge if you call the airline or fix it yourself.", source)]
    # "call" after a pronoun, "charge" a verb of pricing, "fixing" a gerund
    assert missed_specifics("If I call AdTrav, what do they charge?", quoted, close) == []
    assert missed_specifics("How many hours can I spend fixing it?", quoted, close) == []
    fares = [("SFO to Civic Center Station is $8.65.", source)]
    assert missed_specifics("What is the BART fare to Civic Center?", fares,
                            [("It's a 25 minute ride to Civic Center BART station.", source)]) == []
    # a capitalised name within the sentence is a thing even after an auxiliary
    assert missed_specifics("Which code do Centers of Excellence staff use?", quoted,
                            [("COEs (Centers of Excellence)", source)]) == ["Centers", "Excellence"]


def test_a_thing_is_named_by_the_quoted_sentences_page_title_or_section():
    source = _plan("q", ONBOARDING, title="Probationary period").sources[0]
    check_in, probation = ONBOARDING.splitlines()
    assert missed_specifics("How long is the probationary period?", [(check_in, source)], [(probation, source)]) == []


PAGES_CAP = ("Site managers will be required to provide a Corrective Action Plan (CAP) detailing the steps.\n"
             "The site manager must provide a CAP to the system owner within 30 days of the CAP request.")


def test_an_acronym_the_source_defines_names_its_words():
    # fresh9's v9-005 (a development set): the user was told the documents do not state the duration "for corrective
    # action plan" while the quoted sentence gives it for "a CAP", which the page defines
    source = _plan("q", PAGES_CAP, title="Site pages").sources[0]
    defined, rule = PAGES_CAP.splitlines()
    question = "How long does a site manager have to hand in a corrective action plan?"
    assert missed_specifics(question, [(rule, source)], [(defined, source)]) == []
    undefined = _plan("q", defined.replace(" (CAP)", "") + "\n" + rule, title="Site pages").sources[0]
    assert missed_specifics(question, [(rule, undefined)], [(defined.replace(" (CAP)", ""), undefined)]) \
        == ["corrective action plan"]


CHECK_IN = ("Supervisors hold a check-in with each new employee after a period of 6 months.\n"
            "Supervisors are asked whether the new employee should continue past the probationary period.")
RELIGIOUS = ("Request annual leave at least 14 days ahead.\n"
             "You can earn religious comp time by working extra hours before a religious observance.")


def test_the_offline_answer_refuses_a_near_miss_and_says_what_the_documents_cover(embedder):
    question = "How long is the probationary period for new employees?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, CHECK_IN))
    assert "6 months" not in answer, answer
    assert answer == ("INSUFFICIENT_EVIDENCE: The documents describe Onboarding new staff [S1], but they do not state "
                      "the duration or time limit for probationary period."), answer
    question = "How many days ahead must I request religious comp time?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, RELIGIOUS))
    assert "14 days" not in answer and answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_the_offline_answer_still_quotes_the_sentence_about_the_asked_thing(embedder):
    question = "How many days ahead must I request annual leave?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, RELIGIOUS))
    assert answer.startswith("Request annual leave at least 14 days ahead [S1]"), answer
    question = "How often do supervisors hold a check-in with a new employee?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, CHECK_IN))
    assert "6 months [S1]" in answer, answer


def test_a_word_of_a_name_whose_other_words_are_said_is_not_missed():
    """Public abstention set (ramdocs, calibration half): "When was Altrincham Grammar School established?" is
    answered by "The school was founded as Altrincham County High School for Boys in 1912": a name changes."""
    source = _plan("q", ONBOARDING, title="Document 1").sources[0]
    quoted = [("The school was founded as Altrincham County High School for Boys in 1912.", source)]
    close = [("Altrincham Grammar School for Boys is a selective grammar school.", source)]
    assert missed_specifics("When was Altrincham Grammar School established?", quoted, close) == []
    # no word of the name said: it is missed
    assert missed_specifics("When was Sale Grammar School established?",
                            [("The academy opened in 1912.", source)], close) == ["Grammar School"]


def test_a_lead_time_question_is_told_apart_from_a_duration_question():
    assert asks_lead_time("How many days ahead of a religious holiday do I have to request religious comp time?")
    assert asks_lead_time("How far in advance am I supposed to put in a leave request?")
    assert asks_lead_time("How long before my term ends does PeopleOps contact my supervisor?")
    # "before" far from "how long" is a condition, not a lead time
    assert not asks_lead_time("How long do I need to have been at my GS grade before I can apply?")
    assert not asks_lead_time("How long is paid parental leave?")
    assert states_lead_time("Submit leave requests at least three business days in advance.")
    assert states_lead_time("HR Links sends a reminder 3 months before your leave expires.")
    assert not states_lead_time("If you are on a flexible schedule, you will receive 8 hours for a holiday.")


HOLIDAYS = ("If you are on a flexible schedule, you will receive 8 hours for a holiday.\n"
            "Religious comp time lets you work extra hours to make up for time off for a religious observance.")


def test_a_lead_time_question_is_not_answered_with_a_duration_that_is_no_lead_time(embedder):
    """18F calibration: "How many days ahead of a religious holiday ...?" was answered "8 hours for a holiday"."""
    question = "How many days ahead of a religious holiday must I request religious comp time?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, HOLIDAYS, title="Work schedules"))
    assert "8 hours" not in answer and answer.startswith("INSUFFICIENT_EVIDENCE"), answer
    leave = "Submit religious comp time requests at least 14 days in advance.\n" + HOLIDAYS
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, leave, title="Work schedules"))
    assert answer.startswith("Submit religious comp time requests at least 14 days in advance [S1]"), answer


def test_a_sentence_naming_another_kind_of_the_asked_thing_is_told_apart():
    from grounding.asked_attribute import other_kind
    question = "How many vacation days do I get?"
    assert other_kind(question, "Every employee receives 10 paid sick days per calendar year.")
    assert other_kind(question, "Working on a holiday, you receive a substitute day off within 60 days.")
    # a number is no kind; the asked word itself makes it the asked kind
    assert not other_kind(question, "Employees accrue 1.5 days of paid time off per month, 18 days per year.")
    assert not other_kind(question, "Vacation days and sick days are requested in Meadow.")
    assert not other_kind("How many sick days do I get?", "Every employee receives 10 paid sick days per year.")
    # not across punctuation, nor a number word against another word ("any one time" / "any given time")
    assert not other_kind("When is the end-of-year self-assessment due?",
                          "Date: October 17, 2025; Item: Self-assessment submittal due date.")
    # no word of time ("the old hotel limit" / "the nightly hotel limit")
    assert not other_kind("What was the old hotel limit?", "The nightly hotel limit is $200 per night.")
    # the word in front is the question's own
    assert not other_kind("What comes in the remote worker home kit?", "GSA IT can provide you with a remote kit.")
    assert not other_kind("How many credit hours can I have banked at any one time?",
                          "You can have up to 24 credit hours accrued, at any given time.")


def test_the_answer_quotes_the_sentence_about_the_asked_kind_first():
    # the demo handbook's sentences (the s17 new-user run quoted the sick days first)
    text = ("If your manager asks you to work on a company holiday (for example, to support a customer robot "
            "deployment), you receive a substitute day off that must be taken within 60 days.\n"
            "Every employee receives 10 paid sick days per calendar year, credited on January 1 (or pro rata on your "
            "start date).\n"
            "Employees accrue 1.5 days of paid time off per month, which adds up to 18 days per calendar year.")
    question = "How many vacation days do I get?"
    answer = ExtractiveAnswerer().compose(question, _plan(question, text, title="Vacation, sick days and holidays"))
    assert answer.startswith("Employees accrue 1.5 days of paid time off per month"), answer
