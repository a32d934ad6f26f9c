"""The one ask orchestration: every door (the websocket consumer, the HTTP API as JSON or server-sent events,
`manage.py ask` and `manage.py evaluate`) submits questions here and only translates the frames.

    ask_submit   validate -> resolve the conversation or domain (access rules) -> per-user rate limit
                 -> idempotency on (user, client id): a resend gets the stored answer, an answer in progress is
                    reported, a failed or interrupted one is retried -> store the question
    Submission.start(emit)  -> answer_run in its own task (outlives a dropped socket or request)
    answer_run   answer row -> memory -> prepare (retrieve, plan, notes, prompt) -> plan frame -> stream deltas
                 -> verify -> store -> done frame; then calibration and the summary refresh
    answer_resume  a stored answer's done frame, or a generating one's plan + partial frames and its group
    ask_sync     the command-line doors: the same sequence, run to the end
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from django.utils import timezone

from chat import executors, ratelimit
from chat.answering import PreparedAnswer, answer_prepare, settings_for
from chat.broadcast import answer_broadcast, answer_group, partial_get, partial_set
from chat.calibration import tokens_calibrate
from chat.errors import AskError
from chat.frames import AcceptedFrame, Frame
from chat.memory import memory_turns, summary_get, summary_refresh
from chat.models import Conversation, Message
from chat.persistence import (answer_discard, answer_finish, answer_interrupt, answer_partial_save,
                              answer_planned, answer_start, client_key, question_store)
from chat.providers import ProviderRegistry, registry
from chat.selectors import answer_of, conversation_get, domain_get, own_answer_get, question_of
from chat.serializers import done_frame, plan_frame, resume_frames
from chat.streaming import AnswerStream, Emit
from chat.validation import validate_question
from knowledge.models import Domain

log = logging.getLogger("grounded.answer")

#: A streaming answer older than this no longer counts as being generated (a server stopped mid-answer): a resend
#: retries it and the conversation is not busy.
ANSWER_STALE_AFTER = timedelta(minutes=10)
#: While an answer streams, its text so far is saved at most this often (seconds), for sockets that resume it.
PARTIAL_SAVE_SECONDS = 1.0

#: Strong references to running generations (a task that outlives its socket or request must not be collected).
_running: set[asyncio.Task] = set()


@dataclass
class Submission:
    """One accepted ask: where the question is stored, and either its stored answer (a resend of an answered
    question: nothing runs), the answer being generated for it (a resend while it runs: nothing more runs), or the
    generation to start.

    Attributes:
        conversation: the conversation (new, continued, or the one a resend belongs to).
        question: the stored question.
        stored: the complete answer of a resend, else None.
        running: the answer still being generated for a resent question, else None.
        providers: the registry the answer will use.
        task: the generation task once started.
    """

    conversation: Conversation
    question: Message
    stored: Message | None = None
    running: Message | None = None
    providers: ProviderRegistry = field(default=registry)
    task: asyncio.Task | None = None

    def in_progress(self) -> AskError:
        """The error a door reports for a resend whose answer is still being generated."""
        return AskError("in_progress", "This question is already being answered; the answer will be saved.",
                        message_id=self.running.pk if self.running else None)

    def accepted(self) -> AcceptedFrame:
        """The ``accepted`` frame: where the question is stored."""
        return {"type": "accepted", "message": self.question.pk, "conversation": self.conversation.pk,
                "client_id": self.question.client_id, "title": self.conversation.title or self.question.text[:80]}

    def start(self, emit: Emit) -> asyncio.Task:
        """Run :func:`answer_run` in its own task, frames to ``emit``; the task returns the saved answer (None when
        nothing could be stored). Raises RuntimeError for a resend that has its answer already."""
        if self.stored is not None or self.running is not None:
            raise RuntimeError("this question is answered already, or being answered; nothing to start")
        self.task = asyncio.create_task(answer_run(conversation=self.conversation, question=self.question,
                                                   emit=emit, providers=self.providers))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)
        return self.task


def ask_target(*, user, conversation_id: object = None, domain_slug: object = None,
               access: bool = True) -> tuple[Conversation | None, Domain]:
    """The conversation asked in (None: a new one) and its domain, with the access rules of every door (with
    ``access`` False, as an operator at the command line: any domain, the user's own conversations).

    Raises:
        AskError: not_found (unknown or another user's conversation), forbidden (own conversation, domain no longer
            readable), unknown_domain (no domain given for a new conversation; unknown or unreadable domain).
    """
    if conversation_id not in (None, ""):
        conversation = conversation_get(user=user, conversation_id=conversation_id, access=access)
        return conversation, conversation.domain
    if not isinstance(domain_slug, str) or not domain_slug:
        raise AskError("unknown_domain", "Choose a domain for the new conversation.")
    return None, domain_get(slug=domain_slug, user=user if access else None)


def answering(conversation: Conversation) -> Message | None:
    """The answer being generated in a conversation right now (streaming and fresh), if any."""
    return (conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.STREAMING,
                                         created_at__gte=timezone.now() - ANSWER_STALE_AFTER)
            .order_by("-pk").first())


def _resend(question: Message, providers: ProviderRegistry) -> Submission:
    """A question sent again with its client id: its stored complete answer; the answer in progress (nothing more
    runs); a failed, interrupted or stale one is discarded so that the question is answered again."""
    reply = answer_of(question)
    if reply is not None and reply.status == Message.Status.COMPLETE:
        return Submission(question.conversation, question, stored=reply, providers=providers)
    if reply is not None and reply.status == Message.Status.STREAMING and \
            reply.created_at >= timezone.now() - ANSWER_STALE_AFTER:
        return Submission(question.conversation, question, running=reply, providers=providers)
    if reply is not None:
        answer_discard(answer=reply)
    return Submission(question.conversation, question, providers=providers)


def ask_store(*, user, conversation: Conversation | None, domain: Domain, text: str, client_id: str,
              providers: ProviderRegistry) -> Submission:
    """Store the question (blocking: database). Idempotent on (user, client id) whatever the conversation field
    says (B06).

    Raises:
        AskError(busy): another answer is being generated in the conversation.
    """
    key = client_key(user=user, client_id=client_id)
    prior = question_of(key) if key else None
    if prior is None and client_id and conversation is not None:  # a question stored before keys existed
        prior = (conversation.messages.filter(role=Message.Role.USER, client_id=client_id)
                 .select_related("conversation__domain").first())
    if prior is not None:
        return _resend(prior, providers)
    if conversation is not None and answering(conversation) is not None:
        raise AskError("busy", "An answer is still being generated in this conversation. Wait for it (or stop it), "
                               "then ask again.")
    conversation, question, created = question_store(user=user, conversation=conversation, domain=domain,
                                                     text=text, client_id=client_id)
    if not created:  # a concurrent resend stored it first
        return _resend(question, providers)
    return Submission(conversation, question, providers=providers)


async def ask_submit(*, user, text: object, client_id: object = "", conversation_id: object = None,
                     domain_slug: object = None, providers: ProviderRegistry = registry,
                     rate_limit: bool = True, access: bool = True) -> Submission:
    """Accept one ask from any door. Nothing is stored for a refused ask.

    Args:
        user: the asking user (authenticated).
        text: the question as sent (validated here).
        client_id: the client's id for this question (idempotency; "" for none; cut to 64 characters).
        conversation_id: the conversation to continue, or None/"" for a new one with ``domain_slug``.
        domain_slug: the domain of a new conversation.
        providers: the provider registry the answer will use.
        rate_limit: count the ask against the user's limit (the command-line doors, run by an operator, do not).
        access: apply the domain access rules (the command-line doors, run by an operator, do not).
    Returns:
        The Submission: ``stored`` set for a resend of an answered question, ``running`` for a resend whose answer
        is being generated (report ``in_progress()``), else call ``start``.
    Raises:
        AskError: empty_message, invalid_text, message_too_long, not_found, forbidden, unknown_domain,
            rate_limited (with retry_after), busy.
    """
    question = validate_question(text)
    client_id = str(client_id or "")[:64]
    db = executors.current().db
    conversation, domain = await db(ask_target)(user=user, conversation_id=conversation_id, domain_slug=domain_slug,
                                                access=access)
    if rate_limit:
        await db(ratelimit.ask_allow)(user)  # refused asks store nothing: the user resends later
    return await db(ask_store)(user=user, conversation=conversation, domain=domain, text=question,
                               client_id=client_id, providers=providers)


def answer_begin(*, question: Message) -> tuple[Message, list, Any]:
    """The answer row (streaming) and what the plan needs from memory, in one database visit: (answer, memory
    turns before the question, stored summary)."""
    answer = answer_start(question=question)
    conversation = question.conversation
    return answer, memory_turns(conversation=conversation, before=question), summary_get(conversation=conversation)


async def answer_run(*, conversation: Conversation, question: Message, emit: Emit,
                     providers: ProviderRegistry = registry) -> Message | None:
    """The whole life of one answer: plan, stream, save, then calibrate and summarize.

    Every outcome is saved: complete; interrupted with the text so far (on cancel, e.g. `stop`); failed with the
    reason the user sees (a provider outage, an empty answer), the question always kept. Frames: plan, delta...,
    done, or error; delta, done and error also go to the sockets that resumed the answer (answer_group). After
    `done` the token calibration and the conversation summary are refreshed (a failure there changes nothing).
    Returns the saved answer (None when not even the answer row could be stored).
    """
    answer: Message | None = None
    stream: AnswerStream | None = None
    prepared: PreparedAnswer | None = None
    db = executors.current().db
    detached = executors.current().detached

    async def send(frame: Frame) -> None:
        await emit(frame)
        if answer is not None and frame.get("type") in ("delta", "done", "error"):
            await answer_broadcast(answer.pk, frame)

    try:
        answer, history, summary = await db(answer_begin)(question=question)
        provider = providers.for_domain(conversation.domain)
        prepared = await db(answer_prepare)(domain=conversation.domain, question=question.text, history=history,
                                            summary=summary, provider=provider)
        await db(answer_planned)(message=answer, prepared=prepared)
        await send(plan_frame(message_id=answer.pk, prepared=prepared))
        stream = AnswerStream(prepared)
        message_id = answer.pk
        shown = [""]  # the safe text sent so far, one string (what a resumed socket must see first)
        saved_at = [time.monotonic()]

        async def send_delta(frame: Frame) -> None:
            shown[0] += frame["text"]
            # the text so far goes to the shared cache before the delta is broadcast: a socket that joins the group
            # and then reads the cache misses nothing (see answer_resume)
            partial_set(message_id, text=shown[0], seq=frame["seq"])
            await send({**frame, "message": message_id})
            if time.monotonic() - saved_at[0] >= PARTIAL_SAVE_SECONDS:
                saved_at[0] = time.monotonic()
                # on a pool thread, not the request's thread-sensitive one: a streamed HTTP response may outlive
                # the request's executor, and a missed partial save only makes a resume start a little earlier
                await detached(answer_partial_save)(message_id=message_id, text=shown[0], seq=frame["seq"])

        verified = await stream.run(send_delta)
        saved = await db(answer_finish)(message=answer, verified=verified, usage=stream.usage)
        await send(done_frame(saved, question))
    except asyncio.CancelledError:
        if answer is not None:
            saved = await asyncio.shield(db(answer_interrupt)(
                message=answer, text=stream.text_so_far if stream else "", status=Message.Status.INTERRUPTED,
                error="stopped"))
            await send(done_frame(saved, question))
        return answer
    except AskError as exc:
        if answer is not None:
            partial = stream.text_so_far if stream else ""
            # a stream that broke mid-way keeps its text as an interrupted answer; one that never started failed
            status = Message.Status.INTERRUPTED if partial.strip() and exc.code == "provider_error" \
                else Message.Status.FAILED
            await db(answer_interrupt)(message=answer, text=partial, status=status, error=exc.message)
            exc.message_id = answer.pk
        await send(exc.frame())
        return answer
    except Exception as exc:  # never leave a turn without an outcome
        log.exception("answer generation failed")
        if answer is not None:
            await db(answer_interrupt)(message=answer, text=stream.text_so_far if stream else "",
                                       status=Message.Status.FAILED, error=str(exc) or type(exc).__name__)
        await send(AskError("internal", "The answer failed; please retry.",
                            message_id=answer.pk if answer else None).frame())
        return answer
    await tokens_calibrate(prepared=prepared, usage=stream.usage if stream else None)
    try:
        share = int(prepared.plan.budget.get("available", 0) * settings_for(conversation.domain).policy.history_cap)
        await db(summary_refresh)(conversation=conversation, history_share=share, summarizer=providers.summarizer())
    except Exception:
        log.exception("summary refresh failed for conversation %s; memory left unchanged", conversation.pk)
    return saved


@dataclass
class Resumed:
    """What a door sends a socket resuming an answer: ``frames`` now; when ``group`` is set, the answer is still
    generating and its later frames arrive through that channel-layer group (deltas after ``seq``)."""

    frames: list[Frame]
    group: str | None = None
    message_id: int = 0
    seq: int = 0


async def answer_resume(*, user, message_id: object, join=None) -> Resumed:
    """Resume one of the user's answers, with the same access rule as the HTTP API (B05).

    A stored answer comes back as its ``done`` frame; one still generating (here or on another worker) as its plan,
    a ``partial`` frame with the text so far, and its group. ``join(group)`` is awaited before the text so far is
    read, so no delta falls between the two (the door passes its group_add; without it no group is joined).
    Raises:
        AskError: not_found (unknown id, another user's, a question), forbidden (the user's own answer in a domain
            they may no longer read: their conversation's HTTP endpoint answers 403 with the same code).
    """
    db = executors.current().db
    message = await db(own_answer_get)(user=user, message_id=message_id)
    if message.status == Message.Status.STREAMING and join is not None:
        group = answer_group(message.pk)
        await join(group)
        message = await db(own_answer_get)(user=user, message_id=message.pk)
        if message.status == Message.Status.STREAMING:
            cached = partial_get(message.pk)
            text, seq = (cached["text"], cached["seq"]) if cached and cached["seq"] >= message.stream_seq \
                else (message.text, message.stream_seq)
            return Resumed(resume_frames(message=message, text=text, seq=seq), group=group, message_id=message.pk,
                           seq=seq)
        return Resumed([done_frame(message)], group=group, message_id=message.pk)  # finished meanwhile: leave group
    return Resumed([done_frame(message)], message_id=message.pk)


async def ask_until_done(submission: Submission) -> tuple[Message | None, list[Frame]]:
    """Run a submission to its end and collect its frames: (the saved answer, or the stored one of a resend;
    every frame emitted)."""
    frames: list[Frame] = [submission.accepted()]
    if submission.stored is not None:
        return submission.stored, frames + [done_frame(submission.stored, submission.question)]
    if submission.running is not None:
        return None, frames + [submission.in_progress().frame()]

    async def collect(frame: Frame) -> None:
        frames.append(frame)

    answer = await submission.start(collect)
    return answer, frames


def ask_sync(*, user, text: object, domain_slug: str | None = None, conversation_id: object = None,
             client_id: str = "", providers: ProviderRegistry = registry,
             access: bool = True) -> tuple[Message | None, list[Frame]]:
    """One ask run to its end where no event loop runs (``manage.py ask``, ``manage.py evaluate``): the same
    submission and answer as the chat, frames collected; no rate limit (an operator's door), and with ``access``
    False no domain access rule.

    Returns:
        (the saved answer (its status says complete, failed or interrupted) or None, every frame).
    Raises:
        AskError: what :func:`ask_submit` raises.
    """
    async def run() -> tuple[Message | None, list[Frame]]:
        executors.use(executors.COMMAND)
        submission = await ask_submit(user=user, text=text, client_id=client_id, conversation_id=conversation_id,
                                      domain_slug=domain_slug, providers=providers, rate_limit=False,
                                      access=access)
        return await ask_until_done(submission)

    return async_to_sync(run)()
