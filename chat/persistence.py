"""Writes of the chat: conversations, questions (idempotent on the user's client id), answers through their life
(streaming -> complete | interrupted | failed), the text so far of a streaming answer.

HackSoft style: keyword-only ``<entity>_<action>`` functions; multi-step writes are atomic.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from chat.answering import PreparedAnswer
from chat.errors import AskError
from chat.frames import Trace
from chat.memory import history_cost
from chat.models import Conversation, Message
from chat.selectors import question_of
from chat.serializers import source_view
from chat.validation import title_text
from grounding.answer import VerifiedAnswer
from grounding.lexical import content_terms
from grounding.providers import Usage
from grounding.tokens import counter_for
from knowledge.models import Domain

log = logging.getLogger("grounded.answer")

#: Longest client id kept (characters); longer ones are cut.
CLIENT_ID_CHARS = 64


def client_key(*, user, client_id: str) -> str:
    """The idempotency key of a question: the user and the client's id for it ("" when the client sent none).

    The key ignores the conversation: a client that resends before it learned the new conversation's id (B06)
    finds the question it sent, whichever door it uses."""
    client_id = (client_id or "")[:CLIENT_ID_CHARS]
    return f"{user.pk}:{client_id}" if client_id and getattr(user, "pk", None) else ""


#: The account the command-line doors (``manage.py ask``, ``manage.py evaluate``) store their conversations under when
#: no user is named: created on first use, with no usable password (it cannot sign in).
OPERATOR_USERNAME = "ask-command"


def operator_user(*, username: str | None = None):
    """The user a command-line door asks as: ``username`` (must exist), else the OPERATOR_USERNAME account.

    Raises:
        LookupError: no user called ``username``.
    """
    from django.contrib.auth import get_user_model

    User = get_user_model()
    if username:
        try:
            return User.objects.get(username=username)
        except User.DoesNotExist:
            raise LookupError(f"No user {username!r}.")
    user, created = User.objects.get_or_create(username=OPERATOR_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def conversation_create(*, user, domain: Domain, title: str = "") -> Conversation:
    """A new conversation of ``user`` with ``domain`` (title cut to 200 characters)."""
    return Conversation.objects.create(user=user, domain=domain, title=title[:200])


def conversation_touch(*, conversation: Conversation, title: str = "") -> Conversation:
    """Move a conversation up (``updated_at`` now) and give it ``title`` (cut to 200 characters) when it has none,
    in one UPDATE, which also locks its row until the transaction ends (PostgreSQL; SQLite's IMMEDIATE transactions
    lock the whole database when they begin): a concurrent ask in the conversation waits here. The title is decided
    on the row as it is under the lock (a rename meanwhile is kept); the instance gets the same values, its title as
    it was read unless it had none. Returns the instance."""
    now = timezone.now()
    fields: dict = {"updated_at": now}
    if title:
        fields["title"] = Case(When(title="", then=Value(title[:200])), default=F("title"))
    Conversation.objects.filter(pk=conversation.pk).update(**fields)
    conversation.updated_at = now
    if title and not conversation.title:
        conversation.title = title[:200]
    return conversation


def same_question(stored: Message, text: str) -> Message:
    """``stored``, the question a client id was first sent with, when ``text`` is that question again (a resend).

    Raises:
        AskError(client_id_reused): another question's text under the same client id (a client's bug: answering it
            with the stored answer gave the answer to another question).
    """
    if stored.text != text:
        raise AskError("client_id_reused", f"The client id {stored.client_id!r} was already used for another "
                                           "question. Send the new question with a new client id.")
    return stored


def question_store(*, user, conversation: Conversation | None, domain: Domain, text: str,
                   client_id: str = "") -> tuple[Conversation, Message, bool]:
    """Store the user's question before anything else happens, in ``conversation`` or in a new conversation with
    ``domain``. Idempotent on (user, client id): a question sent again with the same client id, in whatever
    conversation field, finds the stored one and creates nothing (not even a conversation).

    Returns:
        (conversation, question message, created): created is False for a resend.
    Raises:
        AskError(client_id_reused): the client id is stored with another question's text.
    """
    client_id = (client_id or "")[:CLIENT_ID_CHARS]
    key = client_key(user=user, client_id=client_id)
    if key:
        existing = question_of(key)
        if existing is not None:
            same_question(existing, text)
            return existing.conversation, existing, False
    try:
        with transaction.atomic():
            conversation, message = question_insert(user=user, conversation=conversation, domain=domain, text=text,
                                                    client_id=client_id)
    except IntegrityError:  # the same key stored meanwhile by a concurrent resend: that one is the question
        existing = question_of(key) if key else None
        if existing is None:
            raise
        return existing.conversation, existing, False
    return conversation, message, True


def question_insert(*, user, conversation: Conversation | None, domain: Domain, text: str,
                    client_id: str = "") -> tuple[Conversation, Message]:
    """The writes of storing a question, inside the caller's transaction: a new conversation with ``domain`` titled
    by the question (one INSERT), or ``conversation`` touched (:func:`conversation_touch`: its row locked until the
    transaction ends), then the question with its idempotency key, token count and content terms. Nothing is looked
    up first.

    Returns:
        (conversation, question message).
    Raises:
        IntegrityError: the idempotency key (user, client id) is stored already (a resend: the caller rolls back and
            finds it, chat.selectors.question_of).
    """
    client_id = (client_id or "")[:CLIENT_ID_CHARS]
    title = title_text(text)[:80]  # without control and bidirectional override characters
    if conversation is None:  # titled by its first question when made (one write, not two)
        conversation = conversation_create(user=user, domain=domain, title=title)
    else:
        conversation_touch(conversation=conversation, title=title)
    message = Message.objects.create(conversation=conversation, role=Message.Role.USER, text=text,
                                     tokens=counter_for("extractive").count(text),
                                     terms=sorted(content_terms(text)), client_id=client_id,
                                     client_key=client_key(user=user, client_id=client_id))
    return conversation, message


def answer_start(*, question: Message, client_id: str = "", client_key: str = "") -> Message:
    """Create the assistant message (status streaming) before anything can fail, so every turn gets an outcome.

    A regenerated answer carries the client's id for the regeneration and its idempotency key
    (chat.regeneration.regenerate_key); a first answer carries none (its question does)."""
    return Message.objects.create(conversation=question.conversation, role=Message.Role.ASSISTANT,
                                  reply_to=question, status=Message.Status.STREAMING,
                                  client_id=client_id[:CLIENT_ID_CHARS], client_key=client_key,
                                  alive_at=timezone.now())


def answer_discard(*, answer: Message) -> None:
    """Remove a failed or interrupted answer before the question is answered again (a retry)."""
    answer.delete()


def answer_fill_plan(*, message: Message, prepared: PreparedAnswer) -> Message:
    """Set the frozen source snapshot (as the model will see it, each source with its rendered ``html`` for the
    source panel: chat.serializers.source_view) and the plan's trace on an answer (not saved)."""
    plan = prepared.plan
    message.provider = prepared.provider.name
    message.sources = [source_view(s.as_dict()) for s in plan.sources]
    trace: Trace = {"budget": dict(plan.budget), "dropped": [d.as_dict() for d in plan.dropped],
                    "notes": [n.as_dict() for n in plan.notes], "abstain_reason": plan.abstain_reason,
                    "memory": plan.memory, "retrieval_query": prepared.query, "ordering": plan.ordering,
                    "prompt_version": prepared.prompt_version.version if prepared.prompt_version else None,
                    "checks": prepared.checks,
                    "max_tokens": int(plan.budget.get("completion_reserve", 0))}
    message.trace = trace
    message.prompt_version = prepared.prompt_version
    return message


