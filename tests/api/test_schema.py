"""Property-based run of the OpenAPI schema against the app (schemathesis, in process over WSGI).

Schemathesis reads /api/v1/schema from the app, then sends generated requests to every operation, valid ones and
invalid ones, with a valid token. Every response must be a non-5xx that matches the schema: its status code is
documented, its content type and body match, a 429 has Retry-After, a 405 has Allow, an invalid request is refused,
a valid one is not refused as invalid, an operation refuses requests without the token, a deleted conversation is gone.
Bounded: a few examples per operation and mode, so the whole run takes well under a minute.
"""

from __future__ import annotations

import hashlib

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from api.models import ApiToken
from chat import answering
from chat.providers import registry
from chat.models import Conversation, Message
from grounding.providers import ScriptedProvider

pytestmark = pytest.mark.django_db

#: The token the run authenticates with (stored by the `token` fixture), given to schemathesis as the bearerAuth
#: scheme's credentials so that it can also leave it out where it tests that operations refuse requests without it.
TOKEN = "gct_5c4e3a7e3a7e_" + "schemathesis-property-run-token-0123456789a"
#: The statuses schemathesis' defaults expect, plus 413 (message_too_long): it refuses an oversize question, and also
#: a question over the *token* limit, which JSON Schema cannot state (within maxLength, still too many tokens).
#: 5xx is left out of both: no request may fail on the server.
CONFIG = SchemathesisConfig.from_dict({
    "generation": {"mode": "all", "database": "none"},
    "auth": {"openapi": {"bearerAuth": {"bearer": TOKEN}}},
    "checks": {
        "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "413", "429"]},
        "negative_data_rejection": {"expected-statuses": ["400", "401", "403", "404", "405", "409", "413", "415",
                                                          "422", "429"]},
    },
})
schema = schemathesis.openapi.from_wsgi("/api/v1/schema", get_wsgi_application(), config=CONFIG)


@pytest.fixture(autouse=True)
def _fast_answers(monkeypatch):
    """Keep the run bounded: a scripted model instead of the extractive answerer, and no contradiction detection
    (it embeds every sentence of the planned sources, about 3 s an answer on two cores). Retrieval, planning,
    citation checking, the support check and storage still run; the endpoint tests run the whole path."""
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced ", "every 36 months [S1]."]))
    monkeypatch.setattr(answering, "detect_conflicts", lambda *args, **kwargs: [])


@pytest.fixture
def token(demo_domain, alice, bob):
    """A valid token of alice. She has conversation 1 (the smallest id, which schemathesis tries), bob has
    conversation 2, which she must not see."""
    conv = Conversation.objects.create(pk=1, user=alice, domain=demo_domain, title="Laptops")
    q = Message.objects.create(conversation=conv, role="user", text="How often are laptops replaced?")
    Message.objects.create(conversation=conv, role="assistant", reply_to=q, text="Every 36 months [S1].",
                           sources=[{"label": "S1", "title": "Equipment", "text": "Every 36 months."}],
                           citations=[{"label": "S1", "chunk_id": 1, "title": "Equipment", "section": "",
                                       "version": "1", "date": "2024-01-01", "cited_text": "Every 36 months."}])
    Conversation.objects.create(pk=2, user=bob, domain=demo_domain, title="Bob's")
    ApiToken.objects.create(user=alice, name="schemathesis", key=TOKEN[4:16],
                            secret_hash=hashlib.sha256(TOKEN.encode()).hexdigest())
    return TOKEN


@pytest.fixture(autouse=True)
def _wsgi_inside_the_test_transaction():
    """Django's WSGI handler closes "old" connections when a request starts and ends, which would close the test's
    own connection (inside its transaction); Django's test client switches this off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_matches_its_schema_and_never_fails(case, token):
    case.call_and_validate()
