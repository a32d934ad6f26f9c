"""A socket that drops while its answer generates can resume it from another socket: the text so far, then the rest
of the stream through the channel layer (issue 11 point 2; across workers in tests/scale/test_two_workers.py)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from chat import generation
from chat.providers import registry
from chat.models import Message
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until, user  # noqa: F401 - the user fixture

pytestmark = pytest.mark.django_db(transaction=True)

PIECES = [f"Piece {i} of the answer. " for i in range(12)]


async def test_resume_mid_stream_gets_the_text_so_far_then_the_rest(ingest_demo, user, monkeypatch):  # noqa: F811
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.25))
    monkeypatch.setattr(generation, "PARTIAL_SAVE_SECONDS", 0.5)
    first = await connect(user)
    await first.connect()
    await first.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                              "client_id": "c-1"})
    deltas = []
    plan = None
    while len(deltas) < 6:
        frame = await first.receive_json_from(timeout=60)
        if frame["type"] == "plan":
            plan = frame
        elif frame["type"] == "delta":
            deltas.append(frame)
    await first.disconnect()  # the tab goes away mid-answer; generation goes on
    message_id = plan["message"]

    second = await connect(user)
    await second.connect()
    await second.send_json_to({"type": "resume", "message": message_id})
    resumed_plan = await second.receive_json_from(timeout=10)
    partial = await second.receive_json_from(timeout=10)
    assert resumed_plan["type"] == "plan" and resumed_plan["resumed"] is True
    assert [s["label"] for s in resumed_plan["sources"]] == [s["label"] for s in plan["sources"]]
    assert partial["type"] == "partial" and partial["seq"] >= 1
    assert partial["text"] == "".join(d["text"] for d in deltas[:partial["seq"]])  # what had been streamed
    rest = await frames_until(second, "done")
    later = [f for f in rest if f["type"] == "delta"]
    assert [f["seq"] for f in later] == list(range(partial["seq"] + 1, partial["seq"] + 1 + len(later)))
    done = rest[-1]
    assert done["type"] == "done" and done["status"] == "complete"
    assert partial["text"] + "".join(f["text"] for f in later) == done["text"] == "".join(PIECES)
    stored = await sync_to_async(Message.objects.get)(pk=message_id)
    assert stored.status == "complete" and stored.text == done["text"]
    await second.disconnect()


async def test_resume_by_the_accepted_frames_question_id_follows_its_answer(ingest_demo, user,  # noqa: F811
                                                                           monkeypatch):
    """A client that lost its socket between `accepted` and `plan` knows only the question's id (the `accepted`
    frame's ``message``): resuming with it was "Message not found." (s11 breaker). It now follows the question's
    answer: its plan, its text so far, the rest and `done`, which name the answer's id."""
    registry.configure(answerer=ScriptedProvider(PIECES, delay=0.25))
    first = await connect(user)
    await first.connect()
    await first.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    accepted = await first.receive_json_from(timeout=60)
    assert accepted["type"] == "accepted"
    await first.disconnect()  # gone before the plan frame
    second = await connect(user)
    await second.connect()
    await second.send_json_to({"type": "resume", "message": accepted["message"]})
    frames = await frames_until(second, "done")
    await second.disconnect()
    answer = await sync_to_async(Message.objects.get)(reply_to_id=accepted["message"])
    assert frames[-1]["type"] == "done" and frames[-1]["message"] == answer.pk != accepted["message"]
    assert frames[-1]["text"] == "".join(PIECES)
    # another user's question id, or a question's id that is no message at all, is still not found
    third = await connect(user)
    await third.connect()
    await third.send_json_to({"type": "resume", "message": answer.pk + 1000})
    assert (await third.receive_json_from(timeout=10))["code"] == "not_found"
    await third.disconnect()


async def test_resume_of_a_finished_answer_is_its_done_frame(ingest_demo, user, monkeypatch):  # noqa: F811
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced [S1]", "."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    done = (await frames_until(comm, "done"))[-1]
    await comm.send_json_to({"type": "resume", "message": done["message"]})
    again = await comm.receive_json_from(timeout=10)
    assert again["type"] == "done" and again["text"] == done["text"] and again["status"] == "complete"
    await comm.disconnect()


async def test_an_answer_whose_server_stopped_mid_stream_ends_interrupted_on_resume_and_frees_the_conversation(
        ingest_demo, user):  # noqa: F811
    """A breaker's report: the server killed right after the plan frame left the answer streaming forever (resume
    hung, the conversation answered every ask with busy for 10 minutes, the page showed "Reading 3 sources"). A
    generating task touches its answer's alive_at every 10 s; a streaming answer silent for 60 s lost its server:
    a resume gets it as interrupted, with the text saved so far and the reason, and the conversation takes the next
    question."""
    from datetime import timedelta

    from django.utils import timezone

    from chat.orchestration import ask_store
    from chat.persistence import ORPHAN_ERROR
    from knowledge.models import Domain

    def stranded():
        domain = Domain.objects.get(slug="handbook")
        submission = ask_store(user=user, conversation=None, domain=domain, text="How often are laptops replaced?",
                               client_id="", providers=registry)
        Message.objects.filter(pk=submission.answer.pk).update(
            text="Laptops are replaced", alive_at=timezone.now() - timedelta(seconds=90))  # the server died here
        return submission

    submission = await sync_to_async(stranded)()
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "resume", "message": submission.answer.pk})
    done = await comm.receive_json_from(timeout=30)
    assert done["type"] == "done" and done["status"] == "interrupted" and done["error"] == ORPHAN_ERROR
    assert done["answer"] == "Laptops are replaced"  # the text saved before the server stopped is kept
    registry.configure(answerer=ScriptedProvider(["Sick days: 10 a year [S1]."]))
    await comm.send_json_to({"type": "ask", "conversation": submission.conversation.pk,
                             "text": "How many sick days do I get?", "client_id": "after-restart"})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    assert [f["type"] for f in frames][0] == "accepted" and frames[-1]["status"] == "complete"  # not busy


