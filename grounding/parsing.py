"""Turn a file's bytes into a title, metadata and text blocks with their section path.

Markdown (YAML front matter via python-frontmatter, rendered by markdown-it-py), HTML (BeautifulSoup) and plain text
share one block walker (grounding.html_blocks): Markdown is rendered to HTML first, so headings, lists, tables and
inline HTML are handled in one place. Jekyll/Liquid tags are removed or reduced to their inner text outside code
(grounding.liquid); links keep their text. Markup declarations (``<!doctype html>``, an XML declaration, an XHTML
doctype, processing instructions) are never text, and CDATA sections count as their content, without their markers
(B12).
"""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re
from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

import frontmatter
import nh3
import yaml
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from grounding.liquid import (strip_heading_attributes, strip_liquid, strip_liquid_html,  # strip_liquid: re-exported
                              strip_liquid_markdown)
from grounding.html_blocks import Block, clean_text, html_blocks, merge_list_runs  # Block, merge_list_runs: re-exported
from grounding.text_encoding import guessed_text

SUPPORTED_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html", ".htm": "html"}


class ParseError(ValueError):
    """A file that cannot be ingested: unreadable encoding, malformed front matter, or no text at all."""


#: Unicode's explicit directional embeddings, overrides and isolates (UAX #9, U+202A-U+202E, U+2066-U+2069). In a
#: title or heading they reorder what is shown after them ("Invoice \u202efdp.exe" shows as "Invoice exe.pdf"), the
#: spoofing of CVE-2021-42574 ("Trojan Source"); the marks LRM and RLM, which reorder nothing, are kept.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def plain_label(text: str) -> str:
    """``text`` (a title or a section name) without bidirectional embedding, override and isolate controls, its
    blanks collapsed: "Invoice \u202efdp.exe" -> "Invoice fdp.exe"."""
    return " ".join(_BIDI_CONTROLS.sub("", text).split())


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed file.

    Attributes:
        title: front matter ``title``, else the first heading, else the file name (of any format, and each block's
            section names, without bidirectional controls: plain_label).
        metadata: front matter (JSON-safe values; dates become ISO strings).
        blocks: text blocks in document order.
        title_from_name: True when the file gave no title (no front matter title, no heading) and ``title`` was made
            from the file name.
        notes: what the reader of the ingestion report should know about this file besides success (a macro-enabled
            document whose macros were not run, a scanned page OCR found no text on), one sentence each.
        pages: how many pages, slides or sheets the file has (0 for formats without them).
    """

    title: str
    metadata: dict[str, Any] = field(default_factory=dict)
    blocks: tuple[Block, ...] = ()
    title_from_name: bool = False
    notes: tuple[str, ...] = ()
    pages: int = 0

    def __post_init__(self) -> None:
        # every format's title and section names pass here once, however they were extracted
        if _BIDI_CONTROLS.search(self.title) or any(_BIDI_CONTROLS.search(" ".join(b.section)) for b in self.blocks):
            object.__setattr__(self, "title", plain_label(self.title))
            object.__setattr__(self, "blocks", tuple(replace(b, section=tuple(plain_label(s) for s in b.section))
                                                     for b in self.blocks))

    @property
    def text(self) -> str:
        """All block text joined by blank lines (what the content hash is taken over)."""
        return "\n\n".join(b.text for b in self.blocks)


#: markdown-it stops at 20 levels of nesting by default and drops the rest of the document silently (a list nested
#: ten deep lost every paragraph after it). Real documents stay far below 100; a deeper one is refused with the line
#: where reading stopped (_markdown_html), never cut silently (much deeper nesting exhausts markdown-it's recursion).
MAX_NESTING = 100
#: Footnotes ("...the allowance.[^1]" / "[^1]: In bad weather ...") are read with mdit-py-plugins' footnote plugin:
#: the reference mark is dropped, the footnote's text stays at the end (grounding.html_blocks); without it the answer
#: quoted "[^1]: In bad weather ..." as written (the s47 and s48 breakers).
_md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table").enable("strikethrough") \
    .use(footnote_plugin)


# HTML elements a Markdown or HTML document may really use; any other "<word" is text ("a<b", "List<String>",
# "<source>"): it is escaped before parsing so that it is kept rather than swallowed as an unknown tag.
_HTML_TAGS = ("a abbr address article aside b bdi bdo blockquote body br button caption cite code col colgroup dd del "
              "details dfn div dl dt em figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html i iframe "
              "img input ins kbd label legend li main mark meta nav noscript ol p pre q s samp script section small "
              "span strong style sub summary sup table tbody td template tfoot th thead time title tr u ul var "
              "video audio picture svg link center font").split()
# a tag is "<name>", "</name>", "<name/>" or "<name attr=...>": bare words after the name ("a<b and c>d") are text;
# a comment, a doctype ("<!doctype html>", an XHTML doctype with its public id, an internal subset in brackets), an
# XML declaration or processing instruction ("<?xml ...?>") and a CDATA section are markup too (B12)
_DECLARATION = r"!--|!doctype\s(?:[^<>\[\]]|\[[^\]]*\])*>|\?[a-z][^<>]*\?>|!\[CDATA\["
# ... or "<name boolean-attribute ...>" ("<div hidden>", "<details open>": an attribute without a value)
_BOOLEAN_ATTRIBUTES = r"(?:hidden|open|disabled|checked|selected|required|readonly|multiple|reversed|controls|inert)"
_NOT_A_TAG = re.compile(r"<(?!(?:/?(?:" + "|".join(_HTML_TAGS) + r")\s*/?>|(?:" + "|".join(_HTML_TAGS)
                        + r")\s[^<>]*=[^<>]*>|(?:" + "|".join(_HTML_TAGS) + r")\s+" + _BOOLEAN_ATTRIBUTES
                        + r"(?:\s[^<>]*)?/?>|" + _DECLARATION + "))", re.I)


def escape_non_tags(text: str) -> str:
    """Escape "<" where it does not open a known HTML element, a comment or a markup declaration, so the text
    survives HTML parsing."""
    return _NOT_A_TAG.sub("&lt;", text)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value



def _markdown_html(body: str, filename: str) -> str:
    """The HTML of a Markdown body (markdown-it, MAX_NESTING levels at most).

    Raises:
        ParseError: the body nests deeper than MAX_NESTING levels (markdown-it stops there and would drop the rest of
            the document): the message names the line where reading stopped.
    """
    tokens = _md.parse(body)
    deepest = max(tokens, key=lambda t: t.level, default=None)
    if deepest is not None and deepest.level >= MAX_NESTING - 1:  # markdown-it reached its limit: the rest is gone
        line = deepest.map[0] + 1 if deepest.map else 0
        raise ParseError(f"{filename}: nested more than {MAX_NESTING} levels deep (lists or quotes)"
                         + (f" at line {line} of its text" if line else "")
                         + "; the rest could not be read. Flatten the nesting and add it again")
    return _md.renderer.render(tokens, _md.options, {})


def _why_empty(raw: str, metadata: dict[str, Any], html: str) -> str:
    """What an ingested file without any paragraph holds instead, and what to do (one sentence, for the upload
    report): nothing at all, only front matter, or only headings."""
    headings = [html_lib.unescape(re.sub(r"<[^>]+>", "", h)).strip()
                for h in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", html, flags=re.S | re.I)]
    headings = [h for h in headings if h]
    if headings:
        shown = ", ".join(f"'{h}'" for h in headings[:3]) + (" ..." if len(headings) > 3 else "")
        return (f"the file has only headings ({shown}) and no paragraph under them; write the text under the headings "
                "and add the file again")
    if metadata:
        return ("the file has only front matter (" + ", ".join(list(metadata)[:3]) + ") and nothing after its "
                "closing '---'; write the document's text after it and add the file again")
    if not raw.strip():
        return "the file is empty; add the file with its text"
    return "nothing in the file reads as text (only markup or comments); add a file with the document's text"


def utf16_without_bom(data: bytes) -> str | None:
    """``data`` decoded as UTF-16 when it is UTF-16 text written without a byte-order mark (as some Windows tools
    save it), else None. Read so when its length is even and one byte of each pair is NUL for at least 90% of the
    pairs, always the same one (little-endian: the second; big-endian: the first), as for text in the Latin
    alphabet, and it decodes to text without NUL characters. (Such a file was refused as "binary content (NUL
    bytes)", the s22 break run; UTF-8 text never holds a NUL byte.)"""
    if len(data) < 4 or len(data) % 2 or b"\x00" not in data:
        return None
    pairs = len(data) // 2
    for encoding, nul_at in (("utf-16-le", 1), ("utf-16-be", 0)):
        if data[nul_at::2].count(0) >= 0.9 * pairs and data[1 - nul_at::2].count(0) == 0:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            return text if "\x00" not in text else None
    return None


