"""Domain access by groups and versioned system prompts (the rules the chat, admin and API share)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.answering import answer_prepare
from chat.errors import AskError
from chat.persistence import answer_planned, answer_start
from chat.selectors import conversation_get, domain_get
from chat.models import Conversation
from grounding.prompt import ABSTAIN_TOKEN, DEFAULT_SYSTEM_PROMPT
from knowledge.models import Domain, SystemPrompt
from knowledge.services import (system_prompt_activate, system_prompt_active, system_prompt_save,
                                system_prompt_warnings)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    User = get_user_model()
    hr = Group.objects.create(name="HR")
    alice = User.objects.create_user("alice", password="pw")  # in HR
    alice.groups.add(hr)
    bob = User.objects.create_user("bob", password="pw")  # in no group
    root = User.objects.create_superuser("root", password="pw")
    open_domain = Domain.objects.create(slug="open", name="Open")
    hr_domain = Domain.objects.create(slug="hr", name="HR files")
    hr_domain.groups.add(hr)
    return alice, bob, root, open_domain, hr_domain


def test_domains_without_groups_are_open_to_signed_in_users_and_group_domains_to_members(people):
    alice, bob, root, open_domain, hr_domain = people
    ours = {open_domain, hr_domain}  # session fixtures may hold other (open) domains in the database
    assert set(Domain.objects.readable_by(alice)) & ours == {open_domain, hr_domain}
    assert set(Domain.objects.readable_by(bob)) & ours == {open_domain}
    assert set(Domain.objects.readable_by(root)) & ours == {open_domain, hr_domain}
    from django.contrib.auth.models import AnonymousUser
    assert list(Domain.objects.readable_by(AnonymousUser())) == []
    bob.is_active = False
    assert list(Domain.objects.readable_by(bob)) == []


def test_a_domain_one_may_not_read_looks_unknown_and_the_error_lists_only_readable_ones(people):
    alice, bob, root, open_domain, hr_domain = people
    assert domain_get(slug="hr", user=alice) == hr_domain
    with pytest.raises(AskError) as err:
        domain_get(slug="hr", user=bob)
    assert err.value.code == "unknown_domain"
    known = err.value.message.removeprefix("Unknown domain 'hr'. Known domains: ").rstrip(".").split(", ")
    assert "open" in known and "hr" not in known


def test_losing_the_group_closes_ones_own_conversation_with_a_clear_reason(people):
    alice, bob, root, open_domain, hr_domain = people
    conv = Conversation.objects.create(user=alice, domain=hr_domain, title="Leave")
    assert conversation_get(user=alice, conversation_id=conv.pk) == conv
    alice.groups.clear()
    with pytest.raises(AskError) as err:
        conversation_get(user=alice, conversation_id=conv.pk)
    assert err.value.code == "forbidden" and "HR files" in err.value.message


def test_a_domain_naming_several_of_ones_groups_is_read_once_and_its_conversation_in_one_query(people):
    alice, bob, root, open_domain, hr_domain = people
    legal = Group.objects.create(name="Legal")
    alice.groups.add(legal)
    hr_domain.groups.add(legal)
    assert [d for d in Domain.objects.readable_by(alice) if d == hr_domain] == [hr_domain]  # not once per group
    conv = Conversation.objects.create(user=alice, domain=hr_domain, title="Leave")
    for groups, readable in (([legal], True), ([], False)):
        alice.groups.set(groups)
        with CaptureQueriesContext(connection) as ctx:
            try:
                conversation_get(user=alice, conversation_id=conv.pk)
                refused = None
            except AskError as err:
                refused = err.code
        assert len(ctx.captured_queries) == 1  # the conversation and its access rule together
        assert refused == (None if readable else "forbidden")


def test_chat_page_offers_only_readable_domains(client, people):
    alice, bob, root, open_domain, hr_domain = people
    client.force_login(bob)
    body = client.get("/").content.decode()
    assert 'value="open"' in body and 'value="hr"' not in body


def test_saving_a_prompt_creates_a_version_and_activates_it_keeping_the_history(people):
    alice, *_ = people
    assert system_prompt_active() == (DEFAULT_SYSTEM_PROMPT, None)
    v1 = system_prompt_save(text="Cite [S1]. Say " + ABSTAIN_TOKEN + " when unsure.", user=alice, note="first")
    v2 = system_prompt_save(text="Cite as [S1]; reply " + ABSTAIN_TOKEN + " if the sources lack it.", note="second")
    assert (v1.version, v2.version) == (1, 2)
    assert system_prompt_active() == (v2.text, v2)
    assert list(SystemPrompt.objects.filter(is_active=True)) == [v2]
    assert SystemPrompt.objects.get(pk=v1.pk).text.startswith("Cite [S1].")  # history kept unchanged
    system_prompt_activate(prompt=v1)
    assert system_prompt_active()[1] == v1 and not SystemPrompt.objects.get(pk=v2.pk).is_active
    with pytest.raises(ValueError):
        system_prompt_save(text="   ")


def test_warnings_name_a_missing_citation_rule_and_abstention_token():
    assert system_prompt_warnings(DEFAULT_SYSTEM_PROMPT) == []
    warnings = system_prompt_warnings("Answer helpfully.")
    assert len(warnings) == 2
    assert "citation rule" in warnings[0] and ABSTAIN_TOKEN in warnings[1]
    assert system_prompt_warnings(f"Cite [S1]. {ABSTAIN_TOKEN}") == []


def test_each_answer_records_the_prompt_version_it_used(demo_domain):
    from chat.models import Message
    version = system_prompt_save(text=DEFAULT_SYSTEM_PROMPT + "\n8. Answer in English.", note="english")
    prepared = answer_prepare(domain=demo_domain, question="What is the daily meal allowance?")
    assert prepared.prompt_version == version
    assert prepared.prompt.prefix.startswith(DEFAULT_SYSTEM_PROMPT + "\n8. Answer in English.")
    user = get_user_model().objects.create_user("carol", password="pw")
    conv = Conversation.objects.create(user=user, domain=demo_domain)
    q = Message.objects.create(conversation=conv, role="user", text="What is the daily meal allowance?")
    answer = answer_start(question=q)
    answer_planned(message=answer, prepared=prepared)
    answer.refresh_from_db()
    assert answer.prompt_version == version and answer.trace["prompt_version"] == 1


def test_prompt_versions_and_domain_instructions_store_their_token_counts_when_saved(people):
    """What planning reads instead of encoding the system prompt on every ask: each version's count made at save,
    the domain's instructions with its conflict rule counted again whenever either changes."""
    from importlib import import_module

    from django.apps import apps

    from chat.answering import answer_inputs
    from grounding.token_pieces import raw_count

    *_, open_domain, _ = people
    version = system_prompt_save(text=DEFAULT_SYSTEM_PROMPT + "\nAnswer in English.  ", user=None)
    assert version.tokens == raw_count((DEFAULT_SYSTEM_PROMPT + "\nAnswer in English.").strip())
    assert open_domain.instructions_tokens == raw_count(open_domain.prompt_instructions())
    open_domain.instructions = "Quote clauses exactly."
    open_domain.save()
    assert Domain.objects.get(pk=open_domain.pk).instructions_tokens == raw_count(open_domain.prompt_instructions())
    open_domain.conflict_policy = "show_both"
    open_domain.save(update_fields=["conflict_policy"])
    stored = Domain.objects.get(pk=open_domain.pk).instructions_tokens
    assert stored == raw_count("Quote clauses exactly.\n" + Domain.CONFLICT_RULES["show_both"])
    inputs = answer_inputs(domain=Domain.objects.get(pk=open_domain.pk))
    assert inputs.stored_counts == (version.tokens, stored)
    # rows saved before the counts existed are counted by the migration that added them, with their digests
    Domain.objects.filter(pk=open_domain.pk).update(instructions_tokens=None, instructions_digest="")
    SystemPrompt.objects.filter(pk=version.pk).update(tokens=None, digest="")
    import_module("knowledge.migrations.0015_prompt_count_digests").count_with_digests(apps, None)
    assert Domain.objects.get(pk=open_domain.pk).instructions_tokens == stored
    assert SystemPrompt.objects.get(pk=version.pk).tokens == version.tokens
    assert answer_inputs(domain=Domain.objects.get(pk=open_domain.pk)).stored_counts == (version.tokens, stored)


