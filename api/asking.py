"""The HTTP API's door to the one ask orchestration (chat.orchestration): submit the ask, then answer with JSON or
server-sent events. The route function (api.views.ask) only translates HTTP to this call and back.

The answer runs in its own task (chat.orchestration.Submission.start): a client that disconnects does not stop it,
and the turn is saved (complete, or failed with its reason) either way.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator

from asgiref.sync import sync_to_async as db
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase

from api.errors import ApiError
from api.schemas.answers import AskRequest
from chat.frames import Frame
from chat.orchestration import Submission, ask_submit
from chat.selectors import conversation_get
from chat.serializers import answer_payload, done_frame

#: Seconds without a frame after which a server-sent-event stream gets a comment line (keeps proxies from closing it).
KEEPALIVE_SECONDS = 15.0
#: Frames that end an answer's stream.
TERMINAL = ("done", "error")

#: Strong references to running submissions (storing the question goes on if the client disconnects meanwhile).
_running: set[asyncio.Task] = set()


def sse(frame: dict[str, Any]) -> bytes:
    """One server-sent event: the frame's type as the event name, the frame (type included) as one JSON line."""
    return f"event: {frame['type']}\ndata: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()


def _event_stream(content) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events on at once
    return response


def wants_event_stream(request: HttpRequest) -> bool:
    """True when the Accept header names text/event-stream and prefers it to JSON: by quality (RFC 9110 12.5.1, read
    by Django's ``request.accepted_types``, which leaves out q=0), then by the header's order. "text/event-stream;
    q=0.1, application/json" is JSON (the s44 breaker got events); "*/*" or no header is JSON."""
    for media in request.accepted_types:
        if (media.main_type, media.sub_type) == ("text", "event-stream"):
            return True
        if media.match("application/json"):
            return False
    return False


def domain_mismatch(*, user, body: AskRequest) -> None:
    """Both a conversation and a domain given, and the conversation is with another domain.

    Raises:
        AskError: not_found, forbidden (the conversation's access rules).
        ApiError(domain_mismatch): the conversation is with another domain.
    """
    if body.conversation is not None and body.domain is not None:
        conv = conversation_get(user=user, conversation_id=body.conversation)
        if body.domain != conv.domain.slug:
            raise ApiError("domain_mismatch",
                           f"Conversation {conv.pk} is with the domain {conv.domain.slug!r}, not {body.domain[:60]!r}. "
                           "Leave out domain to continue it, or leave out conversation to start a new one.")


class Turn:
    """One ask in progress over HTTP: its submission, and the frames of its answer as they come (a queue that ends
    with None when the answer's task ends)."""

    def __init__(self, submission: Submission) -> None:
        self.submission = submission
        self.frames: asyncio.Queue = asyncio.Queue()

    def start(self) -> None:
        async def emit(frame: Frame) -> None:
            if frame.get("type") != "status":  # the API's events are the websocket's default frames
                self.frames.put_nowait(frame)

        self.submission.start(emit).add_done_callback(lambda task: self.frames.put_nowait(None))

    def collected(self) -> list[Frame]:
        """The frames emitted so far (after the task has ended: all of them)."""
        out = []
        while not self.frames.empty():
            frame = self.frames.get_nowait()
            if frame is not None:
                out.append(frame)
        return out


async def _live_events(turn: Turn) -> AsyncIterator[bytes]:
    """The answer's frames as server-sent events while it is generated. If the client goes away the server stops
    iterating this; the answer task is not cancelled and saves its result."""
    yield sse(turn.submission.accepted())
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


async def _submit(user, body: AskRequest) -> Turn:
    submission = await ask_submit(user=user, text=body.question, client_id=body.client_id or "",
                                  conversation_id=body.conversation, domain_slug=body.domain)
    turn = Turn(submission)
    if submission.stored is None and submission.running is None:
        turn.start()
    return turn


async def ask_respond(*, user, body: AskRequest, stream: bool, live: bool) -> dict[str, Any] | HttpResponseBase:
    """One grounded answer to ``body``, through chat.orchestration.ask_submit (the websocket's sequence).

    Args:
        user: the token's user.
        body: the validated request.
        stream: the client asked for server-sent events (:func:`wants_event_stream`).
        live: an ASGI request, whose server keeps its event loop, so events can be sent as they come.
    Returns:
        The answer payload (chat.serializers.answer_payload, the route's ``Answer`` type), or a text/event-stream
        response.
    Raises:
        AskError: the question's, the target's and the ask limit's errors (nothing stored then), busy.
        ApiError: domain_mismatch, in_progress, and the answer's own failure (the turn stays stored).
    """
    await db(domain_mismatch)(user=user, body=body)
    # storing the question and starting its answer go on even if the client disconnects meanwhile
    begin = asyncio.ensure_future(_submit(user, body))
    _running.add(begin)
    begin.add_done_callback(_running.discard)
    turn = await asyncio.shield(begin)
    submission = turn.submission

    if submission.running is not None:
        error = submission.in_progress()
        raise ApiError(error.code, f"{error.message} Read it with GET /api/v1/conversations/"
                                   f"{submission.conversation.pk}.",
                       conversation=submission.conversation.pk, message_id=error.message_id)
    if submission.stored is not None:  # a resend of an answered question: the stored answer, nothing generated
        if stream:
            return _event_stream(iter([sse(submission.accepted()),
                                       sse(done_frame(submission.stored, submission.question))]))
        return answer_payload(submission.stored, submission.question)
    if stream and live:
        # an ASGI server keeps its event loop: frames are sent as they come, and the task outlives the response
        return _event_stream(_live_events(turn))
    # JSON (or events under WSGI, where the loop ends with the view): wait for the whole answer, summary included
    answer = await asyncio.shield(submission.task)
    frames = turn.collected()
    if stream:
        return _event_stream(iter([sse(submission.accepted()), *(sse(f) for f in frames)]))
    error = next((f for f in frames if f["type"] == "error"), None)
    if error is not None or answer is None:
        error = error or {"code": "internal", "message": "The answer failed; please retry."}
        raise ApiError(error["code"], error["message"], conversation=submission.conversation.pk,
                       message_id=error.get("message_id"))
    return answer_payload(answer, submission.question)
