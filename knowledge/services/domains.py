"""Domains: the document sets answers are drawn from."""

from __future__ import annotations

from knowledge.models import Domain


def domain_get_or_create(*, slug: str, name: str = "", description: str = "") -> Domain:
    """The domain with this slug, created (named after the slug unless ``name`` is given) when missing.

    Raises:
        ValueError: the slug or the name is longer than its column holds (said with both lengths; SQLite stored
            such a value whole, PostgreSQL refuses it with a database error).
    """
    for what, value, field in (("domain slug", slug, "slug"), ("domain name", name, "name")):
        limit = Domain._meta.get_field(field).max_length
        if len(value) > limit:
            raise ValueError(f"The {what} must be at most {limit} characters; this one has {len(value)}.")
    domain, _ = Domain.objects.get_or_create(
        slug=slug, defaults={"name": name or slug.replace("-", " ").title(), "description": description})
    return domain
