import pytest
from django.contrib.auth import get_user_model

from chat.models import Conversation, Message

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    User = get_user_model()
    return User.objects.create_user("alice", password="pw-alice-123"), User.objects.create_user("bob", password="x")


def test_pages_need_a_login(client):
    r = client.get("/")
    assert r.status_code == 302 and r.url.startswith("/login/")


def test_chat_page_lists_own_conversations_and_history(client, users, demo_domain):
    alice, bob = users
    conv = Conversation.objects.create(user=alice, domain=demo_domain, title="Meal money")
    q = Message.objects.create(conversation=conv, role="user", text="What is the meal allowance?")
    Message.objects.create(conversation=conv, role="assistant", reply_to=q, text="It is $65 [S1].",
                           html='<p>It is $65 <button type="button" class="cite" data-label="S1">S1</button>.</p>',
                           sources=[{"label": "S1", "title": "Travel", "text": "The daily meal allowance is $65."}],
                           citations=[{"label": "S1", "cited_text": "The daily meal allowance is $65."}])
    Conversation.objects.create(user=bob, domain=demo_domain, title="Bob's secret question")
    client.force_login(alice)
    r = client.get(f"/c/{conv.pk}/")
    body = r.content.decode()
    assert r.status_code == 200
    assert "Meal money" in body and "Bob&#x27;s secret question" not in body and "Bob's secret" not in body
    assert '"text": "The daily meal allowance is $65."' in body  # frozen sources in the page data for chips


def test_another_users_conversation_is_404_and_reveals_nothing(client, users, demo_domain):
    alice, bob = users
    conv = Conversation.objects.create(user=bob, domain=demo_domain, title="Bob's secret question")
    client.force_login(alice)
    r = client.get(f"/c/{conv.pk}/")
    assert r.status_code == 404 and b"secret" not in r.content
    assert client.get("/c/999999/").status_code == 404


def test_the_page_says_who_writes_the_answers(client, users, demo_domain):
    """With no configuration the page says the answers are extractive quotes from the documents."""
    client.force_login(users[0])
    body = client.get("/").content.decode()
    assert "Answers: <strong>Extractive answer (offline): sentences quoted from the sources</strong>" in body


def test_export_gives_the_owner_markdown_with_the_frozen_cited_sources(client, users, demo_domain):
    alice, bob = users
    conv = Conversation.objects.create(user=alice, domain=demo_domain, title="Meal money")
    q = Message.objects.create(conversation=conv, role="user", text="What is the meal allowance?")
    Message.objects.create(conversation=conv, role="assistant", reply_to=q, text="It is $65 a day [S1].",
                           sources=[{"label": "S1", "title": "Travel", "section": "Meals", "version": "2025",
                                     "date": "2025-01-01", "status": "current",
                                     "text": "The daily meal allowance is $65."},
                                    {"label": "S2", "title": "Leave", "text": "Not cited."}],
                           citations=[{"label": "S1", "cited_text": "The daily meal allowance is $65."}],
                           trace={"notes": [{"text": "S1 and an older version disagree."}]})
    q2 = Message.objects.create(conversation=conv, role="user", text="And for lodging?")
    Message.objects.create(conversation=conv, role="assistant", reply_to=q2, status="failed",
                           error="The model service is unavailable (HTTP 500).")
    client.force_login(alice)
    r = client.get(f"/c/{conv.pk}/export.md")
    assert r.status_code == 200 and r["Content-Type"] == "text/markdown; charset=utf-8"
    assert r["Content-Disposition"] == f'attachment; filename="conversation-{conv.pk}.md"'
    body = r.content.decode()
    assert body.startswith("# Meal money\n\nDocuments: Tallgrass handbook")
    assert ("## Question\n\nWhat is the meal allowance?\n\n### Answer\n\nIt is $65 a day [S1].\n\n"
            "> Note: S1 and an older version disagree.\n\nSources:\n"
            '- [S1] Travel > Meals (2025, 2025-01-01): "The daily meal allowance is $65."\n') in body
    assert "Not cited." not in body  # only the sources the answer cited
    assert "### Answer (failed)\n\n(no text)\n\n_Not completed: The model service is unavailable (HTTP 500)._" in body
    client.force_login(bob)  # another user: 404, nothing revealed
    assert client.get(f"/c/{conv.pk}/export.md").status_code == 404
    client.logout()
    r = client.get(f"/c/{conv.pk}/export.md")
    assert r.status_code == 302 and r.url.startswith("/login/")


def test_a_new_conversation_starts_in_the_domain_used_last(client, users, demo_domain):
    """The s44 new-user trial: once an admin added "18F office files", the Documents menu of every new conversation
    showed it (the alphabetically first domain), and "How do I switch from hybrid to fully remote?" asked there was
    refused. The menu now selects the domain of the conversation used last; with none, the first listed."""
    from knowledge.models import Domain

    alice, _ = users
    Domain.objects.create(slug="aaa-office", name="18F office files")
    client.force_login(alice)
    page = client.get("/").content.decode()
    # no conversation yet: nothing selected, so the browser shows the first listed
    assert " selected>" not in page and page.index('value="aaa-office"') < page.index(f'value="{demo_domain.slug}"')
    Conversation.objects.create(user=alice, domain=demo_domain, title="Remote work")
    page = client.get("/").content.decode()
    assert f'<option value="{demo_domain.slug}" selected>' in page and '<option value="aaa-office">' in page
