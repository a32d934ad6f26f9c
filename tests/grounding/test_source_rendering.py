"""Issue 22: a source passage rendered with its structure (headings, lists, tables) and sanitised, and each distinct
citation chip shown once per sentence in an answer."""

from __future__ import annotations

import re

from grounding.rendering import render_html
from grounding.source_rendering import render_source_html, source_markdown


def test_list_items_sub_headings_and_cell_tables_keep_their_structure():
    text = ("Every employee receives one laptop. The standard models are:\n- Engineering: MacBook Pro\n"
            "- Everyone else: MacBook Air\nPeripherals\nYou may order one monitor.\n"
            "Holiday | Date observed\nNew Year's Day | January 1\nLabor Day | September 1")
    html = render_source_html(text, "Standard equipment > Laptops · Peripherals")
    assert re.search(r"<p>Every employee.*are:</p>\s*<ul>\s*<li>Engineering: MacBook Pro</li>\s*"
                     r"<li>Everyone else: MacBook Air</li>\s*</ul>\s*<h4>Peripherals</h4>\s*"
                     r"<p>You may order one monitor.</p>", html, re.S)
    assert re.search(r"<thead>\s*<tr>\s*<th>Holiday</th>\s*<th>Date observed</th>", html)
    assert html.count("<tr>") == 3 and "<td>Labor Day</td>" in html


def test_office_markdown_tables_and_emphasis_render_and_raw_html_is_text():
    html = render_source_html("| **Day** | Hours |\n|---|---|\n| Mon | 8 |\nSee <img src=x onerror=alert(1)> *now*.")
    assert "<th><strong>Day</strong></th>" in html and "<td>8</td>" in html
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html and "<em>now</em>" in html
    # a table header row without its delimiter row still makes a table
    assert "<th>a</th>" in render_source_html("| a | b |\n| 1 | 2 |")


def test_a_line_starting_with_a_hash_is_text_not_a_heading():
    assert source_markdown("#hashtag in a post and more words here.") == "\\#hashtag in a post and more words here.\n"


def test_each_distinct_chip_is_shown_once_per_sentence():
    def chips(text):
        return re.findall(r'data-label="(S\d)" data-span="(\d+)"', render_html(text, {"S1", "S2"}))

    assert chips("Meals are $65 [S1] and lunch is $20 [S1].") == [("S1", "0")]
    assert chips("Meals are $65 [S1][S1][S2].") == [("S1", "0"), ("S2", "2")]
    assert chips("Meals are $65 [S1]. Lunch is $20 [S1].") == [("S1", "0"), ("S1", "1")]
    assert chips("Meals are $65. [S1] Lunch is $20. [S1]") == [("S1", "0"), ("S1", "1")]  # chips after the stop
    assert chips("Meals are $65.[S1] Lunch is $20[S1].") == [("S1", "0"), ("S1", "1")]
    assert chips("- Meals $65 [S1]\n- Lunch $20 [S1]") == [("S1", "0"), ("S1", "1")]  # one per list item


def test_a_repeated_chip_leaves_no_stray_comma_or_space():
    """The s44 breaker: a model answer "... $225 [S1], [S1]." read "$225 S1, ." on the page: the repeated chip
    was hidden and the comma joining it kept. The reader now sees "$225 S1." (and "B." for "A [S1], B [S1].")."""
    def shown(text):
        return re.sub(r"<[^>]+>", "", render_html(text, {"S1", "S2"})).strip()

    assert shown("The limit is $225 [S1], [S1].") == "The limit is $225 S1."
    assert shown("A [S1]; [S1] and [S2].") == "A S1 and S2."
    assert shown("A [S1], B [S1].") == "A S1, B."
    assert shown("A [S1], [S2].") == "A S1, S2."  # two chips keep their comma


def test_a_merged_sources_second_chunk_of_a_sheet_shows_as_a_table_of_its_own():
    # the s28 new user's workbook: two chunks of one sheet merged into one source showed the second chunk's header
    # and its "---" rule as two data rows of the first table
    from grounding.context_merge import joined_text

    first = "| Day | Hours |\n|---|---|\n| Monday | 8 |\n| Tuesday | 9 |"
    second = "| Day | Hours |\n|---|---|\n| Monday | 8 |\n| Tuesday | Off |"
    html = render_source_html(joined_text((first, second))[0])
    assert html.count("<table>") == 2 and html.count("<th>Day</th>") == 2
    assert "<td>---</td>" not in html and "<td>Day</td>" not in html
    assert re.findall(r"<td>(\w+)</td>", html) == ["Monday", "8", "Tuesday", "9", "Monday", "8", "Tuesday", "Off"]