def _front_matter_error(filename: str, raw: str, exc: Exception) -> str:
    """What is wrong with a Markdown file's front matter, at which line of the file, and how to mend it: "leave.md:
    malformed YAML front matter at line 3 (while parsing a flow sequence; did not find expected ',' or ']'); fix the
    lines between the two '---' (put quotes around a value holding ':', '[', '{' or '#') and ingest it again" (the s43
    breaker got only "malformed YAML front matter: while parsing a flow sequence")."""
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    where = ""
    if mark is not None:  # marks count lines of the text from its first '---' line (python-frontmatter strips before)
        lead = raw[:len(raw) - len(raw.lstrip())].count("\n")
        where = f" at line {mark.line + 1 + lead}"
    what = "; ".join(p for p in (getattr(exc, "context", None), getattr(exc, "problem", None)) if p) \
        or str(exc).splitlines()[0]
    return (f"{filename}: malformed YAML front matter{where} ({what}); fix the lines between the two '---' (put quotes "
            "around a value holding ':', '[', '{' or '#') and ingest it again")


def parse_document(data: bytes, filename: str) -> ParsedDocument:
    """Parse one file's bytes.

    Args:
        data: raw file content (UTF-8, a BOM is accepted; UTF-16 with a byte-order mark, or without one:
            :func:`utf16_without_bom`).
        filename: used for the format (by suffix) and as the fallback title.
    Returns:
        ParsedDocument with at least one block.
    Raises:
        ParseError: unsupported suffix, bytes that are not UTF-8, malformed YAML front matter, or no text.
    """
    suffix = PurePath(filename).suffix.lower()
    kind = SUPPORTED_SUFFIXES.get(suffix)
    if kind is None:
        raise ParseError(f"{filename}: unsupported file type {suffix or '(none)'}; expected .md, .txt or .html")
    notes: tuple[str, ...] = ()
    try:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raw = data.decode("utf-16")  # a UTF-16 file announces itself with a byte-order mark
        else:
            raw = utf16_without_bom(data) or data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        guess = guessed_text(data)  # a Windows-1252, Latin-1 or Shift-JIS file (grounding.text_encoding)
        if guess is None:
            raise ParseError(f"{filename}: not UTF-8 text (byte {exc.start}): {exc.reason}; save the file as UTF-8 "
                             "and ingest it again") from exc
        raw, encoding = guess
        notes = (f"not UTF-8: read as {encoding} text; check that its accented letters and symbols read right, "
                 "or save it as UTF-8 and add it again",)
    if "\x00" in raw:
        raise ParseError(f"{filename}: binary content (NUL bytes), not a text document; if it is text, save it as "
                         "UTF-8 without NUL characters and ingest it again")
    metadata: dict[str, Any] = {}
    html = ""
    if kind == "markdown":
        try:
            post = frontmatter.loads(raw)
        except (yaml.YAMLError, ValueError) as exc:
            raise ParseError(_front_matter_error(filename, raw, exc)) from exc
        metadata = _jsonable(dict(post.metadata))
        body = escape_non_tags(strip_heading_attributes(strip_liquid_markdown(post.content)))
        html = _markdown_html(body, filename)
        heading_title, blocks = html_blocks(html)
    elif kind == "html":
        html = escape_non_tags(strip_liquid_html(raw))
        heading_title, blocks = html_blocks(html)
    else:
        paragraphs = [clean_text(p) for p in re.split(r"\n\s*\n", raw)]
        blocks = tuple(Block((), p) for p in paragraphs if p)
        heading_title = ""
    if not blocks:
        raise ParseError(f"{filename}: no text found: {_why_empty(raw, metadata, html)}")
    fallback = PurePath(filename).stem.replace("-", " ").replace("_", " ")
    # a front matter title is text: its inline markup is dropped, its words kept ("Get set up to travel for TTS
    # <em>before</em> GSA onboarding" showed "&lt;em&gt;" in answers naming the page)
    title = html_lib.unescape(nh3.clean(str(metadata.get("title") or heading_title or fallback), tags=set()))
    title = " ".join(title.split())
    # A leading H1 equal to the title is the title, not a section.
    if blocks and blocks[0].section[:1] == (title,):
        blocks = tuple(replace(b, section=b.section[1:]) if b.section[:1] == (title,) else b for b in blocks)
    return ParsedDocument(title=title.strip(), metadata=metadata, blocks=blocks,
                          title_from_name=not (metadata.get("title") or heading_title), notes=notes)


#: Front matter keys whose values name what a document is about in its author's words.
KEYWORD_KEYS = ("keywords", "tags")

#: Most keywords kept of one document, and longest keyword (characters): front matter is the author's, not a store.
MAX_KEYWORDS, MAX_KEYWORD_CHARS = 40, 60


def keywords_of(metadata: dict[str, Any]) -> tuple[str, ...]:
    """The keywords a document's front matter gives (``keywords`` or ``tags``: a comma-separated string, as the 18F
    handbook writes them, or a list), lower-cased, stripped, in order, once each, at most MAX_KEYWORDS of at most
    MAX_KEYWORD_CHARS characters; () when there are none or they are neither a string nor a list. The author's words
    for the page's subject ("vacation" on a page that says "paid time off"), for the check that a planned source
    names what a question asks about (grounding.subject_check)."""
    found: list[str] = []
    for key in KEYWORD_KEYS:
        value = metadata.get(key)
        items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else []
        found += [" ".join(str(i).split()).lower() for i in items if isinstance(i, (str, int, float))]
    kept = [k for k in dict.fromkeys(found) if k and len(k) <= MAX_KEYWORD_CHARS]
    return tuple(kept[:MAX_KEYWORDS])
