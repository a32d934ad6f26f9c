"""Jekyll/Liquid statement tags in source documents, removed at ingestion except where the document shows code.

Handbooks built with Jekyll or Eleventy carry Liquid statement tags in their sources: ``{% page "/x/" %}`` inside a
link target, ``{% include x.html %}``, ``{% alert %}...{% endalert %}``. They are template instructions, not text:
a tag is removed (a line holding only a tag goes away whole), a paired tag keeps the text between its parts, and a
``{% comment %}...{% endcomment %}`` goes with its content. Output tags such as ``{{ user.name }}`` are kept
literally: they are document text, never evaluated. One statement tag is text: ``{% slack_channel "admins-docker" %}``
is where the page tells its reader whom to ask, and becomes "#admins-docker", as the rendered page shows it (the 18F
handbook has 295 of them; removed, "Ask {% slack_channel "admins-docker" %} for access" read "Ask for access", and
"Who handles Docker Hub access?" was refused).

What a document shows as code is kept literally (B11): tags inside a Markdown code span or code block, or inside an
HTML ``<pre>``, ``<code>``, ``<kbd>`` or ``<samp>`` element, are what a page about templates shows its reader
(``{% for x in y %}``). ``{% raw %}...{% endraw %}`` is Liquid's own way to show tags: its content is kept literally
wherever it is (the raw tags themselves are removed), as Jekyll would render it. Where code is comes from
grounding.code_regions.

Jekyll's Markdown (kramdown) also writes a heading's id or class after its text, ``## Set up {#set-up-phase}``
(:func:`strip_heading_attributes`): rendered, the page shows "Set up"; read as CommonMark it was the section name
"Set up {#set-up-phase}" in the source panel and in answers naming the section (the 18F handbook has 10).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grounding.code_regions import html_code_ranges, in_ranges, markdown_code_ranges

__all__ = ["strip_heading_attributes", "strip_liquid", "strip_liquid_html", "strip_liquid_markdown"]

#: One alternative per kind, tried in this order at each position: a raw block (kept, tags removed), a comment
#: (removed with its content), a Slack channel tag (its channel's name, "#name"), a line holding only another tag
#: (removed with its line break: a blank line left in its place would end an HTML block in Markdown), any other
#: statement tag (removed).
_LIQUID = re.compile(
    r"(?P<raw>{%-?\s*raw\s*-?%}(?P<literal>.*?){%-?\s*endraw\s*-?%})"
    r"|(?P<comment>{%-?\s*comment\s*-?%}.*?{%-?\s*endcomment\s*-?%})"
    r"|(?P<channel>{%-?\s*(?:slack_)?channel\s+[\"'](?P<name>[^\"'\n%]+)[\"']\s*-?%})"
    # one tag: "{% alert %}text{% endalert %}" keeps text
    r"|(?P<line>^[ \t]*(?!{%-?\s*(?:slack_)?channel\s){%-?(?:[^%\n]|%(?!}))*-?%}[ \t]*\n)"
    r"|(?P<tag>{%-?.*?-?%})",
    re.S | re.M)


def strip_liquid(text: str, *, keep: Sequence[tuple[int, int]] = ()) -> str:
    """Remove Liquid statement tags ({% ... %}) from ``text``, keeping the text between paired tags.

    Args:
        text: document source.
        keep: character ranges of ``text`` shown as code (sorted, non-overlapping): a tag starting inside one is
            kept as written.
    Returns:
        The text without its statement tags (characters in, characters out); ``{% raw %}`` content kept literally.
    """
    ranges = list(keep)
    out, pos = [], 0
    for m in _LIQUID.finditer(text):
        if m.group("raw") is not None:
            out += [text[pos:m.start()], m.group("literal")]
        elif m.group("channel") is not None and not in_ranges(ranges, m.start()):
            out += [text[pos:m.start()], "#" + m.group("name").strip().lstrip("#")]
        elif in_ranges(ranges, m.start()):
            continue  # code: left in place, copied with the text around it
        else:
            out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def strip_liquid_markdown(text: str) -> str:
    """:func:`strip_liquid` for a Markdown document: tags in code spans and code blocks (and in <pre>/<code> of raw
    HTML blocks) are kept."""
    return strip_liquid(text, keep=markdown_code_ranges(text, html=True) if "{%" in text else ())


def strip_liquid_html(text: str) -> str:
    """:func:`strip_liquid` for an HTML document: tags inside <pre>, <code>, <kbd> and <samp> are kept."""
    return strip_liquid(text, keep=html_code_ranges(text) if "{%" in text else ())


#: An ATX heading's closing attribute list (kramdown): "{#id}", "{: .class}", "{.class #id}", "{##id}"; not other
#: text in braces ("{.5 per page}", "{see below}").
_HEADING_ATTRIBUTES = re.compile(r"^(?P<heading>[ ]{0,3}#{1,6}[ \t]+[^\n]*?\S)[ \t]+\{(?::|#[#\w]|\.[A-Za-z_])[^{}\n]*\}"
                                 r"[ \t]*$", re.M)


def strip_heading_attributes(text: str) -> str:
    """A Markdown document without the attribute lists closing its ATX headings ("## Set up {#set-up-phase}" ->
    "## Set up"); a heading inside a code block is kept as written (characters in, characters out)."""
    if "{" not in text or not _HEADING_ATTRIBUTES.search(text):
        return text
    keep = markdown_code_ranges(text)
    return _HEADING_ATTRIBUTES.sub(lambda m: m.group(0) if in_ranges(keep, m.start()) else m.group("heading"), text)
