import pytest

from grounding.chunking import chunk_blocks
from grounding.parsing import Block
from grounding.tokens import counter_for

counter = counter_for("extractive")


def sentence(i: int) -> str:
    return f"Sentence number {i} explains rule {i} of the travel policy in plain words."


def test_small_sections_stay_whole_with_their_section_path_and_token_count():
    blocks = [Block(("Leave",), "Annual leave accrues every pay period." * 3),
              Block(("Leave", "Sick leave"), "Sick leave is four hours per pay period."),
              Block(("Travel",), "Book through the travel portal.")]
    chunks = chunk_blocks(blocks, counter, min_tokens=20, max_tokens=200)
    assert [c.section for c in chunks] == [("Leave",), ("Leave", "Sick leave"), ("Travel",)]
    assert all(c.tokens == counter.raw(c.text) for c in chunks)


def test_tiny_sections_merge_and_keep_their_headings():
    blocks = [Block(("Flights",), "Book economy."), Block(("Hotels",), "Stay under the limit.")]
    [chunk] = chunk_blocks(blocks, counter, min_tokens=100, max_tokens=200)
    assert chunk.text == "Book economy.\nHotels\nStay under the limit."
    assert chunk.section == ("Flights · Hotels",)


def test_a_lead_in_a_small_section_absorbed_is_not_cut_from_its_list():
    # the 18F PIV page (development file, d046): "GSA has a few different types of USB-C readers:" ended one chunk
    # and its list opened the next, so the answer to "What types of readers ...?" never saw both
    blocks = [Block(("PIV", "Certificate prompt"), " ".join(sentence(i) for i in range(6))),
              Block(("PIV", "Readers"), "GSA has a few different types of USB-C readers:"),
              Block(("PIV", "Readers"), '- Stanley Global "pigtail"\n- ACS "butterfly"\n- ACS "pigtail"'),
              Block(("PIV", "Readers"), " ".join(sentence(i) for i in range(20, 26))),
              Block(("PIV", "Issues"), " ".join(sentence(i) for i in range(10, 16)))]
    # the first section is under min_tokens, and over it once it has absorbed the lead-in
    minimum = counter.raw(blocks[0].text) + 5
    chunks = chunk_blocks(blocks, counter, min_tokens=minimum, max_tokens=320)
    holding = [c for c in chunks if "types of USB-C readers:" in c.text]
    assert len(holding) == 1 and 'ACS "butterfly"' in holding[0].text
    assert "Sentence number 20" not in holding[0].text  # what it introduces joins, not the rest of its section
    assert holding[0].section == ("PIV", "Certificate prompt · Readers")


def test_long_section_splits_at_sentences_within_max_with_overlap():
    text = " ".join(sentence(i) for i in range(60))
    chunks = chunk_blocks([Block(("Policy",), text)], counter, min_tokens=50, max_tokens=120, overlap_tokens=40)
    assert len(chunks) > 3
    assert all(c.tokens <= 120 for c in chunks)
    assert all(c.section == ("Policy",) for c in chunks)
    for prev, nxt in zip(chunks, chunks[1:]):
        last = prev.text.split("\n")[-1].split(". ")[-1]
        assert nxt.text.startswith(last.rstrip(".")), "the next chunk repeats the previous one's last sentence"
    # nothing is lost: every sentence appears in some chunk
    joined = "\n".join(c.text for c in chunks)
    assert all(sentence(i) in joined for i in range(60))


def test_runaway_sentence_is_cut_by_tokens():
    text = "word " * 1000
    chunks = chunk_blocks([Block((), text)], counter, min_tokens=10, max_tokens=100, overlap_tokens=0)
    assert all(c.tokens <= 100 for c in chunks)
    assert sum(c.text.count("word") for c in chunks) == 1000


