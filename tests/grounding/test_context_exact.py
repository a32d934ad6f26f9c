"""Fast paths of context planning give exactly what the slow paths give: token counts from a window around an edit,
escaping that skips texts without a character it could change (issue 20, bench_context's cold mode)."""

import random
from pathlib import Path

HANDBOOK = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "18f-handbook"
#: Characters around which cl100k's pieces start or run on (whitespace of each kind, punctuation, apostrophes,
#: digits, letters of other scripts), and the ones escaping changes.
ODD = list("ab cd  ef\n\n\t\r.,;:'s't'RE&<>[]【】0123456789\u00a0\u3000é漢字🙂-_()|/") + [" ", "a", "\n", "'", "s"]


def _paragraphs(limit: int = 3_000) -> list[str]:
    out = []
    for path in sorted(HANDBOOK.rglob("*.md")):
        out += [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return out[:limit]


def _edited(rng: random.Random, text: str) -> str:
    """``text`` with one to three short stretches replaced by short runs of ODD characters."""
    for _ in range(rng.randrange(1, 4)):
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.randrange(0, 4))
        text = text[:a] + "".join(rng.choice(ODD) for _ in range(rng.randrange(0, 5))) + text[b:]
    return text


def test_a_count_from_the_window_around_an_edit_equals_counting_the_edited_text():
    """raw_edited re-encodes only the window around each edit inside a changed line (token_pieces._raw_change); on
    every handbook paragraph and on random texts of odd characters, edited at random places, it gives the count of the
    edited text."""
    from grounding.token_pieces import _raw_change, raw_count, raw_edited

    rng = random.Random(20)
    paragraphs = _paragraphs()
    assert len(paragraphs) > 1_000
    texts = paragraphs + ["".join(rng.choice(ODD) for _ in range(rng.randrange(0, 60))) for _ in range(3_000)]
    changed = 0
    for old in texts:
        new = _edited(rng, old)
        changed += new != old
        assert raw_edited(old, raw_count(old), new) == raw_count(new), (old, new)
        assert raw_count(old) + _raw_change(old, new) == raw_count(new), (old, new)
    assert changed > 4_000


def test_a_count_from_the_windows_around_a_substituted_character_equals_counting_the_new_text():
    """raw_substituted encodes only a window around each occurrence of the character (escaping's "&" -> "&amp;",
    which raw_edited hands to it); on every handbook paragraph, on paragraphs joined by newlines and on random texts of
    odd characters thick with the character, for "&" and for substitutions that add or remove whitespace, letters and
    punctuation, it gives the count of the new text."""
    from grounding.token_pieces import raw_count, raw_edited, raw_substituted

    rng = random.Random(13)
    paragraphs = _paragraphs()
    texts = paragraphs + ["\n".join(rng.sample(paragraphs, 3)) for _ in range(1_000)]
    texts += ["".join(rng.choice(ODD + ["&"] * 5) for _ in range(rng.randrange(0, 60))) for _ in range(6_000)]
    with_amp = 0
    for old in texts:
        new = old.replace("&", "&amp;")
        with_amp += new != old
        assert raw_substituted(old, raw_count(old), "&", "&amp;") == raw_count(new), old
        assert raw_edited(old, raw_count(old), new) == raw_count(new), old
    assert with_amp > 4_000
    for char, replacement in [("<", "&lt;"), ("a", "xyz"), (" ", ""), ("\n", "\n\n"), ("'", " '"), (".", ". "),
                              ("1", "")]:
        for old in texts[::5]:
            assert raw_substituted(old, raw_count(old), char, replacement) == raw_count(old.replace(char, replacement)), \
                (char, old)


