"""The websocket's same-origin check: a handshake is served only when its Origin is the site itself (the scheme, host
and port of the page that opened it) or one of settings.CSRF_TRUSTED_ORIGINS.

Channels' AllowedHostsOriginValidator, which stays in front of the consumer too, compares the Origin's host with
ALLOWED_HOSTS and ignores its port, so a page served by any other program on the same host (`http://127.0.0.1:9999`)
could open the chat socket with the user's cookie and ask in their name (the s27 breaker). Browsers send the Origin
of the page on every websocket handshake; the check is Django's CSRF origin check (CsrfViewMiddleware: the request's
own origin or a trusted one) applied to websockets, where Django's middleware does not run.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

#: The port a URL of each scheme means when it names none.
DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _host_port(netloc: str, scheme: str) -> tuple[str, int | None] | None:
    """(host in lower case, port) of a ``host[:port]`` read with ``scheme``'s default port; None when malformed."""
    try:
        parts = urlsplit(f"//{netloc}")
        return (parts.hostname or "").lower(), parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is not a number, or out of range
        return None


def same_origin(origin: str, host: str, trusted: tuple[str, ...] = (), *, secure: bool | None = None) -> bool:
    """True when ``origin`` (the handshake's Origin header: "http://localhost:8000") names the site the handshake
    reached (``host``: its Host header, "localhost:8000"; a Host without a port means the Origin scheme's default
    one; ``secure``: whether the handshake came over TLS, :func:`handshake_secure`, so an https Origin names only a
    secure site and an http one only a plain one; None: not compared), or is one of ``trusted`` (origins as
    settings.CSRF_TRUSTED_ORIGINS writes them, "https://chat.example.org"; a "*." subdomain pattern there is matched
    as Django's CSRF check matches it). False for a missing or malformed Origin or Host."""
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.netloc:
        return False
    seen, site = _host_port(parts.netloc, scheme), _host_port(host, scheme)
    if seen is None or site is None:
        return False
    if seen == site and seen[0] and (secure is None or secure == (scheme in ("https", "wss"))):
        return True
    for allowed in trusted:
        allowed_parts = urlsplit(allowed)
        if allowed_parts.scheme.lower() != scheme:
            continue
        name = (allowed_parts.hostname or "").lower()
        port = allowed_parts.port or DEFAULT_PORTS.get(scheme)
        if port == seen[1] and (name == seen[0] or name.startswith("*.") and seen[0].endswith(name[1:])):
            return True
    return False


def handshake_secure(scope: dict, headers: dict[bytes, str]) -> bool:
    """True when a websocket handshake came over TLS: its scope's scheme is "wss", or settings.SECURE_PROXY_SSL_HEADER
    names a header the proxy in front set to its value (("HTTP_X_FORWARDED_PROTO", "https"): the header
    X-Forwarded-Proto: https), as Django's HttpRequest.is_secure reads it. ``headers``: lower-case names -> values."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, value = proxy
    name = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
    return headers.get(name, "").split(",")[0].strip() == value


class SameOriginValidator:
    """ASGI middleware: a websocket handshake whose Origin is not :func:`same_origin` with its Host and scheme (nor in
    settings.CSRF_TRUSTED_ORIGINS) is refused (HTTP 403, as Channels' validators refuse); other scopes pass."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            headers = {name.lower(): value.decode("latin1") for name, value in scope.get("headers", [])}
            if not same_origin(headers.get(b"origin", ""), headers.get(b"host", ""),
                               tuple(settings.CSRF_TRUSTED_ORIGINS), secure=handshake_secure(scope, headers)):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
