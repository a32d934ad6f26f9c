"""Sentence data of a source (grounding.sentence_data): kinds, table rows read with their header, vectors and
context vectors, typed values; made once per answer, reusing the vectors of the sentences embedded at ingestion."""

from __future__ import annotations

import numpy as np

from grounding.context import plan_context
from grounding.extractive import ExtractiveAnswerer
from grounding.embeddings import KnownVectors
from grounding.sentence_data import segment, sentence_data
from grounding.support import check_support
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

TABLE_PAGE = ("Utilization targets\nYour target depends on your role:\nNumber of direct reports | Utilization % target\n"
              "0 | 80%+\n4 | 60%")


class Recording:
    """Wraps an embedder and records every text it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.dim, self.name, self.texts = inner, inner.dim, inner.name, []

    def embed(self, texts):
        self.texts += list(texts)
        return self.inner.embed(texts)


def test_sentences_get_kinds_and_list_markers_are_not_quoted():
    units, header = segment("Leave\nHow do I ask for leave?\nYou need:\n- A form. And a signature.\n- Approval\n"
                            "Submit it three days ahead.")
    assert [(kind, text) for _, _, kind, text in units] == [
        ("heading", "Leave"), ("question", "How do I ask for leave?"), ("lead", "You need:"), ("item", "A form."),
        ("item", "And a signature."), ("item", "Approval"), ("sentence", "Submit it three days ahead.")]
    assert header == ""


def test_table_rows_are_read_as_column_value_pairs_also_after_a_chunk_break():
    units, header = segment(TABLE_PAGE)
    assert [(k, t) for _, _, k, t in units][2:] == [
        ("header", "Number of direct reports | Utilization % target"),
        ("row", "Number of direct reports: 0; Utilization % target: 80%+"),
        ("row", "Number of direct reports: 4; Utilization % target: 60%")]
    assert header == "Number of direct reports | Utilization % target"  # the table runs on into the next chunk
    continued, _ = segment("8 | 40%\nAfter the table.", header)
    assert [(k, t) for _, _, k, t in continued] == [
        ("row", "Number of direct reports: 8; Utilization % target: 40%"), ("sentence", "After the table.")]
    text = TABLE_PAGE
    assert all(text[s:e].strip() for s, e, _, _ in units)  # spans point at the words in the chunk


def test_sentence_data_has_vectors_context_and_values(embedder):
    [[first, second]] = sentence_data([[(TABLE_PAGE, "Utilization"), ("8 | 40%\nAfter the table.", "")]], embedder)
    assert second.texts[0] == "Number of direct reports: 8; Utilization % target: 40%"  # header from the chunk before
    assert first.values[4] == ("count:4", "percent:60%")
    vectors = embedder.embed([first.texts[1], "Utilization", first.texts[0]])
    assert np.allclose(first.vectors[1], vectors[0], atol=1e-5)
    window = vectors[1] + vectors[2]  # the first sentence's context is its section heading
    assert np.allclose(first.context[0], window / np.linalg.norm(window), atol=1e-5)


def candidate(chunk_id, text, score=0.6):
    chunk = Chunk(chunk_id=chunk_id, document_id=chunk_id, title=f"Doc {chunk_id}", section="", version="v1",
                  date="", text=text, tokens=len(text.split()), ordinal=0, version_id=chunk_id)
    return Candidate(chunk=chunk, score=score, dense=score)


def test_at_ask_time_only_the_question_and_what_ingestion_did_not_embed_are_encoded(embedder):
    texts = ["Laptops are replaced every 36 months. Order a replacement through the IT portal.",
             "The daily meal allowance is $65 per day."]
    plan = plan_context(question="How often are laptops replaced?",
                        candidates=[candidate(1, texts[0]), candidate(2, texts[1], 0.4)],
                        system_prompt="Answer.", counter=counter_for("extractive"))
    # what ingestion embedded (knowledge.sentences): the sentences of both chunks
    said = ["Laptops are replaced every 36 months.", "Order a replacement through the IT portal.", texts[1]]
    recording = Recording(embedder)
    known = KnownVectors(recording, dict(zip(said, embedder.embed(said))))
    answer = ExtractiveAnswerer(known).compose(plan.question, plan)
    assert "36 months" in answer and recording.texts == ["How often are laptops replaced?"]
    recording.texts.clear()
    report = check_support(answer, {s.label: s.text for s in plan.sources}, known)
    assert report.sentences and report.sentences[0].status == "supported"
    assert set(recording.texts) <= {s.text for s in report.sentences}  # the answer's own sentences only


def test_a_hard_wrapped_list_item_is_one_sentence_with_its_offsets_in_the_text():
    """A new user's report: "Extended Out of Office - #1810: Intended for if you are Out of Office for" was quoted
    without the wrapped line that says how long ("3 weeks or longer"). A wrapped line joins its item or sentence; a
    heading line after a full stop, a new item and a table row do not."""
    text = ("Codes:\n- Extended Out of Office - #1810: Intended for if you are Out of Office for\n"
            "  3 weeks or longer continuously.\n- Next item here.\nFlexitour\n- You work 8 hours a day\n"
            "The allowance covers meals and\nlodging for the whole trip.\n| a | b |\n| 1 | 2 |")
    units, _ = segment(text)
    quoted = [(kind, s) for _, _, kind, s in units]
    assert ("item", "Extended Out of Office - #1810: Intended for if you are Out of Office for 3 weeks or longer "
                    "continuously.") in quoted
    assert ("heading", "Flexitour") in quoted and ("item", "Next item here.") in quoted
    assert ("sentence", "The allowance covers meals and lodging for the whole trip.") in quoted
    first = next(u for u in units if u[3].startswith("Extended"))
    assert text[first[0]:first[1]] == ("Extended Out of Office - #1810: Intended for if you are Out of Office for\n"
                                       "  3 weeks or longer continuously.")  # the highlight spans both lines
    assert [k for _, _, k, _ in units][-2:] == ["header", "row"]


def test_cjk_sentences_are_sentences_not_headings():
    # a breaker's Japanese and Chinese pages were all read as headings (no Latin end punctuation): never quotable
    from grounding.sentence_data import segment

    units, _ = segment("出張の日当は5,000円です。\n每日餐费补贴是多少？\n差旅政策\nThe daily meal allowance is $65.")
    assert [u[2] for u in units] == ["sentence", "question", "heading", "sentence"]
