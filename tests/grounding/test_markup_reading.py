"""What a reader of a page sees is what is ingested (grounding.html_blocks, grounding.parsing): the s48 breaker's
Markdown and HTML pages with hidden text, inline tags inside a block, footnote marks, footnotes and merged table
cells."""

from __future__ import annotations

from grounding.parsing import parse_document


def _texts(data: str, filename: str) -> list[tuple[tuple[str, ...], str]]:
    return [(b.section, b.text) for b in parse_document(data.encode(), filename).blocks]


def test_hidden_html_text_is_not_ingested():
    """'<span style="display:none">Hidden fact: the library is closed on Fridays.</span>' was quoted, run into the
    next sentence ("...Fridays.The library is open Monday to Friday")."""
    page = ("<html><body><h1>Library</h1><p>Staff may borrow up to 5 books.</p>"
            '<p><span style="display: none">Hidden fact: the library is closed on Fridays.</span>'
            "The library is open Monday to Friday.</p><div hidden>Closed forever.</div>"
            '<p style="visibility:hidden">Invisible.</p></body></html>')
    texts = [t for _, t in _texts(page, "library.html")]
    assert texts == ["Staff may borrow up to 5 books.", "The library is open Monday to Friday."]


def test_inline_tags_in_a_block_keep_its_sentence_whole():
    """'<div class="note">The <b>Speak Up</b> line is run by an independent company.</div>' was three blocks ("The",
    "Speak Up", "line is run ..."), so "Who runs the Speak Up line?" was refused; a footnote mark in <sup> after a
    full stop turned "0800 123 456." into "0800 123 456.1"."""
    page = ("# Conduct\n\n## Reporting concerns\n\nCall the Speak Up line on 0800 123 456.<sup>1</sup>\n\n"
            '<div class="note">The <b>Speak Up</b> line is run by an <em>independent</em> company.</div>\n\n'
            "Water boils at 100 m<sup>2</sup> of nothing.\n")
    texts = [t for _, t in _texts(page, "conduct.md")]
    assert texts == ["Call the Speak Up line on 0800 123 456.",
                     "The Speak Up line is run by an independent company.",
                     "Water boils at 100 m2 of nothing."]  # (an exponent after a letter stays)


def test_a_footnote_is_read_as_a_footnote_not_quoted_as_markup():
    """Answers quoted "[^fa]: In bad weather ..." and sentences ending "...allowance.[^1]"."""
    page = ("# Travel\n\n## Meals\n\nOn the last day you may claim 75% of the allowance.[^fa]\n\n"
            "[^fa]: In bad weather the full allowance applies.\n")
    assert _texts(page, "travel.md") == [
        (("Meals",), "On the last day you may claim 75% of the allowance."),
        (("Footnotes",), "- In bad weather the full allowance applies.")]


def test_a_cell_merged_over_rows_is_written_in_each_row():
    """A rowspan table lost "Fraud" from the "Internal Audit" row, so "Who handles fraud?" saw only Compliance."""
    page = ("# Contacts\n\n<table>\n<tr><th>Concern</th><th>Contact</th></tr>\n"
            '<tr><td rowspan="2">Fraud</td><td>Compliance</td></tr>\n<tr><td>Internal Audit</td></tr>\n'
            '<tr><td colspan="2">Harassment: contact HR directly</td></tr>\n</table>\n')
    assert _texts(page, "contacts.md")[-1][1] == ("Concern | Contact\nFraud | Compliance\nFraud | Internal Audit\n"
                                                  "Harassment: contact HR directly")
