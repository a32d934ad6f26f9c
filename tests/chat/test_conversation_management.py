"""Issue 22: what a user manages on the chat page besides asking (chat.services, chat.selectors, the page's JSON
endpoints): rename, delete, search and most-recently-used order of conversations, feedback on an answer, the answer's
Markdown to copy, and what the user sees on bad input."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation, ConversationSummary, Message
from chat.selectors import answer_markdown, answer_of, conversation_list, conversation_markdown
from chat.services import NAME_CHARS, REASON_CHARS

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    User = get_user_model()
    return User.objects.create_user("alice", password="pw-alice-123"), User.objects.create_user("bob", password="x")


@pytest.fixture
def alice_client(client, users):
    client.force_login(users[0])
    return client


def turn(conversation: Conversation, question: str, answer: str, **fields) -> tuple[Message, Message]:
    q = Message.objects.create(conversation=conversation, role="user", text=question)
    a = Message.objects.create(conversation=conversation, role="assistant", reply_to=q, text=answer, **fields)
    return q, a


def post(client, url: str, body=None):
    r = client.post(url, data=json.dumps(body or {}), content_type="application/json")
    return r.status_code, r.json()


def error(client, url: str, body=None) -> tuple[int, str, str]:
    status, data = post(client, url, body)
    return status, data["error"]["code"], data["error"]["message"]


# --- rename ------------------------------------------------------------------------------------------------------

def test_rename_collapses_whitespace_and_keeps_the_conversation_in_its_place(alice_client, users, demo_domain):
    alice = users[0]
    older = Conversation.objects.create(user=alice, domain=demo_domain, title="Older")
    time.sleep(0.01)
    newer = Conversation.objects.create(user=alice, domain=demo_domain, title="Newer")
    status, data = post(alice_client, f"/conversations/{older.pk}/rename", {"title": "  Meal   money \n "})
    assert status == 200 and data["conversation"]["title"] == "Meal money"
    assert data["conversation"]["domain"] == "Tallgrass handbook" and data["conversation"]["url"] == f"/c/{older.pk}/"
    older.refresh_from_db()
    assert older.title == "Meal money"
    assert [c.pk for c in conversation_list(user=alice)] == [newer.pk, older.pk]  # a rename is not a use


def test_a_name_loses_bidirectional_overrides_and_control_characters(alice_client, users, demo_domain):
    """The s43 breaker renamed a conversation "Invoice \u202eexe.fdp": the sidebar and the header showed "Invoice
    pdf.exe"; a bell character was kept too. The name is now shown as typed without them; right-to-left text and
    its marks stay. A first question gives its conversation the same cleaned title (the question keeps its text)."""
    from chat.persistence import question_store

    alice = users[0]
    conv = Conversation.objects.create(user=alice, domain=demo_domain, title="T")
    url = f"/conversations/{conv.pk}/rename"
    assert post(alice_client, url, {"title": "Invoice \u202eexe.fdp"})[1]["conversation"]["title"] == "Invoice exe.fdp"
    assert post(alice_client, url, {"title": "a\u0007b \u2067x\u2069"})[1]["conversation"]["title"] == "a b x"
    assert post(alice_client, url, {"title": "\u05e9\u05dc\u05d5\u05dd \u200f!"})[1]["conversation"]["title"] == \
        "\u05e9\u05dc\u05d5\u05dd \u200f!"
    assert error(alice_client, url, {"title": "\u202e\u202c\u0007"}) == (
        400, "empty_name", "The name is empty. Type a name for the conversation.")
    new, question, _ = question_store(user=alice, conversation=None, domain=demo_domain,
                                      text="Is \u202eexe.fdp safe to open?")
    assert new.title == "Is exe.fdp safe to open?" and question.text == "Is \u202eexe.fdp safe to open?"


def test_rename_refuses_empty_and_over_long_names_and_changes_nothing(alice_client, users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Kept")
    url = f"/conversations/{conv.pk}/rename"
    assert error(alice_client, url, {"title": "   "}) == (
        400, "empty_name", "The name is empty. Type a name for the conversation.")
    # a body without "title" names the field it lacks (the s47 breaker sent {"name": ...} and read "The name is
    # empty")
    missing = (400, "bad_json", 'The request body has no "title": send {"title": "the new name"}.')
    assert error(alice_client, url, {}) == missing
    assert error(alice_client, url, {"name": "Meal money"}) == missing
    assert error(alice_client, url, {"title": "x" * (NAME_CHARS + 1)}) == (
        400, "name_too_long", f"The name is {NAME_CHARS + 1} characters long; the limit is {NAME_CHARS}.")
    assert error(alice_client, url, {"title": 42})[:2] == (400, "invalid_text")
    assert error(alice_client, url, {"title": "a\x00b"})[:2] == (400, "invalid_text")
    # the s27 breaker: a name of zero-width and control characters was kept, an invisible title in the sidebar
    assert error(alice_client, url, {"title": "  \u200b\u2060 "}) == (
        400, "empty_name", "The name is empty. Type a name for the conversation.")
    r = alice_client.post(url, data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    # valid JSON nested too deep to parse is said as such (the s22 break run: "not valid JSON")
    r = alice_client.post(url, data="[" * 20_000 + "]" * 20_000, content_type="application/json")
    assert r.status_code == 400 and r.json()["error"] == {"code": "bad_json",
                                                          "message": "The request body is nested too deeply."}
    conv.refresh_from_db()
    assert conv.title == "Kept"


def test_a_page_endpoint_without_the_security_token_gets_a_json_error(users, demo_domain):
    """The s22 break run: a POST to /conversations/<id>/rename without the CSRF token got Django's HTML 403 page,
    which the page cannot show; it gets the endpoints' JSON error, saying to reload. Other pages keep Django's."""
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Kept")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users[0])
    r = strict.post(f"/conversations/{conv.pk}/rename", data=json.dumps({"title": "New"}),
                    content_type="application/json")
    assert r.status_code == 403 and r.json() == {"error": {
        "code": "csrf_failed",
        "message": "The page's security token is missing or out of date. Reload the page and try again."}}
    conv.refresh_from_db()
    assert conv.title == "Kept"
    r = strict.post("/login/", {"username": "alice", "password": "pw-alice-123"})
    assert r.status_code == 403 and r["Content-Type"].startswith("text/html")


def test_rename_of_an_unknown_or_another_users_conversation_is_404_alike(alice_client, users, demo_domain):
    bobs = Conversation.objects.create(user=users[1], domain=demo_domain, title="Bob's secret")
    for cid in (bobs.pk, 999999, "abc", "-1"):
        assert error(alice_client, f"/conversations/{cid}/rename", {"title": "Mine now"}) == (
            404, "not_found", "Conversation not found.")
    bobs.refresh_from_db()
    assert bobs.title == "Bob's secret"


def test_rename_in_a_domain_no_longer_readable_is_forbidden(alice_client, users, demo_domain):
    from django.contrib.auth.models import Group

    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Kept")
    demo_domain.groups.add(Group.objects.create(name="hr-only"))  # alice is not in it
    status, code, message = error(alice_client, f"/conversations/{conv.pk}/rename", {"title": "New"})
    assert (status, code) == (403, "forbidden") and "no longer have access" in message


def test_a_conversation_page_no_longer_readable_says_why_and_links_back(alice_client, users, demo_domain):
    """The s43 new user limited a domain to a group: the demo user's old conversation page said only "403
    Forbidden". It now says why, in the site's page, with a way back; an unknown one says it is not found."""
    from django.contrib.auth.models import Group

    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Kept")
    demo_domain.groups.add(Group.objects.create(name="hr-only"))  # alice is not in it
    r = alice_client.get(f"/c/{conv.pk}/")
    page = r.content.decode()
    assert r.status_code == 403 and "You cannot open this page" in page
    assert "You no longer have access to the domain" in page and '<a href="/">Back to your conversations</a>' in page
    r = alice_client.get("/c/999999/")
    assert r.status_code == 404 and "Page not found" in r.content.decode()


