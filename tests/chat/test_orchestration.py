"""The one ask orchestration seen from its doors: idempotency on (user, client id) whatever the conversation field
says (B06), the access rule on resume (B05), an empty answer (B07)."""

from __future__ import annotations

import io
import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Group
from django.core.management import call_command

from chat.models import Conversation, Message
from chat.providers import registry
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until, user  # noqa: F401 - the user fixture

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOPS = "How often are laptops replaced?"


class Counting(ScriptedProvider):
    """A scripted provider that counts its generations."""

    def __init__(self, pieces, **kw):
        super().__init__(pieces, **kw)
        self.generations = 0

    async def stream(self, prompt, plan):
        self.generations += 1
        async for event in super().stream(prompt, plan):
            yield event


async def test_b06_a_resend_without_the_conversation_id_gets_the_stored_answer_over_the_socket(ingest_demo, user):
    provider = Counting(["Laptops are replaced every 36 months [S1]."])
    registry.configure(answerer=provider)
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": LAPTOPS, "client_id": "k-1"})
    first = await frames_until(comm, "done")
    await comm.disconnect()
    # the client reconnects before it learned the new conversation's id and sends the same ask again
    again = await connect(user)
    await again.connect()
    await again.send_json_to({"type": "ask", "conversation": None, "domain": "handbook", "text": LAPTOPS,
                              "client_id": "k-1"})
    frames = [await again.receive_json_from(timeout=30), await again.receive_json_from(timeout=30)]
    await again.disconnect()
    assert [f["type"] for f in frames] == ["accepted", "done"]  # no plan: nothing is generated again
    assert frames[0]["conversation"] == first[0]["conversation"] and frames[0]["message"] == first[0]["message"]
    assert frames[1]["message"] == first[-1]["message"] and frames[1]["text"] == first[-1]["text"]
    assert provider.generations == 1
    assert await sync_to_async(Conversation.objects.count)() == 1
    assert await sync_to_async(Message.objects.count)() == 2


async def test_b06_the_key_is_the_user_and_client_id_whatever_conversation_is_named(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": LAPTOPS, "client_id": "k-2"})
    first = await frames_until(comm, "done")
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "A second conversation", "client_id": "k-3"})
    other = await frames_until(comm, "done")
    assert other[0]["conversation"] != first[0]["conversation"]
    # the same client id resent naming the other conversation still finds the question it was sent with
    await comm.send_json_to({"type": "ask", "conversation": other[0]["conversation"], "text": LAPTOPS,
                             "client_id": "k-2"})
    frames = [await comm.receive_json_from(timeout=30), await comm.receive_json_from(timeout=30)]
    await comm.disconnect()
    assert frames[0]["conversation"] == first[0]["conversation"] and frames[1]["type"] == "done"
    assert frames[1]["message"] == first[-1]["message"]
    assert await sync_to_async(Message.objects.count)() == 4


async def test_b06_another_user_with_the_same_client_id_gets_their_own_answer(ingest_demo, user):
    from django.contrib.auth import get_user_model

    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    bob = await sync_to_async(get_user_model().objects.create_user)("bob", password="pw")
    for who in (user, bob):
        comm = await connect(who)
        await comm.connect()
        await comm.send_json_to({"type": "ask", "domain": "handbook", "text": LAPTOPS, "client_id": "same"})
        frames = await frames_until(comm, "done")
        await comm.disconnect()
        assert frames[1]["type"] == "plan"  # generated for each user
    assert await sync_to_async(Conversation.objects.count)() == 2


def test_b06_the_command_with_the_same_client_id_prints_the_stored_answer(ingest_demo):
    registry.configure(answerer=Counting(["Laptops are replaced every 36 months [S1]."]))
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        call_command("ask", LAPTOPS, "--domain", "handbook", "--json", "--client-id", "cli-1", stdout=out)
        outputs.append(json.loads(out.getvalue()))
    assert outputs[0]["message"] == outputs[1]["message"] and outputs[0]["answer"] == outputs[1]["answer"]
    assert registry.answerer().generations == 1
    assert Conversation.objects.count() == 1


