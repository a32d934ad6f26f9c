"""Typed JSON errors of the HTTP API: ``{"error": {"code": ..., "message": ...}}`` with a stable code and the HTTP
status that goes with it. The codes of chat.errors.AskError (the websocket's error frames) keep their names here."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse

from chat.errors import AskError

#: Every error code the API returns, with its HTTP status. Codes are stable: clients may branch on them.
STATUS: dict[str, int] = {
    # the request itself
    "bad_json": 400,
    "invalid_request": 400,
    "empty_message": 400,
    "invalid_text": 400,  # a NUL or an unpaired surrogate in the question
    "invalid_client_id": 400,
    "message_too_long": 413,
    "request_too_large": 413,
    "unsupported_media_type": 415,
    "method_not_allowed": 405,
    # who is asking
    "missing_token": 401,
    "invalid_token": 401,
    "revoked_token": 401,
    "forbidden": 403,
    "signed_out": 401,  # the websocket's; a token is checked on every request
    # what is asked for
    "not_found": 404,
    "unknown_domain": 404,  # also a domain the user may not read: the two are not told apart (as on the websocket)
    "domain_mismatch": 409,
    "client_id_reused": 409,
    "busy": 409,
    "in_progress": 409,
    "rate_limited": 429,
    # the answer
    "budget": 422,
    "empty_answer": 502,
    "provider_error": 502,
    "domain_settings": 503,
    "internal": 500,
}


class ApiError(Exception):
    """An error response to be: code, message, optional extra fields inside "error" and extra headers."""

    def __init__(self, code: str, message: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = STATUS.get(code, 400)
        self.headers = headers or {}
        self.extra = {k: v for k, v in extra.items() if v is not None}

    @classmethod
    def from_ask(cls, exc: AskError, **extra: Any) -> "ApiError":
        """The API form of a services/rate-limit error (same code; Retry-After for rate_limited)."""
        extra = {"message_id": exc.message_id, **extra}
        if exc.retry_after is not None:
            return cls(exc.code, exc.message, headers={"Retry-After": str(exc.retry_after)},
                       retry_after=exc.retry_after, **extra)
        return cls(exc.code, exc.message, **extra)

    def response(self) -> JsonResponse:
        response = JsonResponse({"error": {"code": self.code, "message": self.message, **self.extra}},
                                status=self.status)
        for name, value in self.headers.items():
            response[name] = value
        if self.status == 401:
            # RFC 6750: no error attribute when no credentials were sent
            response["WWW-Authenticate"] = ('Bearer realm="api"' if self.code == "missing_token"
                                            else 'Bearer realm="api", error="invalid_token"')
        return response
