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

import importlib
from typing import Callable


def _wrap_once(module: str, owner: str, method: str, wrap: Callable[[Callable], Callable]) -> bool:
    """Replace ``owner.method`` of Daphne's ``module`` by ``wrap(the original)``, once per process (a second call
    finds it done). Returns False when the module cannot be imported (another ASGI server runs the application)."""
    try:
        cls = getattr(importlib.import_module(module), owner)
    except ImportError:
        return False
    flag = f"_grounded_{method}"
    if not getattr(cls, flag, False):
        setattr(cls, method, wrap(getattr(cls, method)))
        setattr(cls, flag, True)
    return True


def requests_unparsed() -> bool:
    """Make Daphne's HTTP requests leave their body to the application (Twisted's ``parsePOSTFormSubmission=False``,
    a documented argument of ``twisted.web.http.Request``); also saves Twisted a second in-memory parse of every
    upload. Idempotent; returns False when Daphne is not installed (another ASGI server)."""
    def wrap(original: Callable) -> Callable:
        def __init__(self, *args, **kwargs) -> None:
            kwargs.setdefault("parsePOSTFormSubmission", False)
            original(self, *args, **kwargs)
        return __init__

    return _wrap_once("daphne.http_protocol", "WebRequest", "__init__", wrap)


def websocket_limits() -> bool:
    """Make Daphne's websocket server read messages up to the product's limit (chat.validation.websocket_message_limit,
    read when the server starts, whatever Daphne's own options say) and close a connection it fails with a close
    frame (code and reason) instead of dropping it. Idempotent; returns False when Daphne is not installed."""
    def wrap(original: Callable) -> Callable:
        def setProtocolOptions(self, **options) -> None:  # noqa: N802 - autobahn's name
            from chat.validation import websocket_message_limit

            limit = websocket_message_limit()
            options.update(maxMessagePayloadSize=limit, maxFramePayloadSize=limit, failByDrop=False)
            original(self, **options)
        return setProtocolOptions

    return _wrap_once("daphne.ws_protocol", "WebSocketFactory", "setProtocolOptions", wrap)
