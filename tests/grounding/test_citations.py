"""Tests for grounding.citations (marker parsing), grounding.citation_stream (streaming without partial markers) and
grounding.citation_labels (label checking)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grounding.citation_labels import CitationCheck, check_labels
from grounding.citation_stream import CitationStreamParser
from grounding.citation_strip import strip_markers
from grounding.citations import MAX_MARKER_CHARS, Marker, parse_markers
from grounding.code_regions import may_hold_code


def _labels(text: str) -> list[tuple[str, ...]]:
    return [m.labels for m in parse_markers(text)]


def _raws(text: str) -> list[str]:
    return [m.raw for m in parse_markers(text)]


def _stream(pieces: list[str]) -> tuple[list[str], CitationStreamParser]:
    """Feed ``pieces`` and close; return the outputs (feed outputs then the close output) and the parser."""
    parser = CitationStreamParser()
    outputs = [parser.feed(piece) for piece in pieces]
    outputs.append(parser.close())
    return outputs, parser


def _assert_stream_consistent(pieces: list[str]) -> None:
    """The stream properties required for any split: exact text, same markers, never a partial marker out."""
    full = "".join(pieces)
    expected = parse_markers(full)
    look_alikes = parse_markers(full, include_code=True)
    plain = not may_hold_code(full)  # no code anywhere: every marker is decided the moment it is released
    parser = CitationStreamParser()
    emitted = ""
    fed = 0
    for piece in pieces:
        fed += len(piece)
        emitted += parser.feed(piece)
        assert full.startswith(emitted)
        boundary = len(emitted)
        assert parser.released == boundary
        # No look-alike of the full text (in code or not) straddles what has been shown so far ...
        assert not any(m.start < boundary < m.end for m in look_alikes)
        # ... the markers decided so far are the first ones of the full text, all in the text shown ...
        assert parser.markers == expected[: len(parser.markers)]
        assert all(m.end <= boundary for m in parser.markers)
        if plain:  # ... and without code, the text shown so far parses to exactly the markers completed in it ...
            released = [m for m in expected if m.end <= boundary]
            assert parse_markers(emitted) == released
            assert parser.markers == released
        # ... and holding is bounded.
        assert fed - boundary == len(parser.held) <= MAX_MARKER_CHARS
    emitted += parser.close()
    assert emitted == full
    assert parser.markers == expected
    assert parser.held == ""


# --- parsing -------------------------------------------------------------------------------------------------


def test_single_marker_offsets_and_raw() -> None:
    text = "Sky is blue [S1]."
    (marker,) = parse_markers(text)
    assert marker == Marker(start=12, end=16, raw="[S1]", labels=("S1",))
    assert text[marker.start : marker.end] == marker.raw


def test_adjacent_markers_are_two_markers() -> None:
    text = "x [S1][S3] y"
    markers = parse_markers(text)
    assert [(m.start, m.end, m.raw, m.labels) for m in markers] == [
        (2, 6, "[S1]", ("S1",)),
        (6, 10, "[S3]", ("S3",)),
    ]


def test_lists_with_commas_and_semicolons() -> None:
    assert _labels("a [S1, S3] b [S1,S3] c [S1; S3] d [S2;S4]") == [("S1", "S3")] * 3 + [("S2", "S4")]
    assert _labels("mixed [S2, S9]") == [("S2", "S9")]
    assert _labels("spaces [ S1 , S2 ]") == [("S1", "S2")]


def test_lowercase_s_is_normalised() -> None:
    markers = parse_markers("low [s2] and [s1, S3]")
    assert [m.labels for m in markers] == [("S2",), ("S1", "S3")]
    assert markers[0].raw == "[s2]"


def test_double_brackets_are_one_marker() -> None:
    text = "wiki [[S2]] style"
    (marker,) = parse_markers(text)
    assert marker.raw == "[[S2]]"
    assert marker.labels == ("S2",)
    assert (marker.start, marker.end) == (5, 11)


def test_unbalanced_double_bracket_yields_inner_marker() -> None:
    (marker,) = parse_markers("x [[S1] y")
    assert (marker.start, marker.raw) == (3, "[S1]")


def test_fullwidth_brackets() -> None:
    text = "天空是蓝色的【S4】。 Also 【S1，S2】 and 【s3】"
    markers = parse_markers(text)
    assert [m.raw for m in markers] == ["【S4】", "【S1，S2】", "【s3】"]
    assert [m.labels for m in markers] == [("S4",), ("S1", "S2"), ("S3",)]
    assert text[markers[0].start : markers[0].end] == "【S4】"
    # Mismatched bracket kinds are not markers.
    assert parse_markers("【S1] and [S1】") == []


def test_bare_numbers_are_markers_kept_as_given() -> None:
    assert _labels("a [0] b [7] c [2, 9] d [123]") == [("0",), ("7",), ("2", "9"), ("123",)]


def test_numbers_that_do_not_look_like_citations() -> None:
    assert parse_markers("in [2024] and [1234] and [S1234] and [-1] and [1.5] and [S]") == []


def test_markdown_links_are_not_markers() -> None:
    assert parse_markers("see [the docs](https://example.com) and [S1](https://x.y) and [0](u)") == []
    assert _raws("link [docs](https://example.com/a) then [S2].") == ["[S2]"]
    assert _raws("[S1] (not a link: space before the parenthesis)") == ["[S1]"]


def test_plain_bracketed_words_are_not_markers() -> None:
    assert parse_markers("a [note] b [see below] c [S1a] d [x1] e [] f [S1,] g [, S1] h [[note]]") == []
    assert parse_markers("unclosed [S1 and [S2, and 【S3") == []


def test_overlong_list_is_not_a_marker() -> None:
    long_list = "[" + ", ".join(f"S{i}" for i in range(1, 12)) + "]"
    assert len(long_list) > MAX_MARKER_CHARS
    assert parse_markers(f"x {long_list} y") == []
    fits = "[" + ", ".join(f"S{i}" for i in range(1, 8)) + "]"
    assert len(fits) <= MAX_MARKER_CHARS
    assert _labels(fits) == [tuple(f"S{i}" for i in range(1, 8))]


def test_parse_markers_rejects_non_str() -> None:
    with pytest.raises(TypeError):
        parse_markers(b"[S1]")  # type: ignore[arg-type]


# --- label checking ------------------------------------------------------------------------------------------


def test_c08_out_of_range_and_malformed() -> None:
    known = ["S1", "S2", "S3", "S4", "S5"]
    markers = parse_markers("A [S7]. B [0]. C [S3]. D [S2, S9].")
    check = check_labels(markers, known)
    assert check == CitationCheck(valid=("S3", "S2"), invalid=("S7", "0", "S9"))
    assert not check.ok


def test_c07_label_resolution_never_depends_on_position() -> None:
    text = "A [S3]. B [1]. C [7] D [S1][S3] E [s5]."
    markers = parse_markers(text)
    labels = [f"S{i}" for i in range(1, 8)]  # seven sources: "7" and "1" still must not resolve by position
    expected = CitationCheck(valid=("S3", "S1", "S5"), invalid=("1", "7"))
    rng = random.Random(7)
    for _ in range(20):
        shuffled = labels[:]
        rng.shuffle(shuffled)
        assert check_labels(markers, shuffled) == expected
        assert check_labels(markers, tuple(reversed(shuffled))) == expected
    assert check_labels(markers, set(labels)) == expected
    assert check_labels(markers, {label: object() for label in labels}) == expected
    # Only the label set matters: dropping S3 makes it invalid wherever it sat in the list.
    assert check_labels(markers, ["S1", "S2", "S4", "S5"]) == CitationCheck(valid=("S1", "S5"), invalid=("S3", "1", "7"))


def test_check_labels_deduplicates_in_first_seen_order() -> None:
    markers = parse_markers("[S2] [S1, S2] [S9] [S1] [S9] [s9]")
    assert check_labels(markers, {"S1", "S2"}) == CitationCheck(valid=("S2", "S1"), invalid=("S9",))
    assert check_labels([], {"S1"}) == CitationCheck(valid=(), invalid=())
    assert check_labels([], {"S1"}).ok


def test_check_labels_rejects_a_single_string() -> None:
    with pytest.raises(TypeError):
        check_labels(parse_markers("[S1]"), "S1")


# --- stripping -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sky is blue [S1].", "Sky is blue."),
        ("Sky is blue [S1] .", "Sky is blue."),
        ("Sky is blue[S1].", "Sky is blue."),
        ("A [S1] B", "A B"),
        ("A [S1][S2] B", "A B"),
        ("A [S1] [S2] B", "A B"),
        ("A [S1][S2]B", "A B"),
        ("[S1] Start here.", "Start here."),
        ("Line one [S1]\nLine two [[S2]], ok 【S3】。", "Line one\nLine two, ok。"),
        ("Keep [note] and [docs](http://x) [0].", "Keep [note] and [docs](http://x)."),
        ("No markers  here .", "No markers  here ."),
    ],
)
def test_strip_markers(text: str, expected: str) -> None:
    assert strip_markers(text) == expected


# --- streaming -----------------------------------------------------------------------------------------------


def test_c09_markers_split_across_stream_chunks() -> None:
    pieces = ["Sky is blue", " [", "S1", "].", " Also [[", "S2", "]]", " and [S1][", "S3]", " 【S4】"]
    full = "".join(pieces)
    outputs, parser = _stream(pieces)

    assert "".join(outputs) == full
    expected = parse_markers(full)
    assert [m.raw for m in expected] == ["[S1]", "[[S2]]", "[S1]", "[S3]", "【S4】"]
    assert [m.labels for m in expected] == [("S1",), ("S2",), ("S1",), ("S3",), ("S4",)]
    assert parser.markers == expected

    # No output ends inside, or contains part of, a marker: every marker lies wholly inside one output.
    offset = 0
    for output in outputs:
        start, end = offset, offset + len(output)
        for m in expected:
            overlaps = m.start < end and start < m.end
            assert not overlaps or (start <= m.start and m.end <= end), (output, m)
        offset = end
    # The cumulative text shown never has an opening bracket whose marker is still incomplete.
    emitted = ""
    for output in outputs[:-1]:
        emitted += output
        assert not any(m.start < len(emitted) < m.end for m in expected)
        assert parse_markers(emitted) == [m for m in expected if m.end <= len(emitted)]
    assert outputs[1] == " "  # the "[" is held back
    assert outputs[2] == ""  # "[S1" could still become a marker
    assert outputs[3] == "[S1]."  # released whole once "]." arrives
    assert outputs[-2:] == ["[S3] 【S4】", ""]  # "[S3]" waits for the next character (not a link)

    _assert_stream_consistent(pieces)


@pytest.mark.parametrize(
    "tail",
    ["[", "[S", "[S1", "[S1]", "[[", "[[S1", "[[S1]", "【", "【S", "【S1", "[S1, S", "[S1; ", "[0", "[ "],
)
def test_possible_marker_tail_is_held(tail: str) -> None:
    parser = CitationStreamParser()
    assert parser.feed("text " + tail) == "text "
    assert parser.held == tail
    assert parser.close() == tail


@pytest.mark.parametrize(
    ("piece", "released"),
    [
        ("[x", "text [x"),
        ("[note]", "text [note]"),
        ("[S1a", "text [S1a"),
        ("[1234", "text [1234"),
        ("[S1](", "text [S1]("),
        ("【S4】", "text 【S4】"),
        ("[S1] ", "text [S1] "),
        ("[[S1]x", "text [[S1]x"),
    ],
)
def test_resolved_tail_is_released(piece: str, released: str) -> None:
    parser = CitationStreamParser()
    assert parser.feed("text " + piece) == released
    assert parser.held == ""


def test_markdown_link_in_stream_is_not_a_marker() -> None:
    outputs, parser = _stream(["see [S", "1]", "(https://x.y) and [0]", "(u) but [2]", "."])
    assert "".join(outputs) == "see [S1](https://x.y) and [0](u) but [2]."
    assert [m.raw for m in parser.markers] == ["[2]"]


def test_holding_is_bounded() -> None:
    text = "x [" + ", ".join(f"S{i}" for i in range(1, 30)) + "] y"
    parser = CitationStreamParser()
    emitted = ""
    for char in text:
        emitted += parser.feed(char)
        assert len(text[: len(emitted)]) == len(emitted)
        assert len(parser.held) <= MAX_MARKER_CHARS
    emitted += parser.close()
    assert emitted == text
    assert parser.markers == [] == parse_markers(text)


def test_stream_char_by_char_and_misuse() -> None:
    text = "A [S7]. B [0]. C [S3]. D [S2, S9]. E [[s1]] 【S4】 [note] [x](y)"
    _assert_stream_consistent(list(text))
    _assert_stream_consistent([text])
    _assert_stream_consistent(["", text, ""])
    parser = CitationStreamParser()
    with pytest.raises(TypeError):
        parser.feed(None)  # type: ignore[arg-type]
    assert parser.feed("x [S1") == "x "
    assert parser.close() == "[S1"
    assert parser.closed
    with pytest.raises(RuntimeError):
        parser.feed("more")
    with pytest.raises(RuntimeError):
        parser.close()


# --- property tests ------------------------------------------------------------------------------------------

_FRAGMENTS = [
    "Sky", "is", "blue", " ", " ", ".", ",", "\n", "S", "s", "1", "12", "1234", "(", ")", ";", ",", "x",
    "[S1]", "[s2]", "[S10]", "[S1, S3]", "[S1,S3]", "[S1; S3]", "[S2, S9]", "[[S1]]", "[[S2]", "【S4】", "【S1，S2】",
    "[0]", "[7]", "[2, 9]", "[999]", "[1000]",
    "[", "]", "[[", "]]", "【", "】", "[S", "[S1", "[S1, ", "[ S1 ]",
    "[text](http://example.com)", "[1](u)", "[S1](", "](", "[note]", "[see below]", "[[note]]",
    "[S1, S2, S3, S4, S5, S6, S7, S8]", "[S1, S2, S3, S4, S5, S6, S7, S8, S9]",
]


@st.composite
def _split_text(draw: st.DrawFn, text_strategy: st.SearchStrategy[str]) -> list[str]:
    text = draw(text_strategy)
    cuts = draw(st.lists(st.integers(min_value=0, max_value=len(text)), max_size=12))
    bounds = [0, *sorted(cuts), len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


_fragment_texts = st.lists(st.sampled_from(_FRAGMENTS), max_size=30).map("".join)
_noise_texts = st.text(alphabet="[]【】Ss0123456789,;，、 \t()x.", max_size=80)


@settings(max_examples=400, deadline=None, database=None)
@given(_split_text(_fragment_texts))
def test_property_stream_matches_parse_for_any_split(pieces: list[str]) -> None:
    _assert_stream_consistent(pieces)


@settings(max_examples=400, deadline=None, database=None)
@given(_split_text(_noise_texts))
def test_property_stream_matches_parse_on_bracket_noise(pieces: list[str]) -> None:
    _assert_stream_consistent(pieces)
    _assert_stream_consistent(list("".join(pieces)))


# Markdown code around look-alikes (B09): fences, tildes, backtick runs, indentation, table pipes, line breaks.
_CODE_FRAGMENTS = [*_FRAGMENTS, "`", "``", "```", "```py\n", "\n```\n", "~~~\n", "\\`", "    ", "\t", "\n\n",
                   "| a | b |\n", "|---|---|\n", "> ", "- ", "cfg[S2]", "values[0]", "`row[2]`"]
_code_texts = st.lists(st.sampled_from(_CODE_FRAGMENTS), max_size=30).map("".join)


@settings(max_examples=500, deadline=None, database=None)
@given(_split_text(_code_texts))
def test_b09_property_stream_matches_parse_with_code_for_any_split(pieces: list[str]) -> None:
    _assert_stream_consistent(pieces)


_B09_ANSWER = ("To add the first two values:\n\n```python\ntotal = values[0] + values[1]\nname = cfg[S2]\n```\n\n"
               "The `row[2]` entry is the third [S2].\n")


def test_b09_markers_inside_code_are_not_citations() -> None:
    assert [m.raw for m in parse_markers(_B09_ANSWER)] == ["[S2]"]
    assert parse_markers(_B09_ANSWER)[0].start == _B09_ANSWER.rindex("[S2]")
    # every look-alike is still there for a caller that must neutralise them all (sources sent to the model)
    assert [m.raw for m in parse_markers(_B09_ANSWER, include_code=True)] == ["[0]", "[1]", "[S2]", "[2]", "[S2]"]
    assert strip_markers(_B09_ANSWER) == _B09_ANSWER.replace(" [S2].", ".")
    assert check_labels(parse_markers(_B09_ANSWER), {"S1", "S2"}) == CitationCheck(valid=("S2",), invalid=())


@pytest.mark.parametrize("pieces", [
    # the fence split across pieces, and the marker inside the block split too
    ["To add:\n\n``", "`python\ntotal = values[", "0] + values[1]\nname = cfg[S", "2]\n`", "``\n\nThe `", "row[",
     "2]` entry is the third [S2", "].\n"],
    # a backtick arriving alone, after the look-alike it makes code
    ["The `row[2]", "`", " entry is the third [S2]."],
    # one character at a time
    list(_B09_ANSWER),
])
def test_b09_stream_never_takes_code_for_a_citation(pieces: list[str]) -> None:
    _assert_stream_consistent(pieces)
    _, parser = _stream(pieces)
    assert [m.raw for m in parser.markers] == ["[S2]"]


def test_b09_stream_decides_at_once_outside_code_and_when_code_settles_it() -> None:
    parser = CitationStreamParser()
    assert parser.feed("Meals are $65 [S1]") == "Meals are $65 "  # held: could be a link "[S1](...)"
    assert parser.feed(". Then `x") == "[S1]. Then `x"
    assert [m.raw for m in parser.markers] == ["[S1]"]  # no backtick before it: a citation at once
    parser.feed(" [S2] y")
    assert [m.raw for m in parser.markers] == ["[S1]"]  # after an open backtick: code if it closes later
    parser.feed("` and [S3].")
    assert [m.raw for m in parser.markers] == ["[S1]", "[S3]"]  # it closed: [S2] was code; [S3] follows it
    parser.feed("\n```\nx[S4]\n")
    assert [m.raw for m in parser.markers] == ["[S1]", "[S3]"]  # inside a fence: never a citation
    parser.close()
    assert [m.raw for m in parser.markers] == ["[S1]", "[S3]"]


def test_b09_unmatched_backtick_is_literal_once_the_paragraph_ends() -> None:
    parser = CitationStreamParser()
    parser.feed("A lone ` backtick, then a claim [S1].")
    assert parser.markers == []  # a closing backtick may still come in this paragraph
    parser.feed("\n\nNext paragraph.")
    assert [m.raw for m in parser.markers] == ["[S1]"]


@settings(max_examples=200, deadline=None, database=None)
@given(_fragment_texts)
def test_property_markers_are_well_formed(text: str) -> None:
    markers = parse_markers(text)
    previous_end = 0
    for m in markers:
        assert text[m.start : m.end] == m.raw
        assert previous_end <= m.start < m.end <= m.start + MAX_MARKER_CHARS
        assert m.labels and all(label.lstrip("S").isdigit() for label in m.labels)
        previous_end = m.end
    if not markers:
        assert strip_markers(text) == text


def test_labels_as_footnotes_numbers_known_labels_in_order_of_first_citation():
    from grounding.citation_labels import labels_as_footnotes

    text = "Meals are $65 a day [S2]. Hotels [S1][S2] cost $225 [S1, S9]. In code `row[S1]` stays. Gone [S9]."
    assert labels_as_footnotes(text, {"S1", "S2"}) == (
        "Meals are $65 a day [1]. Hotels [2][1] cost $225 [2]. In code `row[S1]` stays. Gone.", ("S2", "S1"))


def test_a_whole_text_is_tried_only_where_a_label_follows_an_opener_and_nothing_is_missed():
    """parse_markers tries only the openers a label follows (not Markdown links, "[note]"): on random texts over the
    characters a marker is made of, it finds exactly the markers a scan of every opener finds."""
    from grounding.citations import scan_markers

    rng = random.Random(13)
    alphabet = list("[]【】Ss0123456789 ,;\t(x)a") + ["[[", "]]", "[S1]", "](u)", "[link](https://x.gov)"]
    found = 0
    for _ in range(50_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20)))
        full, _ = scan_markers(text, 0, at_eof=True)
        assert parse_markers(text, include_code=True) == full, text
        found += bool(full)
    assert found > 5_000
    assert parse_markers("See [the travel page](https://x.gov) and [note].") == []


def test_a_label_a_note_names_in_prose_becomes_its_footnote_in_a_copy():
    """The s44 new-user trial: Copy gave "Note that this changed: S1 (the current version) says ... but S2 (a
    superseded version) says $300 [1][2]": the footnotes numbered the markers, and the note's "S1" and "S2" meant
    nothing once pasted. They become "source [1]" and "source [2]"; a label outside the answer's sources stays as
    written. Only the notes' wording is read: a quoted "Form S1 says" is taken for the label too (a known limit)."""
    from grounding.citation_labels import labels_as_footnotes

    text = ("Hotels are $225 a night [S1]. Note that this changed: S1 (the current version) says $225 but S2 (a "
            "superseded version) says $200 [S1][S2].")
    copied, order = labels_as_footnotes(text, {"S1", "S2"})
    assert copied == ("Hotels are $225 a night [1]. Note that this changed: source [1] (the current version) says "
                      "$225 but source [2] (a superseded version) says $200 [1][2].")
    assert order == ("S1", "S2")
    assert labels_as_footnotes("S3 lists the form, which S1 no longer states [S1].", {"S1", "S3"}) == (
        "source [2] lists the form, which source [1] no longer states [1].", ("S1", "S3"))
    assert labels_as_footnotes("Form S1 says nothing here [S1].", {"S1"})[0] == "Form source [1] says nothing here [1]."
    assert labels_as_footnotes("S9 says so [S1].", {"S1"})[0] == "S9 says so [1]."
