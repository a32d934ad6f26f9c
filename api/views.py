"""The HTTP API, version 1: grounded answers and conversations as JSON, for other tools.

    POST   /api/v1/ask                       one grounded answer (JSON, or server-sent events with
                                             Accept: text/event-stream); the turn is stored in a conversation
    GET    /api/v1/conversations             the caller's conversations (newest first)
    GET    /api/v1/conversations/{id}        one conversation with its turns and their frozen sources
    DELETE /api/v1/conversations/{id}        delete one's own conversation
    GET    /api/v1/domains                   the domains the caller may read
    GET    /api/v1/schema                    the OpenAPI 3.1 document (no token needed)

Authentication is a personal API token only (``Authorization: Bearer <token>``), never the session cookie, so these
views are exempt from CSRF: a browser does not attach the header by itself. The rules are the browser's: ownership
(another user's conversation is 404), domain access (an unreadable domain looks unknown), the message size limits, the
per-user ask limit shared with the websocket (chat.ratelimit), typed errors with stable codes (api.errors).

Answers go through the one answer path, chat.services.answer_run, in an asyncio task: a client that disconnects does
not stop it, and the turn is saved (complete, or failed with its reason) either way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass, field
from datetime import timedelta
from functools import wraps
from typing import Any, AsyncIterator, Callable

from asgiref.sync import iscoroutinefunction, sync_to_async as db
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from api import openapi
from api.errors import ApiError
from api.services import token_authenticate
from chat import ratelimit, services
from chat.models import Conversation, Message
from knowledge.models import Domain

log = logging.getLogger("grounded.api")

#: Largest id accepted (a signed 64-bit integer, the database's limit).
MAX_ID = 2**63 - 1
#: A streaming answer older than this no longer counts as "being generated" (a server stopped mid-answer).
ANSWER_STALE_AFTER = timedelta(minutes=10)
#: Seconds without a frame after which a server-sent-event stream gets a comment line (keeps proxies from closing it).
KEEPALIVE_SECONDS = 15.0
#: The keys of a source in the `ask --json` contract (chat.services.answer_json); the conversation endpoint gives
#: the whole frozen snapshot, text included.
ANSWER_SOURCE_KEYS = ("label", "chunk_id", "title", "section", "version", "date", "score", "tokens", "location",
                      "source_label")
#: Frames that end an answer's stream.
TERMINAL = ("done", "error")

#: Strong references to running generations (a task that outlives its request must not be garbage collected).
_running: set[asyncio.Task] = set()


# --- plumbing ------------------------------------------------------------------------------------------------------

def endpoint(*methods: str, auth: bool = True) -> Callable:
    """Wrap an API view (sync or async): allowed methods (405 with Allow otherwise), token authentication (sets
    ``request.api_token``), and every failure as a typed JSON error; CSRF-exempt (token authentication only)."""
    allow = ", ".join(methods)

    def check_method(request: HttpRequest) -> None:
        if request.method not in methods:
            raise ApiError("method_not_allowed", f"{request.method} is not allowed here; use {allow}.",
                           headers={"Allow": allow})

    def failed(exc: BaseException, request: HttpRequest) -> HttpResponse:
        if isinstance(exc, ApiError):
            return exc.response()
        if isinstance(exc, services.AskError):
            return ApiError.from_ask(exc).response()
        log.error("API request %s %s failed", request.method, request.path, exc_info=exc)
        return ApiError("internal", "The request failed on the server; please retry.").response()

    def decorate(view: Callable) -> Callable:
        if iscoroutinefunction(view):
            @wraps(view)
            async def run_async(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
                try:
                    check_method(request)
                    if auth:
                        request.api_token = await db(token_authenticate)(request.headers.get("Authorization"))
                    return await view(request, *args, **kwargs)
                except Exception as exc:
                    return failed(exc, request)

            return csrf_exempt(run_async)

        @wraps(view)
        def run(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                check_method(request)
                if auth:
                    request.api_token = token_authenticate(request.headers.get("Authorization"))
                return view(request, *args, **kwargs)
            except Exception as exc:
                return failed(exc, request)

        return csrf_exempt(run)

    return decorate


def body_limit() -> int:
    """Largest accepted request body, bytes: room for a question at the character limit written entirely as JSON
    \\u escapes of astral characters (12 bytes each), plus the other fields."""
    return max(64 * 1024, settings.MAX_MESSAGE_CHARS * 12 + 4096)


def json_body(request: HttpRequest, fields: set[str]) -> dict[str, Any]:
    """The request body as a JSON object with only ``fields``.

    Raises:
        ApiError: unsupported_media_type, request_too_large, bad_json, invalid_request.
    """
    content_type = (request.content_type or "").lower()
    if content_type and content_type != "application/json" and not (
            content_type.startswith("application/") and content_type.endswith("+json")):
        raise ApiError("unsupported_media_type",
                       f"Send a JSON body with 'Content-Type: application/json' (got {content_type[:60]!r}).")
    limit = body_limit()
    too_large = ApiError("request_too_large", f"The request body is larger than {limit:,} bytes (a question may "
                                              f"have at most {settings.MAX_MESSAGE_CHARS:,} characters).")
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > limit:
            raise too_large
    except ValueError:
        pass
    try:
        raw = request.body
    except RequestDataTooBig:
        raise too_large
    if len(raw) > limit:
        raise too_large
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError("bad_json", "The request body is not valid JSON.")
    if not isinstance(data, dict):
        raise ApiError("invalid_request", "The request body must be a JSON object.")
    unknown = [k for k in data if k not in fields]
    if unknown:
        names = ", ".join(repr(k[:40]) for k in unknown[:5])
        raise ApiError("invalid_request", f"Unknown field(s) {names}; expected {', '.join(sorted(fields))}.")
    return data


def _string(data: dict[str, Any], name: str, *, max_chars: int | None = None) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError("invalid_request", f"{name} must be a string.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError("invalid_request", f"{name} is not valid Unicode (it holds an unpaired surrogate).")
    if max_chars is not None and len(value) > max_chars:
        raise ApiError("invalid_request", f"{name} is longer than {max_chars} characters.")
    return value


def _id(value: object, name: str) -> int | None:
    """A JSON id: an integer (or a number with no fraction, as JSON Schema counts integers) from 1 to MAX_ID."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise ApiError("invalid_request", f"{name} must be an integer id (1 to {MAX_ID}) or null.")
    return value


