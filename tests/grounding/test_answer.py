import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grounding.answer import ABSTAIN_MESSAGE, finalize_answer, render_html
from grounding.citations import parse_markers
from grounding.types import ContextPlan, Source


def src(label, text, cid):
    return Source(label=label, chunk_ids=(cid,), document_id=cid, title=f"Doc {cid}", section="Sec",
                  version="v1", date="2025-01-01", text=text, score=0.5, tokens=10)


PLAN = ContextPlan(question="q", sources=tuple(src(f"S{i}", f"Fact number {i} is true. Other words here.", 10 + i)
                                             for i in range(1, 6)))


def test_c08_invalid_labels_reported_and_rendered_as_plain_text():
    v = finalize_answer("A [S7]. B [0]. Fact number 3 is true [S3]. D [S2, S9].", PLAN)
    assert [c.label for c in v.citations] == ["S3", "S2"]
    assert v.invalid == ("S7", "0", "S9")
    assert v.html.count('class="cite"') == 2
    assert 'data-label="S3"' in v.html and 'data-label="S2"' in v.html
    assert 'data-label="S7"' not in v.html and 'data-label="S9"' not in v.html
    assert '<span class="cite-invalid" title="Not a source of this answer">[S7]</span>' in v.html


def test_citation_resolves_through_the_source_map_with_the_cited_sentence():
    v = finalize_answer("Fact number 4 is true [S4].", PLAN)
    [c] = v.citations
    assert (c.label, c.chunk_id, c.title, c.cited_text) == ("S4", 14, "Doc 14", "Fact number 4 is true.")


def test_every_chip_highlights_the_sentence_it_cites():
    """Each chip's highlighted span is the cited source's sentence matching the answer sentence the chip closes:
    for adjacent chips ("[S1][S2]", "[S1] [S2]"), a chip after the full stop ("... true. [S3]") and a quote ending
    in ".." (the text before the marker is stripped before the previous sentence end is looked for)."""
    plan = ContextPlan(question="q", sources=(
        src("S1", "Meals are paid at $65 per day. Hotels are booked centrally.", 1),
        src("S2", "Hotels are booked centrally. Meals are paid at $65 per day of travel.", 2),
        src("S3", "Laptops are replaced every 36 months. Phones are not.", 3),
        src("S4", "Staff may work remotely two days a week. Offices open at 8.", 4)))
    v = finalize_answer("Meals are paid at $65 a day [S1][S2]. Laptops are replaced every 36 months. [S3] "
                        "Hotels are booked centrally [S1] [S2]. The guide says \"staff may work remotely ..\" [S4].",
                        plan)
    assert [(s["label"], s["cited_text"]) for s in v.spans] == [
        ("S1", "Meals are paid at $65 per day."), ("S2", "Meals are paid at $65 per day of travel."),
        ("S3", "Laptops are replaced every 36 months."),
        ("S1", "Hotels are booked centrally."), ("S2", "Hotels are booked centrally."),
        ("S4", "Staff may work remotely two days a week.")]


def test_c16_any_citation_with_no_sources_is_invalid():
    empty = ContextPlan(question="q", sources=(), sufficient=False, abstain_reason="nothing was retrieved")
    v = finalize_answer("It is 5 days [S1].", empty)
    assert v.abstained and v.citations == () and v.invalid == ("S1",) and v.text == ABSTAIN_MESSAGE


def test_model_html_and_script_render_inert():
    html = render_html('<script>alert(1)</script> <img src=x onerror=alert(2)> **bold** [S1]', {"S1"})
    assert "<script" not in html and "<img" not in html and "onerror=" not in html.replace("onerror=alert", "")
    assert "&lt;script&gt;" in html and "<strong>bold</strong>" in html and 'data-label="S1"' in html


def test_abstention_token_becomes_the_abstain_message():
    v = finalize_answer("INSUFFICIENT_EVIDENCE: the sources do not mention stock options.", PLAN)
    assert v.abstained and v.text == ABSTAIN_MESSAGE + " The sources do not mention stock options."


THREE = ContextPlan(question="q", sources=(
    src("S1", "Meals are reimbursed up to $65 a day. Hotels are capped at $200 per night. Taxis need a receipt.", 1),
    src("S2", "Annual leave is 25 days. Sick leave needs a doctor's note after 3 days.", 2),
    src("S3", "Laptops are replaced every 36 months. Phones are replaced every 24 months.", 3)))