def answer_planned(*, message: Message, prepared: PreparedAnswer) -> Message:
    """Store the frozen source snapshot and the plan's trace on a streaming answer (:func:`answer_fill_plan`, then
    :func:`answer_plan_save`)."""
    answer_fill_plan(message=message, prepared=prepared)
    return answer_plan_save(message=message)


def answer_plan_save(*, message: Message) -> Message:
    """Save what :func:`answer_fill_plan` set on an answer (the snapshot is filled apart, off the database worker:
    rendering the sources' HTML is CPU work)."""
    message.save(update_fields=["provider", "sources", "trace", "prompt_version"])
    return message


def answer_fill_result(*, message: Message, verified: VerifiedAnswer, usage: Usage | None = None) -> Message:
    """Set a complete answer's text, html, citations, spans, support check, abstention, the provider's usage report
    (in the trace) and the token count of its history form (not saved)."""
    message.text = verified.text
    message.html = verified.html
    message.abstained = verified.abstained
    message.citations = [c.as_dict() for c in verified.citations]
    message.spans = list(verified.spans)
    message.support = verified.support
    message.invalid_citations = list(verified.invalid)
    message.status = Message.Status.COMPLETE
    if usage is not None:
        message.trace = {**(message.trace or {}), "usage": usage.as_dict()}
    message.tokens, message.terms = history_cost(message)
    return message


