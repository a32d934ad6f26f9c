"""Table lookups of the offline answerer where the row looked up leaves the asked column blank (s6 round; rule written
on the calibration half of the 18F golden set, never on its test half)."""

from __future__ import annotations

from dataclasses import replace

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


HOLIDAYS = ("Tallgrass observes the following paid company holidays.\nHoliday | Date observed in 2025\n"
            "New Year's Day | Wednesday, January 1\nJuneteenth | Thursday, June 19\nLabor Day | Monday, September 1")


def test_a_row_quoted_as_column_value_pairs_cites_its_row_not_the_header():
    # the s27 new-user run: the chip's highlight was the header row "Holiday | Date observed in 2025", which shares as
    # many words with the quoted pairs as the Juneteenth row does, and comes first
    chunk = Chunk(chunk_id=1, document_id=1, title="Paid Time Off and Holidays", section="Company holidays",
                  version="2025-01", date="", text=HOLIDAYS, tokens=60, version_id=1)
    plan = plan_context(question="When is Juneteenth observed?", candidates=[Candidate(chunk, score=0.03, dense=0.7)],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    verified = finalize_answer("Holiday: Juneteenth; Date observed in 2025: Thursday, June 19 [S1].", plan)
    assert [c.cited_text for c in verified.citations] == ["Juneteenth | Thursday, June 19"]
    # with no sentence, item or row matching, the header is cited: the one line holding what the claim names
    only_header = replace(chunk, text="Holiday | Date observed in 2025\nJuneteenth | Thursday, June 19")
    plan = plan_context(question="Which columns?", candidates=[Candidate(only_header, score=0.03, dense=0.7)],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    assert finalize_answer("The holidays are listed with the date observed in 2025 [S1].",
                           plan).citations[0].cited_text == "Holiday | Date observed in 2025"
