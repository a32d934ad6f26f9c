"""A question whose subject no planned source names is not answered from sources about something else (s6 new user:
"When is the gym open?" got the cafeteria's opening hours)."""

from __future__ import annotations

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.subject_check import unnamed_subject
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

CAFETERIA = ("The office cafeteria is open from 7:30 a.m. to 2:00 p.m. on weekdays. Lunch costs $6 for employees and "
             "$9 for guests. Coffee is free for everyone.")


def _plan(question: str, text: str, title: str = "Cafeteria Rules"):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title=title, section="", version="v1", date="", text=text,
                           tokens=40, version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_a_subject_no_source_names_is_what_the_question_lacks():
    plan = _plan("When is the gym open?", CAFETERIA)
    assert unnamed_subject("When is the gym open?", plan.sources) == ["gym"]  # "open" is the predicate
    assert unnamed_subject("When is the cafeteria open?", plan.sources) == []
    # one subject word named anywhere is enough: the question may use other words than the documents
    assert unnamed_subject("How much does the staff lunch cost?", plan.sources) == []
    assert unnamed_subject("How long is it open?", plan.sources) == []  # nothing but generic words and a predicate


def test_the_offline_answer_says_what_the_documents_describe_instead_of_another_subjects_hours(embedder):
    answer = ExtractiveAnswerer(embedder).compose("When is the gym open?", _plan("When is the gym open?", CAFETERIA))
    assert "7:30" not in answer and "do not say anything about gym" in answer and "Cafeteria Rules [S1]" in answer
    answer = ExtractiveAnswerer(embedder).compose("When is the cafeteria open?",
                                                  _plan("When is the cafeteria open?", CAFETERIA))
    assert answer.startswith("The office cafeteria is open from 7:30 a.m. to 2:00 p.m. on weekdays [S1]")
