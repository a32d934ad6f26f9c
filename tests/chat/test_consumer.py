"""The chat websocket through the real ASGI stack (origin check, session auth) with WebsocketCommunicator."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from chat.providers import registry
from chat.models import Conversation, Message
from config.asgi import application
from grounding.providers import ScriptedProvider

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user=None, origin=b"http://localhost") -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    return WebsocketCommunicator(application, "/ws/chat/", headers=headers)


async def frames_until(comm: WebsocketCommunicator, last: str, timeout: float = 60) -> list[dict]:
    out = []
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        out.append(frame)
        if frame["type"] in (last, "error"):
            return out


@pytest.fixture
def user(transactional_db):
    return get_user_model().objects.create_user("alice", password="pw")


async def test_ask_streams_plan_deltas_done_in_order_and_stores_the_answer(ingest_demo, user):
    comm = await connect(user)
    connected, _ = await comm.connect()
    assert connected
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "client_id": "c-1"})
    frames = await frames_until(comm, "done")
    kinds = [f["type"] for f in frames]
    assert kinds[0] == "accepted" and kinds[1] == "plan" and kinds[-1] == "done"
    assert set(kinds[2:-1]) == {"delta"} and len(kinds) > 4  # streamed in several pieces
    assert [f["seq"] for f in frames[2:-1]] == list(range(1, len(frames) - 2))
    plan, done = frames[1], frames[-1]
    assert plan["sources"] and all({"label", "title", "text", "version", "date"} <= set(s) for s in plan["sources"])
    streamed = "".join(f["text"] for f in frames[2:-1])
    assert streamed == done["text"] and "36-month refresh cycle" in done["text"]
    assert done["status"] == "complete" and 'class="cite"' in done["html"]
    assert done["citations"][0]["title"] == "Equipment and Laptop Policy"
    await comm.disconnect()
    stored = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status", "text"))
    assert stored == [("user", "complete", "How often are laptops replaced?"),
                      ("assistant", "complete", done["text"])]
    reply = await sync_to_async(Message.objects.get)(role="assistant")
    assert reply.sources == plan["sources"]  # frozen snapshot as the model saw it


async def test_resent_client_id_is_idempotent(ingest_demo, user):
    comm = await connect(user)
    await comm.connect()
    ask = {"type": "ask", "domain": "handbook", "text": "How many weeks of paid parental leave?",
           "client_id": "same"}
    await comm.send_json_to(ask)
    first = await frames_until(comm, "done")
    conv = first[0]["conversation"]
    await comm.send_json_to({**ask, "conversation": conv})
    second = await frames_until(comm, "done")
    assert [f["type"] for f in second] == ["accepted", "done"]  # the stored answer, no new generation
    assert second[-1]["message"] == first[-1]["message"]
    assert await sync_to_async(Message.objects.count)() == 2
    await comm.disconnect()


async def test_anonymous_socket_is_refused(ingest_demo):
    comm = await connect(None)
    connected, code = await comm.connect()
    assert not connected and code == 4401


async def test_foreign_origin_is_refused(ingest_demo, user):
    comm = await connect(user, origin=b"https://evil.example")
    connected, _ = await comm.connect()
    assert not connected


@pytest.mark.parametrize("origin", [b"http://localhost:9999", b"http://localhost.evil.example", b"null",
                                    b"https://localhost", b"https://localhost:80",  # the s43 breaker: the scheme
                                    b"http://localhost:notaport"])
async def test_an_origin_of_another_port_or_scheme_on_the_same_host_is_refused(ingest_demo, user, origin):
    # the s27 breaker: any page on the same host (another program's port) could open the chat socket with the user's
    # cookie and ask in their name; the host check alone ignores the port
    comm = await connect(user, origin=origin)
    connected, _ = await comm.connect()
    assert not connected


@pytest.mark.parametrize("raw,code", [
    ("not json", "bad_frame"),
    ("[1, 2]", "bad_frame"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "ask", "domain": "handbook", "text": "   "}', "empty_message"),
    ('{"type": "ask", "domain": "handbook"}', "empty_message"),
    ('{"type": "ask", "domain": "handbook", "text": 5}', "invalid_text"),
    ('{"type": "ask", "domain": "handbook", "text": ["a question"]}', "invalid_text"),
    ('{"type": "ask", "domain": "handbook", "text": "' + "x" * 4001 + '"}', "message_too_long"),
    ('{"type": "ask", "domain": "nope", "text": "hi"}', "unknown_domain"),
    # the s27 breaker: a domain holding an unpaired surrogate (SQLite's driver) or a NUL (PostgreSQL) reached the
    # database and closed the socket with 1011; a number was looked up as text
    ('{"type": "ask", "domain": "hand\\ud800book", "text": "hi"}', "unknown_domain"),
    ('{"type": "ask", "domain": "hand\\u0000book", "text": "hi"}', "unknown_domain"),
    ('{"type": "ask", "domain": 5, "text": "hi"}', "unknown_domain"),
    ('{"type": "ask", "conversation": 424242, "text": "hi"}', "not_found"),
    ('{"type": "resume", "message": "abc"}', "not_found"),
])
async def test_bad_frames_get_typed_errors_and_the_socket_stays_usable(ingest_demo, user, raw, code):
    comm = await connect(user)
    await comm.connect()
    await comm.send_to(text_data=raw)
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == code and frame["message"]
    await comm.send_json_to({"type": "resume", "message": 0})
    assert (await comm.receive_json_from(timeout=10))["code"] == "not_found"  # still usable
    assert await sync_to_async(Message.objects.count)() == 0  # nothing stored
    await comm.disconnect()


@pytest.mark.parametrize("raw,message", [
    ('{"type": "ask", "domain": "handbook", "text": 42}', "The message must be text (a JSON string), not a number."),
    ('{"type": "ask", "domain": "handbook", "text": {"q": 1}}',
     "The message must be text (a JSON string), not an object."),
    ('{"text": "hi"}', "The frame has no type; expected ask, regenerate, stop or resume."),
])
async def test_a_field_of_the_wrong_type_is_named_in_json_words(ingest_demo, user, raw, message):
    """The s12 breaker: "must be text, not int" and "Unknown frame type 'None'" showed Python's names to a client
    that writes JSON."""
    comm = await connect(user)
    await comm.connect()
    await comm.send_to(text_data=raw)
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["message"] == message
    await comm.disconnect()


async def test_another_users_conversation_is_refused_and_untouched(ingest_demo, user):
    bob = await sync_to_async(get_user_model().objects.create_user)("bob", password="pw")
    conv = await sync_to_async(Conversation.objects.create)(user=bob, domain=ingest_demo, title="Bob's")
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "conversation": conv.pk, "text": "What did Bob ask?"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame == {"type": "error", "code": "not_found", "message": "Conversation not found."}
    assert await sync_to_async(Message.objects.filter(conversation=conv).count)() == 0
    await comm.disconnect()


async def test_provider_failure_keeps_the_user_turn_and_saves_the_text_so_far(ingest_demo, user, monkeypatch):
    registry.configure(answerer=ScriptedProvider(["The answer ", "is [S1", "]."], fail_after=1))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "provider_error"
    assert "scripted provider failure" in frames[-1]["message"]
    rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status", "text"))
    assert rows == [("user", "complete", "How often are laptops replaced?"),
                    ("assistant", "interrupted", "The answer ")]  # broke mid-way: kept as interrupted
    await comm.disconnect()


async def test_the_abstention_token_is_never_streamed(ingest_demo, user, monkeypatch):
    """A model that abstains streams the internal token; the reader never sees it: the refusal streams as one delta
    of the abstention message with its reason, the text the done frame and the stored answer carry (s7 bug 6: it
    came only in the done frame before, so a client rendering deltas showed nothing)."""
    from grounding.answer import ABSTAIN_MESSAGE

    registry.configure(answerer=ScriptedProvider(["INSUFF", "ICIENT_", "EVIDENCE: no ", "dog rule."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    deltas = [f for f in frames if f["type"] == "delta"]
    assert [d["seq"] for d in deltas] == [1] and "INSUFFICIENT" not in deltas[0]["text"]
    assert deltas[0]["text"] == frames[-1]["text"] == f"{ABSTAIN_MESSAGE} No dog rule."
    stored = await sync_to_async(Message.objects.get)(pk=frames[-1]["message"])
    assert stored.abstained and stored.text == deltas[0]["text"]
    await comm.disconnect()


async def test_a_refusal_without_a_model_call_streams_its_text_as_a_delta(ingest_demo, user):
    """s7 bug 6: a question the documents do not cover is refused before any model call; the refusal arrives as a
    delta like any answer (then done), and the streamed text equals the stored one."""
    from grounding.answer import ABSTAIN_MESSAGE

    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "What is the airspeed of a swallow?"})
    frames = await frames_until(comm, "done")
    kinds = [f["type"] for f in frames]
    assert kinds[-2:] == ["delta", "done"] and kinds.count("delta") == 1 and kinds.index("plan") < kinds.index("delta")
    delta, done = frames[-2], frames[-1]
    assert done["abstained"] is True and done["status"] == "complete"
    assert delta == {"type": "delta", "message": done["message"], "seq": 1, "text": done["text"], "cites": []}
    assert done["text"].startswith(ABSTAIN_MESSAGE)
    stored = await sync_to_async(Message.objects.get)(pk=done["message"])
    assert stored.text == delta["text"], "the stored refusal must equal the streamed one"
    await comm.disconnect()


async def test_a_refusal_that_cites_what_the_documents_cover_streams_with_its_chips(ingest_demo, user):
    """A refusal whose reason cites the sources ("The documents describe ... [S1], but ...") streams as one delta
    whose ``cites`` locate its marker, so the chip works while it is shown; the done frame's text is the same."""
    registry.configure(answerer=ScriptedProvider(["INSUFFICIENT_EVIDENCE: The documents describe laptop "
                                                  "replacement [S1], but they do not state the colour."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    [delta] = [f for f in frames if f["type"] == "delta"]
    text = "The documents describe laptop replacement [S1], but they do not state the colour."
    assert delta["text"] == frames[-1]["text"] == text and frames[-1]["abstained"] is True
    start = text.index("[S1]")
    assert delta["cites"] == [[start, start + 4]]
    await comm.disconnect()


async def test_an_answer_starting_like_the_token_streams_whole(ingest_demo, user, monkeypatch):
    registry.configure(answerer=ScriptedProvider(["IN", "SUFFICIENT rest breaks ", "are paid [S1]."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    streamed = "".join(f["text"] for f in frames if f["type"] == "delta")
    assert streamed == "INSUFFICIENT rest breaks are paid [S1]." == frames[-1]["text"]
    await comm.disconnect()


async def test_done_echoes_the_client_id_the_question_was_sent_with(ingest_demo, user, monkeypatch):
    """The client matches the answer to what it sent: accepted and done carry the same client_id, also when the
    same ask is sent again and the stored answer is replayed."""
    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    ask = {"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?", "client_id": "ws-2"}
    await comm.send_json_to(ask)
    frames = await frames_until(comm, "done")
    assert frames[0]["type"] == "accepted" and frames[0]["client_id"] == "ws-2"
    assert frames[-1]["type"] == "done" and frames[-1]["client_id"] == "ws-2"
    await comm.send_json_to({**ask, "conversation": frames[0]["conversation"]})
    again = await frames_until(comm, "done")
    assert again[-1]["client_id"] == "ws-2" and again[-1]["message"] == frames[-1]["message"]
    await comm.disconnect()


async def test_c13_disconnect_mid_stream_still_saves_the_answer(ingest_demo, user, monkeypatch):
    pieces = ["Laptops are ", "replaced every ", "36 months ", "[S1]", "."]
    registry.configure(answerer=ScriptedProvider(pieces, delay=0.05))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = []
    while len([f for f in frames if f["type"] == "delta"]) < 2:
        frames.append(await comm.receive_json_from(timeout=30))
    await comm.disconnect()
    for _ in range(100):
        reply = await sync_to_async(Message.objects.filter(role="assistant").first)()
        if reply and reply.status != "streaming":
            break
        await asyncio.sleep(0.05)
    assert reply.status == "complete" and reply.text == "".join(pieces)
    assert [c["label"] for c in reply.citations] == ["S1"]


async def test_stop_saves_the_answer_as_interrupted_with_the_text_so_far(ingest_demo, user, monkeypatch):
    registry.configure(answerer=ScriptedProvider(["One ", "two ", "three ", "four"], delay=0.2))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    while (await comm.receive_json_from(timeout=30))["type"] != "delta":
        pass
    await comm.send_json_to({"type": "stop"})
    frames = await frames_until(comm, "done")
    done = frames[-1]
    assert done["status"] == "interrupted" and done["text"].startswith("One ") and "four" not in done["text"]
    await comm.send_json_to({"type": "resume", "message": done["message"]})
    resumed = await comm.receive_json_from(timeout=10)
    assert resumed["type"] == "done" and resumed["text"] == done["text"]
    await comm.disconnect()


async def test_resend_while_the_answer_is_streaming_does_not_start_a_second_one(ingest_demo, user, monkeypatch):
    registry.configure(answerer=ScriptedProvider(["Laptops ", "are ", "replaced [S1]", "."],
                                                                delay=0.3))
    a, b = await connect(user), await connect(user)
    await a.connect()
    await b.connect()
    ask = {"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?", "client_id": "dup"}
    await a.send_json_to(ask)
    first = await a.receive_json_from(timeout=30)
    while (await a.receive_json_from(timeout=30))["type"] != "plan":
        pass
    await b.send_json_to({**ask, "conversation": first["conversation"]})
    frames = await frames_until(b, "done")
    assert [f["type"] for f in frames] == ["accepted", "error"] and frames[-1]["code"] == "in_progress"
    done = await frames_until(a, "done")
    assert done[-1]["type"] == "done" and done[-1]["status"] == "complete"
    assert await sync_to_async(Message.objects.count)() == 2
    await a.disconnect()
    await b.disconnect()


async def test_a_turn_whose_planning_fails_is_stored_with_its_reason(ingest_demo, user):
    from knowledge.models import Domain

    await sync_to_async(Domain.objects.filter(pk=ingest_demo.pk).update)(history_cap=2.0)  # bypasses validation
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "domain_settings"
    assert "an administrator must correct them" in frames[-1]["message"]
    rows = await sync_to_async(list)(Message.objects.order_by("pk").values_list("role", "status"))
    assert rows == [("user", "complete"), ("assistant", "failed")]
    await comm.disconnect()


@pytest.mark.parametrize("raw,code", [
    ('{"type": "ask", "conversation": Infinity, "text": "hi"}', "not_found"),
    ('{"type": "resume", "message": -Infinity}', "not_found"),
    ("[" * 100_000 + "]" * 100_000, "bad_frame"),
    ('{"type": "stop"}', "nothing_to_stop"),
    ('{"type": "ask", "domain": "handbook", "text": "' + "\U00013000" * 1_000 + '"}', "message_too_long"),
    # text no database can store: a typed error naming the problem, the socket stays open, nothing is stored
    ('{"type": "ask", "domain": "handbook", "text": "hi \\ud800 there"}', "invalid_text"),
    ('{"type": "ask", "domain": "handbook", "text": "hi \\u0000 there"}', "invalid_text"),
])
async def test_more_bad_frames_get_typed_errors(ingest_demo, user, raw, code):
    comm = await connect(user)
    await comm.connect()
    await comm.send_to(text_data=raw)
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == code
    assert await sync_to_async(Message.objects.count)() == 0
    await comm.send_json_to({"type": "stop"})  # still usable
    assert (await comm.receive_json_from(timeout=10))["code"] == "nothing_to_stop"
    await comm.disconnect()


async def test_a_frame_nested_too_deeply_is_named_so(ingest_demo, user):
    """The s47 breaker: JSON nested 30,000 levels deep is valid JSON, and the reply said "Malformed frame: not JSON."
    The user reads that the frame nests too deeply; the socket stays usable."""
    comm = await connect(user)
    await comm.connect()
    await comm.send_to(text_data='{"type": "ask", "text": ' + "[" * 30_000 + "]" * 30_000 + "}")
    frame = await comm.receive_json_from(timeout=10)
    assert frame == {"type": "error", "code": "bad_frame",
                     "message": "Malformed frame: JSON nested too deeply (a frame is one flat object)."}
    await comm.send_json_to({"type": "stop"})
    assert (await comm.receive_json_from(timeout=10))["code"] == "nothing_to_stop"
    await comm.disconnect()


async def test_asking_right_after_an_answer_is_never_busy(ingest_demo, user):
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    first = await frames_until(comm, "done")
    await comm.send_json_to({"type": "ask", "conversation": first[0]["conversation"],
                             "text": "How many weeks of paid parental leave do employees get?"})
    second = await frames_until(comm, "done")
    assert [f["type"] for f in second][0] == "accepted" and second[-1]["type"] == "done"
    await comm.disconnect()


async def test_b09_deltas_report_citations_outside_code_only(ingest_demo, user, monkeypatch):
    """The streamed `cites` (what the page turns into chips while streaming) never point into code, and the done
    frame reports no invalid label for look-alikes in code; the [S1] outside code is a chip in both."""
    pieces = ["Laptops are replaced every 36 months [S1", "]. Example:\n\n``", "`python\nx = values[0] + values[1]\n",
              "y = cfg[S", "1]\n```\n\nand `row[2]` too.\n"]
    registry.configure(answerer=ScriptedProvider(pieces))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "client_id": "b09"})
    frames = await frames_until(comm, "done")
    deltas, done = [f for f in frames if f["type"] == "delta"], frames[-1]
    cited = [d["text"][a:b] for d in deltas for a, b in d["cites"]]
    assert cited == ["[S1]"]
    assert "".join(d["text"] for d in deltas) == "".join(pieces) == done["text"]
    assert done["invalid"] == [] and done["html"].count('class="cite"') == 1
    assert "cfg[S1]" in done["html"]  # shown as code
    await comm.disconnect()



@pytest.mark.parametrize("look_alike", [lambda pk: pk + 0.2, lambda pk: f"{pk}.0", lambda pk: f"{pk}e0",
                                        lambda pk: [pk], lambda pk: pk == 1])
async def test_a_conversation_id_that_only_looks_like_one_is_not_found_and_nothing_is_stored(ingest_demo, user,
                                                                                              look_alike):
    # a breaker's `"conversation": true` and `1.5` were read as conversation 1 (int(True), int(1.5))
    conv = await sync_to_async(Conversation.objects.create)(user=user, domain=ingest_demo, title="Mine")
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "conversation": look_alike(conv.pk), "text": "What is the allowance?"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame == {"type": "error", "code": "not_found", "message": "Conversation not found."}
    assert await sync_to_async(Message.objects.count)() == 0
    await comm.disconnect()


@pytest.mark.parametrize("client_id", ["c-\\ud800", "x\\u0000y"])
async def test_a_client_id_no_database_can_store_gets_a_typed_error_and_the_socket_stays_open(ingest_demo, user,
                                                                                            client_id):
    """A lone surrogate in client_id closed the socket with 1011 (the resend lookup raised UnicodeEncodeError); now
    the user's page gets invalid_client_id and can ask again."""
    comm = await connect(user)
    await comm.connect()
    await comm.send_to(text_data='{"type": "ask", "domain": "handbook", "text": "What is the hotel limit?", '
                                 f'"client_id": "{client_id}"}}')
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == "invalid_client_id" and "valid text" in frame["message"]
    assert await sync_to_async(Message.objects.count)() == 0
    await comm.send_json_to({"type": "stop"})
    assert (await comm.receive_json_from(timeout=10))["code"] == "nothing_to_stop"  # still open
    await comm.disconnect()


async def test_a_client_id_sent_again_with_another_question_is_refused_not_answered_with_the_first(ingest_demo,
                                                                                                   user):
    """Reusing a client id for a different question returned the first question's stored answer (the laptop question
    got the mileage answer); now it is client_id_reused and nothing new is stored."""
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "What is the mileage rate?",
                             "client_id": "same-id"})
    first = await frames_until(comm, "done")
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "client_id": "same-id"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == "client_id_reused" and "new client id" in frame["message"]
    assert await sync_to_async(Message.objects.count)() == 2
    assert first[-1]["type"] == "done"
    await comm.disconnect()


async def test_a_conversation_with_another_domain_is_refused_at_the_socket_as_at_the_api(ingest_demo, user):
    """The websocket answered an ask naming conversation 1 and domain 'clean' from the conversation's domain; the API
    refused it with domain_mismatch. Every door now refuses it, and the conversation is untouched."""
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "What is the mileage rate?"})
    conversation = (await frames_until(comm, "done"))[0]["conversation"]
    await comm.send_json_to({"type": "ask", "conversation": conversation, "domain": "other",
                             "text": "How often are laptops replaced?"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == "domain_mismatch" and "Leave out domain" in frame["message"]
    await comm.send_json_to({"type": "ask", "conversation": conversation, "domain": "handbook",
                             "text": "How often are laptops replaced?"})
    assert (await frames_until(comm, "done"))[-1]["type"] == "done"  # its own domain named: answered
    assert await sync_to_async(Message.objects.count)() == 4
    await comm.disconnect()


async def test_a_refused_ask_names_its_client_id_so_the_page_knows_which_one(ingest_demo, user):
    """Asks sent at once on one socket: those refused as busy came back without their client id, so a client could
    not tell which of them to show as refused; the error frame now carries it."""
    from chat.providers import registry
    from grounding.providers import ScriptedProvider

    registry.configure(answerer=ScriptedProvider(["Laptops ", "are ", "replaced ", "every 36 months [S1]."],
                                                 delay=0.2))
    comm = await connect(user)
    await comm.connect()
    for n in (1, 2):
        await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                                 "client_id": f"burst-{n}"})
    frames = await frames_until(comm, "done")
    busy = [f for f in frames if f["type"] == "error" and f["code"] == "busy"]
    assert busy and busy[0]["client_id"] == "burst-2"
    await comm.disconnect()


