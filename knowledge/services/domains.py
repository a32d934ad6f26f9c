"""Domains: the document sets answers are drawn from."""

from __future__ import annotations

from knowledge.models import Domain


def domain_get_or_create(*, slug: str, name: str = "", description: str = "") -> Domain:
    """The domain with this slug, created (named after the slug unless ``name`` is given) when missing."""
    domain, _ = Domain.objects.get_or_create(
        slug=slug, defaults={"name": name or slug.replace("-", " ").title(), "description": description})
    return domain