async def test_b05_resume_in_a_domain_one_may_no_longer_read_is_refused_as_http_refuses_it(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    staff = await sync_to_async(Group.objects.create)(name="staff")
    await sync_to_async(ingest_demo.groups.add)(staff)
    await sync_to_async(user.groups.add)(staff)
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": LAPTOPS, "client_id": "r-1"})
    done = (await frames_until(comm, "done"))[-1]
    # removed from the domain's group: the stored answer (and its frozen sources) are no longer theirs to read
    await sync_to_async(user.groups.remove)(staff)
    await comm.send_json_to({"type": "resume", "message": done["message"]})
    refused = await comm.receive_json_from(timeout=30)
    await comm.disconnect()
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    assert "no longer have access" in refused["message"] and "text" not in refused and "sources" not in refused

    from api.services import token_create
    from django.test import AsyncClient

    _, token = await sync_to_async(token_create)(user=user, name="t")
    http = await AsyncClient().get(f"/api/v1/conversations/{done['conversation']}",
                                   headers={"Authorization": f"Bearer {token}"})
    assert http.status_code == 403 and http.json()["error"]["code"] == refused["code"]


@pytest.mark.parametrize("pieces", [[], ["  ", "\n\t"]])
async def test_b07_an_empty_answer_is_stored_as_failed_retried_and_never_sent_back_as_history(ingest_demo, user,
                                                                                            pieces):
    registry.configure(answerer=ScriptedProvider(pieces))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": LAPTOPS, "client_id": "e-1"})
    frames = await frames_until(comm, "done")
    error = frames[-1]
    assert error["type"] == "error" and error["code"] == "empty_answer"
    assert "empty answer" in error["message"] and "retry" in error["message"]
    stored = await sync_to_async(Message.objects.get)(pk=error["message_id"])
    assert stored.status == "failed" and stored.error == error["message"] and stored.text.strip() == ""
    conversation = frames[0]["conversation"]
    # the next turn does not send the empty answer (or its question) back to the model
    recording = ScriptedProvider(["Spare laptops are kept in every office [S1]."])
    registry.configure(answerer=recording)
    await comm.send_json_to({"type": "ask", "conversation": conversation, "text": "Are spare laptops kept in every office?",
                             "client_id": "e-2"})
    await frames_until(comm, "done")
    sent = recording.calls[-1].messages
    assert [m["role"] for m in sent] == ["user"] and all(m["content"].strip() for m in sent)
    # a retry (the same client id again) answers the question anew
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    await comm.send_json_to({"type": "ask", "conversation": conversation, "text": LAPTOPS, "client_id": "e-1"})
    retried = await frames_until(comm, "done")
    await comm.disconnect()
    assert [f["type"] for f in retried][:2] == ["accepted", "plan"] and retried[-1]["status"] == "complete"
    assert "36 months" in retried[-1]["text"]


def test_an_accepted_ask_has_its_answer_row_at_once_so_a_resend_or_another_ask_cannot_start_a_second(ingest_demo,
                                                                                                     user):
    """A breaker's report: the same client id sent on two sockets (or four API requests) at the same moment got two
    or three answers, and two asks in one conversation were both answered side by side. The question and its
    streaming answer row are stored in one transaction (the conversation row locked), so whatever arrives before
    the first generation even starts finds the answer running (a resend) or the conversation busy (another ask,
    a regeneration)."""
    from chat.errors import AskError
    from chat.orchestration import ask_store
    from chat.regeneration import regenerate_store
    from knowledge.models import Domain

    domain = Domain.objects.get(slug="handbook")
    first = ask_store(user=user, conversation=None, domain=domain, text=LAPTOPS, client_id="race-1",
                      providers=registry)
    assert first.answer is not None and first.answer.status == Message.Status.STREAMING
    resend = ask_store(user=user, conversation=None, domain=domain, text=LAPTOPS, client_id="race-1",
                       providers=registry)
    assert resend.running is not None and resend.running.pk == first.answer.pk and resend.answer is None
    with pytest.raises(AskError) as busy:
        ask_store(user=user, conversation=first.conversation, domain=domain, text="How many sick days do I get?",
                  client_id="race-2", providers=registry)
    assert busy.value.code == "busy"
    with pytest.raises(AskError) as again:
        regenerate_store(user=user, message_id=first.answer.pk, client_id="regen-1", providers=registry)
    assert again.value.code == "busy"
    assert Message.objects.filter(reply_to=first.question).count() == 1  # one answer, nothing else stored
    assert not Message.objects.filter(client_id="race-2").exists()


@pytest.mark.parametrize("text", ["\u200b\u200c\u200d\ufeff\u2060", "\x01\x02\x07\x1b", " \u200b \n",
                                  # the s27 breaker: Hangul fillers and the blank braille pattern, lone accents
                                  "\u3164\u115f\u2800", "\u0301\u0308 \u20dd",
                                  # the s44 breaker: a null notehead, a private-use character, the object replacement
                                  "\U0001d159", "\U000f0000 \ue000", "\ufffc", "\U0001d159\ufffc\U000f0000"])
def test_a_question_of_invisible_or_control_characters_only_is_empty(text):
    """A breaker's report: zero-width or control-character-only questions were stored (blank titles, empty bubbles)."""
    from chat.errors import AskError
    from chat.validation import validate_question

    with pytest.raises(AskError) as empty:
        validate_question(text)
    assert empty.value.code == "empty_message"
    assert validate_question("\u200bWhat is the meal allowance?") == "\u200bWhat is the meal allowance?"
    assert validate_question("Cafe\u0301 hours?") == "Cafe\u0301 hours?"  # an accent on a letter is text
    assert validate_question("\ud55c\uad6d\uc5b4?") == "\ud55c\uad6d\uc5b4?"  # Hangul syllables are letters
    assert validate_question("\U0001f600") == "\U0001f600"  # an emoji is seen (and answered as a question)


@pytest.mark.parametrize("text", ["[S99]", " [S1][S2] ", "[S1, S3]"])
def test_a_question_of_citation_markers_only_is_empty(text):
    """The s45 breaker: "[S99]" was answered "The documents describe Your First Week at Tallgrass ... [S4] and ...
    but they do not say anything about S99", with chips to unrelated sources. The user is told to type a question."""
    from chat.errors import AskError
    from chat.validation import validate_question

    with pytest.raises(AskError) as empty:
        validate_question(text)
    assert (empty.value.code, str(empty.value)) == ("empty_message", "The message holds only a citation marker. "
                                                                     "Type a question first.")
    assert validate_question("What does [S1] say?") == "What does [S1] say?"


@pytest.mark.parametrize("client_id", ["p" * 65, {"a": 1}, 42, ["x"]])
def test_a_client_id_over_64_characters_or_not_text_is_refused_not_cut(client_id):
    """A breaker's report: two 66-character ids cut to the same 64 made the second question get the first's answer."""
    from chat.errors import AskError
    from chat.validation import validate_client_id

    with pytest.raises(AskError) as bad:
        validate_client_id(client_id)
    assert bad.value.code == "invalid_client_id" and "64 characters" in bad.value.message
    assert validate_client_id("p" * 64) == "p" * 64 and validate_client_id(None) == ""


@pytest.mark.django_db
def test_a_resend_is_found_through_the_client_key_index_not_a_scan_of_every_message():
    # SQLite uses the partial unique index on client_key only when the query repeats its condition; without it
    # every ask scanned every stored message (twice) to look for a resend. PostgreSQL proves the condition itself;
    # with sequential scans off its plan shows the index is usable for the query
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from chat.selectors import question_of

    with CaptureQueriesContext(connection) as captured:
        assert question_of("7:never-sent") is None
    [query] = captured.captured_queries
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + query["sql"])
        else:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + query["sql"])
        plan = " ".join(str(row) for row in cursor.fetchall())
    if connection.vendor == "sqlite":
        assert "USING INDEX unique_client_key" in plan and "SCAN chat_message" not in plan
    else:
        assert "unique_client_key" in plan and "Seq Scan" not in plan
