"""Many asks at once (issue 20), tested for correctness, not speed: asks interleave, a re-index during an ask
neither fails nor blocks it, beyond the planning capacity an ask is told its place in the queue, and the stages run
where they belong."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from chat.models import Message
from chat.providers import registry
from chat.runtime import Admission
from grounding.providers import ScriptedProvider
from tests.chat.test_consumer import connect, frames_until, user  # noqa: F401 - the user fixture

pytestmark = pytest.mark.django_db(transaction=True)

SLOW = ["Laptops ", "are ", "replaced ", "every ", "36 months ", "[S1]."]


def thread_spy(seen: dict, name: str, fn):
    """``fn`` recording in ``seen[name]`` the thread that ran it."""
    def run(*args, **kwargs):
        seen[name] = threading.current_thread()
        return fn(*args, **kwargs)
    return run


async def ask_laptops(user, provider: ScriptedProvider | None = None) -> list[dict]:
    """Ask the laptop question on a new socket (``provider``'s scripted answer, by default one piece); its frames to
    `done`."""
    registry.configure(answerer=provider or ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    return frames


async def test_two_asks_in_two_conversations_interleave(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(SLOW, delay=0.3))
    a, b = await connect(user), await connect(user)
    await a.connect()
    await b.connect()
    await a.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    while (await a.receive_json_from(timeout=30))["type"] != "plan":
        pass
    await b.send_json_to({"type": "ask", "domain": "handbook", "text": "What is the daily meal allowance?"})
    order = []

    async def collect(comm, name):
        while True:
            frame = await comm.receive_json_from(timeout=60)
            order.append((name, frame["type"]))
            if frame["type"] in ("done", "error"):
                return

    await asyncio.gather(collect(a, "a"), collect(b, "b"))
    await a.disconnect()
    await b.disconnect()
    assert order.index(("b", "plan")) < order.index(("a", "done"))  # the second is planned while the first streams
    assert ("a", "done") in order and ("b", "done") in order


async def test_a_reindex_during_an_ask_neither_fails_nor_blocks_it(ingest_demo, user, tmp_path):
    from knowledge.services import ingest_path

    registry.configure(answerer=ScriptedProvider(SLOW, delay=0.3))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    while (await comm.receive_json_from(timeout=30))["type"] != "plan":
        pass
    (tmp_path / "new-policy.md").write_text("# Desk booking\n\nDesks are booked in the office app a day ahead.\n")
    ingest = asyncio.create_task(sync_to_async(ingest_path, thread_sensitive=False)(path=tmp_path,
                                                                                    domain=ingest_demo))
    rest = await frames_until(comm, "done")
    assert rest[-1]["type"] == "done" and rest[-1]["status"] == "complete"
    assert "36 months" in rest[-1]["text"]
    await ingest
    # the next ask uses the new index
    registry.configure(answerer=ScriptedProvider(["Desks are booked a day ahead [S1]."]))
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How are desks booked?"})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    plan = next(f for f in frames if f["type"] == "plan")
    assert any(s["title"] == "Desk booking" for s in plan["sources"])


@override_settings(ASK_CONCURRENCY=1)
async def test_beyond_the_planning_capacity_an_ask_is_told_its_place_and_still_answered(ingest_demo, user,
                                                                                       monkeypatch):
    from chat import generation

    gate = threading.Event()
    real = generation.prepare_staged

    async def held(**kwargs):  # the first ask's planning waits until the test lets it go
        if not gate.is_set():
            await asyncio.get_running_loop().run_in_executor(None, gate.wait, 10)
        return await real(**kwargs)

    monkeypatch.setattr(generation, "prepare_staged", held)
    # the admission gate is per event loop (this test's), made with the capacity in force: one place
    registry.configure(answerer=ScriptedProvider(["Every 36 months [S1]."]))
    a, b = await connect(user), await connect(user)
    await a.connect()
    await b.connect()
    await a.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    await asyncio.sleep(0.5)
    await b.send_json_to({"type": "ask", "domain": "handbook", "text": "What is the daily meal allowance?"})
    accepted = await b.receive_json_from(timeout=30)
    queued = await b.receive_json_from(timeout=30)
    assert accepted["type"] == "accepted"
    assert queued["type"] == "queued" and queued["position"] == 1 and queued["message"]
    gate.set()
    first, second = await frames_until(a, "done"), await frames_until(b, "done")
    await a.disconnect()
    await b.disconnect()
    assert first[-1]["status"] == second[-1]["status"] == "complete"  # nothing dropped
    assert await sync_to_async(Message.objects.filter(role="assistant", status="complete").count)() == 2


async def test_status_frames_say_what_happens_before_the_first_delta_when_asked_for(ingest_demo, user):
    registry.configure(answerer=ScriptedProvider(SLOW))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?",
                             "progress": True})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    kinds = [f["type"] if f["type"] != "status" else f["stage"] for f in frames]
    assert kinds[:5] == ["accepted", "searching", "planning", "plan", "writing"] and kinds[5] == "delta"


async def test_admission_serves_in_order_and_reports_positions():
    gate = Admission(1)
    told: dict[str, list[int]] = {"b": [], "c": []}
    await gate.enter()
    order = []

    async def ask(name):
        async def report(position):
            told[name].append(position)
        await gate.enter(report)
        order.append(name)
        gate.leave()

    waiting = [asyncio.create_task(ask("b")), asyncio.create_task(ask("c"))]
    await asyncio.sleep(0.05)
    assert told == {"b": [1], "c": [2]}
    gate.leave()
    await asyncio.gather(*waiting)
    assert order == ["b", "c"] and gate.active == 0 and not gate.waiting


async def test_an_answer_is_finalised_off_the_event_loop(ingest_demo, user, monkeypatch):
    """Resolving an answer's citations and splitting its sentences (finalize_answer, support_texts) runs in a worker
    thread, so the event loop goes on sending other asks' frames meanwhile; the user still gets the whole answer."""
    from chat import streaming

    loop_thread = threading.current_thread()
    seen = {}
    monkeypatch.setattr(streaming, "finalize_answer", thread_spy(seen, "finalize", streaming.finalize_answer))
    monkeypatch.setattr(streaming, "support_texts", thread_spy(seen, "support_texts", streaming.support_texts))
    frames = await ask_laptops(user)
    assert frames[-1]["status"] == "complete" and "36 months" in frames[-1]["text"]
    assert set(seen) == {"finalize", "support_texts"}
    assert all(thread is not loop_thread for thread in seen.values())


async def test_the_questions_embedding_starts_before_it_is_stored_and_is_encoded_once(ingest_demo, user,
                                                                                      monkeypatch):
    from chat import orchestration
    from chat.runtime import runtime

    registry.configure(answerer=ScriptedProvider(["Laptops are replaced every 36 months [S1]."]))
    comm = await connect(user)
    await comm.connect()
    batcher = runtime.batcher
    events: list[str] = []
    prefetch, store = batcher.prefetch, orchestration.ask_store

    def recording_prefetch(text):
        events.append(f"prefetch:{text}")
        return prefetch(text)

    def recording_store(**kwargs):
        events.append("store")
        try:
            return store(**kwargs)
        finally:
            events.append("stored")

    class Recording:
        def __init__(self, inner):
            self.inner, self.texts = inner, []

        def embed(self, texts):
            self.texts += list(texts)
            return self.inner.embed(texts)

    recording = Recording(batcher.embedder)
    query_prefetch = orchestration._query_prefetch

    def recording_query_prefetch(question, **kwargs):
        start = query_prefetch(question, **kwargs)

        def allowed():
            events.append("allowed")
            start()
        return allowed

    monkeypatch.setattr(batcher, "embedder", recording)
    monkeypatch.setattr(batcher, "prefetch", recording_prefetch)
    monkeypatch.setattr(orchestration, "ask_store", recording_store)
    monkeypatch.setattr(orchestration, "_query_prefetch", recording_query_prefetch)
    question = "How often are company laptops replaced, in months?"
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": question})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    assert frames[-1]["status"] == "complete"
    # the embedding is set off once the ask is allowed, before the question is stored (it starts on the event loop
    # as soon as the loop runs it, while the database worker stores the question)
    assert events.index("allowed") < events.index("store") and f"prefetch:{question}" in events
    assert recording.texts.count(question) == 1  # retrieval joined the prefetched encode instead of starting one


async def test_the_plan_snapshot_is_rendered_on_the_cpu_pool_and_only_saved_on_the_database_worker(
        ingest_demo, user, monkeypatch):
    """Every ask's database work queues for one worker thread; rendering the planned sources' HTML for the snapshot
    is CPU work, done on the CPU pool, so the database worker only saves it."""
    from chat import generation

    seen = {}
    monkeypatch.setattr(generation, "answer_fill_plan", thread_spy(seen, "fill", generation.answer_fill_plan))
    monkeypatch.setattr(generation, "answer_plan_save", thread_spy(seen, "save", generation.answer_plan_save))
    frames = await ask_laptops(user)
    plan = next(f for f in frames if f["type"] == "plan")
    assert frames[-1]["status"] == "complete" and plan["sources"][0]["html"].startswith("<")
    assert seen["fill"].name.startswith("grounded-cpu") and not seen["save"].name.startswith("grounded-cpu")


async def test_an_asks_database_work_waits_by_its_stage(ingest_demo, user, monkeypatch):
    """Storing the question and the answer's reads (in the same visit of the database worker) wait as ACCEPTING,
    the plan as ANSWERING, the stored outcome (after the first words) as FINISHING (chat.priority): under a burst, a
    later ask's planning goes before an earlier ask's finishing work. The user still gets the whole answer."""
    from chat import generation, orchestration, priority, submission

    seen: dict[str, int] = {}

    def stage_spy(name, fn):
        def run(*args, **kwargs):
            seen[name] = priority.current()[0]
            return fn(*args, **kwargs)
        return run

    monkeypatch.setattr(orchestration, "ask_accept", stage_spy("accept", orchestration.ask_accept))
    monkeypatch.setattr(submission, "answer_begin", stage_spy("begin", submission.answer_begin))
    monkeypatch.setattr(generation, "answer_plan_save", stage_spy("plan saved", generation.answer_plan_save))
    monkeypatch.setattr(generation, "answer_result_save", stage_spy("finish", generation.answer_result_save))
    frames = await ask_laptops(user)
    assert frames[-1]["status"] == "complete" and "36 months" in frames[-1]["text"]
    assert seen == {"accept": priority.ACCEPTING, "begin": priority.ACCEPTING, "plan saved": priority.ANSWERING,
                    "finish": priority.FINISHING}


async def test_the_stored_outcome_is_counted_on_the_cpu_pool_and_only_saved_on_the_database_worker(
        ingest_demo, user, monkeypatch):
    """Counting a complete answer's tokens and content terms (its history form) is CPU work, done on the CPU pool;
    the database worker, which every ask's reads and writes queue for, only saves the result."""
    from chat import generation

    seen = {}
    monkeypatch.setattr(generation, "answer_fill_result", thread_spy(seen, "fill", generation.answer_fill_result))
    monkeypatch.setattr(generation, "answer_result_save", thread_spy(seen, "save", generation.answer_result_save))
    frames = await ask_laptops(user)
    stored = await sync_to_async(Message.objects.get)(pk=frames[-1]["message"])
    assert frames[-1]["status"] == "complete" and stored.status == Message.Status.COMPLETE
    assert stored.text == frames[-1]["text"] and stored.tokens > 0 and stored.terms
    assert seen["fill"].name.startswith("grounded-cpu") and not seen["save"].name.startswith("grounded-cpu")


async def test_pieces_that_arrive_while_a_delta_is_sent_go_out_together(ingest_demo, user):
    """A provider that streams faster than the server forwards (here: 40 pieces with no pause, as a busy server sees
    a model's stream) costs a few delta frames, not 40; the user gets the whole answer, in order, and the stored
    text is exactly the streamed one (grounding.coalescing)."""
    words = [f"word{i} " for i in range(38)] + ["[S", "1]."]
    registry.configure(answerer=ScriptedProvider(words))
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": "How often are laptops replaced?"})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    deltas = [f for f in frames if f["type"] == "delta"]
    assert 1 <= len(deltas) <= 3
    assert [f["seq"] for f in deltas] == list(range(1, len(deltas) + 1))
    streamed = "".join(f["text"] for f in deltas)
    assert streamed == "".join(words) == frames[-1]["text"]
    stored = await sync_to_async(Message.objects.get)(pk=frames[-1]["message"])
    assert stored.text == streamed


async def test_an_answer_nobody_follows_sends_no_delta_to_its_group(ingest_demo, user, monkeypatch):
    """No socket resumed the answer, so its deltas are not sent to the answer's channel-layer group (with Redis, a
    round trip per delta); its `done` still is, and the asking socket gets every delta."""
    from chat import broadcast

    sent: list[str] = []
    real = broadcast.answer_broadcast

    async def spy(message_id, frame):
        sent.append(frame["type"])
        await real(message_id, frame)

    monkeypatch.setattr("chat.generation.answer_broadcast", spy)
    frames = await ask_laptops(user, ScriptedProvider(SLOW, delay=0.01))
    assert "".join(f["text"] for f in frames if f["type"] == "delta") == "".join(SLOW)
    assert sent == ["done"]


async def test_the_text_so_far_is_saved_on_the_writer_thread_not_the_cpu_pool(ingest_demo, user, monkeypatch):
    """Saving an answer's text so far (a best-effort write that waits on the disk) runs on the process's writer
    thread: it takes no CPU pool thread from another ask's planning and does not wait for the database worker. The
    user still gets the whole answer, and the stored text is what was streamed."""
    from chat import generation, persistence

    seen = {}
    monkeypatch.setattr(generation, "PARTIAL_SAVE_SECONDS", 0.0)  # every delta's text is saved
    monkeypatch.setattr(generation, "answer_partial_save",
                        thread_spy(seen, "partial", persistence.answer_partial_save))
    frames = await ask_laptops(user, ScriptedProvider(SLOW, delay=0.05))
    stored = await sync_to_async(Message.objects.get)(pk=frames[-1]["message"])
    assert frames[-1]["status"] == "complete" and stored.text == frames[-1]["text"]
    assert seen["partial"].name.startswith("grounded-writer")


async def test_the_writer_keeps_its_connection_through_a_burst_and_closes_it_when_idle():
    """Writes queued behind each other on the writer thread share one database connection (a burst of saves does
    not open one each); the last write of the burst closes it, so an idle server holds no connection for it."""
    from django.db import connection

    from chat import executors

    gate = threading.Event()
    seen: list[object] = []  # the connections themselves (kept alive: an id could be reused after a close)

    def write(i: int) -> None:
        if i == 0:
            gate.wait(10)  # the others queue behind the first
        connection.ensure_connection()
        seen.append(connection.connection)

    def connection_after() -> object:
        return connection.connection

    save = executors.detached(write)
    burst = [asyncio.ensure_future(save(i)) for i in range(3)]
    await asyncio.sleep(0.1)
    gate.set()
    await asyncio.gather(*burst)
    assert len(seen) == 3 and seen[0] is seen[1] is seen[2]  # one connection for the three writes
    from chat.runtime import runtime

    assert await runtime.write(connection_after) is None  # closed after the last one
    assert not runtime.writes_waiting()


async def test_a_two_part_messages_part_queries_are_embedded_in_the_batch_not_on_the_pool(ingest_demo, user,
                                                                                         monkeypatch):
    """A message asking two things retrieves each part on its own words too (grounding.part_retrieval): the parts'
    queries go through the worker's micro-batcher beside the message's query (issue 20 point 2), never through a
    blocking encode inside planning on the CPU pool. The user gets both answers."""
    from chat import pipeline
    from chat.answering import answer_plan, part_queries_of
    from chat.runtime import runtime
    from grounding.embeddings import default_embedder
    from grounding.extractive import ExtractiveAnswerer

    registry.configure(answerer=ExtractiveAnswerer(default_embedder()))  # the offline answerer
    batcher = runtime.batcher
    batched: list[str] = []
    planned: list[str] = []

    class Recording:
        def __init__(self, inner):
            self.inner = inner

        def embed(self, texts):
            batched.extend(texts)
            return self.inner.embed(texts)

    shared = default_embedder()
    encode = shared.embed
    planning = threading.local()

    def spy(texts, *args, **kwargs):
        if getattr(planning, "on", False):
            planned.extend(texts)
        return encode(texts, *args, **kwargs)

    def plan_spy(*args, **kwargs):
        planning.on = True
        try:
            return answer_plan(*args, **kwargs)
        finally:
            planning.on = False

    monkeypatch.setattr(batcher, "embedder", Recording(batcher.embedder))
    monkeypatch.setattr(shared, "embed", spy)
    monkeypatch.setattr(pipeline, "answer_plan", plan_spy)
    question = "How often are company laptops replaced, and how many sick days do I get?"
    parts = part_queries_of(question, question)
    assert len(parts) == 2
    comm = await connect(user)
    await comm.connect()
    await comm.send_json_to({"type": "ask", "domain": "handbook", "text": question})
    frames = await frames_until(comm, "done")
    await comm.disconnect()
    assert frames[-1]["status"] == "complete"
    assert "36-month" in frames[-1]["text"] and "10 paid sick days" in frames[-1]["text"]  # both parts answered
    assert set(parts) <= set(batched)  # embedded through the batcher
    assert not set(parts) & set(planned)  # and not again by a blocking encode while planning


@override_settings(STREAM_PACE_SECONDS=0.05)
async def test_while_another_ask_is_planned_a_streaming_answer_sends_fewer_larger_deltas(ingest_demo, user):
    """An answer whose reader already has words yields the loop to asks waiting for theirs (chat.runtime
    Runtime.stream_pace): while another ask is planned, its deltas come at most every 50 ms, the pieces arriving
    meanwhile joined (15 pieces 10 ms apart make at most 6 deltas; a slower server only joins more); with nobody
    else waiting, pieces go out as they come. Either way the user gets the whole answer in order and the stored text
    is the streamed one."""
    from chat.runtime import runtime

    words = [f"word{i} " for i in range(14)] + ["[S1]."]

    async def deltas() -> tuple[list[dict], dict]:
        frames = await ask_laptops(user, ScriptedProvider(words, delay=0.01))
        return [f for f in frames if f["type"] == "delta"], frames[-1]

    alone, done = await deltas()
    assert "".join(f["text"] for f in alone) == done["text"] == "".join(words)
    assert runtime.stream_pace() == 0.0  # nobody waits: no pace
    await runtime.admission.enter()  # another ask is being planned meanwhile
    try:
        assert runtime.stream_pace() == 0.05
        paced, done = await deltas()
    finally:
        runtime.admission.leave()
    assert len(paced) <= 6 < len(words) and [f["seq"] for f in paced] == list(range(1, len(paced) + 1))
    assert "".join(f["text"] for f in paced) == done["text"] == "".join(words)
    stored = await sync_to_async(Message.objects.get)(pk=done["message"])
    assert stored.text == done["text"] and stored.status == Message.Status.COMPLETE