def test_section_label_names_every_section_a_chunk_covers():
    from grounding.chunking import section_label

    assert section_label([("How to report", "Reporting channels"), ("How to report", "Anonymous reporting")]) == (
        "How to report", "Reporting channels · Anonymous reporting")
    assert section_label([("Flights",), ("Lodging",)]) == ("Flights · Lodging",)
    assert section_label([("Travel",), ("Travel", "Meals")]) == ("Travel",)
    assert section_label([()]) == ()


# --- B13: the embedder sees every chunk whole ------------------------------------------------------------------------

def _words(texts):
    """A stand-in tokenizer: one token per whitespace-separated word (additive across whitespace, like WordPiece)."""
    return [len(t.split()) for t in texts]


def test_b13_a_chunk_over_the_embedders_input_is_split_at_sentences_into_near_equal_parts():
    from grounding.chunking import InputLimit

    text = " ".join(sentence(i) for i in range(12))  # 12 sentences of 13 words: 156 words, 200 cl100k tokens
    limit = InputLimit(max_tokens=60, count=_words, prefix=lambda section: "Travel > " + " > ".join(section) + "\n")
    chunks = chunk_blocks([Block(("Policy",), text)], counter, min_tokens=50, max_tokens=320, limit=limit)
    # the prefix "Travel > Policy" takes 3 words: 57 words of room, 156 words -> 3 parts of 4 sentences (52 words)
    assert [c.text for c in chunks] == [" ".join(sentence(i) for i in range(k, k + 4)) for k in (0, 4, 8)]
    assert all(_words([limit.prefix(c.section) + c.text])[0] <= 60 for c in chunks)
    assert all(c.section == ("Policy",) and c.tokens == counter.raw(c.text) for c in chunks)


def test_b13_lines_stay_lines_and_a_runaway_sentence_is_cut_at_words():
    from grounding.chunking import ChunkDraft, InputLimit, fit_to_limit

    limit = InputLimit(max_tokens=10, count=_words)
    lines = "- one two three\n- four five six\n    code line seven\n" + " ".join(f"w{i}" for i in range(25))
    [draft] = chunk_blocks([Block(("S",), lines)], counter, limit=None)
    chunks = fit_to_limit([draft], counter, limit)
    # whole lines while they fit (a list marker is a word here), indentation kept; the 25-word sentence in runs
    assert [c.text for c in chunks] == [
        "- one two three\n- four five six", "    code line seven",
        " ".join(f"w{i}" for i in range(10)), " ".join(f"w{i}" for i in range(10, 20)),
        " ".join(f"w{i}" for i in range(20, 25))]
    assert all(_words([c.text])[0] <= 10 for c in chunks)
    # within the limit: unchanged, the same object
    assert fit_to_limit([chunks[0]], counter, limit) == [chunks[0]]
    with pytest.raises(ValueError, match="alone fill the embedder.s input of 10 tokens; shorten the document.s title "
                                         "or headings"):
        fit_to_limit([ChunkDraft(("S",), "a b c d e f g h i j k", 11)], counter,
                      InputLimit(max_tokens=10, count=_words, prefix=lambda s: "x " * 10 + "\n"))


def test_b13_a_chunk_split_for_the_embedder_keeps_the_place_of_each_part():
    """A chunk over PDF pages 4 and 5 split in two: each part is located where its own text is."""
    from grounding.chunking import ChunkDraft
    from grounding.input_limit import InputLimit, fit_to_limit
    from grounding.location import Location

    page4 = "Leave is earned each pay period. " * 6
    page5 = "Unused leave carries over to the next year. " * 6
    text = page4.strip() + "\n" + page5.strip()
    p4, p5 = Location("pdf", pages=(4,)), Location("pdf", pages=(5,))
    chunk = ChunkDraft(("Leave",), text, counter.raw(text), Location("pdf", pages=(4, 5)),
                       ((0, p4), (len(page4.strip()) + 1, p5)))
    parts = fit_to_limit([chunk], counter, InputLimit(max_tokens=50, count=_words))
    assert len(parts) >= 2 and " ".join(p.text for p in parts).split() == text.split()
    for part in parts:  # each part is located on the pages its own text comes from
        pages = tuple(sorted({4 for _ in [1] if "earned" in part.text} | {5 for _ in [1] if "carries" in part.text}))
        assert part.location == Location("pdf", pages=pages)
        if pages == (4, 5):  # a part over both pages still says where the page 5 text starts
            assert [loc for _, loc in part.parts] == [p4, p5] and part.text[part.parts[1][0]:].startswith("Unused")
    assert parts[-1].location == p5


