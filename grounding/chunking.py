"""Structure-aware chunking: by headings first, then by size in tokens, with a small overlap.

A chunk spans two top-level sections only while it is still tiny (< min_tokens / 2); small neighbouring sections are
merged (their headings kept as lines) so that chunks are about ``min_tokens``..``max_tokens`` long; a section longer
than ``max_tokens`` is split at sentence boundaries (pysbd) with ``overlap_tokens`` of the previous chunk's last
sentences repeated at the start of the next. Sizes are cl100k tokens, the unit of the prompt budget.

Given the embedder's input limit (grounding.input_limit, B13), every chunk whose embedded text is longer than the
model reads is split again into near-equal parts the embedder sees whole. Technique: heading-aware recursive splitting as in LangChain's MarkdownHeaderTextSplitter
followed by a token-sized splitter, here in one pass so each chunk keeps its section path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


from grounding.input_limit import InputLimit, fit_to_limit
from grounding.location import Location, merge_locations
from grounding.chunk_tables import rows_of_long_tables
from grounding.parsing import Block
from grounding.sentences import split_sentences
from grounding.tokens import TokenCounter

__all__ = ["ChunkDraft", "InputLimit", "chunk_blocks", "fit_to_limit", "section_label", "split_sentences"]


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk before it is stored.

    Attributes:
        section: section path of the chunk; when the chunk spans several sections, their common prefix and then
            the distinct headings below it joined by " · " ("Travel > Meals · Deadlines").
        text: chunk text (characters).
        tokens: cl100k token count of ``text``.
        location: the place in the original file the chunk covers (None for formats without pages).
        parts: where each block's text starts in ``text`` with that block's location, ((character offset, location),
            ...) in text order, when the chunk covers more than one place (pages 4 and 5, rows 2 to 14); () otherwise.
            A citation of one sentence names the place of the block it is in (grounding.types.Source.location_of).
    """

    section: tuple[str, ...]
    text: str
    tokens: int
    location: Location | None = None
    parts: tuple[tuple[int, Location], ...] = ()


