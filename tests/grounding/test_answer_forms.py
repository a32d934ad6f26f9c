"""Answer forms of the offline answerer on made-up passages, from the s5 development set's findings (rules written on
the calibration half of the 18F golden set and on evaluation/golden/18f_dev.jsonl, never on its test half)."""

from __future__ import annotations

from grounding.comparison import side_sentences
from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.sentence_rank import with_sentences
from grounding.comparison_sides import comparison_sides
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk


def _page(i: int, title: str, section: str, text: str) -> Candidate:
    return Candidate(Chunk(chunk_id=i, document_id=i, title=title, section=section, version="v1", date="",
                           text=text, tokens=len(text.split()), version_id=i), score=0.03, dense=0.6)


def _plan(question: str, *pages: Candidate):
    return plan_context(question=question, candidates=list(pages), system_prompt="Answer.",
                        counter=counter_for("extractive"))


def _sides(embedder, question: str, *pages: Candidate) -> list[str]:
    plan = with_sentences(_plan(question, *pages), embedder)  # as ExtractiveAnswerer.compose reads them
    answerer = ExtractiveAnswerer(embedder)
    sides = comparison_sides(question)
    assert sides is not None
    rankings = [answerer.rank(q, plan) for q in sides.queries]
    chosen = side_sentences(rankings, sides, plan, threshold=answerer.threshold, type_spread=answerer.type_spread)
    return [s.text for s in chosen]


def test_a_comparison_side_that_lost_its_verb_asks_for_what_the_other_side_asks(embedder):
    # "... compared with parking at 12 Rue Neuve in Nice?": the second side's own question ("What does parking at 12
    # Rue Neuve in Nice?") names no type, so any number passed as its value: the street number "12" was quoted as
    # what parking costs. It asks for an amount, as the first side does.
    question = "What does garage parking cost in Lyon compared with parking at 12 Rue Neuve in Nice?"
    lyon = _page(1, "Lyon office", "Parking", "Garage parking in Lyon costs €18 per day.")
    address_only = _page(2, "Nice office", "Parking", "If you drive to the Nice office, you may park at 12 Rue Neuve.")
    assert _sides(embedder, question, lyon, address_only) == []
    priced = _page(2, "Nice office", "Parking", "If you drive to the Nice office, you may park at 12 Rue Neuve.\n"
                                              "Parking at 12 Rue Neuve in Nice costs €2 per hour.")
    assert _sides(embedder, question, lyon, priced) == ["Garage parking in Lyon costs €18 per day.",
                                                        "Parking at 12 Rue Neuve in Nice costs €2 per hour."]


def test_a_table_row_whose_first_cell_the_question_names_is_the_row_looked_up(embedder):
    # "What are chat channels with the g- prefix for?" got the "-shared" row only, which shares more words with the
    # question; the row keyed "g-" is the one asked for (the s5 development set): it is answered too (without the
    # bonus it scored under the threshold)
    table = _page(1, "Chat channels", "Channel names",
                  "prefix | description\n"
                  "-shared | Channels that are linked with another chat workspace\n"
                  "g- | Guilds\n"
                  "wg- | Working groups")
    question = "What are chat channels with the g- prefix for?"
    text = ExtractiveAnswerer(embedder).compose(question, _plan(question, table))
    assert "prefix: g-; description: Guilds [S1]." in text
    assert "Working groups" not in text


def test_a_comparison_side_whose_value_the_next_sentences_of_its_paragraph_state_is_quoted_with_them(embedder):
    # "... compared with parking at 355 McAllister in San Francisco?" (the 18F development set, d033): the page
    # names the garage in one sentence and states its fees two sentences later ("Fees vary but $4.50 to $2.00 per
    # hour"), so no single sentence held both and the comparison was refused; the value is quoted after the sentence
    # naming its subject. Another paragraph does not continue it.
    question = "What does garage parking cost in Lyon compared with parking at 12 Rue Neuve in Nice?"
    lyon = _page(1, "Lyon office", "Parking", "Garage parking in Lyon costs €18 per day.")
    continued = _page(2, "Nice office", "Parking",
                      "If you drive to the Nice office, you may park at 12 Rue Neuve. The hours for this underground "
                      "structure are 6 a.m. to midnight. Fees vary from €2 to €4 per hour depending on the time.")
    assert _sides(embedder, question, lyon, continued) == [
        "Garage parking in Lyon costs €18 per day.", "If you drive to the Nice office, you may park at 12 Rue Neuve.",
        "Fees vary from €2 to €4 per hour depending on the time."]
    apart = _page(2, "Nice office", "Parking",
                  "If you drive to the Nice office, you may park at 12 Rue Neuve.\n\n"
                  "Fees vary from €2 to €4 per hour depending on the time.")
    assert _sides(embedder, question, lyon, apart) == []


def test_a_name_a_planned_source_names_is_not_said_to_be_unsaid(embedder):
    # "How much does parking cost near the New York office?" over the D.C. and San Francisco parking sections and a
    # New York page without parking (the 18F calibration half, q196) was refused with "they do not say anything about
    # New York", which a planned source does: what the documents lack is the amount for New York
    question = "How much does parking cost near the Nice office?"
    lyon = _page(1, "Lyon office", "Parking", "Garage parking near the Lyon office costs €18 per day.")
    nice = _page(2, "Nice office", "Getting here", "The Nice office is a ten-minute walk from the train station.")
    text = ExtractiveAnswerer(embedder).compose(question, _plan(question, lyon, nice))
    assert text.endswith("but they do not state the amount for Nice."), text
    assert "anything about Nice" not in text
