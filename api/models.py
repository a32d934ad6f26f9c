"""Personal API tokens: a user's bearer credentials for the HTTP API (/api/v1/)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """One personal API token of a user.

    The token reads ``gct_<key>_<secret>``. Only ``key`` (12 hex characters, shown in the token list so the owner can
    tell tokens apart) and the SHA-256 of the whole token are stored: the token itself is shown once, when it is
    created. A fast hash is enough because the secret is 256 random bits (nothing to guess, unlike a password).
    A revoked token stays listed (with when it was revoked) and never authenticates again.
    """

    PREFIX = "gct_"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. 'help-desk form'.")
    key = models.CharField(max_length=16, unique=True, editable=False,
                           help_text="The visible part of the token, used to find it.")
    secret_hash = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the whole token, hex.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.display})"

    @property
    def display(self) -> str:
        """The visible start of the token, e.g. ``gct_1a2b3c4d5e6f_…``."""
        return f"{self.PREFIX}{self.key}_…"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