# --- delete ------------------------------------------------------------------------------------------------------

def test_delete_removes_the_conversation_its_turns_and_summary_and_nothing_else(alice_client, users, demo_domain):
    alice, bob = users
    gone = Conversation.objects.create(user=alice, domain=demo_domain, title="Gone")
    turn(gone, "Q?", "A [S1].", feedback="helpful")
    ConversationSummary.objects.create(conversation=gone, text="s", covers=2, tokens=1)
    kept = Conversation.objects.create(user=alice, domain=demo_domain, title="Kept")
    turn(kept, "Q2?", "A2.")
    bobs = Conversation.objects.create(user=bob, domain=demo_domain, title="Bob's")
    turn(bobs, "Q3?", "A3.")
    chunks = demo_domain.documents.count()
    assert post(alice_client, f"/conversations/{gone.pk}/delete") == (200, {"deleted": gone.pk})
    assert not Conversation.objects.filter(pk=gone.pk).exists()
    assert not Message.objects.filter(conversation_id=gone.pk).exists()
    assert not ConversationSummary.objects.filter(conversation_id=gone.pk).exists()
    assert Message.objects.filter(conversation=kept).count() == 2 and Message.objects.filter(conversation=bobs).count() == 2
    assert demo_domain.documents.count() == chunks
    assert error(alice_client, f"/conversations/{gone.pk}/delete") == (404, "not_found", "Conversation not found.")