def test_a_live_answer_keeps_the_conversation_busy_and_an_orphan_does_not(ingest_demo, user):  # noqa: F811
    from datetime import timedelta

    from django.utils import timezone

    from chat.orchestration import answering, ask_store
    from knowledge.models import Domain

    domain = Domain.objects.get(slug="handbook")
    submission = ask_store(user=user, conversation=None, domain=domain, text="How often are laptops replaced?",
                           client_id="", providers=registry)
    assert answering(submission.conversation).pk == submission.answer.pk  # just accepted: alive
    Message.objects.filter(pk=submission.answer.pk).update(alive_at=timezone.now() - timedelta(seconds=61))
    assert answering(submission.conversation) is None
    assert Message.objects.get(pk=submission.answer.pk).status == Message.Status.INTERRUPTED


async def test_a_generating_task_keeps_its_answer_alive(ingest_demo, user, monkeypatch):  # noqa: F811
    """The heartbeat: while the provider is slow (no delta, so no partial save), alive_at still moves forward."""
    registry.configure(answerer=ScriptedProvider(["Laptops ", "are replaced ", "every 36 months [S1]."], delay=0.6))
    monkeypatch.setattr(generation, "HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr(generation, "PARTIAL_SAVE_SECONDS", 60.0)  # only the heartbeat touches the row
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    plan = None
    while plan is None:
        frame = await comm.receive_json_from(timeout=60)
        plan = frame if frame["type"] == "plan" else None
    started = (await sync_to_async(Message.objects.get)(pk=plan["message"])).alive_at
    await asyncio.sleep(0.9)
    later = (await sync_to_async(Message.objects.get)(pk=plan["message"])).alive_at
    await frames_until(comm, "done")
    await comm.disconnect()
    assert later > started


async def test_a_frame_nobody_follows_skips_the_in_memory_layers_sweep_and_a_follower_still_gets_it(monkeypatch):
    from channels.layers import InMemoryChannelLayer

    from chat import broadcast

    layer = InMemoryChannelLayer()
    sends = []
    real = layer.group_send

    async def counting(group, message):
        sends.append(group)
        return await real(group, message)

    monkeypatch.setattr(layer, "group_send", counting)
    monkeypatch.setattr(broadcast, "_layer", lambda: layer)
    await broadcast.answer_broadcast(7, {"type": "delta", "text": "Hi", "seq": 1})
    assert sends == []  # no socket follows answer 7: no send (and no sweep of every channel and group)
    follower = await layer.new_channel()
    await layer.group_add(broadcast.answer_group(7), follower)
    await broadcast.answer_broadcast(7, {"type": "delta", "text": "Hi", "seq": 1})
    message = await asyncio.wait_for(layer.receive(follower), 5)
    assert sends == [broadcast.answer_group(7)] and message["frame"]["text"] == "Hi"


def test_a_fuller_partial_after_the_stored_copy_replaces_it_and_later_deltas_follow():
    """A follower that read the stored copy (the generator was slow to reply) shows the generator's later reply when
    it reaches further, then only the deltas after it; an older or equal reply changes nothing."""
    from chat.resume import Follower

    follower = Follower(7)
    stored = {"type": "partial", "message": 7, "text": "Laptops are", "seq": 2}
    assert follower.on_frame(stored) == [stored]
    assert follower.on_frame({"type": "partial", "message": 7, "text": "Laptops", "seq": 1}) == []
    reply = {"type": "partial", "message": 7, "text": "Laptops are replaced every", "seq": 4}
    assert follower.on_frame(reply) == [reply]
    assert follower.on_frame({"type": "delta", "message": 7, "seq": 4, "text": " every"}) == []
    later = {"type": "delta", "message": 7, "seq": 5, "text": " 36 months"}
    assert follower.on_frame(later) == [later]


async def test_a_socket_following_an_answer_whose_server_crashed_gets_it_as_interrupted(ingest_demo, user,  # noqa: F811
                                                                                        monkeypatch):
    """The s44 breaker: the server killed mid-answer and restarted, a resume within the 60 s heartbeat deadline got
    the plan and the text so far, then nothing for over 100 s (the page stayed busy). The socket now reads the row
    again while it follows it, and once the heartbeat is overdue it gets the answer as interrupted, with the text
    saved so far and the reason."""
    from datetime import timedelta

    from django.utils import timezone

    from chat import consumers
    from chat.orchestration import ask_store
    from chat.persistence import ORPHAN_ERROR
    from knowledge.models import Domain

    monkeypatch.setattr(consumers, "WATCH_SECONDS", 0.5)

    def stranded():
        domain = Domain.objects.get(slug="handbook")
        submission = ask_store(user=user, conversation=None, domain=domain, text="How often are laptops replaced?",
                               client_id="", providers=registry)
        Message.objects.filter(pk=submission.answer.pk).update(  # its last heartbeat 57 s ago: live for 3 s more
            text="Laptops are replaced every 36", stream_seq=2, alive_at=timezone.now() - timedelta(seconds=57))
        return submission

    submission = await sync_to_async(stranded)()
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "resume", "message": submission.answer.pk})
    frames = await frames_until(comm, "done", timeout=30)
    await comm.disconnect()
    assert [f["type"] for f in frames] == ["plan", "partial", "done"]
    assert frames[1]["text"] == "Laptops are replaced every 36"
    done = frames[-1]
    assert done["status"] == "interrupted" and done["error"] == ORPHAN_ERROR
    assert done["answer"] == "Laptops are replaced every 36"
