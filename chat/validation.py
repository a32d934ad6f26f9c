"""Validation of a question before anything is stored: text, size in characters and in tokens."""

from __future__ import annotations

from django.conf import settings

from chat.errors import AskError
from grounding.tokens import counter_for


def validate_question(text: object) -> str:
    """The question stripped of surrounding whitespace.

    Raises:
        AskError: empty_message (missing or nothing but whitespace), invalid_text (not a string; an unpaired
            surrogate or a NUL character, which no database can store), or message_too_long (over
            settings.MAX_MESSAGE_CHARS characters or settings.MAX_MESSAGE_TOKENS tokens; the message names the limit).
    """
    if text is not None and not isinstance(text, str):
        raise AskError("invalid_text", f"The message must be text, not {type(text).__name__}.")
    if not text or not text.strip():
        raise AskError("empty_message", "The message is empty. Type a question first.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AskError("invalid_text", "The message holds characters that are not valid text (an unpaired "
                                       "surrogate). Retype or paste it again.")
    if "\x00" in text:
        raise AskError("invalid_text", "The message holds a NUL character, which is not text. Remove it and send "
                                       "it again.")
    limit = settings.MAX_MESSAGE_CHARS
    if len(text) > limit:
        raise AskError("message_too_long",
                       f"The message is {len(text):,} characters long; the limit is {limit:,} characters. "
                       "Shorten it or split it into several questions.")
    tokens = counter_for("extractive").count(text)
    if tokens > settings.MAX_MESSAGE_TOKENS:
        raise AskError("message_too_long",
                       f"The message is {tokens:,} tokens long; the limit is {settings.MAX_MESSAGE_TOKENS:,} tokens. "
                       "Shorten it or split it into several questions.")
    return text.strip()
