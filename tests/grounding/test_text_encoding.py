"""Text files written in another encoding than UTF-8 (the s47 breaker: Windows-1252, Latin-1 and Shift-JIS files were
refused outright with "not UTF-8 text (byte 4)"): read, with a note in the upload report naming the encoding read."""

from __future__ import annotations

import pytest

from grounding.parsing import ParseError, parse_document
from grounding.text_encoding import guessed_text


@pytest.mark.parametrize("text, encoding, filename", [
    ("# Café policy\n\nThe café opens at 07:30 and serves crème brûlée on Fridays for €2.\n", "cp1252", "cafe.md"),
    ("The “quiet room” is on floor 2 – book it for 30 minutes at most.\n", "cp1252", "quiet.txt"),
    ("倉庫の安全規則: ヘルメット着用。フォークリフトの運転には資格が必要です。\n", "shift_jis", "safety.txt"),
])
def test_a_file_in_another_encoding_is_read_and_the_report_names_it(text, encoding, filename):
    parsed = parse_document(text.encode(encoding), filename)
    body = " ".join(b.text for b in parsed.blocks)
    assert text.strip().lstrip("# ").split("\n")[-1].strip()[:20] in body
    assert len(parsed.notes) == 1 and parsed.notes[0].startswith("not UTF-8: read as ")
    assert "save it as UTF-8" in parsed.notes[0]


def test_utf8_files_carry_no_note_and_garbage_bytes_are_still_refused():
    assert parse_document("The café opens at 07:30.\n".encode("utf-8"), "cafe.md").notes == ()
    # ASCII with a run of bytes no text encoding writes: refused as before, nothing read as "monthly ■Ć"
    with pytest.raises(ParseError, match="not UTF-8 text"):
        parse_document(b"# Mixed\n\nThe gate code changes monthly \xff\xfe\x80 and is posted at reception.\n",
                       "mixed.md")
    with pytest.raises(ParseError, match="not UTF-8"):
        parse_document(b"\x89PNG\xff\x00bad", "broken.md")


def test_a_short_western_page_is_read_as_windows_1252_not_a_tied_code_page():
    """The s48 breaker's Windows-1252 canteen page was read as cp775 ("€3.20" became "Ć3.20", the quotes "ō...ö") and
    its Latin-1 café page as cp1250 ("crème brûlée £3.50" became "crčme brűlée Ł3.50"): the one-byte code pages tie on
    a short text, and Windows-1252 decides. A Polish or Russian page is still read in its own code page."""
    canteen = "# Canteen prices\n\nA coffee costs €3.20 and a “meal deal” costs £5.50 at the café.\n"
    assert guessed_text(canteen.encode("cp1252")) == (canteen, "cp1252")
    cafe = "# Café policy\n\nThe café serves crème brûlée on Fridays for £3.50.\n"
    assert guessed_text(cafe.encode("latin-1"))[0] == cafe
    polish = "Pracownicy otrzymują 18 dni urlopu rocznie. Wniosek należy złożyć przełożonemu. Łódź, Gdańsk."
    assert guessed_text(polish.encode("cp1250")) == (polish, "cp1250")
    russian = "Сотрудники получают 18 дней отпуска в год. Заявление подаётся руководителю за две недели."
    assert guessed_text(russian.encode("cp1251")) == (russian, "cp1251")
