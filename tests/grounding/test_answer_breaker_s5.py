"""A breaker's findings on the offline answerer (the s5 answers round), each held by a test on a made-up passage:
amounts and clock times in other notations are typed as such by the answer-type check; a very long answer sentence
cut mid-way is never passed off as a whole one; a question about a past year answered from a later version says so."""

from __future__ import annotations

import pytest

from grounding.answer import finalize_answer
from grounding.answer_types import question_type, states, typed_values
from grounding.compose import cited, whole_or_marked
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _page(i: int, text: str, *, title: str = "Office guide", section: str = "", date: str = "",
          status: str = "current", document: int | None = None, version: str = "v1") -> Candidate:
    return Candidate(Chunk(chunk_id=i, document_id=document or i, title=title, section=section, version=version,
                           date=date, text=text, tokens=len(text.split()), version_id=i, status=status),
                     score=0.03, dense=0.6)


def _compose(embedder, question: str, *pages: Candidate) -> tuple[str, object]:
    plan = plan_context(question=question, candidates=list(pages), system_prompt="Answer.",
                        counter=counter_for("extractive"))
    text = ExtractiveAnswerer(embedder).compose(question, plan)
    return text, finalize_answer(text, plan)


@pytest.mark.parametrize("sentence,kind,value", [
    ("The registration fee is 5,000 yen per person.", "amount", "amount:5,000 yen"),
    ("A day ticket costs €40.", "amount", "amount:€40"),
    ("Each guest pays EUR 40 at the door.", "amount", "amount:EUR 40"),
    ("The reception desk closes at 16:00.", "date", "date:16:00"),
    ("The reception desk closes at 4:30 pm on Fridays.", "date", "date:4:30 pm"),
])
def test_breaker_amounts_in_other_currencies_and_clock_times_are_typed(sentence, kind, value):
    assert states(kind, sentence)
    assert value in typed_values(sentence)


def test_breaker_a_score_or_ratio_is_not_a_clock_time():
    assert not states("date", "The vote passed 7:2 after a short debate.")
    assert not states("amount", "The team of 12 finished the 40 tasks.")


def test_breaker_an_amount_question_answered_by_a_yen_sentence_is_not_refused(embedder):
    fees = _page(1, "Visitors to the Tokyo office register at the front desk.\n"
                    "The conference registration fee is 5,000 yen per person.", section="Fees")
    assert question_type("How much is the conference registration fee?") == "amount"
    text, verified = _compose(embedder, "How much is the conference registration fee?", fees)
    assert not verified.abstained
    assert text.startswith("The conference registration fee is 5,000 yen per person [S1].")


def test_breaker_a_time_question_answered_by_a_24_hour_time_is_not_refused(embedder):
    desk = _page(1, "The reception desk is on the ground floor.\nThe reception desk closes at 16:00 every weekday.",
                 section="Reception")
    text, verified = _compose(embedder, "What time does the reception desk close?", desk)
    assert not verified.abstained and "closes at 16:00 every weekday [S1]" in text


LONG = ("Employees who travel abroad for more than three consecutive weeks, whether on a detail or on an assignment "
        "arranged by their home office, and who expect to incur lodging costs above the published rate for their "
        "destination, must ask their supervisor for written approval before they book anything, must attach the "
        "written approval to the travel authorization, and must keep every receipt for lodging, meals and local "
        "transport for at least three years after the trip ends, since the audit team may ask for them at any time")


def test_breaker_a_long_sentence_cut_mid_way_is_cut_at_a_clause_boundary_with_a_visible_ellipsis():
    piece = LONG[:LONG.index(" meals and local") + len(" meals and local")]  # cut by a chunk boundary
    assert whole_or_marked(piece) == LONG[:LONG.index(", meals")] + " …"  # "... every receipt for lodging …"
    assert cited(piece, "S1") == LONG[:LONG.index(", meals")] + " … [S1]."
    no_commas = " ".join(w.strip(",") for w in piece.split())
    assert whole_or_marked(no_commas) == no_commas + " …"  # no clause boundary: kept whole, visibly cut


def test_breaker_a_whole_long_sentence_is_quoted_whole():
    whole = LONG + "."
    assert whole_or_marked(whole) == whole
    assert cited(whole, "S2") == LONG + " [S2]."
    assert cited("Bike parking", "S3") == "Bike parking [S3]."  # a short label is not a cut sentence


def test_breaker_a_long_answer_sentence_is_never_quoted_cut_without_a_mark(embedder):
    # a chunk boundary cut the sentence: the chunk ends mid-sentence, and the answer quotes it
    piece = LONG[:LONG.index(" for at least")]
    travel = _page(1, "Long trips abroad need approval.\n" + piece, title="Travel policy", section="Long trips")
    text, _ = _compose(embedder, "What do I need before booking lodging for a long trip abroad?", travel)
    assert LONG[:LONG.index(", meals")] + " … [S1]." in text
    assert piece + " [S1]." not in text


def test_breaker_a_question_about_2023_answered_from_a_2024_version_says_no_2023_version_is_held(embedder):
    rate = _page(1, "The mileage rate for driving your own car on business is $0.70 per mile.", title="Travel policy",
                 section="Mileage", date="2024-03-01", version="2024-03")
    text, verified = _compose(embedder, "What was the mileage rate in 2023?", rate)
    assert text.startswith("No version from 2023 is held: this answer is from the version dated 2024-03-01 [S1].")
    assert "$0.70 per mile [S1]" in text and not verified.abstained


def test_breaker_no_period_note_when_a_version_of_that_year_is_planned_or_the_sentence_names_the_year(embedder):
    current = _page(1, "The mileage rate for driving your own car on business is $0.70 per mile.",
                    title="Travel policy", section="Mileage", date="2024-03-01", document=1, version="2024-03")
    old = _page(2, "The mileage rate for driving your own car on business is $0.65 per mile.",
                title="Travel policy", section="Mileage", date="2023-02-01", status="superseded", document=1,
                version="2023-02")
    text, _ = _compose(embedder, "What was the mileage rate in 2023?", current, old)
    assert not text.startswith("No version") and "$0.65 per mile" in text.split("[")[0]
    history = _page(3, "In 2023 the mileage rate was $0.65 per mile; it rose in 2024.", title="Travel policy",
                    section="History", date="2024-03-01")
    text, _ = _compose(embedder, "What was the mileage rate in 2023?", history)
    assert not text.startswith("No version") and "$0.65 per mile" in text
    text, _ = _compose(embedder, "What is the mileage rate?", current)
    assert not text.startswith("No version")


def test_a_short_statement_decides_a_yes_no_question_and_a_label_does_not(embedder):
    # "Bike parking is free." (four words with a verb) states the answer; before, only sentences of six words or
    # more could decide, so a longer sentence about requesting access was quoted first without an opener
    parking = _page(1, "To request bike parking access, fill out the bike access form and return it to the building "
                       "office in the basement.\nBike parking is free.", section="Bikes")
    text, _ = _compose(embedder, "Is there free bike parking at the office?", parking)
    assert text.startswith("Yes. Bike parking is free [S1].")
    court = _page(2, "Court leave\nIf you are called for jury duty, your time is marked as court leave and is not "
                     "charged to your annual leave.", section="Types of leave")
    text, _ = _compose(embedder, "Does jury duty come out of my annual leave?", court)
    assert text.startswith("No. If you are called for jury duty")
