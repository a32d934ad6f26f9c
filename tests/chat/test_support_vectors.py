"""The support check after an answer embeds only the answer's own sentences (issue 20 point 3), also when the planned
source carries the answerer's sentence data read from its stored layout: the source's stored claim vectors (the
check's own split of a source) are what it compares with."""

from __future__ import annotations

import asyncio

from chat.answering import PreparedAnswer
from chat.streaming import AnswerStream
from grounding.batching import EmbeddingBatcher
from grounding.context import plan_context, prompt_for
from grounding.claims import claims
from grounding.prompt import DEFAULT_SYSTEM_PROMPT
from grounding.providers import ScriptedProvider
from grounding.sentence_store import chunk_layout, layout_texts, with_stored_sentences
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk

TEXT = ("Leave is requested in the HR system:\n- Open the leave form.\n- Pick the dates and submit it.\n"
        "Annual leave accrues at four hours per pay period. Unused leave carries over up to 240 hours.")


class Recording:
    """Embeds through the real model and records what it was asked to embed."""

    name = "recording"

    def __init__(self, inner):
        self.inner, self.dim, self.texts = inner, inner.dim, []

    def embed(self, texts):
        self.texts += list(texts)
        return self.inner.embed(texts)


def test_the_support_check_reads_the_stored_claims_not_the_answerers_sentence_data(embedder):
    chunk = Chunk(1, 1, "Leave", "Accrual", "v1", "", TEXT, 40, version_id=1, sentences=tuple(claims(TEXT)))
    plan = plan_context(question="How fast does annual leave accrue?", candidates=[Candidate(chunk, 0.03, 0.7)],
                        system_prompt=DEFAULT_SYSTEM_PROMPT, counter=counter_for("extractive"))
    layout = chunk_layout(TEXT)
    known = dict(zip(layout_texts(layout, "Accrual"), embedder.embed(layout_texts(layout, "Accrual"))))
    plan = with_stored_sentences(plan, {1: chunk}, {1: layout}, known)
    assert plan.sources[0].sentences is not None and plan.sources[0].sentences.texts != tuple(chunk.sentences)
    answer = "Annual leave accrues at four hours per pay period [S1]."
    prepared = PreparedAnswer(plan=plan, prompt=prompt_for(plan, system_prompt=DEFAULT_SYSTEM_PROMPT),
                              provider=ScriptedProvider([answer]),
                              source_vectors={"S1": embedder.embed(list(chunk.sentences))})
    recording = Recording(embedder)

    async def run():
        stream = AnswerStream(prepared, batcher=EmbeddingBatcher(recording))
        frames = []

        async def emit(frame):
            frames.append(frame)

        return await stream.run(emit)

    verified = asyncio.run(run())
    assert verified.support and verified.support["sentences"]
    assert recording.texts == [answer.replace(" [S1]", "")]  # the answer's sentence only, no source sentence


def test_the_support_check_reads_the_sources_stored_values_not_their_texts(embedder, monkeypatch):
    import grounding.support as support

    chunk = Chunk(1, 1, "Leave", "Accrual", "v1", "", TEXT, 40, version_id=1, sentences=tuple(claims(TEXT)))
    plan = plan_context(question="How much leave carries over?", candidates=[Candidate(chunk, 0.03, 0.7)],
                        system_prompt=DEFAULT_SYSTEM_PROMPT, counter=counter_for("extractive"))
    answer = "Unused leave carries over up to 240 hours [S1]."
    found = []
    monkeypatch.setattr(support, "source_values", lambda text: found.append(text) or (frozenset(), frozenset()))
    stored = {"S1": (frozenset({"240", "4"}), frozenset({"240", "4"}))}

    def check(values):
        prepared = PreparedAnswer(plan=plan, prompt=prompt_for(plan, system_prompt=DEFAULT_SYSTEM_PROMPT),
                                  provider=ScriptedProvider([answer]), source_values=values)

        async def run():
            async def emit(frame):
                pass

            return await AnswerStream(prepared, batcher=EmbeddingBatcher(embedder)).run(emit)

        return asyncio.run(run()).support["sentences"][0]

    assert check(stored)["status"] != "unsupported" and found == []  # read, not found in the text again
    assert check({})["status"] == "unsupported" and found == [plan.sources[0].text]  # no stored values: the text