@pytest.mark.parametrize("answer,expected", [
    ("Laptops are replaced every 36 months (i.e. 3 years) [S3].", [("S3", "Laptops are replaced every 36 months.")]),
    ("Hotels are capped, e.g. in Paris, at $200 per night [S1].", [("S1", "Hotels are capped at $200 per night.")]),
    ("Hotels are capped at $200 per night [for all staff] [S1].", [("S1", "Hotels are capped at $200 per night.")]),
    ("[S1] Meals are reimbursed up to $65 a day.", [("S1", "Meals are reimbursed up to $65 a day.")]),
    ("- [S2] Annual leave is 25 days.", [("S2", "Annual leave is 25 days.")]),
    ("Meals are reimbursed up to $65 [S1] and annual leave is 25 days [S2].",
     [("S1", "Meals are reimbursed up to $65 a day."), ("S2", "Annual leave is 25 days.")]),
])
def test_the_claim_of_a_chip_is_its_sentence_or_the_part_since_the_previous_chip(answer, expected):
    v = finalize_answer(answer, THREE)
    assert [(s["label"], s["cited_text"]) for s in v.spans] == expected


def test_a_stray_quotes_tag_inside_an_answer_is_text():
    """Only a closed <quotes> block, or an unclosed one that opens the answer, is scratch work to hide; a stray tag is
    text, kept (escaped, as all raw HTML in the answer's Markdown)."""
    text = "Meals are $65 a day [S1]. HTML answers may contain a <quotes> tag. Annual leave is 25 days [S2]."
    v = finalize_answer(text, THREE)
    assert v.text == text.replace("<quotes>", "&lt;quotes&gt;") and [c.label for c in v.citations] == ["S1", "S2"]
    assert "&lt;quotes&gt; tag" in v.html
    hidden = finalize_answer("<quotes>Meals are reimbursed up to $65 a day.</quotes>\nMeals are $65 [S1].", THREE)
    assert hidden.text == "Meals are $65 [S1]."
    assert finalize_answer("<quotes>Meals are reimbursed", THREE).text.strip() == ""


def test_a_thousand_chips_each_get_their_span():
    text = " ".join(f"Laptops are replaced every {i} months [S3]." for i in range(1_000))
    v = finalize_answer(text, THREE)
    assert len(v.spans) == 1_000 and v.html.count('class="cite"') == 1_000
    assert {s["cited_text"] for s in v.spans} == {"Laptops are replaced every 36 months."}


@pytest.mark.parametrize("answer", [
    "Meals are $65 [S1].\n\n[S2]: https://example.com\n\nLaptops are replaced every 36 months [S3].",
    "A link [x](http://a \"title [S2]\") and ![alt [S2]](y.png), then laptops every 36 months [S3].",
    "Code `[S2]` here, then laptops are replaced every 36 months [S3].",
])
def test_chip_numbers_follow_the_markers_whatever_markdown_does_with_them(answer):
    """Chip k opens spans[k]: the S3 chip shows the laptop sentence even when Markdown swallows or moves a marker
    before it; a marker that ends up inside an attribute is plain text, never markup."""
    v = finalize_answer(answer, THREE)
    chips = re.findall(r'data-label="(S\d)" data-span="(\d+)"', v.html)
    assert chips and all(v.spans[int(k)]["label"] == label for label, k in chips)
    s3 = [int(k) for label, k in chips if label == "S3"]
    assert [v.spans[k]["cited_text"] for k in s3] == ["Laptops are replaced every 36 months."]
    assert "<button" not in re.sub(r"<button[^>]*>S\d</button>", "", v.html)


def test_a_bracket_written_as_an_entity_is_text_not_a_chip():
    v = finalize_answer("Leave is 25 days &#91;S2&#93; and meals $65 [S1].", THREE)
    assert re.findall(r'data-label="(S\d)"', v.html) == ["S1"] and "[S2]" in v.html


def test_a_chip_whose_source_shares_one_generic_word_with_the_claim_highlights_nothing():
    """S1 is about meals; the claim is about sick leave and shares only "day" with it: nothing is highlighted
    rather than a meal sentence that would look like evidence."""
    v = finalize_answer("Sick leave needs a note after 3 days [S1].", THREE)
    assert [(s["label"], s["cited_text"]) for s in v.spans] == [("S1", "")]
    assert finalize_answer("Sick leave needs a note after 3 days [S2].", THREE).spans[0]["cited_text"] == (
        "Sick leave needs a doctor's note after 3 days.")