def test_a_stored_count_is_not_read_for_a_text_it_was_not_made_from(people, monkeypatch):
    """A text changed without a save (a queryset update) or a conflict rule changed in the code after the domain was
    saved: the stored count no longer fits the text the prompt holds, and planning counts the text again rather than
    budgeting with the stale count (the stored counts read None)."""
    from chat.answering import answer_inputs

    *_, open_domain, _ = people
    version = system_prompt_save(text=DEFAULT_SYSTEM_PROMPT + "\nAnswer in English.", user=None)
    open_domain.instructions = "Quote clauses exactly."
    open_domain.save()
    fresh = Domain.objects.get(pk=open_domain.pk)
    assert fresh.stored_counts(version)[0] == version.tokens and fresh.stored_counts(version)[1] is not None
    monkeypatch.setitem(Domain.CONFLICT_RULES, fresh.conflict_policy, "When sources disagree, say so at length.")
    assert fresh.stored_counts(version) == (version.tokens, None)
    SystemPrompt.objects.filter(pk=version.pk).update(text="Answer only in French.")
    assert answer_inputs(domain=fresh).stored_counts == (None, None)


def test_a_prompt_leaving_a_domain_no_room_for_the_question_is_warned_about():
    """The s44 breaker saved an active system prompt longer than the window without a warning; every ask then failed
    and chat users saw "the prompt cannot fit: usable window 14400 tokens ...". Saving it now warns, naming the domain,
    the numbers and the fix."""
    Domain.objects.create(slug="small", name="Small", window=4_000, completion_reserve=1_000)
    Domain.objects.create(slug="large", name="Large", window=100_000)
    long_prompt = f"Cite [S1]. {ABSTAIN_TOKEN}. " + "Answer from the documents only. " * 400
    [warning] = system_prompt_warnings(long_prompt)
    assert warning.startswith("The prompt is ") and "in the domain Small (window 4,000, 2,600 usable)" in warning
    assert "asks there would fail. Shorten the prompt or raise the domain's window." in warning
    assert system_prompt_warnings(DEFAULT_SYSTEM_PROMPT) == []
