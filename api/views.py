"""The HTTP API, version 1: grounded answers and conversations as JSON, for other tools (django-ninja).

    POST   /api/v1/ask                       one grounded answer (JSON, or server-sent events with
                                             Accept: text/event-stream); the turn is stored in a conversation
    GET    /api/v1/conversations             the caller's conversations (newest first)
    GET    /api/v1/conversations/{id}        one conversation with its turns and their frozen sources
    DELETE /api/v1/conversations/{id}        delete one's own conversation
    GET    /api/v1/domains                   the domains the caller may read
    POST   /api/v1/domains/{slug}/documents  upload files into a domain (staff with the add-document permission);
                                             ingested in the background, 202 with the job
    GET    /api/v1/jobs/{id}                 an upload job's progress and each file's outcome
    GET    /api/v1/schema                    the OpenAPI 3.1 document (no token needed), generated from api.schemas

Authentication is a personal API token only (``Authorization: Bearer <token>``, api.http.bearerAuth), never the
session cookie, so these views are exempt from CSRF: a browser does not attach the header by itself. The rules are the
browser's: ownership (another user's conversation is 404), domain access (an unreadable domain looks unknown), the
message size limits, the per-user ask limit shared with the websocket (chat.ratelimit), typed errors with stable codes
(api.errors, api.http). The route functions only translate: the ask sequence is api.asking.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from ninja import File, Query, Status
from ninja.files import UploadedFile

from api import asking
from api.errors import ApiError
from api.http import AUTH_ERRORS, JsonApi, JsonBody, bearerAuth, documented, install_error_handlers, \
    method_not_allowed, refuse_other_methods
from api.schemas.answers import Answer, AskRequest
from api.schemas.common import MAX_ID
from api.schemas.conversations import ConversationDetail, ConversationId, ConversationPage, PageLimit, PageOffset
from api.schemas.domains import DomainList
from api.schemas.domains import IngestJob as IngestJobOut
from chat import services as chat_services
from chat.selectors import conversation_get, domain_get
from chat.serializers import message_json
from chat.models import Conversation, Message
from knowledge.models import Domain
from knowledge.models import IngestJob as IngestJobModel
from knowledge.selectors import ingest_job_status
from knowledge.services import ingest_job_start

EVENTS_DESCRIPTION = (
    "With `Accept: text/event-stream`: server-sent events, the websocket's frames in order: `accepted` "
    "(conversation and question ids), `plan` (sources, notes, budget), `delta` (answer text, in order by "
    "`seq`), then `done` (the stored answer) or `error` (code and message; the question stays stored). "
    "Each event is `event: <type>` and `data: <the frame as JSON>`. Lines starting with `:` are keep-alives.")

api_v1 = JsonApi(
    title="Grounded chat API",
    version="1.0.0",
    description=(
        "Grounded answers from an organisation's documents, with citations, as JSON for other tools. "
        "Authenticate with a personal API token (Settings → API tokens) as `Authorization: Bearer <token>`. "
        "A token acts as its user: the same domains, conversations and ask limit as in the browser. "
        "Errors are `{\"error\": {\"code\", \"message\"}}` with a stable code."),
    urls_namespace="api:v1",
    openapi_url=None,  # the document is the getSchema operation below, so that it is in its own paths
    docs_url=None,
    auth=bearerAuth(),
    parser=JsonBody(),
)
install_error_handlers(api_v1)


def _path_id(raw: str, what: str = "Conversation") -> int:
    """An id from the URL; anything that is not one is an unknown ``what`` (404 "<what> not found."), as on the
    pages."""
    if re.fullmatch(r"[0-9]{1,19}", raw, re.ASCII) and 1 <= int(raw) <= MAX_ID:
        return int(raw)
    raise ApiError("not_found", f"{what} not found.")


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def conversation_json(conversation: Conversation) -> dict[str, Any]:
    """A conversation as the API lists it (api.schemas.conversations.Conversation)."""
    return {"id": conversation.pk, "title": conversation.title,
            "domain": {"slug": conversation.domain.slug, "name": conversation.domain.name},
            "created_at": _iso(conversation.created_at), "updated_at": _iso(conversation.updated_at)}


def turn_json(message: Message) -> dict[str, Any]:
    """A stored message (chat.serializers.message_json: frozen sources, citations, notes) with its time and the
    question it answers (api.schemas.conversations.Turn)."""
    return {**message_json(message), "created_at": _iso(message.created_at),
            "reply_to": message.reply_to_id}


# --- routes ----------------------------------------------------------------------------------------------------------

@api_v1.post("/ask", operation_id="ask", summary="Ask a question; get a grounded answer with citations",
             description="Stores the question and its answer as a turn of a conversation (a new one when only "
                         "`domain` is given). " + EVENTS_DESCRIPTION,
             exclude_unset=True,
             **documented({200: Answer}, *AUTH_ERRORS, "bad_json", "invalid_request", "empty_message",
                          "message_too_long", "request_too_large", "unsupported_media_type", "method_not_allowed",
                          "forbidden", "not_found", "unknown_domain", "domain_mismatch", "client_id_reused", "busy",
                          "in_progress",
                          "rate_limited", "budget", "provider_error", "empty_answer", "domain_settings", "internal",
                          success={"description": "The answer (JSON), or its frames as server-sent events.",
                                   "content": {"text/event-stream": {"schema": {"type": "string"}}}}))
async def ask(request: HttpRequest, body: AskRequest):
    """One grounded answer (api.asking.ask_respond): JSON, or events when the Accept header asks for them."""
    return await asking.ask_respond(user=request.auth.user, body=body, stream=asking.wants_event_stream(request),
                                    live=isinstance(request, ASGIRequest))


@api_v1.get("/conversations", operation_id="listConversations", summary="Your conversations, newest first",
            description="Only conversations in domains you may read (as on the chat page).", exclude_unset=True,
            **documented({200: ConversationPage}, *AUTH_ERRORS, "invalid_request", "method_not_allowed", "internal"))
def conversations(request: HttpRequest, limit: PageLimit = Query(50), offset: PageOffset = Query(0)):
    """The caller's conversations in the domains they may read, newest first, ``limit`` from ``offset``."""
    user = request.auth.user
    rows = list(Conversation.objects.filter(user=user, domain__in=Domain.objects.readable_by(user))
                .select_related("domain").order_by("-updated_at", "-pk")[offset:offset + limit + 1])
    return {"conversations": [conversation_json(c) for c in rows[:limit]],
            "next_offset": offset + limit if len(rows) > limit else None}


