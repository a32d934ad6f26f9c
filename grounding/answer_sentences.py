"""The sentences of an answer, as the support check and the answer rendering see them.

Owns: splitting an answer into sentences with the citation markers each one owns (``sentence_spans``, pysbd on the
text with its markers blanked), removing list/heading markup and emphasis from a sentence (``plain_sentence``), and
deciding which sentences make a claim at all (``is_factual``: headings, lead-ins, questions and "the documents do
not say" hedges make none). Used by grounding.support, grounding.answer and evaluation.golden_run.

Pure Python; no Django.
"""

from __future__ import annotations

import re

from grounding.chunking import split_sentences
from grounding.citation_strip import strip_markers
from grounding.citations import Marker, parse_markers
from grounding.support_values import sentence_values

__all__ = ["answer_sentences", "is_factual", "plain_sentence", "sentence_spans"]

_LEADING_MARKUP = re.compile(r"^\s*(?:#{1,6}|>+|[-*+•]|\d{1,3}[.)])(?=\s|$)\s*")
_EMPHASIS = re.compile(r"\*\*|__|`")
_HEDGES = re.compile(
    r"^(?:the |these |this |your )?(?:provided |available |cited |given |retrieved )?"
    r"(?:documents?|sources?|passages?|context|excerpts?|materials?|texts?)\b[^.]*?"
    r"\b(?:do not|does not|did not|don't|doesn't|didn't|never|not)\b[^.]*?"
    r"\b(?:say|says|mention|state|specify|cover|contain|include|address|provide|describe|discuss|explain"
    r"|indicate|give|list|define)"
    r"|^I (?:could not|couldn't|cannot|can't|did not|didn't|do not|don't|was unable to|am unable to|am not able to)"
    r" (?:find|locate|determine|tell|see|know|confirm|answer)"
    r"|^(?:there is|there's|I found) no (?:information|mention|details?|data|guidance|indication)"
    r"|^(?:it is|it's) (?:not clear|unclear) (?:from|in|whether)"
    r"|\bnot (?:mentioned|stated|specified|covered|included|addressed|described|given) in (?:the|any|these|your)"
    r" (?:provided |available |cited )?(?:documents?|sources?|passages?|context|excerpts?)",
    re.I)
_WORD = re.compile(r"\w")


def plain_sentence(sentence: str) -> str:
    """A sentence without leading list/heading/quote markup and emphasis marks (for grading and embedding)."""
    return _EMPHASIS.sub("", _LEADING_MARKUP.sub("", sentence)).strip()


def is_factual(sentence: str, *, cited: bool = False) -> bool:
    """True unless a sentence is trivially non-factual.

    Non-factual: a Markdown heading line; a fragment under 4 words that states no value and cites nothing
    ("Summary", "1.", "Yes."; a cited one, "Travel is covered [S3].", is a claim); a line ending with ":" that is
    under 4 words or states no value (a heading or a lead-in to a list, "Options include:", whose items carry the
    claims and citations); a question; a hedge that the documents are silent ("The documents do not say ...", "I
    could not find ...", "There is no information ...", "... is not mentioned in the sources").

    Args:
        sentence: one sentence, citation markers already removed.
        cited: whether the sentence carried a citation marker (valid or not).
    """
    if sentence.lstrip().startswith("#"):
        return False
    plain = plain_sentence(sentence)
    words = [w for w in plain.split() if _WORD.search(w)]
    if not words:
        return False
    if plain.endswith(":") and (len(words) < 4 or not sentence_values(plain)):
        return False  # a heading or a lead-in to a list ("Options include:"): the items carry the claims
    if len(words) < 4 and not sentence_values(plain) and not cited:
        return False
    if plain.rstrip(" \"'”’)*_").endswith("?"):
        return False
    return not _HEDGES.search(plain)


def _blank_markers(text: str, markers: list[Marker]) -> str:
    """``text`` with every marker replaced by spaces of the same length (offsets unchanged)."""
    chars = list(text)
    for m in markers:
        chars[m.start:m.end] = " " * (m.end - m.start)
    return "".join(chars)


def sentence_spans(text: str, markers: list[Marker] | None = None) -> list[tuple[int, int, list[Marker]]]:
    """The sentences of an answer as (start, end, the markers it owns), offsets in characters of ``text``; the span
    runs to the end of its last marker when a marker follows the sentence's final punctuation.

    Sentences are found with pysbd on the text with markers blanked out (markers such as "5. [S1]" otherwise
    confuse it). A marker belongs to the sentence it follows, also when it sits after the final punctuation
    ("X is 5. [S1]") or after an ellipsis the splitter cut ("... determined .. [S2]."); markers before the first
    sentence belong to the first one. A piece of punctuation and markers only is the end of the sentence before it.
    ``markers`` are ``parse_markers(text)`` when the caller has them already.
    """
    if markers is None:
        markers = parse_markers(text)
    blanked = _blank_markers(text, markers)
    spans: list[tuple[int, int]] = []
    pos = 0
    for piece in split_sentences(blanked):
        start = blanked.find(piece, pos)
        if start < 0:  # pysbd changed the text: keep the piece's position unknown and move on
            continue
        spans.append((start, start + len(piece)))
        pos = start + len(piece)
    if not spans:
        return []
    owned: list[list[Marker]] = [[] for _ in spans]
    k = 0
    for m in markers:
        while k + 1 < len(spans) and spans[k + 1][0] <= m.start:
            k += 1
        owned[k].append(m)
    out: list[tuple[int, int, list[Marker]]] = []
    for (start, end), mine in zip(spans, owned):
        end = max(end, mine[-1].end if mine else end)
        if out and not any(ch.isalnum() for ch in strip_markers(text, markers, start=start, end=end)):
            # only punctuation around markers (pysbd cut "determined .. [S2]." after the first "."): it is the end
            # of the sentence before, and its markers cite that sentence
            out[-1] = (out[-1][0], end, out[-1][2] + mine)
            continue
        out.append((start, end, mine))
    return out


def answer_sentences(text: str) -> list[tuple[str, list[Marker]]]:
    """Split an answer into (sentence text with its markers removed, the markers it owns); see sentence_spans."""
    markers = parse_markers(text)
    return [(strip_markers(text, markers, start=start, end=end).strip(), mine)
            for start, end, mine in sentence_spans(text, markers)]