def test_delete_of_another_users_conversation_is_404_and_deletes_nothing(alice_client, users, demo_domain):
    bobs = Conversation.objects.create(user=users[1], domain=demo_domain, title="Bob's")
    for cid in (bobs.pk, 0, 999999, "x"):
        assert error(alice_client, f"/conversations/{cid}/delete") == (404, "not_found", "Conversation not found.")
    assert Conversation.objects.filter(pk=bobs.pk).exists()


def test_delete_while_an_answer_is_generated_is_refused(alice_client, users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Busy")
    turn(conv, "Q?", "", status=Message.Status.STREAMING)
    status, code, message = error(alice_client, f"/conversations/{conv.pk}/delete")
    assert (status, code) == (409, "busy") and "Stop it or wait for it" in message
    assert Conversation.objects.filter(pk=conv.pk).exists()


def test_the_endpoints_need_a_login_a_post_and_the_csrf_token(users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="Kept")
    anonymous = Client()
    r = anonymous.post(f"/conversations/{conv.pk}/delete")
    assert r.status_code == 401 and r.json()["error"]["code"] == "login_required"
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(users[0])
    assert checked.post(f"/conversations/{conv.pk}/delete").status_code == 403  # no CSRF token
    assert checked.get(f"/conversations/{conv.pk}/delete").status_code == 405
    assert Conversation.objects.filter(pk=conv.pk).exists()


# --- search and order --------------------------------------------------------------------------------------------

def test_search_finds_titles_and_message_text_of_ones_own_conversations_only(alice_client, users, demo_domain):
    alice, bob = users
    by_title = Conversation.objects.create(user=alice, domain=demo_domain, title="Laptop refresh")
    by_text = Conversation.objects.create(user=alice, domain=demo_domain, title="Equipment")
    turn(by_text, "When is my LAPTOP replaced?", "Every 36 months [S1].")
    Conversation.objects.create(user=alice, domain=demo_domain, title="Meals")
    Conversation.objects.create(user=bob, domain=demo_domain, title="Bob's laptop")
    found = alice_client.get("/conversations/search", {"q": "  laptop "}).json()["conversations"]
    assert sorted(c["id"] for c in found) == sorted([by_title.pk, by_text.pk])
    match = {c["id"]: c["match"] for c in found}
    assert match[by_title.pk] == "" and match[by_text.pk] == "When is my LAPTOP replaced?"
    assert alice_client.get("/conversations/search", {"q": "nothing like this"}).json() == {"conversations": []}
    # the s27 breaker: a NUL matched every conversation on SQLite and raised a 500 on PostgreSQL; no stored text
    # holds one, nor an unpaired surrogate
    assert alice_client.get("/conversations/search?q=%00").json() == {"conversations": []}
    assert conversation_list(user=alice, query="lap\ud800top") == []
    everything = alice_client.get("/conversations/search").json()["conversations"]
    assert len(everything) == 3 and all(c["domain"] == "Tallgrass handbook" for c in everything)
    assert Client().get("/conversations/search").status_code == 401


def test_conversations_are_listed_most_recently_used_first(users, demo_domain):
    from chat.persistence import question_store

    alice = users[0]
    first = Conversation.objects.create(user=alice, domain=demo_domain, title="First")
    time.sleep(0.01)
    second = Conversation.objects.create(user=alice, domain=demo_domain, title="Second")
    assert [c.pk for c in conversation_list(user=alice)] == [second.pk, first.pk]
    time.sleep(0.01)
    question_store(user=alice, conversation=first, domain=demo_domain, text="Another question?")
    assert [c.pk for c in conversation_list(user=alice)] == [first.pk, second.pk]


# --- feedback ----------------------------------------------------------------------------------------------------

def test_feedback_is_stored_with_the_answer_replaced_and_taken_back(alice_client, users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="T")
    _, answer = turn(conv, "Q?", "A.")
    url = f"/answers/{answer.pk}/feedback"
    assert post(alice_client, url, {"value": "helpful"}) == (
        200, {"message": answer.pk, "feedback": "helpful", "feedback_reason": ""})
    status, data = post(alice_client, url, {"value": "unhelpful", "reason": "  Quotes the   wrong policy. "})
    assert status == 200 and data["feedback_reason"] == "Quotes the wrong policy."
    answer.refresh_from_db()
    assert (answer.feedback, answer.feedback_reason) == ("unhelpful", "Quotes the wrong policy.")
    assert answer.feedback_at is not None
    assert post(alice_client, url, {"value": ""})[1]["feedback"] == ""
    answer.refresh_from_db()
    assert (answer.feedback, answer.feedback_reason, answer.feedback_at) == ("", "", None)


def test_bad_feedback_says_what_is_wrong_and_changes_nothing(alice_client, users, demo_domain):
    alice, bob = users
    conv = Conversation.objects.create(user=alice, domain=demo_domain, title="T")
    question, answer = turn(conv, "Q?", "A.", feedback="helpful")
    url = f"/answers/{answer.pk}/feedback"
    assert error(alice_client, url, {"value": "love it"}) == (
        400, "invalid_feedback", "Feedback is either helpful, unhelpful, or empty to take it back.")
    for misspelt in ({"vaule": "unhelpful"}, {"rating": "helpful"}, {}):  # the s43 breaker: it wiped "helpful"
        assert error(alice_client, url, misspelt) == (
            400, "invalid_feedback", "Feedback is either helpful, unhelpful, or empty to take it back.")
    answer.refresh_from_db()
    assert answer.feedback == "helpful"
    assert error(alice_client, url, {"value": "unhelpful", "reason": "x" * (REASON_CHARS + 1)}) == (
        400, "invalid_feedback", f"The reason is {REASON_CHARS + 1:,} characters long; the limit is {REASON_CHARS:,}.")
    assert error(alice_client, f"/answers/{question.pk}/feedback", {"value": "helpful"}) == (
        404, "not_found", "Message not found.")  # a question is not an answer
    _, bobs = turn(Conversation.objects.create(user=bob, domain=demo_domain), "Q?", "A.")
    for mid in (bobs.pk, 999999, "nope"):
        assert error(alice_client, f"/answers/{mid}/feedback", {"value": "helpful"})[:2] == (404, "not_found")
    _, streaming = turn(conv, "Q2?", "", status=Message.Status.STREAMING)
    assert error(alice_client, f"/answers/{streaming.pk}/feedback", {"value": "helpful"}) == (
        409, "busy", "This answer is still being written; give your feedback when it is done.")
    answer.refresh_from_db()
    bobs.refresh_from_db()
    assert answer.feedback == "helpful" and bobs.feedback == ""


def test_feedback_is_listed_in_the_admin_review_with_the_trace(client, users, demo_domain):
    admin = get_user_model().objects.create_superuser("root", password="pw")
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="T")
    turn(conv, "Q?", "A.", feedback="unhelpful", feedback_reason="Cites the old policy.")
    client.force_login(admin)
    body = client.get(f"/admin/chat/conversation/{conv.pk}/change/").content.decode()
    assert "<strong>Feedback: not helpful</strong>: “Cites the old policy.”" in body and "Sources (0, 0 cited)" in body
    listing = client.get("/admin/chat/conversation/?feedback=unhelpful").content.decode()
    assert f"/admin/chat/conversation/{conv.pk}/change/" in listing


