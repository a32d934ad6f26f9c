"""The offline extractive answerer: the sentences of the planned sources that best answer the question, each cited.

It is the default every new user meets (no model key needed): it scores each sentence of the planned sources against
the question (bundled MiniLM cosine, also with the previous sentence as context, IDF-weighted overlap of content
words, a bonus for quantities), quotes the best ones with their [S#] labels, and abstains below a calibrated
threshold. No Django imports.
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass
from typing import AsyncIterator

import numpy as np

from grounding.chunking import split_sentences
from grounding.dedup import asks_about_past
from grounding.embeddings import Embedder, default_embedder
from grounding.injection import looks_injected
from grounding.prompt import ABSTAIN_TOKEN, Prompt, neutralise_markers
from grounding.providers import Done, Event, TextDelta, content_terms
from grounding.quarantine import is_placeholder
from grounding.types import ContextPlan


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate answer sentence: text, the label of its source, and its score (cosine + overlap bonus)."""

    text: str
    label: str
    score: float


_QUANTITY_QUESTION = re.compile(r"\b(how (many|much|long|often|soon|far|old)|what (percentage|amount|number|"
                                r"time|date|day)|when|deadline|limit|maximum|minimum)\b", re.I)
_HAS_QUANTITY = re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                           r"hundred|thousand|half|once|twice|daily|weekly|monthly|annually|yearly)\b", re.I)


class ExtractiveAnswerer:
    """Offline answerer: the best-supported sentences of the planned sources, each cited.

    Score of a sentence =
        max(cosine(question, sentence), cosine(question, previous sentence + sentence))   (context window, so a
            short sentence such as "It must be longer than 14 characters." keeps its subject)
      + ``overlap_weight`` x IDF-weighted share of the question's content terms found in the sentence (IDF over the
            planned sentences, so words every source shares, like the company name, count for little)
      + ``quantity_bonus`` when the question asks for a quantity/time and the sentence states one.
    The answer holds up to ``max_sentences`` sentences scoring at least max(``threshold``, best - ``spread``); below
    ``threshold`` it abstains with ABSTAIN_TOKEN. The threshold is calibrated on the acceptance questions in tests/
    (demo corpus and 18F handbook: answerable vs not), see tests/chat/test_acceptance_*.py.
    """

    name = "extractive"
    label = "Extractive answer (offline): sentences quoted from the sources"

    def __init__(self, embedder: Embedder | None = None, *, threshold: float = 0.62, spread: float = 0.12,
                 max_sentences: int = 3, overlap_weight: float = 0.3, quantity_bonus: float = 0.08,
                 piece_words: int = 3) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.spread = spread
        self.max_sentences = max_sentences
        self.overlap_weight = overlap_weight
        self.quantity_bonus = quantity_bonus
        self.piece_words = piece_words

    def rank(self, question: str, plan: ContextPlan) -> list[ScoredSentence]:
        """All sentences of the plan's sources, best first (CPU-bound; call it off the event loop)."""
        sentences: list[tuple[str, str, str]] = []  # (sentence, label, previous sentence of the same source)
        past = asks_about_past(question)
        for source in plan.sources:
            if source.status == "superseded" and not past:
                continue  # in the context for its disagreement (a note), not to be quoted as the answer
            previous = ""
            for s in split_sentences(source.text):
                s = s.lstrip("-* ").strip()
                words = len(s.split())
                heading = words < 8 and s[-1:] not in ".!?:;)\"”"  # a heading line absorbed into the chunk
                # text addressed to an AI assistant is part of the document, never quoted as the answer (its block
                # is withheld at planning; a sentence that still carries a signal is skipped too)
                if words >= 4 and not heading and not is_placeholder(s) and not looks_injected(s):
                    sentences.append((s, source.label, previous))
                previous = s
        if not sentences:
            return []
        embedder = self.embedder or default_embedder()
        texts = [question] + [s for s, _, _ in sentences] + [f"{p} {s}".strip() for s, _, p in sentences]
        vectors = embedder.embed(texts)
        n = len(sentences)
        cos = np.maximum(vectors[1:n + 1] @ vectors[0], vectors[n + 1:] @ vectors[0])
        terms = [content_terms(s) for s, _, _ in sentences]
        df: dict[str, int] = {}
        for t in terms:
            for w in t:
                df[w] = df.get(w, 0) + 1
        q_terms = content_terms(question)
        idf = {w: math.log((n + 1) / (df.get(w, 0) + 0.5)) for w in q_terms}
        q_weight = sum(idf.values())
        wants_quantity = bool(_QUANTITY_QUESTION.search(question))
        scored = []
        for (text, label, _), c, t in zip(sentences, cos, terms):
            overlap = sum(idf[w] for w in q_terms & t) / q_weight if q_weight > 0 else 0.0
            bonus = self.quantity_bonus if wants_quantity and _HAS_QUANTITY.search(text) else 0.0
            scored.append(ScoredSentence(text, label, float(c) + self.overlap_weight * overlap + bonus))
        scored.sort(key=lambda s: -s.score)
        return scored

    def compose(self, question: str, plan: ContextPlan) -> str:
        """The full answer text (or the abstention text)."""
        ranked = self.rank(question, plan)
        if not ranked or ranked[0].score < self.threshold:
            return ABSTAIN_TOKEN
        floor = max(self.threshold, ranked[0].score - self.spread)
        chosen: list[ScoredSentence] = []
        seen: set[str] = set()
        for s in ranked:
            key = re.sub(r"\W+", " ", s.text.lower()).strip()
            if s.score < floor or len(chosen) >= self.max_sentences:
                break
            if key in seen:
                continue
            seen.add(key)
            chosen.append(s)
        parts = []
        for s in chosen:
            text = neutralise_markers(s.text).rstrip()  # a quoted "[S2]" in a document must not become a citation
            end = text[-1] if text[-1] in ".!?" else "."
            body = text[:-1] if text[-1] in ".!?" else text
            parts.append(f"{body} [{s.label}]{end}")
        cited = {s.label for s in chosen}
        for note in plan.notes:  # the offline answer says where the sources it quotes disagree with others
            if note.kind == "injection" or not cited & set(note.labels):
                continue
            markers = "".join(f"[{label}]" for label in note.labels if label in plan.source_map)
            # dates are in the chips and notes; that a side is a superseded version is said in the answer too
            said = re.sub(r" \((?:\d{4}-\d{2}-\d{2}|undated)([^)]*)\)",
                          lambda m: " (a superseded version)" if "superseded" in m.group(1) else "",
                          neutralise_markers(note.text)).rstrip(".")
            parts.append(f"Note that the sources disagree: {said} {markers}.")
        return " ".join(parts)

    async def stream(self, prompt: Prompt, plan: ContextPlan) -> AsyncIterator[Event]:
        """Stream the composed answer in pieces of a few words (the work itself runs in a thread)."""
        # For a follow-up question the retrieval query carries the conversation's terms ("do they expire?" ->
        # "... credit hours"); the extractive answerer matches sentences against it, as retrieval did.
        question = plan.query or prompt.messages[-1]["content"]
        text = await asyncio.to_thread(self.compose, question, plan)
        words = re.findall(r"\S+\s*", text)
        for i in range(0, len(words), self.piece_words):
            yield TextDelta("".join(words[i:i + self.piece_words]))
            await asyncio.sleep(0)
        yield Done()
