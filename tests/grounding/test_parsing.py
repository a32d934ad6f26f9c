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


def test_a_paired_tag_on_one_line_keeps_its_text():
    """The s13 new-user run: the demo handbook's one-line {% alert %}...{% endalert %} (what to bring for the I-9
    check) was removed whole, line and text: "passport" was in no chunk and the question was refused."""
    assert strip_liquid("a\n{% alert %}Bring a passport.{% endalert %}\nb\n") == "a\nBring a passport.\nb\n"
    assert strip_liquid("a\n  {% include x.html %}  \nb\n") == "a\nb\n"  # a line of one tag still goes whole
    assert strip_liquid("a\n{% if x %}{% endif %}\nb\n") == "a\n\nb\n"  # two tags, no text: the line stays empty


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


def test_malformed_front_matter_names_its_line_and_the_fix():
    """The s43 breaker's broken front matter said only "malformed YAML front matter: while parsing a flow sequence":
    the user sees the line of the file where it goes wrong, what is wrong, and how to mend it."""
    data = b"---\ntitle: Leave\ntags: [pay, leave\n---\nBody text.\n"
    with pytest.raises(ParseError) as exc:
        parse_document(data, "leave.md")
    assert str(exc.value) == ("leave.md: malformed YAML front matter at line 3 (while parsing a flow sequence; did "
                              "not find expected ',' or ']'); fix the lines between the two '---' (put quotes around "
                              "a value holding ':', '[', '{' or '#') and ingest it again")
    with pytest.raises(ParseError, match=r"^notes\.md: malformed YAML front matter at line 5 \(mapping values are not "
                                         r"allowed in this context\)"):
        parse_document(b"\n\n---\ntitle: x\nsummary: a: b\n---\nBody.\n", "notes.md")


@pytest.mark.parametrize("data,name,says", [
    (b"# Pay\n\n## Leave\n\n### Travel\n", "outline.md",
     "only headings ('Pay', 'Leave', 'Travel') and no paragraph under them; write the text under the headings"),
    (b"<h1>Pay</h1><h2>Leave &amp; travel</h2>", "outline.html", "only headings ('Pay', 'Leave & travel')"),
    (b"---\ntitle: Only front matter\nowner: HR\n---\n", "empty.md",
     "only front matter (title, owner) and nothing after its closing '---'; write the document's text after it"),
    (b"", "blank.md", "the file is empty"),
    (b"\n\n   \n", "blank.txt", "the file is empty"),
    (b"<!-- draft -->", "comment.md", "nothing in the file reads as text"),
])
def test_a_file_without_text_says_what_it_holds_and_what_to_do(data, name, says):
    """The upload report shows, for a file with no paragraph, what it has instead and what to do, not only "no text
    found" (a tester's outline file looked broken)."""
    with pytest.raises(ParseError) as exc:
        parse_document(data, name)
    assert str(exc.value).startswith(f"{name}: no text found: ") and says in str(exc.value)


def test_utf16_with_a_byte_order_mark_is_read():
    doc = parse_document("# Café\n\nLe menu est à 12 €.".encode("utf-16"), "menu.md")
    assert doc.title == "Café" and [b.text for b in doc.blocks] == ["Le menu est à 12 €."]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read(encoding):
    """The s22 break run: UTF-16 text saved without a byte-order mark was refused as "binary content (NUL bytes), not a
    text document"."""
    doc = parse_document("# Lockers\n\nThe shower room is on level 3. Café.".encode(encoding), "lockers.md")
    assert doc.title == "Lockers" and [b.text for b in doc.blocks] == ["The shower room is on level 3. Café."]


def test_a_nul_byte_in_text_is_refused_saying_what_to_do():
    with pytest.raises(ParseError, match=r"^notes.md: binary content \(NUL bytes\), not a text document; if it is "
                                         r"text, save it as UTF-8 without NUL characters and ingest it again$"):
        parse_document(b"# Notes\n\nThe office\x00 opens at 8.", "notes.md")


def test_angle_bracket_text_that_is_not_html_is_kept():
    doc = parse_document(b"If a<b and c>d then x. Use List<String>. Put a <source> element inside. "
                         b"Use <b>bold</b> here.", "code.md")
    assert [b.text for b in doc.blocks] == [
        "If a<b and c>d then x. Use List<String>. Put a <source> element inside. Use bold here."]


# --- B11: template text that a document shows as code is kept ------------------------------------------------------

TEMPLATE_MD = b"""---
title: Writing templates
---

Loop with `{% for x in y %}` and close it with ``{% endfor %}``.

```liquid
{% for page in site.pages %}
  {{ page.title }}
{% endfor %}
```

    {% include indented.html %}

{% include banner.html %}
Text {% if a %}shown{% endif %}. The directive `{% raw %}{%include%}{% endraw %}` is not used.

{% raw %}{% page "/x/" %}{% endraw %} outside code too.
"""