# --- answers of a question, and the Markdown to copy -------------------------------------------------------------

def test_a_question_keeps_every_answer_and_the_latest_is_its_answer(users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="T")
    question, first = turn(conv, "Q?", "First.")
    second = Message.objects.create(conversation=conv, role="assistant", reply_to=question, text="Second.")
    assert list(question.answers.order_by("pk")) == [first, second]
    assert answer_of(question) == second


def test_copy_markdown_numbers_citations_as_footnotes_and_lists_the_sources(users, demo_domain):
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="T")
    sources = [{"label": "S1", "title": "Travel", "section": "Meals > Daily", "version": "2025-03",
                "date": "2025-03-01", "status": "current", "text": "$65."},
               {"label": "S2", "title": "Travel", "section": "", "version": "2024-01", "date": "2024-01-15",
                "status": "superseded", "text": "$50."}]
    _, answer = turn(conv, "Q?", "Meals are $65 a day [S1]. It was $50 [S2][S9].", sources=sources,
                     citations=[{"label": "S1"}, {"label": "S2"}])
    # s6: the labels mean nothing outside the page; pasted, the answer reads [1], [2] with the sources under it
    assert answer_markdown(answer=answer) == (
        "Meals are $65 a day [1]. It was $50 [2].\n\nSources:\n"
        "[1] Travel, Meals › Daily (2025-03, 2025-03-01)\n[2] Travel (2024-01, 2024-01-15, superseded)\n")


def test_copy_and_export_name_the_cited_sentences_own_section(users, demo_domain):
    # the s27 new-user run: a source merged from chunks of two sections was listed under its primary chunk's section
    # ("Parental Leave Policy > Eligibility") though its citation, and the passage shown, quote "Phased return"
    conv = Conversation.objects.create(user=users[0], domain=demo_domain, title="T")
    sources = [{"label": "S1", "title": "Parental Leave Policy", "section": "Eligibility", "version": "v1",
                "date": "", "status": "current", "text": "Eligible after 90 days.\nYou may work 60% for 4 weeks."}]
    citations = [{"label": "S1", "section": "Returning to work > Phased return",
                  "cited_text": "You may work 60% for 4 weeks."}]
    _, answer = turn(conv, "Can I split it up?", "You may work 60% for 4 weeks [S1].", sources=sources,
                     citations=citations)
    assert answer_markdown(answer=answer).endswith(
        "Sources:\n[1] Parental Leave Policy, Returning to work › Phased return (v1)\n")
    assert ('- [S1] Parental Leave Policy > Returning to work > Phased return (v1): "You may work 60% for 4 weeks."'
            in conversation_markdown(conversation=conv))