def test_b13_a_part_that_starts_inside_a_table_repeats_that_tables_header():
    from grounding.chunking import ChunkDraft
    from grounding.input_limit import InputLimit, fit_to_limit

    first = "| Day | Hours |\n|---|---|\n" + "".join(f"| Day {i} | {i} |\n" for i in range(8))
    second = "| Day | Hours | Day | Hours |\n|---|---|---|---|\n" + "".join(f"| A{i} | {i} | B{i} | {i} |\n"
                                                                         for i in range(8))
    text = (first + second).strip()
    parts = fit_to_limit([ChunkDraft(("Schedules",), text, counter.raw(text))], counter,
                         InputLimit(max_tokens=60, count=_words))
    assert len(parts) >= 3
    for part in parts:
        lines = part.text.split("\n")
        assert lines[0].startswith("| Day | Hours") and set(lines[1]) <= set("|-")  # each part is a table
        # the first row under the header belongs to the table whose header it is
        assert lines[0] == ("| Day | Hours | Day | Hours |" if lines[2].startswith("| A") else "| Day | Hours |")


def test_tables_in_one_chunk_stay_apart_from_each_other_and_from_the_text_after_them():
    """In Markdown a line right after a table's rows is one more row of it, cut to its header's cells: a second
    table (four columns under a two-column one) lost half its cells in the source panel. A blank line ends each
    table, and the rendered chunk has both tables whole."""
    from grounding.source_rendering import render_source_html

    two = "| Day | Hours |\n|---|---|"
    four = "| Day | Hours | Day | Hours |\n|---|---|---|---|"
    blocks = [Block(("Sheet",), "| Monday | 10 |", None, two), Block(("Sheet",), "| Total | 40 |", None, two),
              Block(("Sheet",), "| Week 1 Total | 37 | Week 2 Total | 43 |", None, four),
              Block(("Sheet",), "Totals are checked each Friday.", None)]
    [chunk] = chunk_blocks(blocks, counter_for("extractive"))
    assert chunk.text == (f"{two}\n| Monday | 10 |\n| Total | 40 |\n\n{four}\n| Week 1 Total | 37 | Week 2 Total | 43 |"
                          "\n\nTotals are checked each Friday.")
    html = render_source_html(chunk.text)  # as the source panel shows it
    assert html.count("<table") == 2 and "<td>43</td>" in html and "<td>Totals" not in html


def test_every_chunk_of_a_long_markdown_table_starts_with_its_header():
    # a breaker's 400-row table: the chunks after the first read their own first row as the header, so answers
    # paired one row's cells with another's ("Widget model 201: Widget model 237") and cited the wrong row
    from grounding.parsing import parse_document
    from grounding.sentence_store import chunk_layout
    from grounding.tokens import counter_for

    rows = "\n".join(f"| Widget model {i} | W-{i:04d} | ${10 + 3 * i}.00 | Alice Park |" for i in range(1, 401))
    doc = parse_document(f"# Prices\n\n| Item | Code | Price | Approver |\n|---|---|---|---|\n{rows}\n".encode(), "t.md")
    chunks = chunk_blocks(doc.blocks, counter_for("extractive"))
    assert len(chunks) > 10
    assert all(c.text.startswith("Item | Code | Price | Approver\n") for c in chunks)
    quoted = [u[3] for c in chunks for u in chunk_layout(c.text)]
    assert "Item: Widget model 237; Code: W-0237; Price: $721.00; Approver: Alice Park" in quoted
    assert sum(q.startswith("Item: Widget model ") for q in quoted) == 400  # every row once, read with the header


