"""Finalize an answer: resolve its citations through the source map, find the cited spans, render safe HTML.

The application owns what the reader sees about a source: chips are built from the source map, never from model
text; unknown labels stay plain text (C08); model text is rendered as Markdown with raw HTML disabled and then
sanitised with nh3, so only our own markup survives.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

import nh3
from markdown_it import MarkdownIt

from grounding.chunking import split_sentences
from grounding.citations import Marker, check_labels, parse_markers, strip_markers
from grounding.providers import content_terms, is_abstention
from grounding.prompt import ABSTAIN_TOKEN
from grounding.types import Citation, ContextPlan, Source

ABSTAIN_MESSAGE = "I could not find the answer to this question in the documents."

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "pre", "br", "blockquote", "button", "span",
                 "table", "thead", "tbody", "tr", "th", "td", "h3", "h4"}
_ALLOWED_ATTRS = {"button": {"class", "type", "data-label", "data-span", "aria-label", "title"},
                  "span": {"class", "title", "data-label"}}


@dataclass(frozen=True)
class VerifiedAnswer:
    """The final answer of one turn.

    Attributes:
        text: answer text as produced (abstentions are replaced by ABSTAIN_MESSAGE plus the model's reason).
        abstained: True when the answer says the documents do not hold the answer.
        citations: one resolved citation per distinct valid label, in first-cited order.
        invalid: labels that did not resolve (reported, rendered as plain text).
        html: sanitised HTML with citation chips; chip k carries data-span="k".
        spans: one entry per valid citation occurrence, in text order: {"label", "cited_text"}, so each chip
            highlights the sentence its own claim relies on.
        support: the per-sentence support check (grounding.support.SupportReport.as_dict()), {} until checked.
    """

    text: str
    abstained: bool
    citations: tuple[Citation, ...] = ()
    invalid: tuple[str, ...] = ()
    html: str = ""
    spans: tuple[dict[str, str], ...] = ()
    support: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"answer": self.text, "abstained": self.abstained,
                "citations": [c.as_dict() for c in self.citations], "invalid_citations": list(self.invalid)}


def _citing_sentence(text: str, marker: Marker) -> str:
    """The sentence a marker belongs to: text since the previous sentence end or marker, up to the marker.

    Markers right after one another ("... 36 months [S1][S2].", "... [S1] [S3]") all cite the sentence before the
    first of them, and a marker placed after the sentence's full stop ("... 36 months. [S1]") cites that sentence.
    """
    start = marker.start
    for previous in reversed([m for m in parse_markers(text[:start])]):
        if text[previous.end:start].strip():
            break
        start = previous.start  # adjacent: share the claim before it
    before = text[:start].rstrip()
    cut = max(before.rfind(". "), before.rfind("? "), before.rfind("! "), before.rfind("\n"), before.rfind("]"))
    return strip_markers(before[cut + 1:]).strip()


def cited_span(claim: str, source: Source) -> str:
    """The sentence of ``source`` that best matches ``claim`` by shared content terms (the first on ties); "" when
    no sentence shares a content word with the claim."""
    sentences = [s.lstrip("-* ").strip() for s in split_sentences(source.text)]
    sentences = [s for s in sentences if s]
    if not sentences:
        return source.text
    terms = content_terms(claim)
    if not terms:
        return ""

    def overlap(s: str) -> float:
        t = content_terms(s)
        return len(terms & t) / (len(terms | t) or 1)

    best = max(sentences, key=overlap)
    return best if overlap(best) > 0 else ""  # nothing in common: highlight nothing rather than a wrong sentence


def render_html(text: str, known: set[str]) -> str:
    """Markdown -> HTML with [S#] markers turned into chips for known labels; unknown labels stay plain text.

    The result is sanitised with nh3: model-supplied HTML or script is inert text.
    """
    rendered = _md.render(text)
    out, pos, span = [], 0, 0
    for m in parse_markers(rendered):
        out.append(rendered[pos:m.start])
        good = [lab for lab in m.labels if lab in known]
        bad = [lab for lab in m.labels if lab not in known]
        for lab in good:
            out.append(f'<button type="button" class="cite" data-label="{lab}" data-span="{span}" '
                       f'aria-label="Show source {lab}">{lab}</button>')
            span += 1
        if bad:
            out.append(f'<span class="cite-invalid" title="Not a source of this answer">'
                       f'{html.escape(m.raw if not good else "[" + ", ".join(bad) + "]")}</span>')
        pos = m.end
    out.append(rendered[pos:])
    return nh3.clean("".join(out), tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRS, link_rel=None)


_QUOTES = re.compile(r"<quotes>.*?(?:</quotes>|$)\s*", re.S | re.I)


def finalize_answer(text: str, plan: ContextPlan) -> VerifiedAnswer:
    """Resolve citations of a complete answer text against the plan's source map.

    Every label resolves through ``plan.source_map`` only (C07); with no sources every citation is invalid (C16).
    In quote-then-answer mode the leading <quotes> block is the model's scratch work and is not shown.
    """
    text = _QUOTES.sub("", text)
    abstained = is_abstention(text) or not plan.sufficient
    if abstained:
        reason = text.strip()
        if reason.startswith(ABSTAIN_TOKEN):
            reason = reason[len(ABSTAIN_TOKEN):].lstrip(" :.-\n")
            reason = reason[:1].upper() + reason[1:]
        reason = strip_markers(reason)
        shown = ABSTAIN_MESSAGE if not reason or not plan.sufficient else f"{ABSTAIN_MESSAGE} {reason}"
        if not plan.sufficient and text.strip() and not is_abstention(text):
            shown = ABSTAIN_MESSAGE
        markers = parse_markers(text)
        check = check_labels(markers, plan.source_map.keys() if plan.sufficient else ())
        return VerifiedAnswer(text=shown, abstained=True, invalid=check.invalid,
                              html=render_html(shown, set()))
    source_map = plan.source_map
    markers = parse_markers(text)
    check = check_labels(markers, source_map.keys())
    citations: dict[str, Citation] = {}
    spans: list[dict[str, str]] = []
    for m in markers:
        claim = _citing_sentence(text, m)
        for lab in m.labels:
            if lab not in source_map:
                continue
            s = source_map[lab]
            cited = cited_span(claim, s)
            spans.append({"label": lab, "cited_text": cited})
            if lab not in citations:
                citations[lab] = Citation(label=lab, chunk_id=s.chunk_id, title=s.title, section=s.section,
                                          version=s.version, date=s.date, cited_text=cited)
    return VerifiedAnswer(text=text, abstained=False, citations=tuple(citations.values()), invalid=check.invalid,
                          html=render_html(text, set(source_map)), spans=tuple(spans))



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
