"""The life of one answer, from its row to its stored outcome, as stages on the right executors (issue 20):

    database worker   the answer row, the memory turns, the summary and the planning inputs, in one visit (the
                      acceptance's own, chat.submission.submission_begin)
    admission         a place among the asks planned at once (else `queued` frames with the position)
    staged prepare    rewrite (async model call) -> query embedding (batcher) -> search and plan (CPU pool)
                      -> sufficiency check (async model call)             chat.pipeline.prepare_staged
    database worker   the frozen sources and the trace; then the `plan` frame
    event loop        the provider's stream; deltas out; the text so far served to followers (chat.broadcast)
    CPU pool          the outcome's history form counted (tokens, content terms)
    database worker   the stored outcome (one UPDATE of its result columns); then `done` (or `error`); calibration
                      and the summary afterwards

Frames: status (searching, planning, writing), queued, plan, delta..., done or error; delta, done and error also go
to the sockets that resumed the answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Optional

from chat import executors, priority
from chat.answering import AnswerInputs, PreparedAnswer, answer_inputs, settings_for
from chat.broadcast import TextSoFar, answer_broadcast
from chat.calibration import tokens_calibrate
from chat.errors import AskError
from chat.frames import Frame
from chat.memory import REACH_FACTOR, memory_for_question, summary_refresh
from chat.models import Conversation, Message
from chat.persistence import (answer_alive, answer_fill_plan, answer_fill_result, answer_interrupt,
                              answer_partial_save, answer_plan_save, answer_result_save, answer_start)
from chat.pipeline import prepare_staged
from chat.providers import ProviderRegistry, registry
from chat.runtime import runtime as default_runtime
from chat.serializers import done_frame, partial_frame, plan_frame
from chat.streaming import AnswerStream, Emit
from chat.throttle import TrailingThrottle

log = logging.getLogger("grounded.answer")

#: While an answer streams, its text so far is saved to its row at most this often (seconds), and at the end of a
#: window in which a delta was not saved (chat.throttle: the row is never more than this behind the stream).
PARTIAL_SAVE_SECONDS = 1.0
#: Seconds between two touches of a streaming answer's ``alive_at`` by its generating task (well under
#: chat.orchestration.ORPHANED_AFTER, after which a silent streaming answer counts as lost with its server).
HEARTBEAT_SECONDS = 10.0


async def _heartbeat(message_id: int, run) -> None:
    """Touch the answer's ``alive_at`` every HEARTBEAT_SECONDS until cancelled (``run`` wraps the blocking call for
    a pool thread). A failed touch is logged and retried at the next beat."""
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        try:
            await run(answer_alive)(message_id=message_id)
        except Exception:
            log.exception("could not mark answer %s alive", message_id)


#: What an answer reads before planning (:func:`answer_begin`): (the answer row, the memory turns, the stored summary
#: or None, the planning inputs).
Begun = tuple[Message, list, Optional[Any], AnswerInputs]


def answer_begin(*, question: Message, client_id: str = "", client_key: str = "",
                 answer: Message | None = None, fresh: bool = False, token: str | None = None) -> Begun:
    """Everything an answer needs from the database before planning, in one visit of the database worker: (the
    answer row, created streaming so that every turn gets an outcome, unless ``answer`` is the row made when the
    ask was accepted; the memory turns before the question its plan can use, chat.memory.memory_for_question, none
    for the first question of a conversation made by its ask (``fresh``); the stored summary; the planning inputs).
    ``client_id`` and ``client_key`` go on a row made here (a regeneration's). ``token``: the domain's index token
    when the caller read the domain row in this same visit (chat.submission.submission_begin); None: read here.

    Raises:
        AskError(domain_settings): the domain's settings are invalid (the answer row exists then).
    """
    if answer is None:
        answer = answer_start(question=question, client_id=client_id, client_key=client_key)
    conversation = question.conversation
    try:
        inputs = answer_inputs(domain=conversation.domain, token=token)
    except AskError as exc:
        exc.message_id = answer.pk
        raise
    if fresh:
        return answer, [], None, inputs
    history, summary = memory_for_question(conversation=conversation, before=question, question=question.text,
                                           reach_tokens=int(inputs.settings.policy.limit * REACH_FACTOR))
    return answer, history, summary, inputs


async def answer_run(*, conversation: Conversation, question: Message, emit: Emit,
                     providers: ProviderRegistry = registry, runtime=default_runtime, client_id: str = "",
                     client_key: str = "", answer_row: Message | None = None, fresh: bool = False,
                     begun: Begun | AskError | None = None) -> Message | None:
    """The whole life of one answer (see the module docstring); ``client_id``/``client_key`` are a regeneration's
    (stored on the answer row); ``answer_row`` is the streaming row made when the ask was accepted (None: made here);
    ``fresh``: the ask made the conversation (no memory to read, no summary to refresh); ``begun``: what
    :func:`answer_begin` returned (or raised) in the acceptance's visit of the database worker (None: read here).

    Every outcome is saved: complete; interrupted with the text streamed so far, exactly the deltas sent (on cancel,
    e.g. `stop`, or a provider failing mid-answer); failed with the
    reason the user sees (a provider outage, an empty answer), the question always kept. After `done` the token
    calibration and the conversation summary are refreshed (a failure there changes nothing).
    Returns the saved answer (None when not even the answer row could be stored).
    """
    answer: Message | None = None
    stream: AnswerStream | None = None
    prepared: PreparedAnswer | None = None
    follow: TextSoFar | None = None
    beat: asyncio.Task | None = None
    row: TrailingThrottle | None = None  # the row's copy of the text so far
    shown = [""]  # the text of the deltas sent so far (what the user saw): an interrupted answer stores it
    delivering: list[asyncio.Future | None] = [None]  # the delta frame being sent
    db = executors.current().db
    detached = executors.current().detached
    priority.stage(priority.ANSWERING)  # until its first words (chat.priority)

    async def send(frame: Frame) -> None:
        await emit(frame)
        kind = frame.get("type")
        # a delta goes to followers only once one asked for the text so far (chat.broadcast.TextSoFar.followed):
        # until then nobody follows, and a group send per delta (Redis: a round trip) would cost every answer
        if answer is not None and (kind in ("done", "error") or (kind == "delta" and follow and follow.followed)):
            await answer_broadcast(answer.pk, frame)

    async def status(stage: str) -> None:
        await send({"type": "status", "message": answer.pk, "stage": stage})

    async def queued(position: int) -> None:
        await send({"type": "queued", "message": answer.pk, "position": position})

    try:
        if begun is not None:  # read when the ask was accepted, with its answer row
            answer = answer_row
            if isinstance(begun, AskError):
                raise begun
            answer, history, summary, inputs = begun
        else:
            begin = asyncio.ensure_future(db(answer_begin)(question=question, client_id=client_id,
                                                           client_key=client_key, answer=answer_row, fresh=fresh))
            try:
                # a stop while the row is being made waits for the row, so that it is stored as interrupted
                answer, history, summary, inputs = await asyncio.shield(begin)
            except asyncio.CancelledError:
                try:
                    answer = (await begin)[0]
                except AskError as exc:
                    answer = await db(Message.objects.get)(pk=exc.message_id) if exc.message_id else None
                raise
            except AskError as exc:
                answer = await db(Message.objects.get)(pk=exc.message_id) if exc.message_id else None
                raise
        beat = asyncio.create_task(_heartbeat(answer.pk, detached))
        provider = providers.for_domain(conversation.domain)
        admission = runtime.admission
        await admission.enter(queued)
        try:
            # the snapshot (sources rendered as HTML for the source panel) is made on the CPU pool, in the planning
            # job; the database worker, which every ask's reads and writes queue for, only saves it
            prepared = await prepare_staged(inputs=inputs, question=question.text, provider=provider,
                                            runtime=runtime, history=history, summary=summary, status=status,
                                            then=lambda made: answer_fill_plan(message=answer, prepared=made))
        finally:
            admission.leave()
        # the plan frame goes out while the snapshot is saved (a round trip of the database worker less before
        # it); the answer streams only once the snapshot is stored, and a stop waits for it too
        saving = asyncio.ensure_future(db(answer_plan_save)(message=answer))
        try:
            await send(plan_frame(message_id=answer.pk, prepared=prepared, question_id=question.pk))
        finally:
            await asyncio.shield(saving)
        if prepared.plan.sufficient:
            await status("writing")
        stream = AnswerStream(prepared, batcher=runtime.batcher, cpu=runtime.cpu, pace=runtime.stream_pace)
        message_id = answer.pk
        follow = TextSoFar(message_id, partial_frame)
        await follow.start()

        async def save_partial() -> None:
            # on a pool thread, not the request's thread-sensitive one: a streamed HTTP response may outlive the
            # request's executor, and a missed partial save only makes a resume start a little earlier
            await detached(answer_partial_save)(message_id=message_id, text=shown[0], seq=stream.seq)

        row = TrailingThrottle(PARTIAL_SAVE_SECONDS, save_partial, written_at=time.monotonic())

        async def deliver(frame: Frame) -> None:
            await follow.update(shown[0], frame["seq"])
            await send({**frame, "message": message_id})
            await row.changed()

        async def send_delta(frame: Frame) -> None:
            # counted as shown from here on: a stop landing now waits for this delivery (below), so the stored
            # partial answer is exactly the deltas the user received
            if not shown[0]:
                priority.stage(priority.FINISHING)  # the reader has words: the rest yields to others' planning
            shown[0] += frame["text"]
            delivering[0] = asyncio.ensure_future(deliver(frame))
            await asyncio.shield(delivering[0])

        verified = await stream.run(send_delta)
        priority.stage(priority.FINISHING)
        # the result's token count and terms are found on the CPU pool; the database worker only saves them
        await runtime.cpu(answer_fill_result, message=answer, verified=verified, usage=stream.usage)
        saved = await db(answer_result_save)(message=answer)
        await send(done_frame(saved, question))
    except asyncio.CancelledError:
        if delivering[0] is not None:
            await asyncio.wait([delivering[0]])  # the delta a stop interrupted reaches the user before `done`
        if answer is not None:
            saved = await asyncio.shield(db(answer_interrupt)(
                message=answer, text=shown[0], status=Message.Status.INTERRUPTED, error="stopped"))
            await send(done_frame(saved, question))
        return answer
    except AskError as exc:
        if answer is not None:
            partial = shown[0]  # what the user saw; the provider's text may end in a held half marker
            # a stream that broke mid-way keeps its text as an interrupted answer; one that never started failed
            status_ = Message.Status.INTERRUPTED if partial.strip() and exc.code == "provider_error" \
                else Message.Status.FAILED
            await db(answer_interrupt)(message=answer, text=partial, status=status_, error=exc.message)
            exc.message_id = answer.pk
        await send(exc.frame())
        return answer
    except Exception as exc:  # never leave a turn without an outcome
        log.exception("answer generation failed")
        if answer is not None:
            await db(answer_interrupt)(message=answer, text=shown[0],
                                       status=Message.Status.FAILED, error=str(exc) or type(exc).__name__)
        await send(AskError("internal", "The answer failed; please retry.",
                            message_id=answer.pk if answer else None).frame())
        return answer
    finally:
        if row is not None:
            row.close()
        if beat is not None:
            beat.cancel()
        if follow is not None:
            await asyncio.shield(follow.stop())
    await tokens_calibrate(prepared=prepared, usage=stream.usage if stream else None)
    if fresh:  # one exchange, the newest, which always stays verbatim: nothing to fold (chat.memory.summary_refresh)
        return saved
    try:
        share = int(prepared.plan.budget.get("available", 0) * settings_for(conversation.domain).policy.history_cap)
        await db(summary_refresh)(conversation=conversation, history_share=share, summarizer=providers.summarizer())
    except Exception:
        log.exception("summary refresh failed for conversation %s; memory left unchanged", conversation.pk)
    return saved
