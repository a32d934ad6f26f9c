"""Yes/no questions on whether a named thing is in a closed list (grounding.yesno_membership): the s45 new-user trial
asked "Is Veterans Day a company holiday?" of the demo handbook's eleven-row holiday table and got the rule for
working on a holiday, no opener; the answer is "No." with the whole list cited."""

from __future__ import annotations

from grounding.answer import finalize_answer
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk
from grounding.yesno_membership import asked_membership

HOLIDAYS = ("Tallgrass observes the following 4 paid company holidays. When a holiday falls on a Saturday it is "
            "observed on the preceding Friday.\nHoliday | Date observed in 2025\n"
            "New Year's Day | Wednesday, January 1\nMartin Luther King Jr. Day | Monday, January 20\n"
            "Juneteenth | Thursday, June 19\nLabor Day | Monday, September 1")


def _answer(embedder, question: str, text: str = HOLIDAYS, extra: str = "") -> tuple[str, object]:
    chunks = [Chunk(chunk_id=1, document_id=1, title="Paid Time Off and Holidays", section="Company holidays",
                    version="2025-01", date="", text=text, tokens=90, version_id=1)]
    if extra:
        chunks.append(Chunk(chunk_id=2, document_id=2, title="Floating holidays", section="Use",
                            version="2025-01", date="", text=extra, tokens=40, version_id=2))
    plan = plan_context(question=question, candidates=[Candidate(c, score=0.03, dense=0.7) for c in chunks],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    text = ExtractiveAnswerer(embedder).compose(question, plan)
    return text, finalize_answer(text, plan)


def test_a_thing_no_item_of_a_closed_list_names_is_answered_no_with_the_list(embedder):
    text, verified = _answer(embedder, "Is Veterans Day a company holiday?")
    assert text.startswith("No. Tallgrass observes the following 4 paid company holidays [S1].")
    for row in ("Holiday: New Year's Day; Date observed in 2025: Wednesday, January 1 [S1].",
                "Holiday: Labor Day; Date observed in 2025: Monday, September 1 [S1]."):
        assert f"- {row}" in text
    assert not verified.abstained and verified.citations


def test_a_listed_thing_or_one_named_by_its_initials_or_a_word_of_an_item_is_not_answered_no(embedder):
    # "Juneteenth" is a row; "MLK" is the initials of "Martin Luther King Jr. Day"
    for question in ("Is Juneteenth a company holiday?", "Is MLK Day a company holiday?"):
        text, _ = _answer(embedder, question)
        assert not text.startswith("No."), (question, text)


def test_a_list_that_is_not_whole_or_a_thing_named_elsewhere_is_not_answered_no(embedder):
    # a count other than the items' ("the following 5" with four rows) or examples ("such as") is not the whole list
    for lead in ("Tallgrass observes the following 5 paid company holidays.",
                 "Tallgrass observes paid company holidays such as the following:"):
        text, _ = _answer(embedder, "Is Veterans Day a company holiday?",
                          HOLIDAYS.replace(HOLIDAYS.split(". ")[0] + ".", lead, 1))
        assert not text.startswith("No."), (lead, text)
    # another planned passage names the thing: the list alone does not settle it
    text, _ = _answer(embedder, "Is Veterans Day a company holiday?",
                      extra="Many employees use a floating holiday for Veterans Day.")
    assert not text.startswith("No. Tallgrass observes")


def test_the_membership_form_names_the_thing_and_the_kind():
    assert asked_membership("Is Veterans Day a company holiday?") == ("Veterans Day", "company holiday")
    assert asked_membership("Is Zoom one of the approved tools?") == ("Zoom", "approved tools")
    assert asked_membership("Is the Day after Thanksgiving a holiday?") == ("Day after Thanksgiving", "holiday")
    # a pointing word or a lower-case description is no named thing; other forms are not membership questions
    assert asked_membership("Is it a holiday?") is None
    assert asked_membership("Is a laptop a requirement?") is None
    assert asked_membership("Is Veterans Day paid?") is None
