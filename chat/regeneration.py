"""Regenerating an answer: a new answer to the question of one of the user's answers (the websocket's `regenerate`
frame), the earlier answers kept and switchable. Access, rate limit and busy rules as for an ask
(chat.orchestration); idempotency on (user, client id) of the regeneration. The Submission it returns is started
like an ask's.
"""

from __future__ import annotations

from django.db import transaction

from chat import executors, priority, ratelimit
from chat.errors import AskError
from chat.models import Message
from chat.orchestration import answering, conversation_locked
from chat.persistence import answer_discard, answer_start
from chat.providers import ProviderRegistry, registry
from chat.selectors import answer_is_live, own_answer_get
from chat.submission import Submission, submission_begin
from chat.validation import validate_client_id


def regenerate_key(*, user, client_id: str) -> str:
    """The idempotency key of a regeneration ("<user id>:regenerate:<client id>"; "" without a client id): kept on
    the new answer, apart from the keys of questions."""
    client_id = (client_id or "")[:64]
    return f"{user.pk}:regenerate:{client_id}" if client_id and getattr(user, "pk", None) else ""


def regenerate_store(*, user, message_id: object, client_id: str, providers: ProviderRegistry = registry,
                     earlier: Message | None = None) -> Submission:
    """The submission of a new answer to the question of the user's answer ``message_id`` (blocking: database).

    A regeneration sent again with its client id gets the answer it made (complete: ``stored``; still being
    generated: ``running``); a failed or interrupted one is discarded and made again. ``earlier``: that answer as
    chat.selectors.own_answer_get read it in this visit (None: read here).
    Raises:
        AskError: not_found (unknown id, another user's, a question), forbidden (a domain the user may no longer
            read), busy (an answer is being generated in the conversation), client_id_reused (the client id made a
            new answer to another question); nothing is stored then.
    """
    if earlier is None:
        earlier = own_answer_get(user=user, message_id=message_id)
    question, conversation = earlier.reply_to, earlier.conversation
    key = regenerate_key(user=user, client_id=client_id)
    with transaction.atomic():  # as ask_store: the busy check and the new answer row in one transaction
        conversation = conversation_locked(conversation)
        question.conversation = conversation  # the same row, as read under the lock: nothing is read again later
        made = Message.objects.filter(client_key=key, role=Message.Role.ASSISTANT).first() if key else None
        if made is not None and made.reply_to_id != question.pk:
            # the id of a regeneration of another question: its answer is not this one's (the s43 breaker got
            # "accepted" for one conversation and "done" with another conversation's answer)
            raise AskError("client_id_reused", f"The client id {client_id!r} was already used for another "
                                               "regeneration. Send this one with a new client id.")
        if made is not None:
            if made.status == Message.Status.COMPLETE:
                return Submission(conversation, question, stored=made, providers=providers, regenerates=earlier.pk,
                                  client_id=client_id)
            if answer_is_live(made):
                return Submission(conversation, question, running=made, providers=providers,
                                  regenerates=earlier.pk, client_id=client_id)
            answer_discard(answer=made)
        if answering(conversation) is not None:
            raise AskError("busy", "An answer is still being generated in this conversation. Wait for it (or stop "
                                   "it), then regenerate.")
        conversation.save(update_fields=["updated_at"])  # a regeneration is a use: the conversation moves up
        answer = answer_start(question=question, client_id=client_id, client_key=key)
    return Submission(conversation, question, providers=providers, regenerates=earlier.pk, client_id=client_id,
                      client_key=key, answer=answer)


async def answer_regenerate(*, user, message_id: object, client_id: object = "",
                            providers: ProviderRegistry = registry, rate_limit: bool = True) -> Submission:
    """Accept a request for a new answer to the question of one of the user's answers (the websocket's
    ``regenerate`` frame). The earlier answers stay stored and switchable; the new one is the question's latest
    (chat.selectors.answer_of), the one later turns remember (chat.memory.memory_turns). Counted against the ask
    limit like an ask.

    Returns:
        The Submission (``stored``/``running`` for a resend of the same regeneration; else call ``start``).
    Raises:
        AskError: not_found, forbidden, rate_limited (with retry_after), busy.
    """
    client_id = validate_client_id(client_id)
    priority.ask_arrived()
    return await executors.current().db(regenerate_accept)(user=user, message_id=message_id, client_id=client_id,
                                                           providers=providers, rate_limit=rate_limit)


def regenerate_accept(*, user, message_id: object, client_id: str, providers: ProviderRegistry,
                      rate_limit: bool) -> Submission:
    """Everything accepting a regeneration does in the database, in one visit of the database worker (blocking):
    the user's answer (refused before counting against the limit), the ask limit, the new answer row
    (:func:`regenerate_store`) and what it reads before planning (chat.submission.submission_begin). Raises
    what those raise."""
    earlier = own_answer_get(user=user, message_id=message_id)
    if rate_limit:
        ratelimit.ask_allow(user)
    return submission_begin(regenerate_store(user=user, message_id=message_id, client_id=client_id,
                                             providers=providers, earlier=earlier))
