"""The encoding of a text file that is not UTF-8: Windows-1252, Latin-1 and Shift-JIS files, which Windows tools still
write, were refused outright ("not UTF-8 text (byte 4)": the s47 breaker). The encoding is guessed with
charset-normalizer (its chaos measure: how much the decoded text looks like garbage) and the upload report says which
was read, so a wrong guess is seen. No Django imports.
"""

from __future__ import annotations

import re
import unicodedata

import charset_normalizer

__all__ = ["MAX_CHAOS", "WESTERN_TIE", "guessed_text"]

#: Largest chaos (charset-normalizer's mess ratio, 0..1) a guess may have to be read.
MAX_CHAOS = 0.1
#: How much more chaos than the best guess Windows-1252 may have and still be read: charset-normalizer cannot tell the
#: one-byte Western code pages apart on a short file (the s48 breaker's Windows-1252 page was read as cp775, "€3.20" as
#: "Ć3.20", and its Latin-1 one as cp1250, "crème" as "crčme": 0.025 and 0.0 against 0.0), and Windows-1252 is the
#: legacy encoding Windows tools write for Western languages (the WHATWG Encoding Standard's default for them). A
#: Polish (cp1250), Russian (cp1251) or Greek (cp1253) file is read in its own: Windows-1252 reads it as more chaos,
#: or not at all.
WESTERN_TIE = 0.03
#: Bytes of a text file never hold C0 controls other than tab, line feed, form feed and carriage return.
_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")
#: A valid UTF-8 sequence of two bytes or more: a file holding some is UTF-8 with damage, not a one-byte encoding (read
#: as Windows-1252, its accented letters would become "Ã©").
#: Encodings writing a character in several bytes (Japanese, Chinese, Korean), whose bytes may look like UTF-8's.
_MULTIBYTE = ("cp932", "shift_jis", "euc", "gb", "big5", "cp949", "cp936", "cp950", "iso2022", "johab", "hz")
_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def guessed_text(data: bytes) -> tuple[str, str] | None:
    """(the text, the encoding's name as charset-normalizer gives it, e.g. "cp1252") of bytes that are not UTF-8,
    when they hold no control bytes, a guess decodes them with chaos at most MAX_CHAOS, and a one-byte encoding is not
    guessed for bytes that hold valid UTF-8 sequences, and the text holds no symbol such a file does not (box drawing,
    private use: garbage read as text); None otherwise (binary, or UTF-8 with damage).

    Raises nothing: every failure to guess is None."""
    if _CONTROLS.search(data):
        return None
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is not None and not best.encoding.startswith(_MULTIBYTE) and (western := next(
            (m for m in matches if m.encoding == "cp1252" and m.chaos <= best.chaos + WESTERN_TIE), None)):
        best = western  # the one-byte code pages tie on short texts: Windows-1252, the common one, decides
    if best is None or best.chaos > MAX_CHAOS or best.encoding.replace("-", "_") in ("utf_8", "ascii"):
        return None
    if not best.encoding.startswith(_MULTIBYTE) and _UTF8_MULTIBYTE.search(data):
        return None
    text = str(best)
    # a guess that reads bytes as box-drawing or other symbols is garbage read as text ("monthly ■Ć"), not a file
    # written in that encoding: © ® ° ™ are the symbols such files hold
    # (ASCII controls were refused in the bytes above)
    if any(unicodedata.category(c) in ("So", "Co", "Cn", "Cc") and c not in "©®°™"
           for c in set(text) if not c.isascii()):
        return None
    return text, best.encoding
