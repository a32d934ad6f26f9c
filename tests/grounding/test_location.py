"""Locations: their JSON shape, merging, the source label, and a citation naming the place of the sentence it cites."""

import pytest

from grounding.chunking import chunk_blocks
from grounding.context_merge import merge_adjacent
from grounding.location import Location, location_text, merge_locations, source_label, stored_location, stored_parts
from grounding.parsing import Block
from grounding.tokens import counter_for
from grounding.types import Candidate, Chunk, Source


def test_json_shape_round_trips_and_leaves_out_empty_keys():
    loc = Location("pdf", pages=(4, 5), ocr_pages=(5,))
    assert loc.as_dict() == {"format": "pdf", "pages": [4, 5], "ocr_pages": [5]}
    assert Location.from_dict(loc.as_dict()) == loc
    rows = Location("xlsx", sheet="Schedules", rows=(2, 14))
    assert rows.as_dict() == {"format": "xlsx", "sheet": "Schedules", "rows": [2, 14]}
    assert Location.from_dict({}) is None and Location.from_dict(None) is None


@pytest.mark.parametrize("bad", [dict(format="doc"), dict(format="pdf", pages=(5, 4)), dict(format="pdf", pages=(0,)),
                                 dict(format="xlsx", rows=(9, 2)), dict(format="pdf", pages=(1,), ocr_pages=(2,))])
def test_invalid_locations_are_refused(bad):
    with pytest.raises(ValueError):
        Location(**bad)


def test_source_labels_name_the_place():
    assert source_label("Leave", Location("pdf", pages=(4,))) == "Leave, p. 4"
    assert source_label("Leave", Location("pdf", pages=(4, 5, 6, 9))) == "Leave, pp. 4-6, 9"
    assert source_label("IDP", Location("pptx", slides=(3,))) == "IDP, slide 3"
    assert source_label("Work schedules", Location("xlsx", sheet="Schedules", rows=(2, 14))) == \
        "Work schedules, sheet Schedules, rows 2-14"
    assert source_label("Rates", Location("csv", rows=(7, 7))) == "Rates, row 7"
    assert source_label("Leave", Location("docx")) == "Leave"
    assert source_label("Leave", None) == "Leave"
    assert location_text(Location("pdf", pages=(2,), ocr_pages=(2,))) == "p. 2, read by OCR"
    assert location_text(Location("pdf", pages=(1, 2, 3), ocr_pages=(2,))) == "pp. 1-3 (p. 2 read by OCR)"


def test_merging_unites_pages_and_spans_rows():
    merged = merge_locations([Location("pdf", pages=(4,)), None, Location("pdf", pages=(5,), ocr_pages=(5,))])
    assert merged == Location("pdf", pages=(4, 5), ocr_pages=(5,))
    rows = merge_locations([Location("xlsx", sheet="A", rows=(2, 2)), Location("xlsx", sheet="A", rows=(9, 14))])
    assert rows == Location("xlsx", sheet="A", rows=(2, 14))
    assert merge_locations([None, None]) is None


def test_stored_json_keeps_the_parts_of_a_chunk_over_several_places():
    parts = ((0, Location("pdf", pages=(4,))), (120, Location("pdf", pages=(5,))))
    data = stored_location(Location("pdf", pages=(4, 5)), parts)
    assert data["pages"] == [4, 5] and data["parts"][1] == [120, {"format": "pdf", "pages": [5]}]
    assert stored_parts(data) == parts and Location.from_dict(data) == Location("pdf", pages=(4, 5))


def test_a_chunk_records_every_page_it_covers_and_where_each_starts():
    counter = counter_for("extractive")
    blocks = [Block(("Leave",), "Annual leave accrues every pay period.", Location("pdf", pages=(4,))),
              Block(("Leave",), "You can carry over 240 hours.", Location("pdf", pages=(5,)))]
    [chunk] = chunk_blocks(blocks, counter)
    assert chunk.location == Location("pdf", pages=(4, 5))
    assert [(chunk.text[offset:offset + 9], loc.pages) for offset, loc in chunk.parts] == [
        ("Annual le", (4,)), ("You can c", (5,))]


def test_rows_of_two_sheets_never_share_a_chunk_and_each_chunk_repeats_the_table_header():
    counter = counter_for("extractive")
    header = "| Day | Hours |\n|---|---|"
    blocks = [Block(("A",), f"| Day {i} | {i} |", Location("xlsx", sheet="A", rows=(i, i)), header)
              for i in range(2, 80)]
    blocks.append(Block(("B",), "| Monday | 8 |", Location("xlsx", sheet="B", rows=(2, 2)), header))
    chunks = chunk_blocks(blocks, counter, max_tokens=120)
    assert len(chunks) >= 3
    assert all(c.text.startswith(header + "\n") for c in chunks)  # every chunk is a Markdown table of its own
    assert chunks[-1].location == Location("xlsx", sheet="B", rows=(2, 2))
    firsts = [c.location.rows for c in chunks[:-1]]
    assert firsts[0][0] == 2 and firsts[-1][1] == 79
    assert all(a[1] + 1 == b[0] for a, b in zip(firsts, firsts[1:]))  # contiguous, no row lost or repeated


def _chunk(cid, ordinal, text, page):
    return Chunk(cid, 1, "Leave", "", "v1", "", text, 10, ordinal=ordinal, version_id=7,
                 location=Location("pdf", pages=(page,)))


def test_a_citation_of_a_merged_source_names_the_page_of_its_sentence():
    kept = [(Candidate(_chunk(11, 1, "Sick leave accrues at 4 hours.", 5), 0.02, 0.8), (11,)),
            (Candidate(_chunk(10, 0, "Annual leave carries over up to 240 hours.", 4), 0.01, 0.6), (10,))]
    [(cand, ids, text, parts, *_)] = merge_adjacent(kept)
    assert ids == (11, 10) and cand.chunk.location == Location("pdf", pages=(4, 5))
    source = Source("S1", ids, 1, "Leave", "", "v1", "", text, 0.8, 30, location=cand.chunk.location, parts=parts)
    assert source.location_of("Annual leave carries over up to 240 hours.") == Location("pdf", pages=(4,))
    assert source.location_of("Sick leave accrues at 4 hours.") == Location("pdf", pages=(5,))
    assert source.location_of("not in the text") == Location("pdf", pages=(4, 5))
    assert source.as_dict()["source_label"] == "Leave, pp. 4-5"