def test_b11_liquid_in_markdown_code_is_kept_and_removed_elsewhere():
    texts = [b.text for b in parse_document(TEMPLATE_MD, "templates.md").blocks]
    assert texts == [
        "Loop with {% for x in y %} and close it with {% endfor %}.",
        "{% for page in site.pages %}\n  {{ page.title }}\n{% endfor %}",
        "{% include indented.html %}",
        "Text shown. The directive {%include%} is not used.",  # a raw block shows its content, in code or not
        '{% page "/x/" %} outside code too.',
    ]


def test_b11_liquid_in_html_code_is_kept_and_removed_elsewhere():
    html = (b"<html><body><p>Use <code>{% for x in y %}</code> here.{% include x.html %}</p>"
            b"<pre><code>{% if a %}\nb\n{% endif %}</code></pre><p>Press <kbd>{% k %}</kbd>, "
            b"{% if b %}then{% endif %} go.</p></body></html>")
    texts = [b.text for b in parse_document(html, "t.html").blocks]
    assert texts == ["Use {% for x in y %} here.", "{% if a %}\nb\n{% endif %}", "Press {% k %}, then go."]


def test_b11_strip_liquid_keeps_given_code_ranges():
    text = "a {% x %} `{% y %}` {% z %}b"
    start = text.index("`")
    assert strip_liquid(text, keep=[(start, start + 10)]) == "a  `{% y %}` b"


# --- B12: markup declarations are never text ---------------------------------------------------------------------

@pytest.mark.parametrize("head", [
    b"<!doctype html>\n",
    b"<!DOCTYPE html>",
    b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
    b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n',
    b'<!DOCTYPE html [ <!ENTITY x "y"> ]>\n',
    b"\xef\xbb\xbf<!doctype html>\n",  # after a byte-order mark
])
def test_b12_doctype_and_xml_declaration_are_not_text(head):
    page = head + b'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Leave</title></head><body>' \
                  b"<p>Leave accrues monthly.</p></body></html>"
    doc = parse_document(page, "leave.html")
    assert [b.text for b in doc.blocks] == ["Leave accrues monthly."]
    assert doc.title == "Leave"


def test_b12_cdata_markers_are_not_text_but_its_content_is():
    page = (b"<html><body><p>Before.</p><script>//<![CDATA[\nvar x = 1;\n//]]></script>"
            b"<p><![CDATA[Accrual is 4 hours.]]></p></body></html>")
    texts = [b.text for b in parse_document(page, "x.html").blocks]
    assert texts == ["Before.", "Accrual is 4 hours."]
    assert not any("CDATA" in t or "]]>" in t or "<!" in t for t in texts)


def test_b12_text_that_only_looks_like_markup_is_kept():
    texts = [b.text for b in parse_document(b"<p>a <!b c> and 1 < 2; List<String> x</p>", "x.html").blocks]
    assert texts == ["a <!b c> and 1 < 2; List<String> x"]


def test_b12_markdown_shows_a_doctype_in_code_but_never_indexes_one_as_markup():
    md = b"# Pages\n\nStart every page with `<!doctype html>`:\n\n```html\n<!doctype html>\n<html></html>\n```\n\n" \
         b"<!DOCTYPE html>\n\nText after.\n"
    texts = [b.text for b in parse_document(md, "pages.md").blocks]
    assert texts == ["Start every page with <!doctype html>:", "<!doctype html>\n<html></html>", "Text after."]


def _nested_list(levels: int) -> bytes:
    items = "\n".join("  " * i + f"- level {i} point" for i in range(levels))
    return (f"# Policy\n\n{items}\n\nAfter the list: dogs are allowed on Fridays only.\n\n## Later section\n\n"
            "The bicycle rack is in the basement garage.\n").encode()


def test_a_list_nested_a_dozen_levels_deep_keeps_the_text_after_it():
    """markdown-it stopped at 20 nesting levels and dropped the rest of the file silently: a list ten deep lost every
    paragraph after it (the bicycle rack was never found)."""
    doc = parse_document(_nested_list(12), "nested.md")
    texts = [b.text for b in doc.blocks]
    assert "- level 11 point" in texts[0]
    assert texts[1:] == ["After the list: dogs are allowed on Fridays only.",
                         "The bicycle rack is in the basement garage."]


def test_a_list_nested_deeper_than_the_limit_is_refused_with_the_line_not_cut():
    with pytest.raises(ParseError, match=r"deep.md: nested more than 100 levels deep \(lists or quotes\) at line \d+ "
                                         r"of its text; the rest could not be read. Flatten the nesting"):
        parse_document(_nested_list(200), "deep.md")


