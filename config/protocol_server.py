"""What the application needs from Daphne (the protocol server) that Daphne's own options do not give.

Websocket messages: Daphne's limit (``--websocket-max-message-size``, 1 MiB by default, autobahn's
``maxMessagePayloadSize``) had nothing to do with the product's message limit, and autobahn fails a connection over
it by dropping TCP (``failByDrop``): a client sending a larger message saw its socket die with code 1006 and no
reason. With :func:`websocket_limits` the limit is the product's (chat.validation.websocket_message_limit, from the
settings, for ``runserver`` and the ``daphne`` command alike) and a larger message gets a close frame with code 1009
("message too big") and autobahn's reason naming the size and the limit, as RFC 6455 7.1.7 recommends.

Multipart bodies: Daphne hands Twisted's HTTP requests to the application, but Twisted parses a ``multipart/form-data`` POST body itself
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


def websocket_limits() -> bool:
    """Make Daphne's websocket server read messages up to the product's limit (chat.validation.websocket_message_limit,
    read when the server starts, whatever Daphne's own options say) and close a connection it fails with a close
    frame (code and reason) instead of dropping it. Idempotent; returns False when Daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:
        return False
    if getattr(WebSocketFactory, "_grounded_limits", False):
        return True
    original = WebSocketFactory.setProtocolOptions

    def setProtocolOptions(self, **options) -> None:  # noqa: N802 - autobahn's name
        from chat.validation import websocket_message_limit

        limit = websocket_message_limit()
        options.update(maxMessagePayloadSize=limit, maxFramePayloadSize=limit, failByDrop=False)
        original(self, **options)

    WebSocketFactory.setProtocolOptions = setProtocolOptions
    WebSocketFactory._grounded_limits = True
    return True
