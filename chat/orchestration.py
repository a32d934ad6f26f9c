"""The one ask orchestration: every door (the websocket consumer, the HTTP API as JSON or server-sent events,
`manage.py ask` and `manage.py evaluate`) submits questions here and only translates the frames.

    ask_submit   validate -> resolve the conversation or domain (access rules) -> per-user rate limit
                 -> idempotency on (user, client id): a resend gets the stored answer, an answer in progress is
                    reported, a failed or interrupted one is retried -> store the question
    chat.regeneration.answer_regenerate  the same for a new answer to an answered question
    Submission.start(emit)  -> chat.generation.answer_run in its own task (outlives a dropped socket or request)
    chat.resume.answer_resume  a stored answer's done frame, or a generating one's plan, text so far and group
    ask_sync     the command-line doors: the same sequence, run to the end
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import IntegrityError, transaction

from chat import executors, priority, ratelimit
from chat.errors import AskError
from chat.frames import Frame
from chat.models import Conversation, Message
from chat.persistence import (answer_discard, answer_orphan_close, answer_start, client_key, question_insert,
                              same_question)
from chat.providers import ProviderRegistry, registry
from chat.selectors import answer_is_live, answer_of, conversation_get, domain_get, question_of
from chat.runtime import runtime as default_runtime
from chat.serializers import done_frame
from chat.submission import Submission, submission_begin
from chat.validation import validate_client_id, validate_question
from grounding.providers import async_completer_for
from knowledge.models import Domain

log = logging.getLogger("grounded.answer")


def ask_target(*, user, conversation_id: object = None, domain_slug: object = None,
               access: bool = True) -> tuple[Conversation | None, Domain]:
    """The conversation asked in (None: a new one) and its domain, with the access rules of every door (with
    ``access`` False, as an operator at the command line: any domain, the user's own conversations).

    Raises:
        AskError: not_found (unknown or another user's conversation), forbidden (own conversation, domain no longer
            readable), unknown_domain (no domain given for a new conversation; unknown or unreadable domain),
            domain_mismatch (a conversation and another domain than its own).
    """
    if conversation_id not in (None, ""):
        conversation = conversation_get(user=user, conversation_id=conversation_id, access=access)
        if isinstance(domain_slug, str) and domain_slug and domain_slug != conversation.domain.slug:
            # the rule of every door (the API refused it; the websocket answered from the conversation's domain)
            raise AskError("domain_mismatch",
                           f"Conversation {conversation.pk} is with the domain {conversation.domain.slug!r}, not "
                           f"{domain_slug[:60]!r}. Leave out domain to continue it, or leave out conversation to "
                           "start a new one.")
        return conversation, conversation.domain
    if not isinstance(domain_slug, str) or not domain_slug:
        raise AskError("unknown_domain", "Choose a domain for the new conversation.")
    return None, domain_get(slug=domain_slug, user=user if access else None)


def answering(conversation: Conversation) -> Message | None:
    """The answer being generated in a conversation right now (streaming, its task alive), if any. Streaming
    answers whose task is gone (a server stopped mid-answer) are stored as interrupted first, so the page shows
    them as such and they do not keep the conversation busy. One query: the conversation's streaming answers
    (nearly always none), told apart by chat.selectors.answer_is_live."""
    streaming = list(conversation.messages.filter(role=Message.Role.ASSISTANT, status=Message.Status.STREAMING)
                     .order_by("pk"))
    live = None
    for message in streaming:
        if answer_is_live(message):
            live = message  # the latest live one
        else:
            answer_orphan_close(message=message)
    return live


def _resend(question: Message, providers: ProviderRegistry) -> Submission:
    """A question sent again with its client id: its stored complete answer; the answer in progress (nothing more
    runs); a failed, interrupted or stale one is discarded so that the question is answered again."""
    reply = answer_of(question)
    if reply is not None and reply.status == Message.Status.COMPLETE:
        return Submission(question.conversation, question, stored=reply, providers=providers)
    if reply is not None and answer_is_live(reply):
        return Submission(question.conversation, question, running=reply, providers=providers)
    if reply is not None:
        answer_discard(answer=reply)
    return Submission(question.conversation, question, providers=providers)


def ask_store(*, user, conversation: Conversation | None, domain: Domain, text: str, client_id: str,
              providers: ProviderRegistry) -> Submission:
    """Store the question (blocking: database). Idempotent on (user, client id) whatever the conversation field
    says (B06).

    A new conversation's question is inserted without a lookup first: a resend is found by the unique key refusing
    the insert (nothing of the ask is kept then), which saves every first send a query. In a continued conversation
    the key is looked up first, so that a resend while its answer runs is told in_progress, not busy.
    Raises:
        AskError(busy): another answer is being generated in the conversation; AskError(client_id_reused): the
            client id was sent before with another question.
    """
    key = client_key(user=user, client_id=client_id)
    if key and conversation is not None:
        prior = question_of(key)  # every question sent with a client id holds its key (chat migration 0008)
        if prior is not None:
            return _resend(same_question(prior, text), providers)
    # One transaction: the question (a continued conversation's row touched first, which locks it), the busy
    # check, and the streaming answer row; a busy conversation keeps nothing of it. A concurrent ask in the
    # conversation then waits and finds it busy; a concurrent resend of the same client id waits on the question's
    # unique key and finds its answer running, instead of starting a second answer.
    fresh = conversation is None
    try:
        with transaction.atomic():
            conversation, question = question_insert(user=user, conversation=conversation, domain=domain,
                                                     text=text, client_id=client_id)
            if not fresh and answering(conversation) is not None:
                raise AskError("busy", "An answer is still being generated in this conversation. Wait for it "
                                       "(or stop it), then ask again.")
            answer = answer_start(question=question)
    except IntegrityError:  # the key is stored: a resend (or a concurrent one stored it first)
        prior = question_of(key) if key else None
        if prior is None:
            raise
        return _resend(same_question(prior, text), providers)
    return Submission(conversation, question, providers=providers, answer=answer, fresh=fresh)


#: What a user whose login ended while their websocket stayed open is told (chat.consumers).
SIGNED_OUT = "You are signed out: sign in again to go on (nothing was sent)."


def conversation_locked(conversation: Conversation) -> Conversation:
    """The conversation row again, locked until the transaction ends (PostgreSQL: SELECT ... FOR UPDATE; SQLite's
    IMMEDIATE transactions lock the whole database when they begin)."""
    return Conversation.objects.select_for_update(of=("self",)).select_related("domain").get(pk=conversation.pk)


async def ask_submit(*, user, text: object, client_id: object = "", conversation_id: object = None,
                     domain_slug: object = None, providers: ProviderRegistry = registry,
                     rate_limit: bool = True, access: bool = True,
                     signed_in: Callable[[], bool] | None = None) -> Submission:
    """Accept one ask from any door. Nothing is stored for a refused ask.

    Args:
        user: the asking user (authenticated).
        text: the question as sent (validated here).
        client_id: the client's id for this question (idempotency; "" or None for none; text of at most 64
            characters, else invalid_client_id).
        conversation_id: the conversation to continue, or None/"" for a new one with ``domain_slug``.
        domain_slug: the domain of a new conversation.
        providers: the provider registry the answer will use.
        rate_limit: count the ask against the user's limit (the command-line doors, run by an operator, do not).
        access: apply the domain access rules (the command-line doors, run by an operator, do not).
        signed_in: for a door that authenticated once (the websocket), whether its login still holds
            (chat.selectors.session_signed_in), asked in the same database visit; None: not asked.
    Returns:
        The Submission: ``stored`` set for a resend of an answered question, ``running`` for a resend whose answer
        is being generated (report ``in_progress()``), else call ``start``.
    Raises:
        AskError: empty_message, invalid_text, invalid_client_id, message_too_long, not_found, forbidden, unknown_domain,
            rate_limited (with retry_after), busy, signed_out.
    """
    question = validate_question(text)
    client_id = validate_client_id(client_id)
    priority.ask_arrived()  # its stages wait for the executors in arrival order (the answer's task inherits it)
    return await executors.current().db(ask_accept)(
        user=user, text=question, client_id=client_id, conversation_id=conversation_id, domain_slug=domain_slug,
        providers=providers, rate_limit=rate_limit, access=access, signed_in=signed_in,
        allowed=_query_prefetch(question, continuing=conversation_id not in (None, ""), providers=providers))


def _query_prefetch(question: str, *, continuing: bool, providers: ProviderRegistry) -> Callable[[], None] | None:
    """What starts the question's embedding once the ask is allowed (called on the database worker, between the
    access and rate checks and storing the question): the encode then runs on the CPU pool while the question is
    stored and the memory read, and retrieval joins it (grounding.batching.EmbeddingBatcher.prefetch; issue 20).
    None when the retrieval query may not be the question itself: a continued conversation whose follow-ups a model
    rewrites. Only allowed asks are embedded (a refused one costs no encode)."""
    if continuing and settings.LLM_FOLLOWUP_REWRITE and async_completer_for(providers.answerer()) is not None:
        return None
    loop = asyncio.get_running_loop()
    batcher = default_runtime.batcher
    return lambda: loop.call_soon_threadsafe(batcher.prefetch, question)


def ask_accept(*, user, text: str, client_id: str, conversation_id: object, domain_slug: object,
               providers: ProviderRegistry, rate_limit: bool, access: bool,
               allowed: Callable[[], None] | None = None, signed_in: Callable[[], bool] | None = None) -> Submission:
    """Everything accepting a validated ask does in the database, in one visit of the database worker (blocking):
    the target conversation or domain (:func:`ask_target`), the user's ask limit, then ``allowed()`` (when given:
    the query's embedding starts), whether the door's login still holds (``signed_in``, when given), the question
    and its answer row (:func:`ask_store`), and what the answer reads before planning (:func:`submission_begin`).
    Raises what those raise, and AskError(signed_out); a refused ask stores nothing (the user resends later)."""
    conversation, domain = ask_target(user=user, conversation_id=conversation_id, domain_slug=domain_slug,
                                      access=access)
    if rate_limit:
        ratelimit.ask_allow(user)
    if allowed is not None:
        allowed()
    if signed_in is not None and not signed_in():
        raise AskError("signed_out", SIGNED_OUT)
    return submission_begin(ask_store(user=user, conversation=conversation, domain=domain, text=text,
                                      client_id=client_id, providers=providers))


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
