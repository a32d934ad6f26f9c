"""Reason phrases for the HTTP status lines Daphne writes.

ASGI carries no reason phrase, so Daphne leaves it to Twisted, whose table (``twisted.web.http.RESPONSES``) lacks
several codes the application sends (429 Too Many Requests, 422 Unprocessable Entity, ...): their status lines said
"429 Unknown Status". The missing ones are taken from the standard library's ``http.HTTPStatus`` (its names).
"""

from __future__ import annotations

from http import HTTPStatus


def fill_missing() -> list[int]:
    """Add the reason phrase of every standard status code Twisted's table lacks; returns the codes added (none
    when Twisted is not installed, e.g. a WSGI deployment)."""
    try:
        from twisted.web import http
    except ImportError:
        return []
    added = []
    for status in HTTPStatus:
        if status.value not in http.RESPONSES:
            http.RESPONSES[status.value] = status.phrase.encode("ascii")
            added.append(status.value)
    return added
