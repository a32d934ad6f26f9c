import pytest

from grounding.parsing import ParseError, parse_document, strip_liquid

MD = b"""---
title: Compensation for extra hours
doc_id: overtime
date: 2024-05-01
---

{% alert %}
  Use this <a href="https://example.com/chart">leave comparison chart</a> first.
{% endalert %}

You need to [request these hours in HR Links]({% page "/tools/hrlinks/#extra" %}) before using them.

## Credit hours

Only people on flexible schedules earn credit hours.

* You can have up to 24 credit hours accrued.
* They never expire.

### Example

Work 1 more hour, receive 1 credit hour.

## Template text

Write {{ user.password }} literally.
"""


def test_markdown_front_matter_sections_liquid_and_links():
    doc = parse_document(MD, "overtime.md")
    assert doc.title == "Compensation for extra hours"
    assert doc.metadata["doc_id"] == "overtime"
    assert doc.metadata["date"] == "2024-05-01"  # dates become ISO strings
    texts = [b.text for b in doc.blocks]
    assert "Use this leave comparison chart first." in texts  # {% alert %} reduced to its text
    assert "You need to request these hours in HR Links before using them." in texts  # link keeps its text
    assert not any("{%" in t or "%}" in t or "hrlinks" in t for t in texts)
    sections = {b.text: b.section for b in doc.blocks}
    assert sections["Only people on flexible schedules earn credit hours."] == ("Credit hours",)
    assert sections["- You can have up to 24 credit hours accrued.\n- They never expire."] == ("Credit hours",)
    assert sections["Work 1 more hour, receive 1 credit hour."] == ("Credit hours", "Example")
    assert sections["Write {{ user.password }} literally."] == ("Template text",)  # output tags stay literal


def test_strip_liquid_keeps_inner_text_and_drops_comments():
    assert strip_liquid("a {% if x %}b{% endif %} {% comment %}secret{% endcomment %}c") == "a b c"


def test_html_and_text_files():
    html = b"<html><head><title>Remote work</title><style>p{}</style></head><body><h1>Remote work</h1>" \
           b"<p>Core hours are <b>10 to 3</b>.</p><h2>Stipend</h2><table><tr><th>Item</th><th>Amount</th></tr>" \
           b"<tr><td>Desk</td><td>$750</td></tr></table><script>alert(1)</script></body></html>"
    doc = parse_document(html, "remote.html")
    assert doc.title == "Remote work"
    assert [(b.section, b.text) for b in doc.blocks] == [
        ((), "Core hours are 10 to 3."), (("Stipend",), "Item | Amount\nDesk | $750")]
    txt = parse_document(b"First paragraph.\n\nSecond one.\n", "notes.txt")
    assert txt.title == "notes" and [b.text for b in txt.blocks] == ["First paragraph.", "Second one."]


@pytest.mark.parametrize("data,name,message", [
    (b"\x89PNG\xff\x00bad", "broken.md", "not UTF-8"),
    (b"---\ntitle: [unclosed\n---\nbody", "bad-yaml.md", "malformed YAML front matter"),
    (b"---\ntitle: Only front matter\n---\n", "empty.md", "no text found"),
    (b"hello", "image.png", "unsupported file type .png"),
])
def test_broken_files_raise_a_clear_parse_error(data, name, message):
    with pytest.raises(ParseError, match=message) as exc:
        parse_document(data, name)
    assert name in str(exc.value)


def test_utf16_with_a_byte_order_mark_is_read():
    doc = parse_document("# Café\n\nLe menu est à 12 €.".encode("utf-16"), "menu.md")
    assert doc.title == "Café" and [b.text for b in doc.blocks] == ["Le menu est à 12 €."]


def test_angle_bracket_text_that_is_not_html_is_kept():
    doc = parse_document(b"If a<b and c>d then x. Use List<String>. Put a <source> element inside. "
                         b"Use <b>bold</b> here.", "code.md")
    assert [b.text for b in doc.blocks] == [
        "If a<b and c>d then x. Use List<String>. Put a <source> element inside. Use bold here."]
