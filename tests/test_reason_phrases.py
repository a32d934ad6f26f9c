"""Issue 22: Daphne's status lines carry a real reason phrase for every code the application sends (Twisted's table
lacks 429 and 422, which came out as "429 Unknown Status")."""

from __future__ import annotations

from twisted.web import http

import config.asgi  # noqa: F401  (fills the table, as every worker does when it loads the application)


def test_429_and_422_have_their_reason_phrases():
    assert http.RESPONSES[429] == b"Too Many Requests"
    assert http.RESPONSES[422] == b"Unprocessable Entity"
    assert http.RESPONSES[404] == b"Not Found"  # Twisted's own entries are left as they are