@pytest.mark.parametrize("how", ["logout", "deactivated", "password"])
async def test_an_open_socket_answers_nothing_once_the_user_is_signed_out(ingest_demo, user, how):
    """The s44 breaker: after `POST /logout/` (or the account deactivated) an ask on a socket opened before still got
    `accepted` ... `done complete`. Now the user sees an error frame saying they are signed out, the socket closes
    with 4401 (the page then offers to sign in again), and nothing is stored."""
    from django.contrib.sessions.models import Session

    comm = await connect(user)
    connected, _ = await comm.connect()
    assert connected
    if how == "logout":
        await sync_to_async(Session.objects.all().delete)()
    elif how == "deactivated":
        await sync_to_async(get_user_model().objects.filter(pk=user.pk).update)(is_active=False)
    else:
        def change_password():
            user.set_password("a new one")
            user.save()
        await sync_to_async(change_password)()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "client_id": "c-out"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == "signed_out", frame
    assert "signed out" in frame["message"]
    closed = await comm.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4401}
    assert not await sync_to_async(Message.objects.exists)()


async def test_a_signed_in_socket_still_answers_after_the_check(ingest_demo, user):
    comm = await connect(user)
    connected, _ = await comm.connect()
    assert connected
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "client_id": "c-in"})
    frames = await frames_until(comm, "done")
    assert frames[-1]["type"] == "done" and frames[-1]["status"] == "complete"
    await comm.disconnect()


