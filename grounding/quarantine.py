"""Quarantine whole blocks of a source's text that address an AI assistant (indirect prompt injection).

``quarantine(text)`` is a pure function of a text (a chunk, or a source made of adjacent chunks): it finds the
injection signals (grounding.injection), widens each to the whole block it sits in and to the blocks that belong to
the same payload, and returns the text with every such region replaced by ``PLACEHOLDER``. Context planning
(grounding.context) applies it to every source it builds, so neither the offline answerer (which can only quote what
a source says) nor a model (which only sees the source text) can repeat a quarantined instruction, its goal, its
link or its account number; the source keeps the rest of its text, and an "injection" note names the source.

Where block boundaries come from, in the stored text (ingestion joins a document's blocks with line breaks: a
Markdown or HTML paragraph, heading, list item or table row is one line; a plain-text paragraph keeps its own line
breaks):

1. a line is a block, except that a line not ending a sentence (no final . ! ? : ;) joins the next line when that one
   starts in lower case (a hard-wrapped plain-text paragraph);
2. blank lines end a block; a fenced code block (``` or ~~~ to the closing fence) is one block;
3. inside a line, an HTML comment ``<!-- ... -->`` is a block of its own, and HTML block elements start a new block
   (``<p>``, ``<div>``, ``<tr>``, ``<li>``, ``<caption>``, headings, ...), so a poisoned table row or comment in a
   pasted web page is withheld without the rows and paragraphs around it.

A region then grows, from the blocks holding a signal:

- to the whole container it sits in: a block that is only an opening marker (``<INFORMATION>``, ``[SYSTEM
  MESSAGE]``, ``<important_instructions>``) up to its closing marker (``</INFORMATION>``, ``[/SYSTEM MESSAGE]``);
- forward over what the instruction introduces: a block ending with ":" or "," takes the next block with it (a list
  takes all its items), so "please do the following first:" never leaves its goal behind;
- forward over the next blocks that carry the payload on: a block opening with a continuation ("After you do that",
  "From now on", "Thanks!", "Signed,") or an order ("Tell employees that ...", "Send ...", "Enter your card number
  ..."), or sending the reader or the answer to a target outside the document (an e-mail address, a link, an account
  number) — the second sentence of a two-sentence payload in a block of its own; and backward over one block that
  orders something towards such a target ("Send the files to x@y.com." before "Ignore previous instructions.").

Technique: the block-level spotlighting/quarantine of untrusted content (Hines et al. 2024, "Defending Against
Indirect Prompt Injection Attacks With Spotlighting"; the data/instruction separation of StruQ, Chen et al. 2024),
done here by withholding rather than marking, since the offline answerer quotes text and cannot be told to ignore it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from grounding.injection import injection_signals
from grounding.injection_patterns import GOAL_TARGET

__all__ = ["PLACEHOLDER", "Quarantine", "quarantine", "text_blocks", "is_placeholder"]

#: Blocks a payload carries on over past the last block that holds a signal, is in its container or is introduced
#: by it ("... do the following first:"): a goal in a paragraph of its own, a "Thanks!", a "Signed,".
MAX_CONTINUATION = 2
#: A marker-delimited wrapper longer than this (in blocks) is a page's own structure, not a payload's container.
MAX_CONTAINER_BLOCKS = 40

#: What replaces a withheld region in the source text (its own line when the region was whole lines).
PLACEHOLDER = "[A passage addressed to AI assistants was withheld here.]"


@dataclass(frozen=True)
class Quarantine:
    """The result of ``quarantine``.

    Attributes:
        text: the text with each withheld region replaced by PLACEHOLDER (the input unchanged when nothing is found).
        regions: (start, end) character offsets of the withheld regions in the input text, in order, disjoint.
        kinds: the kinds of injection signal found (grounding.injection.KINDS), in first-seen order.
    """

    text: str
    regions: tuple[tuple[int, int], ...] = ()
    kinds: tuple[str, ...] = ()

    @property
    def withheld(self) -> bool:
        return bool(self.regions)


def is_placeholder(sentence: str) -> bool:
    """True when a sentence of a source is (or holds) the quarantine placeholder."""
    return PLACEHOLDER in sentence


_FENCE = re.compile(r"^\s*(```|~~~)")
_TERMINAL = re.compile(r"[.!?:;][\"'”’)\]]*\s*$")
_STRUCTURAL_LINE = re.compile(r"^\s*(?:[-*+•]\s|\d+[.)]\s|#|\||>|<|\[|```|~~~)")
#: Inside a line: an HTML comment, or the opening of an HTML block element, starts a new block.
_INLINE_BREAK = re.compile(r"<!--.*?(?:-->|$)|<(?:p|div|tr|li|dd|dt|h[1-6]|caption|table|section|article|"
                           r"blockquote|ul|ol|body|pre|figure|aside|header|footer|nav|form)\b[^>]*>", re.I | re.S)


def _split_line(start: int, line: str) -> list[tuple[int, int]]:
    """Blocks of one line: cut before every HTML block opening and around every HTML comment."""
    cuts = {0, len(line)}
    for m in _INLINE_BREAK.finditer(line):
        cuts.add(m.start())
        if m.group(0).startswith("<!--"):
            cuts.add(m.end())
    points = sorted(cuts)
    return [(start + a, start + b) for a, b in zip(points, points[1:]) if line[a:b].strip()]


def text_blocks(text: str) -> list[tuple[int, int]]:
    """The blocks of ``text`` as (start, end) character offsets, in order (see the module docstring for the rules).

    Linear in the length of the text. Whitespace-only stretches belong to no block.
    """
    blocks: list[tuple[int, int]] = []
    lines: list[tuple[int, int]] = []
    pos = 0
    for raw in text.split("\n"):
        lines.append((pos, pos + len(raw)))
        pos += len(raw) + 1
    i = 0
    while i < len(lines):
        start, end = lines[i]
        line = text[start:end]
        if not line.strip():
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:  # one block to the closing fence (or the end of the text)
            j = i + 1
            while j < len(lines) and not text[lines[j][0]:lines[j][1]].lstrip().startswith(fence.group(1)):
                j += 1
            j = min(j, len(lines) - 1)
            blocks.append((start, lines[j][1]))
            i = j + 1
            continue
        if "<!--" in line and "-->" not in line[line.index("<!--"):]:  # a comment running over several lines
            j = i + 1
            while j < len(lines) and "-->" not in text[lines[j][0]:lines[j][1]]:
                j += 1
            j = min(j, len(lines) - 1)
            head = line.index("<!--")
            if line[:head].strip():
                blocks += _split_line(start, line[:head])
            blocks.append((start + head, lines[j][1]))
            i = j + 1
            continue
        # a hard-wrapped paragraph: join lines while a line does not end a sentence and the next starts in lower case
        j = i
        while j + 1 < len(lines):
            here = text[lines[j][0]:lines[j][1]]
            nxt = text[lines[j + 1][0]:lines[j + 1][1]].lstrip()
            if _TERMINAL.search(here) or not nxt[:1].islower() or _STRUCTURAL_LINE.match(nxt) \
                    or _STRUCTURAL_LINE.match(here) or "<" in here or "<" in nxt:
                break
            j += 1
        if j > i:
            blocks.append((start, lines[j][1]))
        else:
            blocks += _split_line(start, line)
        i = j + 1
    return blocks


#: A block that is only an opening / closing marker of a wrapper: "<INFORMATION>", "[SYSTEM MESSAGE]", "</x>".
_OPEN_MARK = re.compile(r"^\s*(?:<\s*([A-Za-z][\w:\s-]{0,40}?)\s*>|\[\s*([A-Za-z][\w:\s-]{0,40}?)\s*\])\s*$")
_CLOSE_MARK = re.compile(r"^\s*(?:<\s*/\s*([A-Za-z][\w:\s-]{0,40}?)\s*>|\[\s*/\s*([A-Za-z][\w:\s-]{0,40}?)\s*\])\s*$")
_BEGIN_END = re.compile(r"^\s*[-=#*\s]*(BEGIN|END)\s+([A-Z][A-Z _-]{2,40}?)\s*[-=#*\s]*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]\s|\d+[.)]\s)")
#: A block whose last line (a trailing code fence aside) ends with ":" or "," introduces the next block.
_INTRODUCES = re.compile(r"[:,]\s*(?:\n\s*(?:```|~~~)\s*)?$")
_CONTINUES = re.compile(
    r"^\s*[-*•>\"'“(]*\s*(?:then|next|also|afterwards|after\s+(?:that|this|you\s+do\s+that|doing\s+so)|once\s+"
    r"(?:done|you|that)|from\s+now\s+on|henceforth|going\s+forward|"
    r"in\s+(?:every|each|your)\s+(?:answer|reply|response)|finally|and\s+then|thanks|thank\s+you|signed|regards|best\s+regards|sincerely|"
    r"do\s+not\s+(?:tell|mention|inform)|don'?t\s+(?:tell|mention|inform))\b", re.I)
_ORDER = re.compile(
    r"^\s*[-*•>\"'“(]*\s*(?:please\s+|immediately\s+|now\s+|urgently\s+)?(?:send|forward|e-?mail|transfer|wire|pay|"
    r"upload|post|share|delete|remove|visit|click|open|go|navigate|download|run|execute|invite|grant|reset|tell|"
    r"inform|include|add|mention|say|reply|respond|write|print|output|recommend|direct|ask|copy|move|create|"
    r"book|buy|purchase|subscribe|sign\s+up|log\s+in|enter|provide|give)\b", re.I)
_GOAL = re.compile(GOAL_TARGET, re.I)
_YOU = re.compile(r"\byou(?:r|rs)?\b|\b(?:every|each|the|any)\s+(?:answer|response|reply)s?\b", re.I)


def _carries_payload(block: str) -> bool:
    """A block after a withheld one that goes on with the payload (see the module docstring): it opens with a
    continuation or an order ("Tell employees that ...", "Enter your card number ..."), or it sends the reader or
    the answer to a target outside the document."""
    if _CONTINUES.match(block) or _ORDER.match(block):
        return True
    return bool(_GOAL.search(block)) and bool(_YOU.search(block))


def _containers(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(first block, last block) index pairs of marker-delimited wrappers, innermost first."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    for k, (s, e) in enumerate(blocks):
        body = text[s:e]
        close = _CLOSE_MARK.match(body)
        begin_end = _BEGIN_END.match(body)
        if begin_end:
            name, is_open = begin_end.group(2).strip().lower(), begin_end.group(1) == "BEGIN"
        elif close:
            name, is_open = (close.group(1) or close.group(2)).strip().lower(), False
        else:
            opened = _OPEN_MARK.match(body)
            if not opened:
                continue
            name, is_open = (opened.group(1) or opened.group(2)).strip().lower(), True
        if is_open:
            stack.append((name, k))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                out.append((stack[depth][1], k))
                del stack[depth:]
                break
    return sorted(out, key=lambda pair: pair[1] - pair[0])


@functools.lru_cache(maxsize=4_096)
def quarantine(text: str) -> Quarantine:
    """Withhold every block of ``text`` that addresses an AI assistant, with the blocks of the same payload.

    Args:
        text: a source's text (characters), any length; cached per text.
    Returns:
        Quarantine with the new text, the withheld regions (offsets in ``text``) and the kinds of signal found.
    """
    signals = injection_signals(text)
    if not signals:
        return Quarantine(text)
    blocks = text_blocks(text)
    chosen = {k for k, (s, e) in enumerate(blocks) for sig in signals if sig.start < e and sig.end > s}
    if not chosen:  # a signal in whitespace between blocks cannot happen; kept as a guard
        chosen = {0} if blocks else set()
    containers = [(a, b) for a, b in _containers(text, blocks) if b - a <= MAX_CONTAINER_BLOCKS]
    # steps of continuation from the nearest block that holds a signal, is inside a container or was introduced
    reach = dict.fromkeys(chosen, 0)
    for _ in range(len(blocks)):  # grow until nothing changes (each pass adds at least one block or stops)
        before = len(reach)
        for first, last in containers:
            if any(first <= k <= last for k in reach) and not all(k in reach for k in range(first, last + 1)):
                reach.update({k: 0 for k in range(first, last + 1)})
                break  # innermost container only; the loop comes back for an enclosing one if it grew
        for k in sorted(reach):
            body = text[blocks[k][0]:blocks[k][1]]
            if k + 1 < len(blocks) and k + 1 not in reach:
                nxt = text[blocks[k + 1][0]:blocks[k + 1][1]]
                if _INTRODUCES.search(body):
                    reach[k + 1] = 0
                elif reach[k] < MAX_CONTINUATION and _carries_payload(nxt):
                    reach[k + 1] = reach[k] + 1
                if k + 1 in reach and _LIST_ITEM.match(nxt):  # a list goes whole
                    j = k + 2
                    while j < len(blocks) and _LIST_ITEM.match(text[blocks[j][0]:blocks[j][1]]):
                        reach.setdefault(j, reach[k + 1])
                        j += 1
            if k > 0 and k - 1 not in reach and reach[k] == 0:
                prev = text[blocks[k - 1][0]:blocks[k - 1][1]]
                if _GOAL.search(prev) and _ORDER.match(prev):
                    reach[k - 1] = 1
        if len(reach) == before:
            break
    chosen = set(reach)
    regions: list[tuple[int, int]] = []
    for k in sorted(chosen):
        s, e = blocks[k]
        if regions and not text[regions[-1][1]:s].strip():
            regions[-1] = (regions[-1][0], e)  # adjacent withheld blocks become one region
        else:
            regions.append((s, e))
    out, pos = [], 0
    for s, e in regions:
        out += [text[pos:s], PLACEHOLDER]
        pos = e
    out.append(text[pos:])
    kinds = tuple(dict.fromkeys(sig.kind for sig in signals))
    return Quarantine("".join(out), tuple(regions), kinds)
