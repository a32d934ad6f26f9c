"""Issue 22: regenerate (a new answer to an answered question, the earlier one kept) through the socket and the one
ask orchestration, with the access, busy and idempotency rules of an ask; and a stop before the answer row exists
still leaves a stored outcome."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat.memory import memory_turns
from chat.models import Conversation, Message
from chat.providers import registry
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def user(transactional_db):
    return get_user_model().objects.create_user("alice", password="pw")


async def ask(comm, text="How often are laptops replaced?", **extra) -> list[dict]:
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": text, **extra})
    return await frames_until(comm, "done")


async def test_regenerate_makes_a_new_answer_and_keeps_the_earlier_one(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    first = (await ask(comm))[-1]
    registry.configure(answerer=ScriptedProvider(["A new answer: ", "36 months [S1]."]))
    await comm.send_json_to({"type": "regenerate", "message": first["message"], "client_id": "r-1"})
    frames = await frames_until(comm, "done")
    accepted, plan, done = frames[0], frames[1], frames[-1]
    assert accepted["type"] == "accepted" and accepted["regenerates"] == first["message"]
    assert accepted["message"] == first["question_message"] and accepted["conversation"] == first["conversation"]
    assert plan["type"] == "plan" and plan["question"] == first["question_message"]
    assert done["status"] == "complete" and done["text"] == "A new answer: 36 months [S1]."
    assert done["message"] != first["message"] and done["reply_to"] == first["question_message"]
    assert done["client_id"] == "r-1"

    question = await sync_to_async(Message.objects.get)(pk=first["question_message"])
    answers = await sync_to_async(list)(question.answers.order_by("pk").values_list("text", flat=True))
    assert answers == ["Laptops are replaced every 36 months [S1].", "A new answer: 36 months [S1]."]
    conversation = await sync_to_async(Conversation.objects.get)(pk=first["conversation"])
    turns = await sync_to_async(memory_turns)(conversation=conversation)
    assert [t.text for t in turns][1].startswith("A new answer")  # later turns remember the latest answer

    # the same regeneration sent again gets the answer it made, nothing more is generated
    await comm.send_json_to({"type": "regenerate", "message": first["message"], "client_id": "r-1"})
    again = await frames_until(comm, "done")
    assert [f["type"] for f in again] == ["accepted", "done"] and again[-1]["message"] == done["message"]
    assert await sync_to_async(question.answers.count)() == 2
    await comm.disconnect()


async def test_a_regeneration_client_id_sent_again_for_another_answer_is_refused(ingest_demo, user):
    """The s43 breaker regenerated answer A with client id "r-1", then answer B of another conversation with the same
    id: it got "accepted" for B's conversation and "done" with A's regenerated answer. Now the user sees the
    error naming the reused id, and nothing is stored or generated."""
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    first = (await ask(comm))[-1]
    second = (await ask(comm, "How many vacation days do I get?"))[-1]
    await comm.send_json_to({"type": "regenerate", "message": first["message"], "client_id": "r-1"})
    assert (await frames_until(comm, "done"))[-1]["status"] == "complete"
    count = await sync_to_async(Message.objects.count)()
    await comm.send_json_to({"type": "regenerate", "message": second["message"], "client_id": "r-1"})
    error = await comm.receive_json_from(timeout=10)
    assert (error["type"], error["code"], error["client_id"]) == ("error", "client_id_reused", "r-1")
    assert error["message"] == ("The client id 'r-1' was already used for another regeneration. Send this one with a "
                                "new client id.")
    assert await sync_to_async(Message.objects.count)() == count
    await comm.send_json_to({"type": "regenerate", "message": second["message"], "client_id": "r-2"})
    done = (await frames_until(comm, "done"))[-1]
    assert done["conversation"] == second["conversation"] and done["reply_to"] == second["question_message"]
    await comm.disconnect()


async def test_regenerate_refuses_unknown_ids_other_users_answers_and_questions(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    bob = await sync_to_async(get_user_model().objects.create_user)("bob", password="pw")
    bobs = await connect(bob)
    await bobs.connect()
    bob_answer = (await ask(bobs))[-1]
    await bobs.disconnect()
    comm = await connect(user)
    await comm.connect()
    for message in (bob_answer["message"], bob_answer["question_message"], 999999, "x", None):
        await comm.send_json_to({"type": "regenerate", "message": message})
        error = await comm.receive_json_from(timeout=10)
        assert (error["type"], error["code"], error["message"]) == ("error", "not_found", "Message not found.")
    assert await sync_to_async(Message.objects.count)() == 2  # nothing was stored
    await comm.disconnect()


async def test_regenerate_while_an_answer_is_generated_is_busy(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(["Laptops ", "are ", "replaced [S1]."], delay=0.4))
    comm = await connect(user)
    await comm.connect()
    first = (await ask(comm))[-1]
    await comm.send_json_to({"type": "ask", "conversation": first["conversation"], "text": "And monitors?"})
    while (await comm.receive_json_from(timeout=30))["type"] != "delta":
        pass
    await comm.send_json_to({"type": "regenerate", "message": first["message"]})
    while (frame := await comm.receive_json_from(timeout=30))["type"] != "error":
        pass
    assert frame["code"] == "busy"
    await frames_until(comm, "done")
    await comm.disconnect()


async def test_stop_at_once_after_asking_stores_an_interrupted_answer(ingest_demo, user):
    """Stop sent right behind the ask (before any frame came back): the answer is stored as interrupted, a done
    frame says so, and the socket can ask again at once."""
    registry.configure(answerer=ScriptedProvider(["Laptops ", "are ", "replaced [S1]."], delay=0.3))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    await comm.send_json_to({"type": "stop"})
    frames = await frames_until(comm, "done")
    assert frames[0]["type"] == "accepted" and frames[-1]["status"] == "interrupted"
    stored = await sync_to_async(Message.objects.get)(pk=frames[-1]["message"])
    assert stored.status == "interrupted" and stored.error == "stopped"
    assert (await ask(comm, conversation=frames[0]["conversation"]))[-1]["status"] == "complete"
    await comm.disconnect()
