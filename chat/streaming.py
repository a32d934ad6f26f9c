"""Streaming one prepared answer from its provider: safe deltas out (no half citation marker, no abstention token,
no held quotes), the verified answer back (citations resolved, cited spans, support check)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from typing import Awaitable, Callable

from chat.answering import PreparedAnswer
from chat.errors import AskError
from chat.frames import Frame
from grounding.answer import AbstainFilter, QuoteFilter, VerifiedAnswer, finalize_answer
from grounding.citation_stream import CitationStreamParser
from grounding.coalescing import Coalesced
from grounding.batching import EmbeddingBatcher
from grounding.embeddings import KnownVectors, default_embedder
from grounding.prompt import QUOTE_THEN_ANSWER
from grounding.providers import CitationEvent, Done, ProviderError, TextDelta, Usage
from grounding.support import check_support, support_texts

log = logging.getLogger("grounded.answer")

#: Where frames go: the door's sender (a socket, an SSE queue, nothing for the command line).
Emit = Callable[[Frame], Awaitable[None]]


@dataclass
class AnswerStream:
    """Runs the provider for a prepared answer and streams safe deltas; keeps the text so far for interruptions.

    Attributes:
        prepared: the plan, prompt and provider.
        raw: the provider's text pieces as received (characters).
        seq: the number of the last delta frame sent (1-based).
        usage: the provider's last usage report (tokens), for calibration and the trace.
        batcher: the server's query batcher (grounding.batching): the support check's texts are embedded through it,
            in one batch with other asks' texts, before the check runs; None: the check embeds them itself.
        cpu: how the CPU work after the stream (resolving citations, the support check) runs off the event loop:
            ``await cpu(fn, *args, **kwargs)``; the server's is chat.runtime.Runtime.cpu (its pool, by priority);
            None: asyncio.to_thread.
        pace: the least time (seconds) between two deltas after the first, asked before each (grounding.coalescing:
            the provider's pieces arriving meanwhile go out together); the server's is
            chat.runtime.Runtime.stream_pace; None: every piece goes out as soon as it can.
    """

    prepared: PreparedAnswer
    batcher: EmbeddingBatcher | None = None
    cpu: Callable[..., Awaitable] | None = None
    pace: Callable[[], float] | None = None
    raw: list[str] = field(default_factory=list)
    seq: int = 0
    usage: Usage | None = None

    async def _cpu(self, fn, /, *args, **kwargs):
        return await (self.cpu or asyncio.to_thread)(fn, *args, **kwargs)

    @property
    def text_so_far(self) -> str:
        """The provider's text received so far, unfiltered (what an interrupted answer keeps)."""
        return "".join(self.raw)

    async def _stream_refusal(self, verified: VerifiedAnswer, emit: Emit) -> None:
        """Send an abstention's whole text as one delta (with the decided citation markers of a reason that cites
        the sources) when nothing was streamed before it: the abstention token is held back while streaming
        (grounding.answer.AbstainFilter), so the refusal is only known once the answer is verified."""
        if not verified.abstained or self.seq or not verified.text:
            return
        parser = CitationStreamParser()
        released = parser.feed(verified.text) + parser.close()
        self.seq += 1
        await emit({"type": "delta", "seq": self.seq, "text": verified.text,
                    "cites": parser.citations_in(0, len(released))})

    async def run(self, emit: Emit) -> VerifiedAnswer:
        """Stream ``delta`` frames ({"type": "delta", "seq", "text", "cites"}: cites are the [start, end] character
        offsets of the decided citation markers in text, outside code) through ``emit`` and return the verified
        answer.

        With an insufficient plan no provider is called (abstention). An abstention (that one, or a provider's
        answer that opens with the abstention token, which is never streamed) is sent as one ``delta`` carrying the
        whole refusal text as stored (the abstention message, its reason and notes), so a client that renders
        deltas shows it and the streamed text equals the stored one.
        Raises:
            AskError(provider_error): the provider raised (ProviderError or anything else); the message says what
                failed.
            AskError(empty_answer): the provider streamed no text, or only whitespace (B07): nothing to store as an
                answer, nothing to send back as history.
            asyncio.CancelledError: propagates (the caller saves what was streamed).
        """
        plan = self.prepared.plan
        if not plan.sufficient:
            verified = finalize_answer("", plan)
            await self._stream_refusal(verified, emit)
            return verified
        parser = CitationStreamParser()
        quotes = QuoteFilter() if QUOTE_THEN_ANSWER in self.prepared.prompt.prefix else None
        abstain = AbstainFilter()  # the abstention token is never shown while streaming
        native: dict[str, str] = {}  # label -> cited_text of a provider's native citation
        try:
            # aclosing: a cancel (stop) that lands outside the provider's own await (e.g. while a delta is sent)
            # still closes the provider's stream and its HTTP response at once. Pieces that arrive while a delta
            # is being sent go out together in the next one (grounding.coalescing: fewer frames under load)
            events = Coalesced(self.prepared.provider.stream(self.prepared.prompt, plan), pace=self.pace)
            async with contextlib.aclosing(events):
                async for event in events:
                    if isinstance(event, CitationEvent):
                        native.setdefault(event.label, event.cited_text)
                    elif isinstance(event, TextDelta):
                        self.raw.append(event.text)
                        safe = parser.feed(abstain.feed(quotes.feed(event.text) if quotes else event.text))
                        if safe:
                            self.seq += 1
                            await emit({"type": "delta", "seq": self.seq, "text": safe,
                                        "cites": parser.citations_in(parser.released - len(safe), parser.released)})
                    elif isinstance(event, Usage):
                        self.usage = event
                    elif isinstance(event, Done):
                        break
        except ProviderError as exc:
            raise AskError("provider_error", exc.message) from exc
        except Exception as exc:  # a provider outage must not lose the turn: typed error, turn kept
            log.exception("provider failed")
            raise AskError("provider_error", f"The answer service failed: {exc}") from exc
        if not self.text_so_far.strip():
            raise AskError("empty_answer", "The model returned an empty answer. Nothing was saved as an answer; "
                                           "retry the question.")
        rest = parser.feed(abstain.feed(quotes.close()) if quotes else "")  # in stream order: held quotes text,
        rest += parser.feed(abstain.close())  # then a held beginning of the token,
        rest += parser.close()  # then a held beginning of a marker
        if rest:
            self.seq += 1
            await emit({"type": "delta", "seq": self.seq, "text": rest,
                        "cites": parser.citations_in(parser.released - len(rest), parser.released)})
        # citations resolved, spans located, the answer's sentences split: CPU work off the event loop, which keeps
        # sending other asks' frames meanwhile
        verified = await self._cpu(finalize_answer, self.text_so_far, plan)
        await self._stream_refusal(verified, emit)
        if native:  # the model's own cited span is the highlight of that source (and names its page)
            source_map = plan.source_map
            verified = replace(
                verified,
                citations=tuple(replace(c, cited_text=native.get(c.label, c.cited_text),
                                        location=source_map[c.label].location_of(native.get(c.label, c.cited_text)),
                                        section=source_map[c.label].section_of(native.get(c.label, c.cited_text)))
                                for c in verified.citations),
                spans=tuple({**sp, "cited_text": native.get(sp["label"], sp["cited_text"]),
                             "section": source_map[sp["label"]].section_of(native.get(sp["label"], sp["cited_text"]))}
                            for sp in verified.spans))
        if not verified.abstained:
            # sources that carry their sentence data give its vectors; the others' sentences are embedded by the
            # default embedder, which remembers the ones embedded at ingestion (chat.answering.answer_plan)
            texts = {s.label: s.text for s in plan.sources}
            # a source's stored vectors: those ingestion stored for the sentences the support check splits it into
            # (chat.answering.PreparedAnswer.source_vectors: the claims), else those of its sentence data. Sentence
            # data (the answerer's split) must not take their place: the check would then find none of its own
            # sentences stored and embed them all again after every answer
            stored = {**{s.label: s.sentences.vectors for s in plan.sources if s.sentences is not None},
                      **self.prepared.source_vectors}
            embedder = default_embedder()
            if self.batcher is not None:  # embedded with other asks' texts, so the check makes no model call
                wanted = await self._cpu(support_texts, verified.text, texts, stored)
                # after the questions waiting: a check of words already shown never delays another ask's first words
                vectors = await asyncio.gather(*(self.batcher.embed(t, background=True) for t in wanted))
                embedder = KnownVectors(embedder, dict(zip(wanted, vectors)))
            # the sources' values as ingestion found them (chat.answering.PreparedAnswer.source_values); the others'
            # are found in their texts
            report = await self._cpu(check_support, verified.text, texts, embedder, source_vectors=stored,
                                     question=plan.question, stored_values=self.prepared.source_values)
            verified = replace(verified, support=report.as_dict())
        return verified
