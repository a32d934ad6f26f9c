"""A question about a later year than any version (s6 round, what a new user met on the demo handbook): the answer
gives the current value and says the documents state none for that year; superseded values are not quoted as
answers."""

from __future__ import annotations

from grounding.answer import finalize_answer
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.lexical import asks_about_future, asks_about_past
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _page(i: int, text: str, *, date: str, status: str = "current", version: str = "v1") -> Candidate:
    return Candidate(Chunk(chunk_id=i, document_id=1, title="Travel policy", section="Meals", version=version,
                           date=date, text=text, tokens=len(text.split()), version_id=i, status=status),
                     score=0.03, dense=0.6)


def test_a_year_in_a_question_about_what_will_hold_is_not_a_past_cue():
    assert asks_about_future("What will the meal allowance be in 2030?")
    assert not asks_about_past("What will the meal allowance be in 2030?")
    assert asks_about_past("What was the meal allowance in 2023?")
    assert not asks_about_future("What was the meal allowance in 2023?")
    assert asks_about_past("What will the old policy's allowance be reimbursed at in 2030?")  # "old" still is


def test_a_future_year_gets_the_current_value_and_says_that_year_is_not_stated(embedder):
    current = _page(1, "The daily meal allowance is $65 per day of travel.", date="2025-03-01", version="2025-03")
    old = _page(2, "The daily meal allowance is $50 per day of travel.", date="2024-01-01", status="superseded",
                version="2024-01")
    question = "What will the meal allowance be in 2030?"
    plan = plan_context(question=question, candidates=[current, old], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    text = ExtractiveAnswerer(embedder).compose(question, plan)
    assert text.startswith("The documents do not state a value for 2030; what follows is from the current version "
                           "(dated 2025-03-01). The daily meal allowance is $65 per day of travel [S1].")
    assert "The daily meal allowance is $50 per day of travel [" not in text  # the old value is no answer
    assert not finalize_answer(text, plan).abstained
