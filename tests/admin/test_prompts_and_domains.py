"""System prompt versions and domains through the admin (Django's test client)."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from grounding.prompt import ABSTAIN_TOKEN, DEFAULT_SYSTEM_PROMPT
from knowledge.models import Domain, SystemPrompt
from knowledge.services import DOMAIN_PRESETS, system_prompt_save

pytestmark = pytest.mark.django_db

GOOD = f"Cite every claim as [S1]. Reply {ABSTAIN_TOKEN} when the sources do not hold the answer."


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_the_add_form_starts_from_the_prompt_in_use_and_saving_makes_version_1_active(admin_client):
    page = admin_client.get("/admin/knowledge/systemprompt/add/").content.decode()
    assert "Evidence contract:" in page  # the built-in default, to edit from
    assert "No version is active" in admin_client.get("/admin/knowledge/systemprompt/").content.decode()
    response = admin_client.post("/admin/knowledge/systemprompt/add/", {"text": GOOD, "note": "first",
                                                                         "activate": "on"}, follow=True)
    assert response.status_code == 200
    v1 = SystemPrompt.objects.get()
    assert (v1.version, v1.is_active, v1.note, v1.created_by.username) == (1, True, "first", "admin")
    assert not any("lacks" in m for m in messages_of(response))
    assert "Answers use" in response.content.decode() and "version 1" in response.content.decode()


def test_editing_a_version_saves_a_new_one_and_keeps_the_history(admin_client):
    v1 = system_prompt_save(text=GOOD, note="first")
    page = admin_client.get(f"/admin/knowledge/systemprompt/{v1.pk}/change/").content.decode()
    assert "Saving creates a new version" in page and "First version." in page
    edited = GOOD + "\nBe brief."
    response = admin_client.post(f"/admin/knowledge/systemprompt/{v1.pk}/change/",
                                 {"text": edited, "note": "brevity", "activate": "on", "_continue": "1"},
                                 follow=True)
    v1.refresh_from_db()
    v2 = SystemPrompt.objects.get(version=2)
    assert v1.text == GOOD and not v1.is_active  # the history stays, unchanged
    assert (v2.text, v2.note, v2.is_active) == (edited, "brevity", True)
    assert "Saved as version 2 (active)" in " ".join(messages_of(response))
    assert response.redirect_chain[-1][0] == f"/admin/knowledge/systemprompt/{v2.pk}/change/"
    assert '<span class="ax-add">+Be brief.</span>' in response.content.decode()  # the diff to v1
    assert SystemPrompt.objects.count() == 2


def test_saving_a_version_unchanged_makes_no_new_version_and_browser_newlines_do_not_count(admin_client):
    text = GOOD + "\nBe brief."
    v1 = system_prompt_save(text=text, note="first")
    v2 = system_prompt_save(text=GOOD, note="second")
    response = admin_client.post(f"/admin/knowledge/systemprompt/{v1.pk}/change/",
                                 {"text": text.replace("\n", "\r\n"), "note": "", "activate": "on"}, follow=True)
    assert "The text is unchanged: no new version; version 1 (active) stays." in " ".join(messages_of(response))
    assert SystemPrompt.objects.count() == 2
    assert list(SystemPrompt.objects.filter(is_active=True)) == [v1]  # "make it active" still applies
    admin_client.post(f"/admin/knowledge/systemprompt/{v2.pk}/change/",
                      {"text": "Cite as [S1].\r\nSay INSUFFICIENT_EVIDENCE.", "note": "crlf", "activate": "on"})
    assert SystemPrompt.objects.get(version=3).text == "Cite as [S1].\nSay INSUFFICIENT_EVIDENCE."


def test_saving_a_prompt_without_the_citation_rule_or_abstention_token_warns(admin_client):
    response = admin_client.post("/admin/knowledge/systemprompt/add/", {"text": "Answer helpfully.", "note": "",
                                                                         "activate": "on"}, follow=True)
    shown = " ".join(messages_of(response))
    assert "lacks the citation rule" in shown and f"lacks the abstention token {ABSTAIN_TOKEN}" in shown
    assert SystemPrompt.objects.get().text == "Answer helpfully."  # a warning, not a refusal
    listing = admin_client.get("/admin/knowledge/systemprompt/").content.decode()
    assert "2 warnings" in listing


def test_an_inactive_version_can_be_made_active_again_and_versions_cannot_be_deleted(admin_client):
    v1 = system_prompt_save(text=GOOD)
    v2 = system_prompt_save(text=DEFAULT_SYSTEM_PROMPT)
    page = admin_client.get(f"/admin/knowledge/systemprompt/{v1.pk}/change/").content.decode()
    assert "Make this version active" in page
    admin_client.post(f"/admin/knowledge/systemprompt/{v1.pk}/activate/")
    assert list(SystemPrompt.objects.filter(is_active=True)) == [v1]
    admin_client.post("/admin/knowledge/systemprompt/", {"action": "activate_selected", "_selected_action": [v2.pk]})
    assert list(SystemPrompt.objects.filter(is_active=True)) == [v2]
    assert admin_client.get(f"/admin/knowledge/systemprompt/{v1.pk}/delete/").status_code == 403


def domain_form(domain: Domain, **changes) -> dict:
    data = {k: v for k, v in model_to_dict(domain).items() if v is not None}
    data["groups"] = [g.pk for g in data.get("groups", [])]
    data.update(changes)
    return data


def test_domain_list_and_change_form_show_counts_settings_and_the_preview_link(admin_client, demo_domain):
    listing = admin_client.get("/admin/knowledge/domain/").content.decode()
    assert "Tallgrass handbook" in listing and "everyone signed in" in listing
    assert f"/admin/knowledge/domain/{demo_domain.pk}/preview/" in listing
    page = admin_client.get(f"/admin/knowledge/domain/{demo_domain.pk}/change/").content.decode()
    for text in ("Preview prompt", "Upload documents", "Token budget", "Who may read it", "id_preset",
                 "id_conflict_policy", "id_citation_mode", "id_history_cap", "id_completion_reserve"):
        assert text in page, text
    assert admin_client.get("/admin/knowledge/domain/?q=tallgrass").content.decode().count("Tallgrass") >= 1


def test_a_preset_fills_the_instructions_unless_they_were_edited_on_the_page(admin_client):
    domain = Domain.objects.create(slug="contracts", name="Contracts", instructions="Old rules.")
    url = f"/admin/knowledge/domain/{domain.pk}/change/"
    response = admin_client.post(url, domain_form(domain, preset="legal"))
    assert response.status_code == 302
    domain.refresh_from_db()
    assert domain.instructions == DOMAIN_PRESETS["legal"][1]
    assert "operative wording" in domain.prompt_instructions()
    admin_client.post(url, domain_form(domain, preset="hr", instructions="My own HR rules."))
    domain.refresh_from_db()
    assert domain.instructions == "My own HR rules."
    # browsers send textarea lines with CRLF: stored with plain newlines, and untouched text is still untouched
    admin_client.post(url, domain_form(domain, preset="", instructions="Line one\r\nLine two"))
    domain.refresh_from_db()
    assert domain.instructions == "Line one\nLine two"
    admin_client.post(url, domain_form(domain, preset="medical", instructions="Line one\r\nLine two"))
    domain.refresh_from_db()
    assert domain.instructions == DOMAIN_PRESETS["medical"][1]
    assert set(DOMAIN_PRESETS) == {"legal", "medical", "financial", "code", "hr"}


def test_domain_settings_that_leave_no_room_are_refused_with_the_reason(admin_client):
    domain = Domain.objects.create(slug="tiny", name="Tiny")
    response = admin_client.post(f"/admin/knowledge/domain/{domain.pk}/change/",
                                 domain_form(domain, window=2000, completion_reserve=1500))
    assert response.status_code == 200
    assert "at least 1,000 are needed for the prompt" in response.content.decode()
    domain.refresh_from_db()
    assert domain.window == 16_000


def test_domain_groups_are_set_in_the_admin(admin_client):
    from django.contrib.auth.models import Group

    hr = Group.objects.create(name="HR")
    domain = Domain.objects.create(slug="people", name="People")
    admin_client.post(f"/admin/knowledge/domain/{domain.pk}/change/", domain_form(domain, groups=[hr.pk]))
    assert list(domain.groups.all()) == [hr]
    assert "HR" in admin_client.get("/admin/knowledge/domain/").content.decode()
