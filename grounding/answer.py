"""Finalize an answer: resolve its citations through the source map, find the cited spans, render safe HTML.

The application owns what the reader sees about a source: chips are built from the source map, never from model
text; unknown labels stay plain text (C08); model text is rendered as Markdown with raw HTML disabled and then
sanitised with nh3, so only our own markup survives (grounding.rendering); the answer's Markdown itself leaves with its
raw HTML escaped (grounding.rawhtml), so a client that renders the ``answer`` field with HTML enabled shows a quoted
"<script>" as text. Look-alikes inside code are neither citations nor invalid labels (B09).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from grounding.chunking import split_sentences
from grounding.citation_labels import check_labels
from grounding.citation_strip import strip_markers
from grounding.citations import parse_markers
from grounding.language import language_note
from grounding.scheduled import scheduled_note
from grounding.lexical import content_terms
from grounding.location import source_label
from grounding.prompt import ABSTAIN_TOKEN
from grounding.providers import LATE_ABSTAIN_TOKEN, is_abstention
from grounding.rawhtml import escape_raw_html
from grounding.rendering import render_html
from grounding.sentence_data import QUOTABLE, segment
from grounding.answer_sentences import sentence_spans
from grounding.lead_spans import lead_in_span
from grounding.types import Citation, ContextPlan, Source

__all__ = ["ABSTAIN_MESSAGE", "AbstainFilter", "QuoteFilter", "VerifiedAnswer", "citing_claims", "cited_span",
           "finalize_answer", "render_html"]

ABSTAIN_MESSAGE = "I could not find the answer to this question in the documents."


@dataclass(frozen=True)
class VerifiedAnswer:
    """The final answer of one turn.

    Attributes:
        text: answer text as produced, as Markdown with raw HTML escaped ("<script>" -> "&lt;script&gt;", see
            grounding.rawhtml; abstentions are replaced by ABSTAIN_MESSAGE plus the model's reason).
        abstained: True when the answer says the documents do not hold the answer.
        citations: one resolved citation per distinct valid label, in first-cited order.
        invalid: labels that did not resolve (reported, rendered as plain text).
        html: sanitised HTML with citation chips; chip k carries data-span="k".
        spans: one entry per valid citation occurrence, in text order: {"label", "cited_text", "location",
            "source_label"}, so each chip highlights the sentence its own claim relies on and names its page, slide
            or rows (grounding.location JSON shape; {} and the title alone for a source without one).
        support: the per-sentence support check (grounding.support_report.SupportReport.as_dict()), {} until checked.
    """

    text: str
    abstained: bool
    citations: tuple[Citation, ...] = ()
    invalid: tuple[str, ...] = ()
    html: str = ""
    spans: tuple[dict[str, Any], ...] = ()
    support: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"answer": self.text, "abstained": self.abstained,
                "citations": [c.as_dict() for c in self.citations], "invalid_citations": list(self.invalid)}


def citing_claims(text: str) -> dict[int, str]:
    """The claim each citation marker of an answer closes, keyed by the marker's start offset (characters).

    The claim is the answer text from the sentence's start, or from the previous marker of the same sentence, up to
    the marker: "Meals are $65 [S1] and hotels $200 [S2]." gives S1 "Meals are $65" and S2 "and hotels $200".
    Markers right after one another ("[S1][S2]", "[S1] [S2]") close the same claim; a marker with no text of its own
    before it (at the start of a sentence, or after a closed claim) cites its whole sentence. Sentences come from
    grounding.answer_sentences.sentence_spans (pysbd: "i.e.", "e.g." and decimals do not end a sentence; a marker
    after the full stop or after a cut ellipsis belongs to the sentence before it), so highlighting and the support
    check read an answer the same way. One sentence split per answer: linear in the number of markers.
    """
    claims: dict[int, str] = {}
    markers = parse_markers(text)
    for start, end, owned in sentence_spans(text, markers):
        whole = strip_markers(text, markers, start=start, end=end).strip()
        cursor = start  # where the current claim begins
        for k, m in enumerate(owned):
            if k == 0 or text[owned[k - 1].end:m.start].strip():
                # a new run of adjacent markers: its claim is the text since the previous run (or the sentence start)
                claim = strip_markers(text, markers, start=cursor, end=m.start).strip()
            cursor = m.end  # a marker adjacent to the previous one closes the same claim
            claims[m.start] = claim if any(ch.isalnum() for ch in claim) else whole
    return claims


@functools.lru_cache(maxsize=256)
def _read_units(text: str) -> tuple[tuple[str, bool], ...]:
    """The sentences of a source text read as ingestion reads it (grounding.sentence_data.segment: each table's first
    row is its header), each with whether it may be quoted (not a heading nor a header row); cached, since every
    citation of a source reads the same text."""
    units = segment(text)[0]
    if not units:
        return tuple((s, True) for s in (p.lstrip("-* ").strip() for p in split_sentences(text)) if s)
    return tuple((s, kind in QUOTABLE) for s, kind in ((text[a:b].lstrip("-* ").strip(), kind)
                                                         for a, b, kind, _ in units) if s)


def cited_span(claim: str, source: Source) -> str:
    """The sentence of ``source`` that best matches ``claim`` by shared content terms (Jaccard; the first on ties);
    "" when no sentence shares two content words with the claim (one, for a claim of one content word): a single
    shared word such as "day" says nothing about the claim, and a wrong highlight misleads more than none.

    The sentences are the source's stored reading when it carries one (``source.sentences``: the spans ingestion
    found, grounding.sentence_store), so no sentence splitting runs when an answer is finalised; else its text is
    read here as ingestion reads it (grounding.sentence_data.segment). A sentence, list item or table row is cited
    before a heading or a table's header row that matches as well. A lead-in the answerer wrote itself, naming a
    section of the source ("<title>, <heading>:", which quotes nothing), stands for the text under that heading
    (grounding.lead_spans.lead_in_span)."""
    named = lead_in_span(claim, source)
    if named is not None:
        return named
    data = source.sentences
    if data is not None and data.spans and all(0 <= a < b <= len(source.text) for a, b in data.spans):
        sentences = [(s, q) for s, q in ((source.text[a:b].lstrip("-* ").strip(), kind in QUOTABLE)
                                         for (a, b), kind in zip(data.spans, data.kinds)) if s]
    else:
        sentences = list(_read_units(source.text))
    if not sentences:
        return source.text
    terms = content_terms(claim)
    if not terms:
        return ""

    def overlap(s: str) -> float:
        t = content_terms(s)
        return len(terms & t) / (len(terms | t) or 1)

    def found(candidates: list[str]) -> str:
        best = max(candidates, key=overlap) if candidates else ""
        return best if best and len(terms & content_terms(best)) >= min(2, len(terms)) else ""

    # a sentence, list item or table row before a heading or a table's header row: a claim quotes what they head
    # ("Holiday: Juneteenth; Date observed in 2025: Thursday, June 19" shares as many words with the header row
    # "Holiday | Date observed in 2025" as with its own row, and the header came first: the s27 new-user run)
    return found([s for s, q in sentences if q]) or found([s for s, _ in sentences])


#: Quote-then-answer scratch work: a closed <quotes> block anywhere, or an unclosed one that opens the answer (the
#: stream ended inside it). A stray "<quotes>" later in an answer is text and is kept.
_QUOTES = re.compile(r"<quotes>.*?</quotes>\s*|\A\s*<quotes>.*\Z", re.S | re.I)


def finalize_answer(text: str, plan: ContextPlan) -> VerifiedAnswer:
    """Resolve citations of a complete answer text against the plan's source map.

    Every label resolves through ``plan.source_map`` only (C07); with no sources every citation is invalid (C16).
    In quote-then-answer mode the leading <quotes> block is the model's scratch work and is not shown.
    An abstention (ABSTAIN_TOKEN) is shown as ABSTAIN_MESSAGE plus its reason; a reason that cites the plan's sources
    ("The documents describe the bug bounty program [S1], but they do not state the amount.": the documents cover
    the topic, not the asked fact) is shown as it is, with its citations resolved, and is still an abstention. An
    abstention on a question asked in another language (``plan.asked_in``) ends with
    grounding.language.language_note ("... the documents are in English: please ask it in English."); one the
    domain's scheduled versions would have matched (``plan.scheduled``) ends with grounding.scheduled.scheduled_note
    ('A version of "Mileage" dated 2027-01-05 is scheduled and not yet in effect.').
    """
    text = _QUOTES.sub("", text)
    abstained = is_abstention(text) or not plan.sufficient
    if not abstained:  # the token after an answer is not shown (grounding.providers.LATE_ABSTAIN_TOKEN)
        text = LATE_ABSTAIN_TOKEN.sub("", text)
    if abstained:
        reason = text.strip()
        if is_abstention(reason):
            reason = reason.lstrip(" *_`#>\n")
            reason = reason[len(ABSTAIN_TOKEN):].lstrip(" :.-\n")
            reason = reason[:1].upper() + reason[1:]
        note = "".join(f" {n}" for n in (language_note(plan.asked_in) if plan.asked_in else "",
                                          scheduled_note(plan.scheduled)) if n)
        if plan.sufficient and reason and any(lab in plan.source_map for m in parse_markers(reason)
                                              for lab in m.labels):
            return _resolved(reason + note, plan, abstained=True)
        reason = strip_markers(reason)
        shown = ABSTAIN_MESSAGE if not reason or not plan.sufficient else f"{ABSTAIN_MESSAGE} {escape_raw_html(reason)}"
        if not plan.sufficient and text.strip() and not is_abstention(text):
            shown = ABSTAIN_MESSAGE
        shown += note
        markers = parse_markers(text)
        check = check_labels(markers, plan.source_map.keys() if plan.sufficient else ())
        return VerifiedAnswer(text=shown, abstained=True, invalid=check.invalid,
                              html=render_html(shown, set()))
    return _resolved(text, plan)


def _resolved(text: str, plan: ContextPlan, *, abstained: bool = False) -> VerifiedAnswer:
    """An answer text with its citations resolved through the plan's source map, each chip's cited span found, raw
    HTML escaped and the HTML rendered."""
    source_map = plan.source_map
    markers = parse_markers(text)
    check = check_labels(markers, source_map.keys())
    citations: dict[str, Citation] = {}
    spans: list[dict[str, Any]] = []
    claims = citing_claims(text)
    for m in markers:
        claim = claims.get(m.start, "")
        for lab in m.labels:
            if lab not in source_map:
                continue
            s = source_map[lab]
            cited = cited_span(claim, s)
            place = s.location_of(cited)
            section = s.section_of(cited)  # the cited sentence's own section (a merged source spans several)
            chunk = s.chunk_of(cited)  # ... and its own chunk
            spans.append({"label": lab, "cited_text": cited, "location": place.as_dict() if place else {},
                          "source_label": source_label(s.title, place), "section": section, "chunk_id": chunk})
            if lab not in citations:
                citations[lab] = Citation(label=lab, chunk_id=chunk, title=s.title, section=section,
                                          version=s.version, date=s.date, cited_text=cited, location=place)
    # the Markdown every door returns (ask --json, the API, the stored message) carries no raw HTML from a quoted
    # source or a model: it is escaped here, once, after citations were resolved on the text as produced
    text = escape_raw_html(text)
    return VerifiedAnswer(text=text, abstained=abstained, citations=tuple(citations.values()), invalid=check.invalid,
                          html=render_html(text, set(source_map)), spans=tuple(spans))


class AbstainFilter:
    """Holds the start of a streamed answer while it may still be the abstention token: an answer that opens with
    ABSTAIN_TOKEN is not streamed as it arrives (the reader gets the abstention message as one delta once the answer
    is verified, chat.streaming.AnswerStream, never the internal token); any other answer passes unchanged once its
    first characters differ from the token."""

    def __init__(self) -> None:
        self.head = ""
        self.state = "undecided"  # then "answer" or "abstain"

    def feed(self, piece: str) -> str:
        """Visible text of ``piece`` (characters). In an answer, a later token ("... [S1]. INSUFFICIENT_EVIDENCE") is
        dropped too (grounding.providers.LATE_ABSTAIN_TOKEN): the end of a piece that may begin it is held."""
        if self.state == "answer":
            return self._later(piece)
        if self.state == "abstain":
            return ""
        self.head += piece
        lead = self.head.lstrip(" *_`#>\n").upper()
        if lead.startswith(ABSTAIN_TOKEN):
            self.state, self.head = "abstain", ""
            return ""
        if ABSTAIN_TOKEN.startswith(lead):  # may still become the token
            return ""
        self.state = "answer"
        out, self.head = self.head, ""
        return self._later(out)

    def _later(self, piece: str) -> str:
        """``piece`` after what was held, without the token, less a tail that may be its beginning (held)."""
        text = LATE_ABSTAIN_TOKEN.sub("", self.head + piece)
        upper = text.upper()
        hold = next((n for n in range(min(len(text), len(ABSTAIN_TOKEN) + 2), 0, -1)
                     if ABSTAIN_TOKEN.startswith(upper[len(text) - n:].lstrip(" \t"))
                     and upper[len(text) - n:].strip()), 0)
        self.head = text[len(text) - hold:] if hold else ""
        return text[:len(text) - hold]

    def close(self) -> str:
        """What is held at the end (an answer that was a bare beginning of the token, e.g. "INSUFF")."""
        out, self.head = self.head, ""
        return out if self.state in ("undecided", "answer") else ""


class QuoteFilter:
    """Hides a quote-then-answer scratch block while streaming: text from "<quotes>" up to "</quotes>" is held and
    dropped, the rest passes. Text before the block passes as it comes; an unfinished opening tag is held."""

    OPEN, CLOSE = "<quotes>", "</quotes>"

    def __init__(self) -> None:
        self.buffer = ""
        self.inside = False

    def feed(self, piece: str) -> str:
        """Visible text of ``piece`` (characters)."""
        self.buffer += piece
        out = []
        while self.buffer:
            if self.inside:
                end = self.buffer.find(self.CLOSE)
                if end < 0:
                    self.buffer = self.buffer[-len(self.CLOSE):]  # keep only what may start the closing tag
                    break
                self.buffer = self.buffer[end + len(self.CLOSE):].lstrip()
                self.inside = False
                continue
            start = self.buffer.find(self.OPEN)
            if start >= 0:
                out.append(self.buffer[:start])
                self.buffer = self.buffer[start + len(self.OPEN):]
                self.inside = True
                continue
            keep = next((k for k in range(min(len(self.OPEN) - 1, len(self.buffer)), 0, -1)
                         if self.OPEN.startswith(self.buffer[-k:])), 0)
            out.append(self.buffer[:len(self.buffer) - keep])
            self.buffer = self.buffer[len(self.buffer) - keep:]
            break
        return "".join(out)

    def close(self) -> str:
        rest, self.buffer = ("" if self.inside else self.buffer), ""
        return rest