# --- B09: code is never read for citations ---------------------------------------------------------------------------

B09_ANSWER = ("To add the first two values:\n\n```python\ntotal = values[0] + values[1]\nname = cfg[S2]\n```\n\n"
              "The `row[2]` entry is the third Fact number 2 is true [S2].")


def test_b09_markers_inside_code_are_not_citations():
    v = finalize_answer(B09_ANSWER, PLAN)
    assert v.invalid == ()  # neither 0, 1 nor 2 is reported
    assert [c.label for c in v.citations] == ["S2"] and len(v.spans) == 1
    assert v.html.count('class="cite"') == 1 and "cite-invalid" not in v.html
    code = re.findall(r"<code[^>]*>(.*?)</code>", v.html, re.S)
    assert code == ["total = values[0] + values[1]\nname = cfg[S2]\n", "row[2]"]  # code kept as written
    # the same [S2] outside code is a chip, after the inline code
    assert v.html.endswith('Fact number 2 is true <button type="button" class="cite" data-label="S2" data-span="0" '
                           'aria-label="Show source S2">S2</button>.</p>\n')


def test_b09_invalid_look_alikes_in_code_are_not_reported_but_outside_code_are():
    v = finalize_answer("Use `arr[7]` or `x[S9]`; the limit is 5 [S9].\n\n    indented[0]\n", PLAN)
    assert v.invalid == ("S9",)
    assert v.html.count("cite-invalid") == 1


# --- B10: every chip shown exactly once, beside what it supports -----------------------------------------------------

