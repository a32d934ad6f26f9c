"""chat migration 0008: every question sent with a client id holds its idempotency key where the key is free, so that
a resend is found by the key alone (chat.orchestration.ask_store)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from chat.models import Conversation, Message
from tests.chat.test_ask_queries import accept, answered, asker  # noqa: F401 - the asker fixture

pytestmark = pytest.mark.django_db

fill_free_keys = importlib.import_module("chat.migrations.0008_free_client_keys").fill_free_keys


def keyless_question(conversation: Conversation, client_id: str, text: str) -> Message:
    """A question as stored before keys existed, or after its key's holder was deleted: a client id, no key."""
    return Message.objects.create(conversation=conversation, role=Message.Role.USER, text=text, client_id=client_id,
                                  client_key="")


def test_a_question_whose_key_is_free_takes_it_and_its_resend_finds_it(demo_domain, asker):
    first = accept(asker, client_id="old-1")
    answered(first)
    conversation = first.conversation
    old = keyless_question(conversation, "old-2", "And desktops?")
    holder = accept(asker, client_id="old-3")  # holds the key of old-3 in another conversation
    held = keyless_question(conversation, "old-3", "And tablets?")
    fill_free_keys(apps, None)
    old.refresh_from_db()
    held.refresh_from_db()
    assert old.client_key == f"{asker.pk}:old-2"
    assert held.client_key == ""  # a resend of old-3 finds its holder, as before
    assert Message.objects.get(pk=holder.question.pk).client_key == f"{asker.pk}:old-3"
    resent = accept(asker, text="And desktops?", client_id="old-2", conversation_id=conversation.pk)
    assert resent.question.pk == old.pk  # the stored question, not a new one
    assert Message.objects.filter(conversation=conversation, role=Message.Role.USER).count() == 3