def _path_id(raw: str) -> int:
    """An id from the URL; anything that is not one is an unknown conversation (404), as on the pages."""
    if re.fullmatch(r"[0-9]{1,19}", raw, re.ASCII) and 1 <= int(raw) <= MAX_ID:
        return int(raw)
    raise ApiError("not_found", "Conversation not found.")


def _query_int(request: HttpRequest, name: str, *, default: int, low: int, high: int) -> int:
    raw = request.GET.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,9}", raw, re.ASCII) or not low <= int(raw) <= high:
        raise ApiError("invalid_request", f"{name} must be an integer from {low} to {high}.")
    return int(raw)


def _iso(value) -> str | None:
    return value.isoformat() if value else None


# --- JSON forms --------------------------------------------------------------------------------------------------

def conversation_json(conversation: Conversation) -> dict[str, Any]:
    return {"id": conversation.pk, "title": conversation.title,
            "domain": {"slug": conversation.domain.slug, "name": conversation.domain.name},
            "created_at": _iso(conversation.created_at), "updated_at": _iso(conversation.updated_at)}


def turn_json(message: Message) -> dict[str, Any]:
    """A stored message (services.message_json: frozen sources, citations, notes) with its time and the question it
    answers."""
    return {**services.message_json(message), "created_at": _iso(message.created_at),
            "reply_to": message.reply_to_id}


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


# --- schema, domains, conversations --------------------------------------------------------------------------------

@endpoint("GET", auth=False)
def schema(request: HttpRequest) -> HttpResponse:
    return JsonResponse(openapi.document())


@endpoint("GET")
def domains(request: HttpRequest) -> HttpResponse:
    user = request.api_token.user
    return JsonResponse({"domains": [{"slug": d.slug, "name": d.name, "description": d.description}
                                     for d in Domain.objects.readable_by(user).order_by("slug")]})