def _chips(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<button type="button" class="cite" data-label="(S\d+)" data-span="(\d+)"', html)


def test_b10_marker_after_a_table_rows_last_pipe_stays_in_that_row():
    v = finalize_answer("| Item | Amount |\n|---|---|\n| Base | 10 |\n| Plus | 15 | [S1]\n", PLAN)
    assert [c.label for c in v.citations] == ["S1"]
    assert _chips(v.html) == [("S1", "0")]
    assert re.search(r"<td>Plus</td>\s*<td>15 <button[^>]*data-label=\"S1\"", v.html)
    # also with a closing pipe after it, and in a table inside a block quote
    v = finalize_answer("> | Item | Amount |\n> |---|---|\n> | Plus | 15 | [S1] |\n", PLAN)
    assert _chips(v.html) == [("S1", "0")] and "<blockquote>" in v.html


def test_b10_marker_on_the_line_after_a_table_is_a_paragraph_not_a_row():
    v = finalize_answer("| Item | Amount |\n|---|---|\n| Plus | 15 |\n[S1]\n", PLAN)
    assert _chips(v.html) == [("S1", "0")]
    assert v.html.count("<tr>") == 2  # header and one row: no row was made of the marker
    assert re.search(r"</table>\s*<p><button[^>]*data-label=\"S1\"[^>]*>S1</button></p>", v.html)
    v = finalize_answer("| Item | Amount |\n|---|---|\n| Plus | 15 |\nTotal is 25 [S2]\n", PLAN)
    assert v.html.count("<tr>") == 2 and re.search(r"</table>\s*<p>Total is 25 <button", v.html)


def test_b10_marker_in_a_link_title_or_image_is_shown_after_it():
    v = finalize_answer('See [the guide](https://x.example "guide [S1]") and ![chart [S2]](c.png).', PLAN)
    assert [lab for lab, _ in _chips(v.html)] == ["S1", "S2"]
    assert re.search(r"the guide <button[^>]*data-label=\"S1\"", v.html)


_MARKS = ["[S1]", "[S2]", "[S1][S2]", "[S9]", "[0]", "[S3, S9]"]


@st.composite
def _structured_answer(draw) -> str:
    mark = lambda: draw(st.sampled_from(_MARKS))  # noqa: E731
    blocks = {
        "paragraph": lambda: f"A claim {mark()} and more {mark()}.",
        "list": lambda: "\n".join(f"{draw(st.sampled_from(['-', '*', '1.']))} item {mark()}"
                                  for _ in range(draw(st.integers(1, 3)))),
        "heading": lambda: f"{draw(st.sampled_from(['#', '##', '###']))} Heading {mark()}",
        "quote": lambda: f"> quoted {mark()}\n> more {mark()}",
        "table": lambda: ("| Item | Amount |\n|---|---|\n" + "\n".join(
            draw(st.sampled_from([f"| a | 1 {mark()} |", f"| b | 2 | {mark()}", f"| c | 3 | {mark()} |",
                                  f"| d {mark()} | 4 |"])) for _ in range(draw(st.integers(1, 3))))
                          + draw(st.sampled_from(["", f"\n{mark()}", f"\nTotal {mark()}"]))),
        "code": lambda: draw(st.sampled_from(["```\nx = cfg[S2] + v[0]\n```", "Inline `row[2]` here.",
                                              "    indented[S1]"])),
        "link": lambda: f'[text](https://x.example "t {mark()}") {mark()}',
    }
    kinds = draw(st.lists(st.sampled_from(sorted(blocks)), min_size=1, max_size=5))
    joiner = draw(st.sampled_from(["\n\n", "\n"]))
    return joiner.join(blocks[k]() for k in kinds)


@settings(max_examples=300, deadline=None, database=None)
@given(_structured_answer())
def test_b10_property_every_citation_is_one_chip_in_any_structure(text):
    v = finalize_answer(text, PLAN)
    chips = _chips(v.html)
    # citations, spans and chips agree: every chip opens the span of its own label occurrence (numbered as the
    # spans), each occurrence at most once; a label repeated in one sentence shows one chip (issue 22)
    numbers = [int(n) for _, n in chips]
    assert len(set(numbers)) == len(numbers) and all(0 <= n < len(v.spans) for n in numbers)
    assert all(v.spans[int(n)]["label"] == lab for lab, n in chips)
    assert {lab for lab, _ in chips} == {c.label for c in v.citations}
    # every valid occurrence is shown unless the same label is shown in its sentence already
    shown = set(numbers)
    for k, span in enumerate(v.spans):
        assert k in shown or any(v.spans[j]["label"] == span["label"] for j in shown)
    # each marker holding a label outside the source map is shown once as text
    known = set(PLAN.source_map)
    assert v.html.count("cite-invalid") == sum(any(lab not in known for lab in m.labels) for m in parse_markers(text))
    # never a chip inside code
    for code in re.findall(r"<code>(.*?)</code>", v.html, re.S):
        assert "<button" not in code and "cite-invalid" not in code


def test_a_cited_span_comes_from_the_sources_stored_sentences_without_splitting(monkeypatch):
    """A source carrying its stored reading (spans found at ingestion) is highlighted from those spans: a sentence
    hard-wrapped over two lines is highlighted whole, and no sentence splitter runs when the answer is finalised."""
    from dataclasses import replace

    import numpy as np

    import grounding.answer as answer_module
    from grounding.sentence_data import SentenceData

    text = "Hotels are booked through the travel\nsystem at least 14 days ahead. Meals are per diem."
    cut = text.index(" Meals")
    spans = ((0, cut), (cut + 1, len(text)))
    data = SentenceData(texts=tuple(text[a:b] for a, b in spans), spans=spans, kinds=("sentence", "sentence"),
                        vectors=np.zeros((2, 4), np.float32), context=np.zeros((2, 4), np.float32))
    source = replace(src("S1", text, 1), sentences=data)

    def no_split(_):
        raise AssertionError("split_sentences ran")

    monkeypatch.setattr(answer_module, "split_sentences", no_split)
    v = finalize_answer("Hotels are booked at least 14 days ahead in the travel system [S1].",
                        ContextPlan(question="q", sources=(source,)))
    assert v.citations[0].cited_text == "Hotels are booked through the travel\nsystem at least 14 days ahead."
    assert v.spans[0]["cited_text"] == v.citations[0].cited_text


def test_a_quoted_sentence_ending_with_an_abbreviation_keeps_it_and_is_cited_after_it():
    """ "... every Friday at 4:00 p.m." was quoted as "4:00 p.m S1." (the abbreviation's full stop cut to place the
    citation): the sentence stays whole, the chip follows it and still highlights it."""
    from grounding import compose

    fridge = "The refrigerator is emptied every Friday at 4:00 p.m."
    text = compose.sentences([(fridge, "S1"), ("Label your food with your name.", "S1")])
    assert text == "The refrigerator is emptied every Friday at 4:00 p.m. [S1] Label your food with your name [S1]."
    plan = ContextPlan(question="q", sources=(src("S1", f"{fridge} Label your food with your name.", 1),))
    v = finalize_answer(text, plan)
    assert [c.label for c in v.citations] == ["S1"] and v.spans[0]["cited_text"] == fridge
    assert compose.cited("Meals are $65.", "S2") == "Meals are $65 [S2]."
