"""Table lookups of the offline answerer where the row looked up leaves the asked column blank (s6 round; rule written
on the calibration half of the 18F golden set, never on its test half)."""

from __future__ import annotations

from grounding.answer import finalize_answer
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

TABLE = ("Work type | Contractors | Staff\n"
         "Business development | 1434 | 1811\n"
         "Professional development | ? | NA\n"
         "Engagement support. Use this code if you are not staffed to the engagement. | Ask your lead | Ask AM")


def _plan(question: str):
    page = Candidate(Chunk(chunk_id=1, document_id=1, title="Time codes", section="Common codes", version="v1",
                           date="", text=TABLE, tokens=len(TABLE.split()), version_id=1), score=0.03, dense=0.6)
    return plan_context(question=question, candidates=[page], system_prompt="Answer.",
                        counter=counter_for("extractive"))


def test_a_blank_cell_in_the_row_looked_up_is_no_answer_and_no_neighbouring_row_is_quoted(embedder):
    question = "Which billing code do contractors use for professional development?"
    plan = _plan(question)
    text = ExtractiveAnswerer(embedder).compose(question, plan)
    assert "Ask your lead" not in text and "1434" not in text
    verified = finalize_answer(text, plan)
    assert verified.abstained
    assert "The documents describe Time codes (Common codes) [S1], but they do not state the answer." in text


def test_a_filled_cell_of_the_row_looked_up_is_the_answer(embedder):
    question = "Which billing code do contractors use for business development?"
    text = ExtractiveAnswerer(embedder).compose(question, _plan(question))
    assert text.startswith("Work type: Business development; Contractors: 1434; Staff: 1811 [S1].")