def _wide_markdown(columns: int, rows: int) -> bytes:
    header = "| " + " | ".join(f"c{i}" for i in range(columns)) + " |\n|" + "---|" * columns + "\n"
    return ("# Wide\n\n" + header + "".join("| " + " | ".join(f"v{r}_{i}" for i in range(columns)) + " |\n"
                                           for r in range(rows))).encode()


@pytest.mark.parametrize("columns,rows", [(60, 3), (300, 5), (20, 40)])
def test_a_table_too_wide_for_a_chunk_keeps_every_cell_each_chunk_led_by_its_header_and_row_key(embedder, columns,
                                                                                               rows):
    """A 60-column table filled every chunk with its header and the rows were cut off (none of its cells indexed,
    reported as a success); now its columns are split into groups, each chunk starts with its group's header, and
    every row piece keeps the row's first cell (its key). The embedder's input limit is applied as at ingestion."""
    from grounding.parsing import parse_document
    from grounding.retrieve import input_limit

    doc = parse_document(_wide_markdown(columns, rows), "wide.md")
    chunks = chunk_blocks(doc.blocks, counter_for("extractive"), limit=input_limit(embedder, title=doc.title))
    text = "\n".join(c.text for c in chunks)
    assert [f"v{r}_{i}" for r in range(rows) for i in range(columns) if f"v{r}_{i}" not in text] == []
    for c in chunks:
        lines = c.text.split("\n")
        assert lines[0].startswith("c0 | ")  # a group's rows follow their header (one chunk may hold two groups)
        rows = [line for line in lines if line and not line.startswith("c0 | ")]
        assert rows and all(line.split(" | ")[0] == f"v{line.split('_')[0][1:]}_0" for line in rows)
        assert c.tokens <= 320


def test_a_sixty_column_sheet_is_chunked_whole_not_refused(embedder):
    """A 60-column CSV stopped `manage.py ingest` with "the section path '' alone fills the embedder's input" (its
    header alone was wider than the embedder's input) and the rest of the folder was not ingested."""
    from grounding.extract import extract_document
    from grounding.retrieve import input_limit

    csv = ",".join(f"column number {i}" for i in range(60)) + "\n" + "".join(
        ",".join(f"value {r}_{i}" for i in range(60)) + "\n" for r in range(3))
    doc = extract_document(csv.encode(), "wide.csv", ocr=False)
    chunks = chunk_blocks(doc.blocks, counter_for("extractive"), limit=input_limit(embedder, title=doc.title))
    text = "\n".join(c.text for c in chunks)
    assert all(f"value {r}_{i}" in text for r in range(3) for i in range(60))
    assert all(c.text.startswith("| column number 0 |") for c in chunks)


def test_a_small_section_absorbs_the_next_ones_paragraphs_under_one_heading_line():
    # the s28 new user's office files: a Word or PDF section is one block per paragraph, and a chunk absorbing
    # "Understanding travel comp time" wrote that heading before each of its three paragraphs (so did 149 of the 18F
    # handbook's Markdown pages and revisions, whose lists and paragraphs are blocks of their own)
    blocks = [Block(("Travel comp time",), "There are no limits on earning travel comp time."),
              Block(("Travel comp time", "Understanding travel comp time"), "Travel in work hours is regular hours."),
              Block(("Travel comp time", "Understanding travel comp time"), "Travel comp time is a gap filler."),
              Block(("Travel comp time", "Understanding travel comp time"), "Ask your Timekeeper for details.")]
    [chunk] = chunk_blocks(blocks, counter_for("extractive"))
    assert chunk.text == ("There are no limits on earning travel comp time.\nUnderstanding travel comp time\nTravel in "
                          "work hours is regular hours.\nTravel comp time is a gap filler.\nAsk your Timekeeper for "
                          "details.")
    assert chunk.section == ("Travel comp time",)
