"""The period an amount is per (grounding.periods): a near miss priced per another period is no answer (s6 round,
the development set's close-but-unanswerable questions; never the test half)."""

from __future__ import annotations

from grounding.answer import finalize_answer
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.periods import other_period, periods
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def test_periods_and_another_period():
    assert periods("How much does an annual bike membership cost?") == frozenset({"year"})
    assert periods("$15 buys a 24-hour pass with unlimited 3-hour rides.") == frozenset({"day"})
    assert other_period("How much does an annual bike membership cost?", "$15 buys a 24-hour pass.")
    assert not other_period("What does a bike day pass cost?", "$15 buys a 24-hour pass.")
    assert not other_period("How much does a bike pass cost?", "$15 buys a 24-hour pass.")  # no period asked
    assert not other_period("How much does an annual membership cost?", "Members pay $50.")  # none stated


def test_an_amount_per_another_period_is_no_answer(embedder):
    text = ("Bike share is run by CityBikes. $15 buys a 24-hour pass with unlimited 3-hour rides. "
            "Docks are at every train station.")
    page = Candidate(Chunk(chunk_id=1, document_id=1, title="Lyon office", section="Getting around", version="v1",
                           date="", text=text, tokens=len(text.split()), version_id=1), score=0.03, dense=0.6)
    question = "How much does an annual CityBikes membership cost in Lyon?"
    plan = plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))
    answer = ExtractiveAnswerer(embedder).compose(question, plan)
    assert "$15" not in answer and finalize_answer(answer, plan).abstained
    day = "What does a CityBikes day pass cost in Lyon?"
    plan = plan_context(question=day, candidates=[page], system_prompt="Answer.", counter=counter_for("extractive"))
    assert "$15 buys a 24-hour pass" in ExtractiveAnswerer(embedder).compose(day, plan)
