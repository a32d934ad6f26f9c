"""Pages. Thin: they call selectors/services and render."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from chat import selectors
from chat.errors import AskError
from chat.providers import registry
from chat.serializers import message_json
from chat.models import Conversation
from knowledge.models import Domain


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
    """The chat page: the user's conversations, the selected one's messages (with frozen sources), domain picker.

    Another user's conversation id gives 404 and reveals nothing.
    """
    readable = Domain.objects.readable_by(request.user)
    conversation = None
    messages = []
    if conversation_id is not None:
        conversation = _own_conversation(request, conversation_id)
        messages = [message_json(m) for m in conversation.messages.select_related("reply_to").order_by("pk")]
    return render(request, "chat/index.html", {
        "conversations": Conversation.objects.filter(user=request.user, domain__in=readable)
                                             .select_related("domain")[:100],
        "conversation": conversation,
        "domains": readable,
        "answerer": (registry.for_domain(conversation.domain) if conversation else registry.answerer()).label,
        "page_data": {
            "conversation": conversation.pk if conversation else None,
            "domain": conversation.domain.slug if conversation else None,
            "messages": messages,
            "maxChars": settings.MAX_MESSAGE_CHARS,
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
