"""Validation of a question before anything is stored: text, size in characters and in tokens."""

from __future__ import annotations

import unicodedata

from django.conf import settings

from chat.errors import AskError
from grounding.citation_strip import strip_markers
from grounding.tokens import counter_for


#: Letters that render as nothing: the Hangul fillers and the blank braille pattern (the s27 breaker sent a question of
#: them, and of lone combining accents, and got a blank-looking conversation).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Symbols that stand for no text: the object replacement character (an embedded object that is not there) and the
#: null notehead (renders as nothing); with private-use and unassigned code points (Co, Cn: a font has no glyph for
#: them, the page shows a box or nothing), a question of nothing else was accepted (the s44 breaker).
PLACEHOLDER_SYMBOLS = frozenset("\ufffc\U0001d159")


def visible(text: str) -> bool:
    """True when ``text`` has a character other than whitespace, control characters (Cc: "\\x1b[31m" is an escape
    code), invisible format characters (Cf: zero-width spaces and joiners, the byte-order mark), combining marks
    (Mn, Me: an accent shows only on a letter before it), BLANK_LETTERS, private-use and unassigned code points (Co,
    Cn) and PLACEHOLDER_SYMBOLS."""
    return any(not ch.isspace() and ch not in BLANK_LETTERS and ch not in PLACEHOLDER_SYMBOLS
               and unicodedata.category(ch) not in ("Cc", "Cf", "Mn", "Me", "Co", "Cn") for ch in text)


#: Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): in a title they reorder what
#: follows them ("Invoice \u202eexe.fdp" shows as "Invoice pdf.exe", the s43 breaker's rename).
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def title_text(text: str) -> str:
    """``text`` as a conversation's title: without control characters (Cc: a bell or an escape code shows as a box or
    nothing) and bidirectional embeddings, overrides and isolates (:data:`_BIDI_CONTROLS`), whitespace runs
    collapsed to one space. Right-to-left text itself, and the marks (U+200E, U+200F), stay. The question keeps
    what its asker typed; only the name shown in the sidebar, the header and the tab is cleaned."""
    text = text.translate(_BIDI_CONTROLS)
    return " ".join("".join(ch if ch.isspace() or unicodedata.category(ch) != "Cc" else " " for ch in text).split())


def storable(text: str) -> bool:
    """True when a database can hold ``text`` and compare it: no NUL character (PostgreSQL refuses one, SQLite ends
    a string at it) and no unpaired surrogate (not encodable as UTF-8)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


#: The longest client id (characters), as the HTTP API's schema says and the database column holds.
CLIENT_ID_MAX = 64


def request_limit(*, chars: int) -> int:
    """The largest request (bytes) a question of ``chars`` characters can make: every character written as the JSON
    \\u escapes of an astral character (12 bytes, as Python's json.dumps writes one), plus 4 KiB for the other
    fields; at least 64 KiB. The HTTP API's body limit (api.http.body_limit) and the websocket's message limit
    (:func:`websocket_message_limit`) are both this, so a question the server would accept always reaches it."""
    return max(64 * 1024, chars * 12 + 4096)


def websocket_message_limit() -> int:
    """The largest websocket message (bytes) the server reads: settings.WEBSOCKET_MAX_MESSAGE_BYTES when set, else
    room for an ask frame with a question at settings.MAX_MESSAGE_CHARS (:func:`request_limit`). Daphne closes the
    socket with code 1009 and a reason on a larger one (config.protocol_server.websocket_limits); the chat page
    refuses to send one."""
    return settings.WEBSOCKET_MAX_MESSAGE_BYTES or request_limit(chars=settings.MAX_MESSAGE_CHARS)


def validate_client_id(client_id: object) -> str:
    """The client's id for a question or a regeneration ("" for none: None or "").

    Raises:
        AskError(invalid_client_id): not a string, longer than CLIENT_ID_MAX characters (never cut: two long ids
            cut alike would be taken for one question), or holding a NUL or an unpaired surrogate character.
    """
    if client_id is None or client_id == "":
        return ""
    if not isinstance(client_id, str) or len(client_id) > CLIENT_ID_MAX:
        raise AskError("invalid_client_id", f"The client id must be text of at most {CLIENT_ID_MAX} characters.")
    if not storable(client_id):
        # no database stores a NUL or an unpaired surrogate (the lookup of a resend raised, and the socket closed)
        raise AskError("invalid_client_id", "The client id must be valid text: no NUL or unpaired surrogate "
                                            "characters.")
    return client_id


#: What a token is, for a reader who counted characters: said with the token limit, by the server and the page.
TOKEN_NOTE = ("(a token is a word or a piece of one; an emoji or a character outside the Latin alphabet can count as "
              "several)")


def json_kind(value: object) -> str:
    """What a decoded JSON value is, in JSON's words ("a number", "an array"), for a message about a field of the
    wrong type (a client writes JSON, not Python)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else "a string" if isinstance(value, str) else type(value).__name__


def validate_question(text: object) -> str:
    """The question stripped of surrounding whitespace.

    Raises:
        AskError: empty_message (missing, or nothing but whitespace, control or invisible characters or citation
            markers such as "[S99]"), invalid_text (not a string; an unpaired
            surrogate or a NUL character, which no database can store), or message_too_long (over
            settings.MAX_MESSAGE_CHARS characters or settings.MAX_MESSAGE_TOKENS tokens; the message names the limit).
    """
    if text is not None and not isinstance(text, str):
        raise AskError("invalid_text", f"The message must be text (a JSON string), not {json_kind(text)}.")
    if not text or not visible(text):
        raise AskError("empty_message", "The message is empty. Type a question first.")
    if not visible(strip_markers(text)):  # "[S99]": a citation marker alone asks nothing (the s45 breaker)
        raise AskError("empty_message", "The message holds only a citation marker. Type a question first.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AskError("invalid_text", "The message holds characters that are not valid text (an unpaired "
                                       "surrogate). Retype or paste it again.")
    if "\x00" in text:
        raise AskError("invalid_text", "The message holds a NUL character, which is not text. Remove it and send "
                                       "it again.")
    text = text.strip()  # counted as the page counts it: the whitespace around a message is not sent on
    limit = settings.MAX_MESSAGE_CHARS
    if len(text) > limit:
        raise AskError("message_too_long",
                       f"The message is {len(text):,} characters long; the limit is {limit:,} characters. "
                       "Shorten it or split it into several questions.")
    tokens = counter_for("extractive").count(text)
    if tokens > settings.MAX_MESSAGE_TOKENS:
        raise AskError("message_too_long",
                       f"The message is {tokens:,} tokens long; the limit is {settings.MAX_MESSAGE_TOKENS:,} tokens "
                       f"{TOKEN_NOTE}. Shorten it or split it into several questions.")
    return text
