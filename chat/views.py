"""Pages and the page's JSON endpoints. Thin: they call selectors/services and render; JSON is built in
chat.serializers.

JSON endpoints (session login, CSRF-protected like any form of the site; errors are ``{"error": {"code",
"message"}}`` with the status of ERROR_STATUS; an anonymous request gets 401 ``login_required``):

    GET  /conversations/search?q=TEXT        {"conversations": [sidebar item, ...]} (chat.serializers.conversation_item)
    POST /conversations/<id>/rename {title}  {"conversation": item}
    POST /conversations/<id>/delete          {"deleted": id}
    POST /answers/<id>/feedback {value, reason}   {"feedback", "feedback_reason"}
"""

from __future__ import annotations

import json
import re
from functools import wraps
from typing import Any, Callable

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.http import require_GET, require_POST

from chat import selectors, services
from chat.errors import AskError
from chat.models import Conversation
from chat.providers import registry
from chat.serializers import conversation_item, page_message_json
from chat.validation import websocket_message_limit
from knowledge.models import Domain

#: HTTP status of each error code the page's JSON endpoints return (others: 400).
ERROR_STATUS = {"not_found": 404, "forbidden": 403, "busy": 409, "login_required": 401, "bad_json": 400,
                "csrf_failed": 403}


def _own_conversation(request: HttpRequest, conversation_id: int) -> Conversation:
    """The signed-in user's conversation. Raises Http404 (unknown or another user's: reveals nothing) or
    PermissionDenied (their own, but its domain is no longer theirs to read)."""
    try:
        return selectors.conversation_get(user=request.user, conversation_id=conversation_id)
    except AskError as exc:
        if exc.code == "forbidden":
            raise PermissionDenied(exc.message)
        raise Http404("Conversation not found")


@login_required
def index(request: HttpRequest, conversation_id: int | None = None) -> HttpResponse:
    """The chat page: the user's conversations (most recently used first), the selected one's messages (with frozen
    sources), domain picker (on a new conversation: the domain of the conversation used last, else the first).

    Another user's conversation id gives 404 and reveals nothing.
    """
    readable = Domain.objects.readable_by(request.user)
    conversation = None
    messages = []
    if conversation_id is not None:
        conversation = _own_conversation(request, conversation_id)
        messages = [page_message_json(m) for m in conversation.messages.select_related("reply_to").order_by("pk")]
    answerer = registry.for_domain(conversation.domain) if conversation else registry.answerer()
    conversations = selectors.conversation_list(user=request.user)
    return render(request, "chat/index.html", {
        "conversations": conversations,
        "conversation": conversation,
        "domains": readable,
        # a new conversation starts in the documents of the one last used (the first listed was the alphabetically
        # first domain: once an admin added a second one, every new question went there and was refused)
        "last_domain": conversations[0].domain.slug if conversations else None,
        "answerer": answerer.label,
        "page_data": {
            "conversation": conversation.pk if conversation else None,
            "domain": conversation.domain.slug if conversation else None,
            "messages": messages,
            "maxChars": settings.MAX_MESSAGE_CHARS,
            "maxTokens": settings.MAX_MESSAGE_TOKENS,
            "maxFrameBytes": websocket_message_limit(),
            "maxNameChars": services.NAME_CHARS,
            "answerer": {"name": answerer.name, "label": answerer.label},
            "csrf": get_token(request),
        },
    })


@login_required
def export(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """The user's own conversation as a Markdown download (questions, answers, the sources each answer cited).

    Another user's conversation, or an unknown id, gives 404 and reveals nothing; a conversation whose domain the
    user may no longer read gives 403.
    """
    conversation = _own_conversation(request, conversation_id)
    response = HttpResponse(selectors.conversation_markdown(conversation=conversation),
                            content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="conversation-{conversation.pk}.md"'
    return response


# --- the page's JSON endpoints -----------------------------------------------------------------------------------------

def _error(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=ERROR_STATUS.get(code, 400))


#: The page's JSON endpoints (chat.urls): a request to one that fails the CSRF check gets a JSON error too.
_JSON_PATHS = re.compile(r"^/(?:conversations/|answers/)")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's CSRF_FAILURE_VIEW: for the page's JSON endpoints, a 403 JSON error the page shows (``csrf_failed``:
    the security token is missing or stale; reload), as their other errors are; for any other page, Django's own
    403 page. (A POST without the token to /conversations/<id>/rename returned Django's HTML page, the s22 break
    run.)"""
    if _JSON_PATHS.match(request.path_info):
        return _error("csrf_failed", "The page's security token is missing or out of date. Reload the page and try "
                                     "again.")
    return django_csrf_failure(request, reason=reason)


def json_endpoint(view: Callable[..., dict[str, Any]]) -> Callable[..., JsonResponse]:
    """A page endpoint: 401 JSON for anonymous requests, the view's dict as JSON, an AskError as its error."""
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        if not request.user.is_authenticated:
            return _error("login_required", "Your session has ended. Log in again.")
        try:
            return JsonResponse(view(request, *args, **kwargs), json_dumps_params={"ensure_ascii": False})
        except AskError as exc:
            return _error(exc.code, exc.message)
    return wrapper


def _body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object body ({} when empty).

    Raises:
        AskError(bad_json): not JSON, or not an object.
    """
    if not request.body:
        return {}
    try:
        data = json.loads(request.body)
    except RecursionError:  # valid JSON, nested deeper than the parser follows
        raise AskError("bad_json", "The request body is nested too deeply.")
    except ValueError:
        raise AskError("bad_json", "The request body is not valid JSON.")
    if not isinstance(data, dict):
        raise AskError("bad_json", "The request body must be a JSON object.")
    return data


@require_GET
@json_endpoint
def conversation_search(request: HttpRequest) -> dict[str, Any]:
    """The user's conversations whose title or messages contain ``q`` (all of them without it), most recently used
    first (chat.selectors.conversation_list)."""
    found = selectors.conversation_list(user=request.user, query=request.GET.get("q", ""))
    return {"conversations": [conversation_item(c) for c in found]}


@require_POST
@json_endpoint
def conversation_rename(request: HttpRequest, conversation_id: str) -> dict[str, Any]:
    """Rename one of the user's conversations (chat.services.conversation_rename).

    Raises:
        AskError(bad_json): the body has no "title" (a body sending {"name": ...} read "The name is empty": the s47
            breaker), besides chat.services.conversation_rename's errors.
    """
    body = _body(request)
    if "title" not in body:
        raise AskError("bad_json", 'The request body has no "title": send {"title": "the new name"}.')
    conversation = services.conversation_rename(user=request.user, conversation_id=conversation_id,
                                                title=body["title"])
    return {"conversation": conversation_item(conversation)}


@require_POST
@json_endpoint
def conversation_delete(request: HttpRequest, conversation_id: str) -> dict[str, Any]:
    """Delete one of the user's conversations (chat.services.conversation_delete)."""
    return {"deleted": services.conversation_delete(user=request.user, conversation_id=conversation_id)}


@require_POST
@json_endpoint
def answer_feedback(request: HttpRequest, message_id: str) -> dict[str, Any]:
    """Store the user's feedback on one of their answers (chat.services.answer_feedback_save)."""
    body = _body(request)
    # no "value" (a misspelt key: {"vaule": "unhelpful"}) is no verdict, not a taking back of the stored one
    answer = services.answer_feedback_save(user=request.user, message_id=message_id, value=body.get("value"),
                                           reason=body.get("reason", ""))
    return {"message": answer.pk, "feedback": answer.feedback, "feedback_reason": answer.feedback_reason}