def section_label(paths: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """One section path for a chunk covering several: their common prefix, then the distinct next headings joined
    by " · " (("Travel", "Meals"), ("Travel", "Hotels") -> ("Travel", "Meals · Hotels")); a chunk holding a parent
    section's own text and its subsections is named after the parent.
    """
    paths = [p for p in paths if p] or list(paths[:1])
    if len(paths) <= 1:
        return paths[0] if paths else ()
    prefix: list[str] = []
    for parts in zip(*paths):
        if len(set(parts)) != 1:
            break
        prefix.append(parts[0])
    if tuple(prefix) in paths:  # the parent section's own text is in the chunk: it names the whole
        return tuple(prefix)
    rest = list(dict.fromkeys(p[len(prefix)] for p in paths if len(p) > len(prefix)))
    return tuple(prefix) + ((" · ".join(rest),) if rest else ())


def _split_oversize(text: str, counter: TokenCounter, max_tokens: int) -> list[str]:
    """Pieces of ``text`` no longer than max_tokens: by sentences, and a runaway sentence by tokens."""
    pieces: list[str] = []
    for sentence in split_sentences(text):
        if counter.raw(sentence) <= max_tokens:
            pieces.append(sentence)
            continue
        ids = counter.encode(sentence)
        for i in range(0, len(ids), max_tokens):
            pieces.append(counter.decode(ids[i:i + max_tokens]))
    return pieces


def _other_sheet(placed: Sequence[tuple[int, Location | None]], location: Location | None) -> bool:
    """True when ``location`` is rows of another sheet (or another file's rows) than the open chunk's last rows."""
    last = next((loc for _, loc in reversed(placed) if loc is not None), None)
    return (location is not None and last is not None and location.rows is not None and last.rows is not None
            and (location.format, location.sheet) != (last.format, last.sheet))


def chunk_blocks(
    blocks: Sequence[Block],
    counter: TokenCounter,
    *,
    min_tokens: int = 120,
    max_tokens: int = 320,
    overlap_tokens: int = 40,
    limit: InputLimit | None = None,
) -> list[ChunkDraft]:
    """Group text blocks into chunks.

    Each chunk records the location(s) it covers (grounding.location.merge_locations of its blocks' locations, the
    block whose sentences are repeated as overlap included): a chunk over two PDF pages says pages (4, 5). Rows of
    two sheets never share a chunk. Rows of a table (blocks with a ``header``) are kept whole and every chunk holding
    rows of a table starts them with the table's header lines, so each chunk's table is a Markdown table of its own;
    no overlap is repeated after a table row.

    Args:
        blocks: parsed blocks in document order.
        counter: token counter (raw cl100k counts are used).
        min_tokens: a chunk shorter than this absorbs the next section (within the same top-level section).
        max_tokens: hard ceiling of a chunk's token count (tokens).
        overlap_tokens: at most this many tokens of trailing sentences repeated when a section is split.
        limit: the embedding model's input length; when given, no chunk's embedded text (limit.prefix + text) is
            longer than limit.max_tokens of the model's tokens (see :func:`fit_to_limit`).
    Returns:
        chunks in document order, each with tokens <= max_tokens.
    Raises:
        ValueError: when min_tokens > max_tokens or overlap_tokens >= max_tokens, or when the limit leaves no room
            for text after a chunk's prefix.
    """
    if min_tokens > max_tokens or overlap_tokens >= max_tokens:
        raise ValueError(f"bad chunk sizes: min={min_tokens} max={max_tokens} overlap={overlap_tokens}")
    chunks: list[ChunkDraft] = []
    parts: list[str] = []
    section: tuple[str, ...] | None = None
    covered: list[tuple[str, ...]] = []  # section paths of the blocks in the open chunk
    placed: list[tuple[int, Location | None]] = []  # (index in parts, location) of the open chunk's pieces
    table = ""  # header of the table whose rows end the open chunk ("" when it does not end with table rows)
    size = 0

    def flush() -> None:
        nonlocal parts, size, covered, placed, table
        joined = "\n".join(parts)
        text = joined.strip()
        if text:
            assert section is not None
            location = merge_locations(loc for _, loc in placed)
            chunks.append(ChunkDraft(section_label(covered or [section]), text, counter.raw(text), location,
                                     _parts(parts, placed, len(joined) - len(joined.lstrip()))))
        parts, size, covered, placed, table = [], 0, [], [], ""

    def end_table() -> None:
        """A blank line after the rows of a table, before other text or another table's header: in Markdown
        (GFM) a line right after a table's rows is one more row of it, cut to its header's number of cells."""
        nonlocal size, table
        if parts and table:
            parts.append("")
            size += 1
        table = ""

    def add_heading(heading: str) -> None:
        nonlocal size
        if heading:
            end_table()
            parts.append(heading)
            size += counter.raw(heading) + 1

    introduced: tuple[str, ...] | None = None  # the section of a lead-in just absorbed: its next block joins too
    previous: tuple[str, ...] | None = None  # the section of the block before
    for block in rows_of_long_tables(blocks, counter, max_tokens):
        new_sheet = _other_sheet(placed, block.location)
        joins, introduced = block.section == introduced and not new_sheet, None
        if section is not None and (block.section != section or new_sheet) and not joins:
            same_top = block.section[:1] == section[:1]
            if new_sheet or size >= min_tokens or (not same_top and size >= min_tokens // 2):
                flush()
                section = block.section
            else:
                # a small section absorbs the next one; the absorbed heading stays as a line of text, once (each
                # paragraph of a PDF or Word section is a block of its own)
                if block.section != previous:
                    add_heading(block.section[-1] if block.section else "")
                if block.text.rstrip().endswith((":", "：")):
                    # a lead-in ("GSA has a few different types of USB-C readers:"): what it introduces, the next
                    # block of its section, continues the chunk rather than open the next one without it
                    introduced = block.section
        if section is None:
            section = block.section
        if block.section not in covered:
            covered.append(block.section)
        previous = block.section
        block_tokens = counter.raw(block.text)
        pieces = [block.text] if block_tokens <= max_tokens else _split_oversize(block.text, counter, max_tokens)
        for piece in pieces:
            piece_tokens = counter.raw(piece) + 1
            # a table's header opens its rows in each chunk, and again when a new table begins under one with the
            # same header (a workbook's stacked tables): its rows never run into the table before it
            head = block.header if block.header and (block.header != table or block.first_row) else ""
            if parts and size + (counter.raw(head) + 1 if head else 0) + piece_tokens > max_tokens:
                carry = "" if block.header or table else _overlap(parts, counter, overlap_tokens)
                carry_location = placed[-1][1] if placed else None
                flush()
                section = block.section
                covered = [block.section]
                if carry and counter.raw(carry) + piece_tokens <= max_tokens:
                    parts, size, placed = [carry], counter.raw(carry) + 1, [(0, carry_location)]
                head = block.header
            if head or not block.header:
                end_table()
            if head:
                parts.append(head)
                size += counter.raw(head) + 1
            table = block.header
            placed.append((len(parts), block.location))
            parts.append(piece)
            size += piece_tokens
    flush()
    chunks = [c if c.tokens <= max_tokens else _trim(c, counter, max_tokens) for c in chunks]
    return fit_to_limit(chunks, counter, limit) if limit is not None else chunks


def _parts(parts: list[str], placed: list[tuple[int, Location | None]], lead: int
           ) -> tuple[tuple[int, Location], ...]:
    """(offset in the chunk text, location) of each located piece when the pieces have more than one location
    (``lead``: whitespace characters the chunk text lost at its start)."""
    if len({loc for _, loc in placed if loc is not None}) < 2:
        return ()
    starts, at = [], 0
    for part in parts:
        starts.append(at)
        at += len(part) + 1
    return tuple((max(0, starts[i] - lead), loc) for i, loc in placed if loc is not None)


def _overlap(parts: list[str], counter: TokenCounter, overlap_tokens: int) -> str:
    """The last whole sentences of ``parts`` that fit in overlap_tokens ("" when none fits)."""
    if overlap_tokens <= 0 or not parts:
        return ""
    sentences = split_sentences(parts[-1])
    kept: list[str] = []
    total = 0
    for s in reversed(sentences):
        t = counter.raw(s) + 1
        if total + t > overlap_tokens:
            break
        kept.insert(0, s)
        total += t
    return " ".join(kept)


def _trim(chunk: ChunkDraft, counter: TokenCounter, max_tokens: int) -> ChunkDraft:
    # Joining pieces with newlines can merge tokens differently than counted piecewise; cut at a sentence.
    sentences = split_sentences(chunk.text)
    while sentences and counter.raw("\n".join(sentences)) > max_tokens:
        sentences.pop()
    text = "\n".join(sentences) or counter.decode(counter.encode(chunk.text)[:max_tokens])
    return ChunkDraft(chunk.section, text, counter.raw(text), chunk.location, chunk.parts)