#: Texts made to trip each escaping rule and its fast-path check: look-alike delimiters in any case and spacing,
#: markers of every form (fullwidth brackets, doubled, lists, links), header look-alikes ("ſ" matches "s" under
#: re.I), key-value lines and table rows.
ADVERSARIAL = [
    "", "plain text", "a & b", "&amp; &lt;", "</source>", "< / SOURCE >", "<Documents", "<notes>", "<instructions",
    "<conversation_summary>", "<sourcesx", "x<system>y", "<question", "<context>", "<quotes>", "a < b", "<3",
    "[S1]", "[s2, S3]", "[[S4]]", "【S5】", "【6】", "［S1］", "[1](https://x.gov)", "[note]", "[S1a]", "[2024]",
    "[ S7 ; 8 ]", "text [S9]\n[S10] header", "  [S11] indented", "Source S12 | T", "source s13 |", "ſource S14 | x",
    "Sources S1 | no", "x | y", "a | b | c\nd | e | f", "| a | b |\n|---|---|", "Key: value\nOther key: 2",
    "- Rate: $5\n- Limit: 10", "Key:value", "Key:\tv\nK2:\u00a0v", "http://x.gov", "【", "[", "`[S1]`", "```\n[S2]\n```",
]


def _escape_reference(text: str, style: str) -> str:
    """escape_source_text as it was before its fast paths: every rule applied to every text."""
    from grounding.citations import parse_markers
    from grounding.prompt_sources import _DELIMITER, _HEADER_LINE

    text = _DELIMITER.sub(r"&lt;\1", text.replace("&", "&amp;"))
    out, pos = [], 0
    for m in parse_markers(text, include_code=True):
        out += [text[pos:m.start], "(" + ", ".join(m.labels) + ")"]
        pos = m.end
    text = "".join(out) + text[pos:]
    return _HEADER_LINE.sub(r"\1\\\2", text) if style != "xml" else text


class _Claims(str):
    """A text that claims to contain any string, so every check of structure_text for what it contains passes."""

    def __contains__(self, _: object) -> bool:
        return True


def _structure_reference(text: str) -> str:
    """structure_text without its check for text that has neither a row nor a key-value line."""
    from grounding.prompt_sources import structure_text

    return str(structure_text(_Claims(text)))


def _texts() -> list[str]:
    rng = random.Random(11)
    paragraphs = _paragraphs()
    mixed = ["\n".join(rng.sample(ADVERSARIAL, 3)) + " " + rng.choice(paragraphs) for _ in range(2_000)]
    return paragraphs + ADVERSARIAL + mixed + [_edited(rng, rng.choice(paragraphs)) for _ in range(2_000)]


def test_escaping_with_its_fast_paths_gives_what_every_rule_applied_gives():
    """escape_source_text skips a rule when the text lacks the character every match of it needs ("<", "[" or "【",
    "[" or "|"); on the handbook, look-alikes of every kind and random edits, in every style, the result is what
    applying every rule gives."""
    from grounding.prompt_sources import FORMAT_STYLES, escape_source_text

    texts = _texts()
    changed = 0
    for text in texts:
        for style in FORMAT_STYLES:
            escaped = escape_source_text(text, style)
            assert escaped == _escape_reference(text, style), (text, style)
            changed += escaped != text
    assert changed > 3_000  # the escaping rules did change texts


def test_markers_are_found_in_the_same_places_with_or_without_fullwidth_brackets():
    """parse_markers tries only "[" in a text without "【" (citations._PLAUSIBLE_ASCII); the markers are those the
    pattern for both openers finds."""
    from grounding.citations import _PLAUSIBLE, parse_markers, scan_markers

    found = 0
    for text in _texts():
        for code in (True, False):
            markers = parse_markers(text, include_code=code)
            if code:
                assert markers == scan_markers(text, 0, at_eof=True, openers=_PLAUSIBLE)[0], text
            found += len(markers)
    assert found > 1_000


def test_structuring_skips_only_texts_without_a_row_or_a_key_value_line():
    """structure_text returns a text without " | " and without ":" unchanged before searching it; any other text is
    structured as when the check is passed."""
    from grounding.prompt_sources import structure_text

    restructured = 0
    for text in _texts():
        out = structure_text(text)
        assert out == _structure_reference(text), text
        restructured += out != text
    assert restructured > 100
