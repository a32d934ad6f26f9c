"""The embedding model's input limit and the chunks it reads whole (B13).

The embedding model reads its input in its own tokens and truncates past its maximum sequence length (256 wordpieces
for all-MiniLM-L6-v2, [CLS] and [SEP] included), and cl100k counts are no guide to that: 15% of the 18F handbook's
chunks of at most 320 cl100k tokens ran past it. Given the embedder's :class:`InputLimit`, every chunk whose embedded
text (the title and section path put before it, and its text) is longer is split again, at line and sentence
boundaries (pysbd; a sentence longer than the limit at word boundaries), into near-equal parts that the embedder
sees whole. No Django imports.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Sequence, TypeVar

from grounding.location import merge_locations
from grounding.sentences import split_sentences
from grounding.tokens import TokenCounter

#: A chunk draft (grounding.chunking.ChunkDraft): section, text, tokens, location, parts.
Draft = TypeVar("Draft")


@dataclass(frozen=True)
class InputLimit:
    """How much text an embedding model sees, in its own tokens: what the chunker needs so it sees every chunk whole.

    Attributes:
        max_tokens: the longest input the model embeds whole, in its own tokens, special tokens excluded
            (grounding.embeddings.MiniLMEmbedder.max_tokens: max_seq_length minus [CLS] and [SEP]).
        count: the model's own token count of each text, special tokens excluded (list of texts in, list out).
        prefix: the text embedded before a chunk's text, given the chunk's section path (the title and section
            that grounding.retrieve.index_text puts first); "" when only the chunk's text is embedded.
    """

    max_tokens: int
    count: Callable[[list[str]], list[int]]
    prefix: Callable[[tuple[str, ...]], str] = lambda section: ""


def fit_to_limit(chunks: Sequence[Draft], counter: TokenCounter, limit: InputLimit) -> list[Draft]:
    """Split every chunk whose embedded text is longer than the embedder's input length (B13).

    A chunk over the limit is cut into the fewest near-equal parts that fit (k = ceil(its tokens / room), room being
    limit.max_tokens less its prefix's tokens), at line and sentence boundaries, a sentence longer than the room at
    word boundaries; each part keeps the chunk's section path and the location of the text it holds (the blocks'
    places its characters fall in: a part of a chunk over pages 4 and 5 may be on page 5 only), and a part that
    starts inside a Markdown table starts with that table's header lines, so that it stays a table of its own. Counts are the model's own (limit.count), and
    whitespace-separated pieces count additively in a WordPiece tokenizer; each part is counted again as embedded
    and cut once more if a tokenizer counts it longer. Chunks within the limit are returned unchanged.

    Raises:
        ValueError: when a prefix alone leaves no room for text.
    """
    counts = limit.count([limit.prefix(c.section) + c.text for c in chunks])
    out: list[Draft] = []
    for chunk, n in zip(chunks, counts):
        if n <= limit.max_tokens:
            out.append(chunk)
            continue
        headers = _table_headers(chunk.text)  # a part inside a table starts with that table's header lines
        widest = max((limit.count([h + "\n"])[0] for _, h in headers), default=0)
        room = limit.max_tokens - limit.count([limit.prefix(chunk.section)])[0] - widest
        if room <= 0 < widest:  # a header too wide to repeat (a 60-column sheet): the parts go without it
            headers, room = [], room + widest
        if room <= 0:
            shown = " ".join(limit.prefix(chunk.section).split())
            raise ValueError(f"the title and section path ({shown[:60]}…) alone fill the embedder's input of "
                             f"{limit.max_tokens} tokens; shorten the document's title or headings")
        pending = _split_parts(chunk.text, limit, room)
        at = 0  # where the next part starts in the chunk's text
        while pending:
            text = pending.pop(0)
            start = chunk.text.find(text[:40], at)
            start = at if start < 0 else start
            lead = _header_at(chunk.text, headers, start)
            over = limit.count([limit.prefix(chunk.section) + lead + text])[0] - limit.max_tokens
            if over > 0 and room - over > 0:  # a tokenizer whose counts do not add up across whitespace
                pending[:0] = _split_parts(text, limit, room - over)
                continue
            at = start + len(text)
            location, parts = _placed(chunk, start, at, shift=len(lead))
            whole = lead + text
            out.append(replace(chunk, text=whole, tokens=counter.raw(whole), location=location, parts=parts))
    return out


def _is_row(line: str) -> bool:
    """A table row: a Markdown pipe row ("| a | b |") or a row as tables are stored ("a | b")."""
    return line.lstrip().startswith("|") or " | " in line


def _table_headers(text: str) -> list[tuple[int, str]]:
    """(offset, header lines) of every table in ``text``: a Markdown table (a pipe row followed by a separator row),
    or a table as chunks store them ("a | b" lines: the first line of a run of such lines is its header)."""
    out, offset = [], 0
    lines = text.split("\n")
    for i, line in enumerate(lines):
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.lstrip().startswith("|") and nxt.startswith("|") and "-" in nxt and set(nxt) <= set("|-: "):
            out.append((offset, line + "\n" + lines[i + 1]))
        elif " | " in line and not line.lstrip().startswith("|") and (i == 0 or not _is_row(lines[i - 1])) \
                and " | " in nxt:
            out.append((offset, line))
        offset += len(line) + 1
    return out


def _header_at(text: str, headers: list[tuple[int, str]], start: int) -> str:
    """The header lines to put before a part starting at ``start`` (with a newline), when it starts inside a table
    that began earlier in the chunk (every line from that table's header to ``start`` is a table row); else ""."""
    if start == 0 or not _is_row(text[start:].lstrip().split("\n", 1)[0]):
        return ""
    before = [(offset, header) for offset, header in headers if offset < start]
    if not before:
        return ""
    offset, header = before[-1]
    if text[start:].startswith(header):
        return ""
    rows = text[offset:start].rstrip("\n").split("\n")
    return header + "\n" if all(_is_row(r) for r in rows) else ""


def _placed(chunk, start: int, end: int, shift: int = 0):
    """(location, parts) of the characters start..end of a chunk's text: the places of the blocks they fall in
    (grounding.chunking.ChunkDraft.parts), offsets made relative to ``start`` and moved by ``shift`` (the repeated
    table header before them); the chunk's own location when it covers one place."""
    parts = getattr(chunk, "parts", ())
    if not parts:
        return getattr(chunk, "location", None), ()
    inside = [(max(0, offset - start) + shift, loc) for offset, loc in parts if start <= offset < end]
    before = [loc for offset, loc in parts if offset <= start]
    if before and (not inside or inside[0][0] > shift):
        inside.insert(0, (shift, before[-1]))
    places = [loc for _, loc in inside]
    location = merge_locations(places) if places else getattr(chunk, "location", None)
    return location, (tuple(inside) if len(set(places)) > 1 else ())


def _cut_words(sentence: str, limit: InputLimit, room: int) -> list[tuple[str, int]]:
    """A sentence longer than ``room`` model tokens cut into runs of whole words that fit, with their counts (a
    single word longer than that, such as a long URL, is cut by characters)."""
    words: list[tuple[str, int]] = []
    split = sentence.split()
    for word, w in zip(split, limit.count(split)):
        while w > room:
            cut = max(1, len(word) * room // w)
            while cut > 1 and limit.count([word[:cut]])[0] > room:
                cut //= 2
            words.append((word[:cut], limit.count([word[:cut]])[0]))
            word = word[cut:]
            w = limit.count([word])[0]
        words.append((word, w))
    runs: list[tuple[str, int]] = []
    run: list[str] = []
    size = 0
    for word, w in words:
        if run and size + w > room:
            runs.append((" ".join(run), size))
            run, size = [], 0
        run.append(word)
        size += w
    if run:
        runs.append((" ".join(run), size))
    return runs


def _split_parts(text: str, limit: InputLimit, room: int) -> list[str]:
    """``text`` cut into the fewest near-equal parts of at most ``room`` model tokens each.

    Units are its lines as written (a paragraph is one line; a blank line before one is kept); a line longer than the target size is cut into its
    sentences, and a sentence longer than ``room`` into runs of words. Units are packed in order, a part closing
    when the next unit would pass ``room`` or the part has reached the target (total / number of parts).
    """
    lines: list[str] = []
    breaks: list[str] = []  # what separates each line from the one before: a blank line is kept (it ends a table)
    previous = ""
    for line in text.split("\n"):
        if line.strip():
            breaks.append("\n\n" if lines and not previous.strip() else "\n")
            lines.append(line)
        previous = line
    line_counts = limit.count(lines)
    total = sum(line_counts)
    target = math.ceil(total / math.ceil(total / room))
    units: list[tuple[str, str, int]] = []  # (text, separator before it, model tokens)
    for line, brk, n in zip(lines, breaks, line_counts):
        if n <= target:
            units.append((line, brk, n))
            continue
        sentences = split_sentences(line)
        for k, (sentence, m) in enumerate(zip(sentences, limit.count(sentences))):
            runs = [(sentence, m)] if m <= room else _cut_words(sentence, limit, room)
            for j, (piece, size) in enumerate(runs):
                units.append((piece, brk if k == 0 and j == 0 else " ", size))
    parts: list[list[tuple[str, str]]] = [[]]
    size = 0
    for unit, sep, n in units:
        if parts[-1] and (size + n > room or size >= target):
            parts.append([])
            size = 0
        parts[-1].append((unit, sep))
        size += n
    texts = ["".join((sep if i else "") + unit for i, (unit, sep) in enumerate(part)) for part in parts]
    return [t.strip("\n") for t in texts if t.strip()]


