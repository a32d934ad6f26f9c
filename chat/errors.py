"""The one error type of an ask, whatever door it came through (socket, HTTP API, command line).

Every failure a user can meet while asking is an :class:`AskError` with a stable ``code`` (the websocket's error frame
``{"type": "error", "code", "message"}``, the API's ``{"error": {"code", "message"}}`` with the HTTP status of
``api.errors.STATUS``, the command's exit message) and a ``message`` written for the user: which limit, which
document, what to do. Provider failures arrive as :class:`grounding.providers.ProviderError` (raised, never yielded)
and become ``AskError("provider_error")`` at the orchestration.
"""

from __future__ import annotations

#: Every code an AskError may carry, with what it means (the API maps each to an HTTP status in api/errors.py).
CODES: dict[str, str] = {
    "empty_message": "the question is empty",
    "invalid_text": "the question is not valid text (not a string, an unpaired surrogate, a NUL character)",
    "invalid_client_id": "the client id is not text of at most 64 characters",
    "message_too_long": "the question is over the character or token limit",
    "unknown_domain": "no such domain, or one the user may not read",
    "domain_mismatch": "a conversation given with another domain than its own",
    "client_id_reused": "a client id already used for another question or regeneration",
    "not_found": "no such conversation or message of this user",
    "forbidden": "the user's own conversation or answer, in a domain they may no longer read",
    "signed_out": "the websocket's login session ended (logout, account deactivated, password changed)",
    "busy": "an answer is still being generated",
    "in_progress": "this question (same client id) is already being answered",
    "rate_limited": "too many asks in the window",
    "budget": "the fixed parts of the prompt do not fit the window",
    "domain_settings": "the domain's settings are invalid",
    "provider_error": "the model service failed",
    "empty_answer": "the model returned no text",
    "internal": "an unexpected failure on the server",
    # managing conversations and answers on the page (chat.services)
    "empty_name": "a conversation's new name is empty",
    "name_too_long": "a conversation's new name is over the length limit",
    "invalid_feedback": "feedback other than helpful, not helpful or none, or its reason over the length limit",
}


class AskError(Exception):
    """A request that cannot be answered, with a stable code for error frames, API errors and exit messages.

    Attributes:
        code: one of :data:`CODES`.
        message: what the user sees (which limit, which document, what to do).
        retry_after: seconds until a retry can succeed (rate_limited), else None.
        message_id: the stored answer the error is about, when there is one.
    """

    def __init__(self, code: str, message: str, *, retry_after: int | None = None,
                 message_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.message_id = message_id

    def frame(self) -> dict:
        """The websocket/SSE error frame of this error (``retry_after`` and ``message_id`` when set)."""
        frame = {"type": "error", "code": self.code, "message": self.message}
        if self.retry_after is not None:
            frame["retry_after"] = self.retry_after
        if self.message_id is not None:
            frame["message_id"] = self.message_id
        return frame
