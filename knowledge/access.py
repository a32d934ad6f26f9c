"""The domain access rule, in one place: superusers read every domain; other signed-in, active users read the domains
that name none of the groups (open to everyone signed in) and those naming one of their groups; anonymous or inactive
users none.

The rule is a subquery of readable domain ids that refers to nothing outside itself, so a query tests a domain id
against it without a join or a DISTINCT (a join on the domain's groups would repeat a domain once per group), and an
ask's access check is part of the query that reads its conversation or domain (issue 20: one round trip, and less
of Django's query composing, on the database worker every ask waits for).
"""

from __future__ import annotations

from functools import cache

from django.db.models import BooleanField, ExpressionWrapper, Q, Value
from django.db.models.expressions import RawSQL


@cache
def _readable_ids_sql() -> str:
    """The readable ids' SQL (one parameter: the user's id), from the models' tables; composed once per process."""
    from django.apps import apps
    from django.contrib.auth import get_user_model
    from django.db import connection

    q = connection.ops.quote_name
    domain = apps.get_model("knowledge", "Domain")
    named = domain.groups.through._meta  # (domain, group): the groups a domain names
    member = get_user_model().groups.through._meta  # (user, group): a user's groups
    d_id, n_domain, n_group = (q(domain._meta.pk.column), q(named.get_field("domain").column),
                               q(named.get_field("group").column))
    m_user, m_group = q(member.get_field(get_user_model()._meta.model_name).column), q(member.get_field("group").column)
    return (f"SELECT {d_id} FROM {q(domain._meta.db_table)} WHERE {d_id} NOT IN "
            f"(SELECT {n_domain} FROM {q(named.db_table)}) "
            f"UNION SELECT n.{n_domain} FROM {q(named.db_table)} n INNER JOIN {q(member.db_table)} m "
            f"ON m.{m_group} = n.{n_group} WHERE m.{m_user} = %s")


def readable_ids(user) -> RawSQL | bool:
    """What ``user`` may read: True (every domain: a superuser), False (none: no user, anonymous or inactive), else
    the subquery of the readable domains' ids (for ``<field>__in``)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return RawSQL(_readable_ids_sql(), [user.pk])


def domain_readable(user, field: str) -> ExpressionWrapper | Value:
    """An annotation: whether ``user`` may read the domain a row's ``field`` (a foreign key to Domain, e.g. "domain"
    or "conversation__domain") names; a boolean."""
    rule = readable_ids(user)
    if isinstance(rule, bool):
        return Value(rule, output_field=BooleanField())
    return ExpressionWrapper(Q(**{f"{field}__in": rule}), output_field=BooleanField())