@pytest.mark.parametrize("pieces", [
    ["Laptops are replaced every 36 months [S1]. ", "INSUFFICIENT_EVIDENCE"],
    ["Laptops are replaced every 36 months [S1].", " INSUFF", "ICIENT_EVIDENCE."],
    ["Laptops are replaced every 36 months [S1]. insufficient_evidence"],
])
async def test_the_abstention_token_after_an_answer_is_never_shown(ingest_demo, user, pieces):
    """The s44 breaker: a model answering, then writing the internal token ("... [S1]. INSUFFICIENT_EVIDENCE", or in
    lower case) had it streamed in a delta and stored in the done frame, contrary to the protocol. The reader sees
    the answer without the token, streamed and stored alike."""
    registry.configure(answerer=ScriptedProvider(pieces))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    streamed = "".join(f["text"] for f in frames if f["type"] == "delta")
    done = frames[-1]
    assert "insufficient" not in streamed.lower() and "insufficient" not in done["text"].lower(), (streamed, done)
    assert done["text"].startswith("Laptops are replaced every 36 months") and done["abstained"] is False
    stored = await sync_to_async(Message.objects.get)(pk=done["message"])
    assert "insufficient" not in stored.text.lower()
    await comm.disconnect()


async def test_a_lower_case_abstention_token_is_an_abstention(ingest_demo, user):
    from grounding.answer import ABSTAIN_MESSAGE

    registry.configure(answerer=ScriptedProvider(["insufficient_evidence: nothing on this."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    assert frames[-1]["abstained"] is True and frames[-1]["text"].startswith(ABSTAIN_MESSAGE)
    assert "insufficient_evidence" not in frames[-1]["text"]
    await comm.disconnect()