@endpoint("GET")
def conversations(request: HttpRequest) -> HttpResponse:
    """The caller's conversations in the domains they may read (as on the chat page), newest first, paged."""
    user = request.api_token.user
    limit = _query_int(request, "limit", default=50, low=1, high=100)
    offset = _query_int(request, "offset", default=0, low=0, high=1_000_000)
    rows = list(Conversation.objects.filter(user=user, domain__in=Domain.objects.readable_by(user))
                .select_related("domain").order_by("-updated_at", "-pk")[offset:offset + limit + 1])
    return JsonResponse({"conversations": [conversation_json(c) for c in rows[:limit]],
                         "next_offset": offset + limit if len(rows) > limit else None})


@endpoint("GET", "DELETE")
def conversation(request: HttpRequest, conversation_id: str) -> HttpResponse:
    user = request.api_token.user
    pk = _path_id(conversation_id)
    if request.method == "DELETE":
        # one's own conversation may be deleted even when its domain is no longer readable; not while answering
        own = Conversation.objects.filter(pk=pk, user=user).first()
        if own is None:
            raise ApiError("not_found", "Conversation not found.")
        if _answering(own):
            raise ApiError("busy", "An answer is still being generated in this conversation; delete it when the "
                                   "answer is done.")
        own.delete()
        return HttpResponse(status=204)
    conv = services.conversation_get(user=user, conversation_id=pk)
    return JsonResponse({**conversation_json(conv),
                         "messages": [turn_json(m) for m in conv.messages.order_by("pk")]})


def _answering(conversation: Conversation) -> bool:
    return conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.STREAMING,
                                        created_at__gte=timezone.now() - ANSWER_STALE_AFTER).exists()


# --- ask -------------------------------------------------------------------------------------------------------------

@dataclass
class AskRequest:
    question: str
    domain: str | None
    conversation: int | None
    client_id: str


def ask_request(request: HttpRequest) -> AskRequest:
    """The validated body of POST /api/v1/ask (question text checked by services.validate_question later)."""
    data = json_body(request, {"question", "domain", "conversation", "client_id"})
    question = _string(data, "question")
    if question is None:
        raise ApiError("invalid_request", "question is required (a string).")
    body = AskRequest(question=question, domain=_string(data, "domain"),
                      conversation=_id(data.get("conversation"), "conversation"),
                      client_id=_string(data, "client_id", max_chars=64) or "")
    if body.domain is None and body.conversation is None:
        raise ApiError("invalid_request", "Give domain (to start a conversation) or conversation (to continue one).")
    return body


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
        if not resend and _answering(conversation):
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


@endpoint("POST")
async def ask(request: HttpRequest) -> HttpResponse:
    """One grounded answer, stored as a turn of a conversation (new when only domain is given)."""
    user = request.api_token.user
    body = ask_request(request)
    question = services.validate_question(body.question)
    conversation, domain = await db(ask_target)(user=user, body=body)
    await db(ratelimit.ask_allow)(user)  # refused asks store nothing
    stream = wants_event_stream(request)
    # storing the question and starting its answer go on even if the client disconnects meanwhile
    begin = asyncio.ensure_future(turn_begin(user=user, conversation=conversation, domain=domain,
                                             question=question, client_id=body.client_id))
    _running.add(begin)
    begin.add_done_callback(_running.discard)
    turn = await asyncio.shield(begin)

    if turn.stored is not None:  # a resend of an answered question: the stored answer, nothing generated
        if stream:
            return _event_stream(iter([sse(turn.accepted), sse(services.done_frame(turn.stored))]))
        return JsonResponse(answer_payload(conversation=turn.conversation, question=turn.question,
                                           answer=turn.stored))
    if stream and isinstance(request, ASGIRequest):
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
    return JsonResponse(answer_payload(conversation=turn.conversation, question=turn.question, answer=answer))


@csrf_exempt
def unknown(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/: a JSON 404 (the routes are public, in the schema)."""
    return ApiError("not_found", f"No API endpoint at {request.path[:200]!r}. See /api/v1/schema.").response()