#: The columns a complete answer's result sets (:func:`answer_fill_result`), and ``error`` (cleared): what
#: :func:`answer_finish` writes. The snapshot (sources, provider, prompt version) was saved with the plan and is not
#: encoded and written again.
RESULT_FIELDS = ("text", "html", "abstained", "citations", "spans", "support", "invalid_citations", "status", "trace",
                 "tokens", "terms", "error")


def answer_finish(*, message: Message, verified: VerifiedAnswer, usage: Usage | None = None) -> Message:
    """Store the complete answer (see :func:`answer_fill_result`, then :func:`answer_result_save`)."""
    answer_fill_result(message=message, verified=verified, usage=usage)
    return answer_result_save(message=message)


def answer_result_save(*, message: Message) -> Message:
    """Save what :func:`answer_fill_result` set on an answer (one UPDATE of RESULT_FIELDS; the result is filled
    apart, off the database worker: counting the answer's tokens and terms is CPU work)."""
    message.save(update_fields=RESULT_FIELDS)
    return message


def answer_unsaved(*, prepared: PreparedAnswer, verified: VerifiedAnswer, usage: Usage | None = None) -> Message:
    """An answer filled exactly as a stored one (plan and result) but not saved: what the answer payload of a plan
    and its verified answer is, outside any conversation (tests, one-off checks)."""
    message = Message(role=Message.Role.ASSISTANT, status=Message.Status.STREAMING)
    answer_fill_plan(message=message, prepared=prepared)
    return answer_fill_result(message=message, verified=verified, usage=usage)


def answer_interrupt(*, message: Message, text: str, status: str, error: str = "") -> Message:
    """Store an interrupted or failed answer with the text streamed so far and the reason the user sees."""
    message.text = text
    message.status = status
    message.error = error
    message.tokens, message.terms = history_cost(message)
    message.save(update_fields=["text", "status", "error", "tokens", "terms"])
    return message


def answer_partial_save(*, message_id: int, text: str, seq: int) -> None:
    """Save a streaming answer's text so far and the delta seq it reaches (only while it is still streaming).
    Failures are logged, never raised (the partial text is an aid to resuming, not the stored answer)."""
    try:
        Message.objects.filter(pk=message_id, status=Message.Status.STREAMING).update(text=text, stream_seq=seq,
                                                                                     alive_at=timezone.now())
    except Exception:
        log.exception("could not save the text so far of answer %s", message_id)


def answer_alive(*, message_id: int) -> None:
    """Mark a streaming answer's generating task alive now (its heartbeat; nothing for a finished answer)."""
    Message.objects.filter(pk=message_id, status=Message.Status.STREAMING).update(alive_at=timezone.now())


#: What an answer whose server stopped while writing it says (chat.orchestration.orphans_close).
ORPHAN_ERROR = "The server stopped while this answer was being written. Ask again or regenerate it."


def answer_orphan_close(*, message: Message) -> Message:
    """Store a streaming answer whose generating task is gone (no heartbeat: a server stopped or restarted) as
    interrupted, with the text saved so far and ORPHAN_ERROR; an answer that finished meanwhile is left as it is."""
    with transaction.atomic():
        fresh = Message.objects.select_for_update().get(pk=message.pk)
        if fresh.status != Message.Status.STREAMING:
            return fresh
        return answer_interrupt(message=fresh, text=fresh.text, status=Message.Status.INTERRUPTED, error=ORPHAN_ERROR)
