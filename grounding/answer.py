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
from grounding.citations import check_labels, parse_markers, strip_markers
from grounding.lexical import content_terms
from grounding.providers import is_abstention
from grounding.support import sentence_spans
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


def citing_claims(text: str) -> dict[int, str]:
    """The claim each citation marker of an answer closes, keyed by the marker's start offset (characters).

    The claim is the answer text from the sentence's start, or from the previous marker of the same sentence, up to
    the marker: "Meals are $65 [S1] and hotels $200 [S2]." gives S1 "Meals are $65" and S2 "and hotels $200".
    Markers right after one another ("[S1][S2]", "[S1] [S2]") close the same claim; a marker with no text of its own
    before it (at the start of a sentence, or after a closed claim) cites its whole sentence. Sentences come from
    grounding.support.sentence_spans (pysbd: "i.e.", "e.g." and decimals do not end a sentence; a marker after the
    full stop or after a cut ellipsis belongs to the sentence before it), so highlighting and the support check read
    an answer the same way. One sentence split per answer: linear in the number of markers.
    """
    claims: dict[int, str] = {}
    for start, end, owned in sentence_spans(text):
        whole = strip_markers(text[start:end]).strip()
        cursor = start  # where the current claim begins
        for k, m in enumerate(owned):
            if k == 0 or text[owned[k - 1].end:m.start].strip():
                # a new run of adjacent markers: its claim is the text since the previous run (or the sentence start)
                claim = strip_markers(text[cursor:m.start]).strip()
            cursor = m.end  # a marker adjacent to the previous one closes the same claim
            claims[m.start] = claim if any(ch.isalnum() for ch in claim) else whole
    return claims


def cited_span(claim: str, source: Source) -> str:
    """The sentence of ``source`` that best matches ``claim`` by shared content terms (Jaccard; the first on ties);
    "" when no sentence shares two content words with the claim (one, for a claim of one content word): a single
    shared word such as "day" says nothing about the claim, and a wrong highlight misleads more than none."""
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
    return best if len(terms & content_terms(best)) >= min(2, len(terms)) else ""


_OPEN_MARK, _CLOSE_MARK = "\ue000", "\ue001"  # private-use characters standing for markers while Markdown renders
_PLACEHOLDER = re.compile(_OPEN_MARK + r"(\d+)" + _CLOSE_MARK)


def render_html(text: str, known: set[str]) -> str:
    """Markdown -> HTML with [S#] markers turned into chips for known labels; unknown labels stay plain text.

    Chips are numbered (``data-span``) in the order of the markers in ``text``, one per known label, the order of
    finalize_answer's ``spans``: markers are swapped for placeholders before Markdown renders, so a marker that
    Markdown swallows (a reference-link definition "[S2]: url") or moves into an attribute (a link title, an image's
    alt text: shown as text there) does not shift the numbers of the chips after it, and a bracket written as an
    HTML entity never becomes a chip. The result is sanitised with nh3: model-supplied HTML or script is inert text.
    """
    text = text.replace(_OPEN_MARK, "").replace(_CLOSE_MARK, "")
    markers = parse_markers(text)
    first_span, count = [], 0
    held, pos = [], 0
    for k, m in enumerate(markers):
        first_span.append(count)
        count += sum(lab in known for lab in m.labels)
        held += [text[pos:m.start], f"{_OPEN_MARK}{k}{_CLOSE_MARK}"]
        pos = m.end
    rendered = _md.render("".join(held) + text[pos:])
    out, pos = [], 0
    for ph in _PLACEHOLDER.finditer(rendered):
        k = int(ph.group(1))
        m = markers[k]
        out.append(rendered[pos:ph.start()])
        pos = ph.end()
        if rendered.rfind("<", 0, ph.start()) > rendered.rfind(">", 0, ph.start()):  # inside a tag's attribute
            out.append(html.escape(m.raw))
            continue
        good = [lab for lab in m.labels if lab in known]
        bad = [lab for lab in m.labels if lab not in known]
        for j, lab in enumerate(good):
            out.append(f'<button type="button" class="cite" data-label="{lab}" data-span="{first_span[k] + j}" '
                       f'aria-label="Show source {lab}">{lab}</button>')
        if bad:
            out.append(f'<span class="cite-invalid" title="Not a source of this answer">'
                       f'{html.escape(m.raw if not good else "[" + ", ".join(bad) + "]")}</span>')
    out.append(rendered[pos:])
    return nh3.clean("".join(out), tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRS, link_rel=None)


#: Quote-then-answer scratch work: a closed <quotes> block anywhere, or an unclosed one that opens the answer (the
#: stream ended inside it). A stray "<quotes>" later in an answer is text and is kept.
_QUOTES = re.compile(r"<quotes>.*?</quotes>\s*|\A\s*<quotes>.*\Z", re.S | re.I)


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
    claims = citing_claims(text)
    for m in markers:
        claim = claims.get(m.start, "")
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



class AbstainFilter:
    """Holds the start of a streamed answer while it may still be the abstention token: an answer that opens with
    ABSTAIN_TOKEN is not streamed at all (the reader sees the abstention message of the final ``done`` frame, never
    the internal token); any other answer passes unchanged once its first characters differ from the token."""

    def __init__(self) -> None:
        self.head = ""
        self.state = "undecided"  # then "answer" or "abstain"

    def feed(self, piece: str) -> str:
        """Visible text of ``piece`` (characters)."""
        if self.state == "answer":
            return piece
        if self.state == "abstain":
            return ""
        self.head += piece
        lead = self.head.lstrip(" *_`#>\n")
        if lead.startswith(ABSTAIN_TOKEN):
            self.state, self.head = "abstain", ""
            return ""
        if ABSTAIN_TOKEN.startswith(lead):  # may still become the token
            return ""
        self.state = "answer"
        out, self.head = self.head, ""
        return out

    def close(self) -> str:
        """What is held at the end (an answer that was a bare beginning of the token, e.g. "INSUFF")."""
        out, self.head = self.head, ""
        return out if self.state == "undecided" else ""


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
