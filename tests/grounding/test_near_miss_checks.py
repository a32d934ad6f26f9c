"""Near misses whose quoted sentence states a value of the asked type that is not the asked fact (s18 refusal pass,
written on the 18F calibration half, the development set and the fresh7 near misses): a list item's duration for a
lead-time question, the asked role itself for a "Who is ...?" question, another fiscal year than the one asked."""

from __future__ import annotations

from grounding.asked_attribute import names_another_person
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.subject_check import names_other_code, pins
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _plan(question: str, text: str, title: str, section: str = ""):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section=section, version="v1", date="", text=text,
                           tokens=60, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


PPL = ("Paid parental leave is available to eligible employees.\n\n"
       "About paid parental leave:\n\n"
       "- You need to have been a federal employee for 12 months in order to access paid parental leave.\n"
       "- You are entitled to 12 weeks of paid time off for the birth or placement of a new child.\n")


def test_a_list_item_stating_no_lead_time_does_not_answer_a_lead_time_question(embedder):
    """fresh7: "How many days before the birth must I submit my paid parental leave request?" quoted two list items
    (12 months of service, 12 weeks of leave): neither, nor their lead-in, says how long before anything."""
    question = "How many days before the birth must I submit my paid parental leave request?"
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, PPL, "Paid parental leave"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE") and "12 weeks" not in answer, answer


def test_a_list_item_under_a_lead_in_stating_the_lead_time_still_answers(embedder):
    question = "How many days before the birth must I submit my paid parental leave request?"
    text = ("Paid parental leave requests are reviewed by HR.\n\n"
            "Submit your paid parental leave request in advance of the birth:\n\n"
            "- At least 30 days before the expected birth date for paid parental leave.\n"
            "- As soon as possible for an adoption.\n")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Paid parental leave"))
    assert "30 days" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_a_person_question_is_not_answered_by_the_role_it_asks_to_be_named():
    question = "Who is the Workforce Relations HR Specialist for TTS employees?"
    assert not names_another_person(question, "Our Workforce Relations HR Specialist can help, as needed.")
    assert not names_another_person(question, "Contact your Workforce Relations HR Specialist for next steps.")
    assert names_another_person(question, "Jane Doe is the Workforce Relations HR Specialist.")
    assert names_another_person(question, "Email the specialist at wr-hr@gsa.gov.")
    # an acronym of the question's own words names nothing more ("IR" for "Incident Response")
    leads = "Who leads the GSA Incident Response team?"
    assert not names_another_person(leads, "The GSA Incident Response (IR) team will contact you.")
    assert names_another_person(leads, "The Chief Information Security Officer leads the team.")
    # a role other than the asked thing answers
    assert names_another_person("Who owns the TTSC Handbook?", "The TTSC Chief of Staff is the handbook owner.")


def test_the_offline_answer_refuses_a_person_question_whose_sentences_only_name_the_asked_role(embedder):
    question = "Who is the Workforce Relations HR Specialist for TTS employees?"
    text = ("Our Workforce Relations HR Specialist can help provide clarity, as needed.\n"
            "Contact your Workforce Relations HR Specialist for next steps and documents.")
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, text, "Work schedules"))
    assert answer.startswith("INSUFFICIENT_EVIDENCE"), answer
    named = text + "\nMaria Lopez is the Workforce Relations HR Specialist for TTS employees."
    answer = ExtractiveAnswerer(embedder).compose(question, _plan(question, named, "Work schedules"))
    assert "Maria Lopez" in answer and not answer.startswith("INSUFFICIENT_EVIDENCE"), answer


def test_a_sentence_naming_another_fiscal_year_does_not_pin_the_asked_one():
    assert names_other_code("Mid-year due date for FY25: supervisors override the review.", "FY26")
    assert names_other_code("Employees at GS-13 may apply.", "GS-12")
    assert not names_other_code("Mid-year due date for FY26.", "FY26")
    assert not names_other_code("FY2026 plans are due in November.", "FY26")
    assert not names_other_code("Mid-year reviews are due in May.", "FY26")
    text = "Mid-year due date for FY25: June 2, 2025.\nEstablish FY26 performance plans by November 14, 2025."
    source = _plan("When are FY26 mid-year reviews due?", text, "Performance dates").sources[0]
    # the page names FY26 elsewhere, but this sentence is about FY25
    assert not pins(source, "Mid-year due date for FY25: June 2, 2025.", "FY26")
    assert pins(source, "Mid-year reviews are due June 2.", "FY26")
