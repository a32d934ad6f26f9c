"""Sentence data read from what ingestion stored (grounding.sentence_store, issue 20 point 3): a chunk's layout and
the vectors of its texts give the same sentence data as splitting and embedding its text, with no model call."""

from __future__ import annotations

import numpy as np

from grounding.context import plan_context
from grounding.embeddings import KnownVectors
from grounding.sentence_data import section_heading, sentence_data
from grounding.sentence_store import chunk_layout, layout_texts, stored_sentence_data, with_stored_sentences
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

TEXT = (  # as ingestion stores a page: a table's rows as "a | b" lines, list items on lines of their own
"Annual leave accrues by years of service:\n"
        "Service | Hours per pay period\nFewer than 3 years | 4\n3 to 15 years | 6\n"
        "Leave is requested in the HR system:\n- Open the leave form.\n- Pick the dates and submit it.\n"
        "It must be approved by your supervisor. The daily meal allowance is $65.")


def test_a_stored_layout_gives_the_sentence_data_of_splitting_and_embedding_the_text(embedder):
    heading = section_heading("Leave > Accrual")
    layout = chunk_layout(TEXT)
    quoted = [u[3] for u in layout]
    assert "Service: Fewer than 3 years; Hours per pay period: 4" in quoted and "Open the leave form." in quoted
    assert ["amount:$65"] in [[v for v in u[4] if v.startswith("amount")] for u in layout]  # values found once
    known = dict(zip(layout_texts(layout, heading), embedder.embed(layout_texts(layout, heading))))
    counting = KnownVectors(embedder, known)
    stored = stored_sentence_data(layout, heading, known)
    [[made]] = sentence_data([[(TEXT, heading)]], counting)
    assert counting.encoded == 0  # the stored texts are every text reading the chunk needs
    assert (stored.texts, stored.spans, stored.kinds, stored.values) == (made.texts, made.spans, made.kinds,
                                                                          made.values)
    assert np.allclose(stored.vectors, made.vectors) and np.allclose(stored.context, made.context, atol=1e-6)
    missing = {t: v for t, v in known.items() if t != heading}
    assert stored_sentence_data(layout, heading, missing) is None  # a vector not known: read the text instead


def test_only_a_source_that_is_one_chunks_text_unchanged_is_read_from_its_layout(embedder):
    def chunk(i, text, ordinal):
        return Chunk(chunk_id=i, document_id=1, title="Leave", section="Leave > Accrual", version="v1", date="",
                     text=text, tokens=len(text.split()), ordinal=ordinal, version_id=1)

    other = "Sick leave accrues at 4 hours per pay period for every employee."
    alone = [Candidate(chunk(1, TEXT, 0), 0.03, 0.6), Candidate(chunk(2, other, 5), 0.02, 0.5)]
    plan = plan_context(question="How much annual leave do I accrue?", candidates=alone, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    layouts = {c.chunk.chunk_id: chunk_layout(c.chunk.text) for c in alone}  # as the index keeps them
    texts = {t for layout in layouts.values() for t in layout_texts(layout, "Accrual")}
    known = dict(zip(sorted(texts), embedder.embed(sorted(texts))))
    read = with_stored_sentences(plan, {c.chunk.chunk_id: c.chunk for c in alone}, layouts, known)
    assert all(s.sentences is not None for s in read.sources)
    assert read.sources[0].sentences.texts[0] == "Annual leave accrues by years of service:"
    merged = [Candidate(chunk(1, TEXT, 0), 0.03, 0.6), Candidate(chunk(2, other, 1), 0.02, 0.5)]  # adjacent: merged
    plan = plan_context(question="How much annual leave do I accrue?", candidates=merged, system_prompt="Answer.",
                        counter=counter_for("extractive"))
    assert len(plan.sources) == 1 and len(plan.sources[0].chunk_ids) == 2
    again = with_stored_sentences(plan, {c.chunk.chunk_id: c.chunk for c in merged}, layouts, known)
    assert again.sources[0].sentences is None  # its text is not one chunk's: read from the text when answering

