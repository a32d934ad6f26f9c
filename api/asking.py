"""The ask sequence of the HTTP API: validate, check the target and the ask limit, store the turn, run the answer, and
answer with JSON or server-sent events.

Kept apart from the route functions (api.views), which only translate HTTP to these calls and back. Answers go through
the one answer path, chat.services.answer_run, in an asyncio task: a client that disconnects does not stop it, and
the turn is saved (complete, or failed with its reason) either way.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, AsyncIterator

from asgiref.sync import sync_to_async as db
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone

from api.errors import ApiError
from api.schemas import AskRequest
from chat import ratelimit, services
from chat.models import Conversation, Message
from knowledge.models import Domain

#: A streaming answer older than this no longer counts as "being generated" (a server stopped mid-answer).
ANSWER_STALE_AFTER = timedelta(minutes=10)
#: Seconds without a frame after which a server-sent-event stream gets a comment line (keeps proxies from closing it).
KEEPALIVE_SECONDS = 15.0
#: The keys of a source in the `ask --json` contract (chat.services.answer_json); the conversation endpoint gives
#: the whole frozen snapshot, text included.
ANSWER_SOURCE_KEYS = ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens")
#: Frames that end an answer's stream.
TERMINAL = ("done", "error")

#: Strong references to running generations (a task that outlives its request must not be garbage collected).
_running: set[asyncio.Task] = set()


def answer_payload(*, conversation: Conversation, question: Message, answer: Message) -> dict[str, Any]:
    """The `ask --json` contract (chat.services.answer_json) rebuilt from the stored answer, plus where it is stored:
    conversation, message (the answer's id), question_message, client_id; and its status and rendered html."""
    trace = answer.trace or {}
    return {
        "answer": answer.text, "abstained": answer.abstained, "citations": answer.citations,
        "invalid_citations": answer.invalid_citations, "support": answer.support,
        "sources": [{k: v for k, v in s.items() if k in ANSWER_SOURCE_KEYS} for s in answer.sources],
        "notes": trace.get("notes", []), "budget": trace.get("budget", {}), "dropped": trace.get("dropped", []),
        "provider": answer.provider, "prompt_version": trace.get("prompt_version"),
        "status": answer.status, "html": answer.html,
        "conversation": conversation.pk, "message": answer.pk, "question_message": question.pk,
        "client_id": question.client_id,
    }


def sse(frame: dict[str, Any]) -> bytes:
    """One server-sent event: the frame's type as the event name, the frame (type included) as one JSON line."""
    return f"event: {frame['type']}\ndata: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()


def _event_stream(content) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events on at once
    return response


def wants_event_stream(request: HttpRequest) -> bool:
    """True when the Accept header names text/event-stream (with a non-zero q)."""
    for part in request.headers.get("Accept", "").split(","):
        media, *params = [p.strip().lower() for p in part.split(";")]
        if media == "text/event-stream":
            return not any(re.fullmatch(r"q=0(\.0*)?", p) for p in params)
    return False


def conversation_answering(conversation: Conversation) -> bool:
    """True while an answer is being generated in ``conversation`` (one newer than ANSWER_STALE_AFTER)."""
    return conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.STREAMING,
                                        created_at__gte=timezone.now() - ANSWER_STALE_AFTER).exists()


def ask_target(*, user, body: AskRequest) -> tuple[Conversation | None, Domain]:
    """The conversation asked in (None: a new one) and its domain, with the browser's access rules.

    Raises:
        AskError: not_found (unknown or another user's conversation), forbidden (own conversation, domain no longer
            readable), unknown_domain (unknown or unreadable domain).
        ApiError(domain_mismatch): both given and the conversation is with another domain.
    """
    if body.conversation is not None:
        conv = services.conversation_get(user=user, conversation_id=body.conversation)
        if body.domain is not None and body.domain != conv.domain.slug:
            raise ApiError("domain_mismatch",
                           f"Conversation {conv.pk} is with the domain {conv.domain.slug!r}, not {body.domain[:60]!r}. "
                           "Leave out domain to continue it, or leave out conversation to start a new one.")
        return conv, conv.domain
    return None, services.domain_get(slug=body.domain, user=user)


@dataclass
class Turn:
    """One ask in progress: where it is stored, and the frames of its answer as they come."""

    conversation: Conversation
    question: Message
    #: the stored answer of a resent question (same client_id) that was answered already; nothing runs then
    stored: Message | None = None
    task: asyncio.Task | None = None
    frames: asyncio.Queue = field(default_factory=asyncio.Queue)

    @property
    def accepted(self) -> dict[str, Any]:
        """The websocket's `accepted` frame: where the question is stored."""
        return {"type": "accepted", "message": self.question.pk, "conversation": self.conversation.pk,
                "client_id": self.question.client_id, "title": self.conversation.title}

    def start(self) -> None:
        """Run services.answer_run in its own task; its frames go to ``frames``, then None when the task ends."""
        async def emit(frame: dict[str, Any]) -> None:
            self.frames.put_nowait(frame)

        self.task = asyncio.create_task(services.answer_run(conversation=self.conversation,
                                                            user_message=self.question, emit=emit))
        _running.add(self.task)
        self.task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task) -> None:
        _running.discard(task)
        self.frames.put_nowait(None)

    def collected(self) -> list[dict[str, Any]]:
        """The frames emitted so far (after the task has ended: all of them)."""
        out = []
        while not self.frames.empty():
            frame = self.frames.get_nowait()
            if frame is not None:
                out.append(frame)
        return out