@api_v1.get("/conversations/{conversation_id}", operation_id="getConversation",
            summary="One of your conversations with its turns and their frozen sources", exclude_unset=True,
            **documented({200: ConversationDetail}, *AUTH_ERRORS, "forbidden", "not_found", "method_not_allowed",
                         "internal"))
def conversation(request: HttpRequest, conversation_id: ConversationId):
    """The conversation and its messages, oldest first."""
    conv = conversation_get(user=request.auth.user, conversation_id=_path_id(conversation_id))
    return {**conversation_json(conv),
            "messages": [turn_json(m) for m in conv.messages.select_related("reply_to").order_by("pk")]}


@api_v1.delete("/conversations/{conversation_id}", operation_id="deleteConversation",
               summary="Delete one of your conversations",
               **documented({204: None}, *AUTH_ERRORS, "not_found", "busy", "method_not_allowed", "internal"))
def conversation_delete(request: HttpRequest, conversation_id: ConversationId):
    """One's own conversation may be deleted even when its domain is no longer readable; not while answering."""
    chat_services.conversation_delete(user=request.auth.user, conversation_id=_path_id(conversation_id))
    return HttpResponse(status=204)


@api_v1.get("/domains", operation_id="listDomains", summary="The domains you may ask",
            **documented({200: DomainList}, *AUTH_ERRORS, "method_not_allowed", "internal"))
def domains(request: HttpRequest):
    """The readable domains, by slug."""
    readable = Domain.objects.readable_by(request.auth.user).order_by("slug")
    return {"domains": [{"slug": d.slug, "name": d.name, "description": d.description} for d in readable]}


