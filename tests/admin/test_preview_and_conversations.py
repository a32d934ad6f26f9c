"""The prompt preview (dry run) and the read-only conversation review."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from chat.answering import answer_prepare
from chat.memory import history_form, memory_turns
from chat.providers import registry
from chat.models import Conversation, Message
from grounding.prompt import DEFAULT_SYSTEM_PROMPT
from grounding.providers import ScriptedProvider
from knowledge.services import system_prompt_active, system_prompt_save

pytestmark = pytest.mark.django_db

QUESTION = "What is the daily meal allowance?"


def preview_json(client, domain, question: str, conversation: int | None = None) -> dict:
    params = {"question": question, "format": "json"}
    if conversation:
        params["conversation"] = conversation
    response = client.get(f"/admin/knowledge/domain/{domain.pk}/preview/", params)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("question", [QUESTION, "How often are laptops replaced and who pays for repairs?",
                                      "Does Tallgrass offer stock options and what is the vesting schedule?",
                                      "Which orbital period does the moon Titan have around Saturn?"])
def test_the_preview_plans_exactly_what_ask_json_plans(admin_client, demo_domain, capsys, question):
    system_prompt_save(text=DEFAULT_SYSTEM_PROMPT + "\n8. Answer in English.", note="english")
    call_command("ask", question, "--domain", "handbook", "--json")
    ask = json.loads(capsys.readouterr().out)
    preview = preview_json(admin_client, demo_domain, question)
    keys = ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens", "location",
            "source_label")
    assert [{k: s[k] for k in keys} for s in preview["sources"]] == ask["sources"]
    for key in ("budget", "dropped", "notes", "provider", "prompt_version"):
        assert preview[key] == ask[key], key
    assert preview["sufficient"] or ask["abstained"]  # no model call planned: the answer abstains


def test_the_preview_shows_the_exact_messages_and_calls_no_model(admin_client, demo_domain, monkeypatch):
    scripted = ScriptedProvider(["should never be streamed"])
    registry.configure(answerer=scripted)
    data = preview_json(admin_client, demo_domain, QUESTION)
    assert scripted.calls == []  # a dry run: the provider never streamed

    prepared = answer_prepare(domain=demo_domain, question=QUESTION, provider=scripted)
    assert data["system"] == prepared.prompt.system and data["messages"] == [{"role": "user", "content": QUESTION}]
    parts = data["parts"]
    assert [(p["role"], p["part"]) for p in parts] == [("system", "system prefix"), ("system", "context"),
                                                       ("user", "question")]
    assert parts[0]["content"] + parts[1]["content"] == data["system"]
    assert parts[0]["content"].startswith("You answer questions for the people of this organisation")
    assert "<sources>" in parts[1]["content"] and 'label="S1"' in parts[1]["content"]
    assert parts[2]["content"] == QUESTION
    assert data["budget"]["total"] <= data["budget"]["limit"] and data["request"] is None

    page = admin_client.get(f"/admin/knowledge/domain/{demo_domain.pk}/preview/", {"question": QUESTION})
    html = page.content.decode()
    assert "Messages, exactly as sent" in html and "system prefix" in html and "ax-bar" in html
    assert "completion reserve" in html and "Travel and Expenses Policy" in html and "would be called" in html
    assert scripted.calls == []


def test_the_preview_shows_the_provider_request_body_when_the_provider_builds_one(admin_client, demo_domain,
                                                                                   monkeypatch):
    from grounding.providers_openai import OpenAICompatibleProvider

    class NoCalls(OpenAICompatibleProvider):
        def complete(self, *args, **kwargs):
            raise AssertionError("a dry run must not call the model")

        async def stream(self, *args, **kwargs):
            raise AssertionError("a dry run must not call the model")

    registry.configure(answerer=NoCalls("http://127.0.0.1:9/v1", "llama-test"))
    demo_domain.model = "llama-domain"
    demo_domain.save(update_fields=["model"])
    data = preview_json(admin_client, demo_domain, QUESTION)
    assert data["provider"] == "openai"
    assert data["request"]["model"] == "llama-domain"  # the domain's model, as its answers use
    assert data["request"]["messages"] == [{"role": "system", "content": data["system"]}] + data["messages"]
    assert data["skipped_checks"] == ["follow-up rewrite", "sufficiency check", "conflict judge"]
    page = admin_client.get(f"/admin/knowledge/domain/{demo_domain.pk}/preview/", {"question": QUESTION})
    assert "Model-backed planning checks of this provider" in page.content.decode()


def test_preview_with_a_conversation_sends_its_history_before_the_question(admin_client, demo_domain, admin_user,
                                                                           answered):
    conversation = Conversation.objects.create(user=admin_user, domain=demo_domain)
    first = answered(conversation, QUESTION)
    assert first.status == "complete" and not first.abstained
    follow_up = "And for hotels?"
    data = preview_json(admin_client, demo_domain, follow_up, conversation=conversation.pk)
    assert data["conversation"] == conversation.pk
    assert data["messages"] == [{"role": "user", "content": QUESTION},
                                {"role": "assistant", "content": history_form(first)},
                                {"role": "user", "content": follow_up}]
    assert [p["part"] for p in data["parts"]][-3:] == ["history", "history", "question"]
    assert data["budget"]["history"] > 0 and data["retrieval_query"] != follow_up  # rewritten with the history
    # the same plan as the chat would make for this turn
    prepared = answer_prepare(domain=demo_domain, question=follow_up,
                                       history=memory_turns(conversation=conversation))
    assert data["budget"] == prepared.plan.budget
    assert [s["chunk_id"] for s in data["sources"]] == [s.chunk_id for s in prepared.plan.sources]


def test_preview_errors_are_shown_not_raised(admin_client, demo_domain, admin_user):
    url = f"/admin/knowledge/domain/{demo_domain.pk}/preview/"
    assert "This field is required" in admin_client.get(url, {"question": ""}).content.decode()
    too_long = admin_client.get(url, {"question": "x" * 5000}).content.decode()
    assert "the limit is 4,000 characters" in too_long
    from knowledge.models import Domain

    other = Domain.objects.create(slug="other", name="Other")
    elsewhere = Conversation.objects.create(user=admin_user, domain=other)
    page = admin_client.get(url, {"question": QUESTION, "conversation": elsewhere.pk}).content.decode()
    assert f"No conversation {elsewhere.pk} in the domain Tallgrass handbook" in page
    assert admin_client.get(url, {"question": "", "format": "json"}).status_code == 400
    assert admin_client.get("/admin/knowledge/domain/99999/preview/").status_code == 404


def test_the_preview_is_reachable_from_the_domain_page(admin_client, demo_domain):
    page = admin_client.get(f"/admin/knowledge/domain/{demo_domain.pk}/change/").content.decode()
    assert f'href="/admin/knowledge/domain/{demo_domain.pk}/preview/"' in page


def test_a_conversation_is_reviewed_read_only_with_each_answers_trace(admin_client, demo_domain, admin_user,
                                                                      answered):
    version = system_prompt_save(text=system_prompt_active()[0] + "\n8. Be brief.", note="brief")
    conversation = Conversation.objects.create(user=admin_user, domain=demo_domain, title="Trip questions")
    answer = answered(conversation, QUESTION)
    abstention = answered(conversation, "Does Tallgrass offer stock options and what is the vesting schedule?")
    assert answer.prompt_version == version and abstention.abstained
    dropped = answer.trace["dropped"] + abstention.trace["dropped"]
    assert dropped  # the trace has left-out candidates to show

    broken = Conversation.objects.create(user=admin_user, domain=demo_domain, title="Broken chat")
    Message.objects.create(conversation=broken, role="assistant", status="failed", error="provider down")
    Message.objects.create(conversation=broken, role="assistant", text="See [S9].", invalid_citations=["S9"])
    for answers, shown, hidden in [("abstained", "Trip questions", "Broken chat"),
                                   ("failed", "Broken chat", "Trip questions"),
                                   ("invalid", "Broken chat", "Trip questions")]:
        listing = admin_client.get(f"/admin/chat/conversation/?answers={answers}").content.decode()
        assert shown in listing and hidden not in listing, answers
    page = admin_client.get(f"/admin/chat/conversation/{conversation.pk}/change/").content.decode()
    assert QUESTION in page and "$65" in page
    assert f'href="/admin/knowledge/systemprompt/{version.pk}/change/">v{version.version}</a>' in page
    for source in answer.sources:
        assert source["title"] in page
    for d in dropped:
        assert f"<code>{d['reason']}</code>" in page
    assert f"{answer.trace['budget']['total']} of {answer.trace['budget']['limit']} tokens" in page
    assert "Abstained before any model call" in page or "abstained" in page
    assert f"/admin/knowledge/domain/{demo_domain.pk}/preview/?conversation={conversation.pk}" in page
    assert 'name="_save"' not in page  # read-only: nothing to save

    # and nothing edits it
    before = list(Message.objects.filter(conversation=conversation).values_list("text", flat=True))
    response = admin_client.post(f"/admin/chat/conversation/{conversation.pk}/change/", {"title": "Changed"})
    assert response.status_code == 403
    conversation.refresh_from_db()
    assert conversation.title == "Trip questions"
    assert list(Message.objects.filter(conversation=conversation).values_list("text", flat=True)) == before
    assert admin_client.get("/admin/chat/conversation/add/").status_code == 403