def test_a_wrapped_list_item_with_a_nested_list_is_one_line():
    """A list item's text before its nested list keeps no soft line break: a link wrapped onto a line of its own
    ("sign a\\n[Gratuitous Services Agreement](...)\\nin advance") split the sentence into three pieces, none quotable
    as the answer."""
    md = (b"# Speakers\n\n1. Have each outside speaker sign a\n   [Gratuitous Services Agreement](https://e.x/a)\n"
          b"   in advance of the event.\n   - This is necessary because the Act does not\n     permit it.\n\n"
          b"- A loose item's first paragraph\n  wrapped here.\n\n  Its second paragraph.\n\n  - nested\n")
    doc = parse_document(md, "speakers.md")
    lines = [line for block in doc.blocks for line in block.text.split("\n")]
    assert "- Have each outside speaker sign a Gratuitous Services Agreement in advance of the event." in lines
    assert "- This is necessary because the Act does not permit it." in lines
    assert "- A loose item's first paragraph wrapped here." in lines
    assert "Its second paragraph." in lines


def test_a_front_matter_title_with_inline_markup_is_its_text():
    """The 18F page "Get set up to travel for TTS <em>before</em> GSA onboarding" was named in answers with its
    markup escaped ("TTS &lt;em&gt;before&lt;/em&gt; GSA"); a title is text. An ampersand or a "<" that is not a tag
    stays."""
    doc = parse_document(b"---\ntitle: Travel for TTS <em>before</em> onboarding\n---\nBook through Concur.\n",
                         "t.md")
    assert doc.title == "Travel for TTS before onboarding"
    doc = parse_document(b"---\ntitle: Pay & leave when 5 < 6\n---\nText.\n", "t.md")
    assert doc.title == "Pay & leave when 5 < 6"


def test_a_slack_channel_tag_is_the_channel_name_a_reader_sees():
    """The 18F handbook names whom to ask with {% slack_channel "..." %} (295 times): removed, "Ask ... for access"
    lost the channel and "Who handles Docker Hub access?" was refused (the s23 conversation set)."""
    assert strip_liquid('Ask\n{% slack_channel "admins-docker" %} for access.') == "Ask\n#admins-docker for access."
    assert strip_liquid('<td>\n  {% slack_channel "dc" %}\n</td>') == "<td>\n  #dc\n</td>"  # a line of its own
    assert strip_liquid("ask in {% slack_channel '#people-ops' %}.") == "ask in #people-ops."
    assert strip_liquid("a\n{% include x.html %}\nb") == "a\nb"  # other tags still go
    # shown as code, it stays as written
    assert parse_document(b'Write `{% slack_channel "x" %}` to link.\n', "p.md").text.count("{% slack_channel") == 1


def test_a_title_or_heading_cannot_reorder_what_is_shown_with_bidirectional_controls():
    # the s27 breaker: a right-to-left override in a heading ("Invoice \u202efdp.exe" shows as "Invoice exe.pdf", the
    # Trojan Source spoofing) was kept in the title and section shown beside every citation of the document
    from grounding.extract import extract_document

    parsed = parse_document("# Invoice \u202efdp.exe\n\n## Pay \u2066now\u2069\n\nThe invoice is due in 30 days.\n"
                            .encode(), "invoice.md")
    assert parsed.title == "Invoice fdp.exe"
    assert [b.section for b in parsed.blocks] == [("Pay now",)]
    assert parsed.blocks[0].text == "The invoice is due in 30 days."
    table = extract_document("Item,Cost\nDesk,$300\n".encode(), "Price\u202elist.csv")
    assert "\u202e" not in table.title and table.title.startswith("Price")
    # a left-to-right mark reorders nothing and stays
    assert parse_document("# Shalom \u200e\u05e9\u05dc\u05d5\u05dd\n\nText.\n".encode(), "s.md").title == \
        "Shalom \u200e\u05e9\u05dc\u05d5\u05dd"


def test_a_headings_closing_attribute_list_is_not_part_of_its_section_name():
    # kramdown's "{#id}" after a heading: the rendered page shows "Set up"; the 18F handbook has 10 (fresh31's
    # f31-34 planned the section "Set up {#set-up-phase-of-engagements}")
    text = ("---\ntitle: Engagements\n---\n\n## Set up {#set-up-phase-of-engagements}\n\nAgree on the scope.\n\n"
            "## Review {: .note}\n\nMeet every week {#not-a-heading}.\n\n## Costs {.5 per page}\n\nPrint less.\n\n"
            "```\n## Shown {#kept}\n```\n")
    doc = parse_document(text.encode(), "engagements.md")
    sections = {b.text: b.section for b in doc.blocks}
    assert sections["Agree on the scope."] == ("Set up",)
    assert sections["Meet every week {#not-a-heading}."] == ("Review",)  # only a heading's closing list goes
    assert sections["Print less."] == ("Costs {.5 per page}",)  # braces that are no attribute list stay
    assert any("## Shown {#kept}" in b.text for b in doc.blocks)  # code is shown as written
