"""The websocket's same-origin check (config.origin): the page's own origin or a trusted one, nothing else (the s27
breaker: a page on another port of the same host opened the chat socket with the user's cookie)."""

from __future__ import annotations

import pytest

from config.origin import same_origin


@pytest.mark.parametrize("origin,host", [
    ("http://localhost:8000", "localhost:8000"),
    ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    ("https://chat.example.org", "chat.example.org"),  # a proxy passing the site's Host on: the default port
    ("https://chat.example.org", "chat.example.org:443"),
    ("http://LOCALHOST:8000", "localhost:8000"),  # host names compare without case
])
def test_the_sites_own_origin_is_accepted(origin, host):
    assert same_origin(origin, host)


@pytest.mark.parametrize("origin,host", [
    ("http://127.0.0.1:9999", "127.0.0.1:8000"),  # another program's page on the same host
    ("http://127.0.0.1", "127.0.0.1:8000"),
    ("http://evil.example:8000", "localhost:8000"),
    ("null", "localhost:8000"),  # a sandboxed frame or a file
    ("", "localhost:8000"),
    ("http://localhost:8000", ""),
    ("ftp://localhost:8000", "localhost:8000"),
    ("http://localhost:99999", "localhost:8000"),  # out of range: malformed, not an error
    ("http://localhost:8000", "localhost:x"),
])
def test_another_origin_is_refused(origin, host):
    assert not same_origin(origin, host)


def test_a_trusted_origin_is_accepted_whatever_host_the_proxy_passes_on():
    # behind a proxy that terminates TLS and does not pass the Host on, as docs/operations.md sets it up
    trusted = ("https://chat.example.org", "https://*.corp.example")
    assert same_origin("https://chat.example.org", "127.0.0.1:8001", trusted)
    assert same_origin("https://eu.corp.example", "127.0.0.1:8001", trusted)
    assert not same_origin("http://chat.example.org", "127.0.0.1:8001", trusted)  # another scheme
    assert not same_origin("https://chat.example.org:8443", "127.0.0.1:8001", trusted)  # another port
    assert not same_origin("https://corp.example.evil", "127.0.0.1:8001", trusted)


def test_the_scheme_must_be_the_connections_own():
    """The s43 breaker opened ws://127.0.0.1:8020 with Origin https://127.0.0.1:8020 and was served: the scheme was
    read only to find the default port. Now a plain connection takes only an http Origin and a secure one only an
    https Origin, as Django's CSRF check compares them; the handshake is refused with 403 otherwise."""
    assert same_origin("http://127.0.0.1:8020", "127.0.0.1:8020", secure=False)
    assert not same_origin("https://127.0.0.1:8020", "127.0.0.1:8020", secure=False)
    assert same_origin("https://chat.example.org", "chat.example.org", secure=True)
    assert not same_origin("http://chat.example.org:443", "chat.example.org", secure=True)
    # a trusted origin is compared with the trusted list, whatever the connection (a proxy not passing the scheme on)
    assert same_origin("https://chat.example.org", "127.0.0.1:8001", ("https://chat.example.org",), secure=False)


def test_behind_a_tls_proxy_the_forwarded_scheme_makes_the_handshake_secure(settings):
    from config.origin import handshake_secure

    assert handshake_secure({"scheme": "wss"}, {})
    assert not handshake_secure({"scheme": "ws"}, {b"x-forwarded-proto": "https"})  # not trusted unless configured
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert handshake_secure({"scheme": "ws"}, {b"x-forwarded-proto": "https"})
    assert handshake_secure({}, {b"x-forwarded-proto": "https, http"})
    assert not handshake_secure({"scheme": "ws"}, {b"x-forwarded-proto": "http"})