def turn_store(*, user, conversation: Conversation | None, domain: Domain, question: str,
               client_id: str) -> tuple[Conversation, Message, Message | None]:
    """Store the question before anything else (services.turn_append_user); idempotent on ``client_id``.

    A question resent with the same client_id (also without a conversation id, e.g. a client retrying a request whose
    response it lost) finds the stored one: its complete answer is returned; an answer still running is
    ``in_progress``; a failed or interrupted one is retried.
    Returns:
        (conversation, question message, stored complete answer or None when an answer must be generated).
    Raises:
        ApiError: busy (another answer is being generated in the conversation), in_progress.
    """
    if conversation is None and client_id:
        prior = (Message.objects.filter(role=Message.Role.USER, client_id=client_id, conversation__user=user,
                                        conversation__domain=domain)
                 .select_related("conversation__domain").order_by("-pk").first())
        conversation = prior.conversation if prior else None
    if conversation is None:
        conversation = services.conversation_create(user=user, domain=domain)
    else:
        resend = bool(client_id) and conversation.messages.filter(role=Message.Role.USER, client_id=client_id).exists()
        if not resend and conversation_answering(conversation):
            raise ApiError("busy", "An answer is still being generated in this conversation. Wait for it, then ask "
                                   "again.", conversation=conversation.pk)
    message, created = services.turn_append_user(conversation=conversation, text=question, client_id=client_id)
    if not created:
        reply = Message.objects.filter(reply_to=message).first()
        if reply is not None and reply.status == Message.Status.COMPLETE:
            return conversation, message, reply
        if reply is not None and reply.status == Message.Status.STREAMING:
            raise ApiError("in_progress", "This question is already being answered; the answer will be saved. "
                                          f"Read it with GET /api/v1/conversations/{conversation.pk}.",
                           conversation=conversation.pk, message_id=reply.pk)
        if reply is not None:  # failed or interrupted: answer it again
            reply.delete()
    return conversation, message, None


async def turn_begin(*, user, conversation: Conversation | None, domain: Domain, question: str,
                     client_id: str) -> Turn:
    conv, message, stored = await db(turn_store)(user=user, conversation=conversation, domain=domain,
                                                 question=question, client_id=client_id)
    turn = Turn(conversation=conv, question=message, stored=stored)
    if stored is None:
        turn.start()
    return turn


async def _live_events(turn: Turn) -> AsyncIterator[bytes]:
    """The answer's frames as server-sent events while it is generated. If the client goes away the server stops
    iterating this; the answer task is not cancelled and saves its result."""
    yield sse(turn.accepted)
    while True:
        try:
            frame = await asyncio.wait_for(turn.frames.get(), timeout=KEEPALIVE_SECONDS)
        except asyncio.TimeoutError:
            yield b": keep-alive\n\n"
            continue
        if frame is None:
            return
        yield sse(frame)
        if frame["type"] in TERMINAL:
            return


async def ask_respond(*, user, body: AskRequest, stream: bool, live: bool) -> dict[str, Any] | HttpResponseBase:
    """One grounded answer to ``body``, stored as a turn of a conversation (new when only domain is given).

    Args:
        user: the token's user.
        body: the validated request.
        stream: the client asked for server-sent events (:func:`wants_event_stream`).
        live: an ASGI request, whose server keeps its event loop, so events can be sent as they come.
    Returns:
        The answer payload (:func:`answer_payload`, the route's ``Answer`` type), or a text/event-stream response.
    Raises:
        AskError: the question's, the target's and the ask limit's errors (nothing stored then).
        ApiError: domain_mismatch, busy, in_progress, and the answer's own failure (the turn stays stored).
    """
    question = services.validate_question(body.question)
    conversation, domain = await db(ask_target)(user=user, body=body)
    await db(ratelimit.ask_allow)(user)  # refused asks store nothing
    # storing the question and starting its answer go on even if the client disconnects meanwhile
    begin = asyncio.ensure_future(turn_begin(user=user, conversation=conversation, domain=domain,
                                             question=question, client_id=body.client_id or ""))
    _running.add(begin)
    begin.add_done_callback(_running.discard)
    turn = await asyncio.shield(begin)

    if turn.stored is not None:  # a resend of an answered question: the stored answer, nothing generated
        if stream:
            return _event_stream(iter([sse(turn.accepted), sse(services.done_frame(turn.stored))]))
        return answer_payload(conversation=turn.conversation, question=turn.question, answer=turn.stored)
    if stream and live:
        # an ASGI server keeps its event loop: frames are sent as they come, and the task outlives the response
        return _event_stream(_live_events(turn))
    # JSON (or events under WSGI, where the loop ends with the view): wait for the whole answer, summary included
    answer = await asyncio.shield(turn.task)
    frames = turn.collected()
    if stream:
        return _event_stream(iter([sse(turn.accepted), *(sse(f) for f in frames)]))
    error = next((f for f in frames if f["type"] == "error"), None)
    if error is not None or answer is None:
        error = error or {"code": "internal", "message": "The answer failed; please retry."}
        raise ApiError(error["code"], error["message"], conversation=turn.conversation.pk,
                       message_id=error.get("message_id"))
    return answer_payload(conversation=turn.conversation, question=turn.question, answer=answer)
