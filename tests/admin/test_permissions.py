"""Only active staff reach the admin: anonymous and non-staff users get a redirect to the admin login and nothing
else (no page, no JSON, no effect), for the standard pages and the custom ones alike."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from chat.models import Conversation
from knowledge.models import DocumentVersion, IngestJob, SystemPrompt

from .conftest import markdown, upload

pytestmark = pytest.mark.django_db


def admin_urls(domain, version, conversation) -> list[str]:
    return [
        "/admin/",
        "/admin/knowledge/domain/", f"/admin/knowledge/domain/{domain.pk}/change/",
        f"/admin/knowledge/domain/{domain.pk}/preview/?question=What+is+the+daily+meal+allowance%3F",
        f"/admin/knowledge/domain/{domain.pk}/preview/?question=meals&format=json",
        "/admin/knowledge/document/", f"/admin/knowledge/document/{version.document_id}/change/",
        "/admin/knowledge/document/upload/",
        "/admin/knowledge/documentversion/", f"/admin/knowledge/documentversion/{version.pk}/change/",
        "/admin/knowledge/systemprompt/", "/admin/knowledge/systemprompt/add/",
        "/admin/knowledge/ingestjob/",
        "/admin/chat/conversation/", f"/admin/chat/conversation/{conversation.pk}/change/",
    ]


@pytest.fixture
def setting(demo_domain, admin_user):
    version = DocumentVersion.objects.filter(document__domain=demo_domain, status="current").first()
    conversation = Conversation.objects.create(user=admin_user, domain=demo_domain, title="Meals")
    return demo_domain, version, conversation


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_anonymous_and_non_staff_users_get_nothing(client, setting, who):
    domain, version, conversation = setting
    if who == "member":
        member = get_user_model().objects.create_user("member", password="pw")
        member.user_permissions.set(Permission.objects.all())  # permissions without staff status open nothing
        client.force_login(member)
    for url in admin_urls(domain, version, conversation):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/"), url
        assert b"daily meal" not in response.content and not response.content, url

    # and nothing they post has an effect
    job_url = "/admin/knowledge/document/upload/"
    response = client.post(job_url, {"domain": domain.pk, "files": [upload("a.md", markdown("A", "Alpha text."))]})
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert not IngestJob.objects.exists()
    response = client.post(f"/admin/knowledge/documentversion/{version.pk}/supersede/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    response = client.post(f"/admin/knowledge/document/{version.document_id}/delete/", {"post": "yes"})
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    response = client.post("/admin/knowledge/systemprompt/add/", {"text": "Hijack", "activate": "on"})
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    version.refresh_from_db()
    assert version.status == "current" and not SystemPrompt.objects.exists()


def test_staff_see_every_page(admin_client, setting):
    domain, version, conversation = setting
    for url in admin_urls(domain, version, conversation):
        assert admin_client.get(url).status_code == 200, url


def test_staff_without_the_model_permission_are_refused_the_custom_pages(client, setting):
    domain, version, _ = setting
    staff = get_user_model().objects.create_user("clerk", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.get(f"/admin/knowledge/domain/{domain.pk}/preview/?question=meals").status_code == 403
    assert client.get("/admin/knowledge/document/upload/").status_code == 403
    assert client.post(f"/admin/knowledge/documentversion/{version.pk}/supersede/").status_code == 403
    # view permission on domains is all the preview needs (not membership of the domain's groups)
    staff.user_permissions.add(Permission.objects.get(codename="view_domain"))
    domain.groups.create(name="Legal only")
    client.force_login(staff)
    assert client.get(f"/admin/knowledge/domain/{domain.pk}/preview/?question=meals").status_code == 200


def test_object_actions_accept_only_post(admin_client, setting):
    _, version, _ = setting
    assert admin_client.get(f"/admin/knowledge/documentversion/{version.pk}/supersede/").status_code == 405
    version.refresh_from_db()
    assert version.status == "current"