@api_v1.post("/domains/{slug}/documents", operation_id="uploadDocuments",
             summary="Upload documents into a domain; they are ingested in the background",
             description="Multipart form with one or more `files` (Markdown, text, HTML, PDF, Word, PowerPoint, Excel "
                         "or CSV). Needs a staff account with the permission to add documents, and a domain it may "
                         "read. Answers 202 with the job at once; follow it with GET /api/v1/jobs/{id}. A bad file "
                         "fails on its own row with the reason; the others are ingested.",
             **documented({202: IngestJobOut}, *AUTH_ERRORS, "invalid_request", "forbidden", "unknown_domain",
                          "method_not_allowed", "internal"))
def documents_upload(request: HttpRequest, slug: str, files: list[UploadedFile] = File(..., min_length=1)):
    """Start an ingestion job (knowledge.services.ingest_job_start) with the uploaded files."""
    user = request.auth.user
    domain = domain_get(slug=slug, user=user)
    if not (user.is_staff and user.has_perm("knowledge.add_document")):
        raise ApiError("forbidden", "Uploading documents needs a staff account with the permission to add "
                                    "documents. Ask an administrator.")
    if not files:
        raise ApiError("invalid_request", "Send one or more files as multipart form fields named 'files'.")
    job = ingest_job_start(domain=domain, files=files, user=user)
    return Status(202, ingest_job_status(job=IngestJobModel.objects.select_related("domain").get(pk=job.pk)))


@api_v1.get("/jobs/{job_id}", operation_id="getJob", summary="An upload job's progress and each file's outcome",
            **documented({200: IngestJobOut}, *AUTH_ERRORS, "not_found", "method_not_allowed", "internal"))
def job(request: HttpRequest, job_id: ConversationId):
    """One's own upload job (staff with the view permission on uploads see every job of the domains they read)."""
    user = request.auth.user
    jobs = IngestJobModel.objects.select_related("domain").filter(domain__in=Domain.objects.readable_by(user))
    if not (user.is_staff and user.has_perm("knowledge.view_ingestjob")):
        jobs = jobs.filter(created_by=user)
    found = jobs.filter(pk=_path_id(job_id, "Upload job")).first()
    if found is None:
        raise ApiError("not_found", "Upload job not found.")
    return ingest_job_status(job=found)


@api_v1.get("/schema", operation_id="getSchema", summary="This OpenAPI document", auth=None,
            **documented({200: dict[str, Any]}, "method_not_allowed", "internal"))
def schema(request: HttpRequest):
    """The OpenAPI 3.1 document, generated from the operations and api.schemas (limits from the settings in force)."""
    return api_v1.get_openapi_schema()


# --- other methods: 405 with Allow ---------------------------------------------------------------------------------

def _refuse(allowed: tuple[str, ...]):
    def refuse(request: HttpRequest):
        raise method_not_allowed(request, allowed)
    return refuse


def _refuse_conversation(request: HttpRequest, conversation_id: str):
    raise method_not_allowed(request, ("GET", "DELETE"))


def _refuse_upload(request: HttpRequest, slug: str):
    raise method_not_allowed(request, ("POST",))


def _refuse_job(request: HttpRequest, job_id: str):
    raise method_not_allowed(request, ("GET",))


for _path, _allowed in (("/ask", ("POST",)), ("/conversations", ("GET",)), ("/domains", ("GET",)),
                        ("/schema", ("GET",))):
    refuse_other_methods(api_v1, _path, _allowed, _refuse(_allowed))
refuse_other_methods(api_v1, "/conversations/{conversation_id}", ("GET", "DELETE"), _refuse_conversation)
refuse_other_methods(api_v1, "/domains/{slug}/documents", ("POST",), _refuse_upload)
refuse_other_methods(api_v1, "/jobs/{job_id}", ("GET",), _refuse_job)


@csrf_exempt
def unknown(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/: a JSON 404 (the routes are public, in the schema)."""
    return ApiError("not_found", f"No API endpoint at {request.path[:200]!r}. See /api/v1/schema.").response()
