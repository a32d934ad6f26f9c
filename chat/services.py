"""What a user manages on the chat page besides asking: renaming, deleting and (through chat.selectors) searching
their conversations, and their feedback on an answer.

HackSoft style: keyword-only ``<entity>_<action>`` functions. Every failure is an AskError with a stable code and a
message written for the user (the page's JSON endpoints answer it with chat.views.ERROR_STATUS):

    not_found        unknown or malformed id, another user's conversation or answer (the two are not told apart)
    forbidden        the user's own conversation or answer in a domain they may no longer read (rename, feedback)
    busy             an answer is still being generated (delete; feedback on that answer)
    empty_name, name_too_long, invalid_feedback   bad input; nothing is changed
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from chat.errors import AskError
from chat.models import Conversation, Message
from chat.orchestration import answering
from chat.selectors import conversation_get, own_answer_get
from chat.validation import title_text, visible

#: Longest conversation name (characters), the model field's length.
NAME_CHARS = Conversation._meta.get_field("title").max_length
#: Longest feedback reason (characters).
REASON_CHARS = 1000


def _clean_text(value: object) -> str:
    """A text field from a request: a string with its whitespace runs collapsed to one space ("" for None).

    Raises:
        AskError(invalid_text): not a string, or it holds a NUL character or a lone surrogate.
    """
    if value is None:
        return ""
    if not isinstance(value, str) or "\x00" in value:
        raise AskError("invalid_text", "The text is not valid: send plain text.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise AskError("invalid_text", "The text is not valid: it holds an unpaired surrogate character.")
    return " ".join(value.split())


def conversation_rename(*, user, conversation_id: object, title: object) -> Conversation:
    """Give one of the user's conversations a new name (whitespace runs collapsed). The conversation keeps its place
    in the most-recently-used order (a rename is not a use).

    Raises:
        AskError: not_found, forbidden (chat.selectors.conversation_get), invalid_text, empty_name (also a name of
            only invisible characters; control and bidirectional override characters are taken out,
            chat.validation.title_text), name_too_long
            (the message gives the length and the limit); nothing is changed then.
    """
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    name = title_text(_clean_text(title))
    if not visible(name):  # nothing but zero-width or control characters: a name nobody can see
        raise AskError("empty_name", "The name is empty. Type a name for the conversation.")
    if len(name) > NAME_CHARS:
        raise AskError("name_too_long", f"The name is {len(name):,} characters long; the limit is {NAME_CHARS}.")
    Conversation.objects.filter(pk=conversation.pk).update(title=name)  # update(): updated_at stays as it was
    conversation.title = name
    return conversation


@transaction.atomic
def conversation_delete(*, user, conversation_id: object) -> int:
    """Delete one of the user's conversations with its messages (questions, every answer with its frozen sources,
    trace and feedback) and its rolling summary; nothing else (not the domain, its documents, other conversations).
    The user's own conversation may be deleted even when its domain is no longer readable (as the API allows).

    Returns:
        the id of the deleted conversation.
    Raises:
        AskError: not_found; busy while one of its answers is being generated (nothing is deleted then).
    """
    conversation = conversation_get(user=user, conversation_id=conversation_id, access=False)
    if answering(conversation) is not None:
        raise AskError("busy", "An answer is still being generated in this conversation. Stop it or wait for it, "
                               "then delete the conversation.")
    pk = conversation.pk
    conversation.delete()
    return pk


def answer_feedback_save(*, user, message_id: object, value: object, reason: object = "") -> Message:
    """Store the user's verdict on one of their answers: "helpful", "unhelpful", or "" to take it back; ``reason``
    (optional, whitespace collapsed, at most REASON_CHARS characters) is kept with it. Saying it again replaces the
    earlier verdict and reason. Shown in the admin's conversation review.

    Raises:
        AskError: not_found, forbidden (chat.selectors.own_answer_get); busy for an answer still being generated;
            invalid_feedback (another value, a reason over the limit), invalid_text; nothing is changed then.
    """
    answer = own_answer_get(user=user, message_id=message_id)
    if value not in ("", *Message.Feedback.values):
        raise AskError("invalid_feedback", "Feedback is either helpful, unhelpful, or empty to take it back.")
    text = _clean_text(reason)
    if len(text) > REASON_CHARS:
        raise AskError("invalid_feedback", f"The reason is {len(text):,} characters long; the limit is "
                                           f"{REASON_CHARS:,}.")
    if answer.status == Message.Status.STREAMING:
        raise AskError("busy", "This answer is still being written; give your feedback when it is done.")
    answer.feedback = value
    answer.feedback_reason = text if value else ""
    answer.feedback_at = timezone.now() if value else None
    answer.save(update_fields=["feedback", "feedback_reason", "feedback_at"])
    return answer
