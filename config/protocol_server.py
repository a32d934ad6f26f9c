"""What the application needs from Daphne (the protocol server) that Daphne's own options do not give.

Daphne hands Twisted's HTTP requests to the application, but Twisted parses a ``multipart/form-data`` POST body itself
before Daphne sees it (``twisted.web.http.Request.requestReceived``, for ``request.args``, which Daphne never reads),
and answers a body its parser rejects (an empty multipart body: just the closing boundary ``--x--``, as a client
sends for a form with no field) with a bare ``400 Bad Request`` and no body, so the API's JSON error never came. With
:func:`requests_unparsed` the body goes to Django untouched, which reads it once and answers with the API's error.
"""

from __future__ import annotations


def requests_unparsed() -> bool:
    """Make Daphne's HTTP requests leave their body to the application (Twisted's ``parsePOSTFormSubmission=False``,
    a documented argument of ``twisted.web.http.Request``); also saves Twisted a second in-memory parse of every
    upload. Idempotent; returns False when Daphne is not installed (another ASGI server)."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:
        return False
    if getattr(WebRequest, "_grounded_unparsed", False):
        return True
    original = WebRequest.__init__

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("parsePOSTFormSubmission", False)
        original(self, *args, **kwargs)

    WebRequest.__init__ = __init__
    WebRequest._grounded_unparsed = True
    return True
