"""Personal API tokens: create, revoke, authenticate. Thin and framework-side: the ask path is chat.orchestration."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import timedelta

from django.db import IntegrityError
from django.utils import timezone

from api.errors import ApiError
from api.models import ApiToken
from chat.validation import storable, visible

#: Most live (not revoked) tokens one user may hold.
MAX_ACTIVE_TOKENS = 20
#: last_used_at is written at most this often per token (not on every request).
TOUCH_EVERY = timedelta(seconds=60)

_TOKEN = re.compile(r"gct_([0-9a-f]{12})_([A-Za-z0-9_-]{20,100})", re.ASCII)


class TokenError(ValueError):
    """A token cannot be created (the message says why, for the settings page)."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``. Returns (stored token, the token itself): the only time the token is available.

    Raises:
        TokenError: empty or invisible name, a name holding a NUL or an unpaired surrogate, name over 100
            characters, or the user already has MAX_ACTIVE_TOKENS live tokens.
    """
    name = (name or "").strip()
    if not storable(name):  # PostgreSQL refuses a NUL (the settings page answered 500)
        raise TokenError("The name holds a character that is not text (a NUL or an unpaired surrogate).")
    if not visible(name):
        raise TokenError("Give the token a name, e.g. what will use it.")
    if len(name) > 100:
        raise TokenError("The name is too long: at most 100 characters.")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise TokenError(f"You have {MAX_ACTIVE_TOKENS} live tokens, the most allowed. Revoke one you no longer use.")
    for _ in range(5):
        key = secrets.token_hex(6)
        token = f"{ApiToken.PREFIX}{key}_{secrets.token_urlsafe(32)}"
        try:
            return ApiToken.objects.create(user=user, name=name, key=key, secret_hash=_digest(token)), token
        except IntegrityError:  # the 48-bit key is taken already: draw again
            continue
    raise TokenError("Could not create a token; please try again.")


def token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of the user's own tokens (revoking twice changes nothing).

    Raises:
        ApiToken.DoesNotExist: no such token of this user.
    """
    token = ApiToken.objects.get(pk=token_id, user=user)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def token_authenticate(authorization: str | None) -> ApiToken:
    """The live token named by an ``Authorization: Bearer <token>`` header value, with its user loaded.

    Raises:
        ApiError: missing_token (no header or another scheme), invalid_token (malformed, unknown, wrong secret, or
            the user is inactive), revoked_token (a revoked token).
    """
    scheme, _, value = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError("missing_token", "Authentication required: send 'Authorization: Bearer <token>' with a "
                                        "personal API token (create one on the API tokens settings page).")
    value = value.strip()
    match = _TOKEN.fullmatch(value)
    stored = ApiToken.objects.select_related("user").filter(key=match.group(1)).first() if match else None
    if stored is None or not hmac.compare_digest(stored.secret_hash, _digest(value)):
        raise ApiError("invalid_token", "The API token is not valid.")
    if stored.revoked_at is not None:
        raise ApiError("revoked_token", "The API token was revoked. Create a new one on the API tokens settings page.")
    if not stored.user.is_active:
        raise ApiError("invalid_token", "The API token is not valid.")
    now = timezone.now()
    if stored.last_used_at is None or now - stored.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=stored.pk).update(last_used_at=now)
        stored.last_used_at = now
    return stored
