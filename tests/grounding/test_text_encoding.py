"""Text files written in another encoding than UTF-8 (the s47 breaker: Windows-1252, Latin-1 and Shift-JIS files were
refused outright with "not UTF-8 text (byte 4)"): read, with a note in the upload report naming the encoding read."""

from __future__ import annotations

import pytest

from grounding.parsing import ParseError, parse_document


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
