"""Personal API tokens: the settings page (create shown once, list, revoke) and bearer authentication."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from api.models import ApiToken
from api.services import MAX_ACTIVE_TOKENS, token_create
from tests.api.helpers import ApiClient, error_of

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"gct_[0-9a-f]{12}_[A-Za-z0-9_-]{43}")


def logged_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def test_the_settings_page_needs_a_login(client):
    r = client.get("/settings/tokens/")
    assert r.status_code == 302 and r.url.startswith("/login/")
    assert client.post("/settings/tokens/", {"name": "x"}).status_code == 302
    assert ApiToken.objects.count() == 0


def test_the_chat_page_links_to_the_tokens_page(alice):
    body = logged_in(alice).get("/").content.decode()
    assert 'href="/settings/tokens/"' in body


def test_a_created_token_is_shown_once_and_stored_hashed(alice):
    client = logged_in(alice, enforce_csrf_checks=False)
    r = client.post("/settings/tokens/", {"name": "help-desk form"})
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    body = r.content.decode()
    secrets_shown = set(TOKEN.findall(body))
    assert len(secrets_shown) == 1 and "shown only this once" in body
    secret = secrets_shown.pop()
    stored = ApiToken.objects.get(user=alice)
    assert stored.name == "help-desk form" and stored.revoked_at is None
    assert stored.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {stored.key, stored.secret_hash} and secret.startswith(f"gct_{stored.key}_")
    later = client.get("/settings/tokens/").content.decode()
    assert secret not in later and stored.display in later and "help-desk form" in later
    # and it works
    assert ApiClient(secret).get("/api/v1/domains").status_code == 200


def test_the_create_form_is_csrf_protected(alice):
    client = logged_in(alice, enforce_csrf_checks=True)
    assert client.post("/settings/tokens/", {"name": "x"}).status_code == 403
    assert ApiToken.objects.count() == 0


@pytest.mark.parametrize("name,message", [
    ("   ", "Give the token a name"), ("x" * 101, "too long"),
    # the s27 breaker: a NUL in the name answered 500 on PostgreSQL (SQLite stored it); zero-width text is no name
    ("a\x00b", "not text (a NUL or an unpaired surrogate)"), ("\u200b\u2060", "Give the token a name")])
def test_a_bad_name_is_refused_with_a_reason(alice, name, message):
    r = logged_in(alice).post("/settings/tokens/", {"name": name})
    assert r.status_code == 400 and message in r.content.decode()
    assert ApiToken.objects.count() == 0


def test_live_tokens_are_capped(alice):
    for i in range(MAX_ACTIVE_TOKENS):
        token_create(user=alice, name=f"t{i}")
    r = logged_in(alice).post("/settings/tokens/", {"name": "one more"})
    assert r.status_code == 400 and "Revoke one" in r.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == MAX_ACTIVE_TOKENS


def test_revoking_a_token_stops_it_at_once(alice):
    token, secret = token_create(user=alice, name="bot")
    api = ApiClient(secret)
    assert api.get("/api/v1/domains").status_code == 200
    client = logged_in(alice)
    r = client.post(f"/settings/tokens/{token.pk}/revoke/", follow=True)
    assert r.status_code == 200 and "Revoked the token" in r.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None
    page = r.content.decode()
    assert "revoked" in page and f'/settings/tokens/{token.pk}/revoke/' not in page  # no button any more
    r = api.get("/api/v1/domains")
    assert error_of(r) == (401, "revoked_token")


def test_another_users_token_cannot_be_revoked_and_revoke_needs_post(alice, bob):
    token, secret = token_create(user=bob, name="bob's")
    client = logged_in(alice)
    assert client.post(f"/settings/tokens/{token.pk}/revoke/").status_code == 404
    assert client.get(f"/settings/tokens/{token.pk}/revoke/").status_code == 405
    assert ApiClient(secret).get("/api/v1/domains").status_code == 200
    assert "bob&#x27;s" not in client.get("/settings/tokens/").content.decode()


@pytest.mark.parametrize("header,code", [
    (None, "missing_token"),
    ("", "missing_token"),
    ("Basic YWxpY2U6cHc=", "missing_token"),
    ("Bearer", "missing_token"),
    ("Bearer not-a-token", "invalid_token"),
    ("Bearer gct_000000000000_" + "A" * 43, "invalid_token"),
])
def test_missing_and_invalid_tokens_get_401(alice, alice_token, header, code):
    headers = {} if header is None else {"Authorization": header}
    for path in ("/api/v1/domains", "/api/v1/conversations", "/api/v1/conversations/1"):
        r = Client().get(path, headers=headers)
        assert error_of(r) == (401, code)
        assert r["WWW-Authenticate"].startswith("Bearer")


def test_a_right_key_with_a_wrong_secret_is_invalid(alice):
    token, secret = token_create(user=alice, name="t")
    forged = secret[:-4] + ("AAAA" if not secret.endswith("AAAA") else "BBBB")
    assert error_of(ApiClient(forged).get("/api/v1/domains")) == (401, "invalid_token")


def test_the_scheme_is_case_insensitive_and_use_is_recorded(alice):
    token, secret = token_create(user=alice, name="t")
    assert token.last_used_at is None
    before = timezone.now()
    r = Client().get("/api/v1/domains", headers={"Authorization": f"bearer {secret}"})
    after = timezone.now()
    assert r.status_code == 200
    token.refresh_from_db()
    assert before <= token.last_used_at <= after  # recorded during this request


def test_an_inactive_users_token_is_invalid(alice):
    _, secret = token_create(user=alice, name="t")
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    assert error_of(ApiClient(secret).get("/api/v1/domains")) == (401, "invalid_token")


def test_a_session_cookie_is_no_api_credential(alice):
    """The API reads the bearer token only: a logged-in browser session without a token gets 401, so the CSRF
    exemption of the API views cannot be used by another site riding on the cookie."""
    client = logged_in(alice, enforce_csrf_checks=True)
    assert error_of(client.get("/api/v1/domains")) == (401, "missing_token")
    r = client.post("/api/v1/ask", '{"question": "hi", "domain": "handbook"}', content_type="application/json")
    assert error_of(r) == (401, "missing_token")
