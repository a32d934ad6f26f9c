"""Reads of the chat: domains and conversations under the access rules, the sidebar's list and search, questions and
answers, the Markdown export and an answer's Markdown to copy.

Access rules, the same at every door: a domain the user may not read looks unknown; another user's conversation or
answer is not found; the user's own conversation or answer in a domain they may no longer read is forbidden.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.validators import slug_re
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from chat.errors import AskError
from chat.models import Conversation, Message
from chat.validation import storable
from grounding.citation_labels import labels_as_footnotes
from grounding.citation_strip import strip_markers
from grounding.citations import parse_markers
from grounding.notes import answer_notes
from knowledge.access import domain_readable
from knowledge.models import Domain


def domain_get(*, slug: str, user=None) -> Domain:
    """The domain with this slug; with ``user``, only among the domains that user may read (Domain.groups).

    Raises:
        AskError(unknown_domain): no such domain (a ``slug`` that is not one: not a string, or holding a character
            a slug cannot hold), or one the user may not read (the two are not told apart, so the error reveals
            nothing); the message names the slugs the caller may use.
    """
    domains = Domain.objects.all() if user is None else Domain.objects.readable_by(user)
    try:
        if not isinstance(slug, str) or not slug_re.fullmatch(slug):
            # no domain has such a slug; a NUL or an unpaired surrogate would not even reach the database as a query
            # (PostgreSQL refuses a NUL, SQLite's driver a surrogate: the socket closed, the API answered 500)
            raise Domain.DoesNotExist
        return domains.get(slug=slug)
    except Domain.DoesNotExist:
        known = ", ".join(domains.order_by("slug").values_list("slug", flat=True)) or "none yet"
        raise AskError("unknown_domain", f"Unknown domain {str(slug)[:60]!r}. Known domains: {known}.")


def _readable_or_forbidden(conversation: Conversation, readable: bool) -> None:
    """Raise forbidden unless ``readable`` (the access rule, read with the row: knowledge.access.domain_readable)."""
    if not readable:
        raise AskError("forbidden", f"You no longer have access to the domain {conversation.domain.name!r} of this "
                                    "conversation. Ask an administrator for access.")


def record_id(value: object) -> int:
    """A record id as a client sent it: an integer (not a boolean) or a string of digits, as an int.

    Raises:
        ValueError: anything else (``true``, ``1.5``, ``"1e3"``): an id is never guessed from a look-alike.
    """
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"not an id: {value!r}")


def conversation_get(*, user, conversation_id: object, access: bool = True) -> Conversation:
    """The user's own conversation (domain selected); with ``access`` False the domain's readers are not checked
    (an operator's command line).

    Raises:
        AskError(not_found): unknown ids, malformed ids and other users' ids alike.
        AskError(forbidden): the user's own conversation whose domain they may no longer read (group removed).
    """
    conversations = Conversation.objects.select_related("domain")
    if access:  # the access rule read with the conversation: one query
        conversations = conversations.annotate(readable=domain_readable(user, "domain"))
    try:
        conversation = conversations.get(pk=record_id(conversation_id), user=user)
    except (Conversation.DoesNotExist, TypeError, ValueError, OverflowError):
        raise AskError("not_found", "Conversation not found.")
    if access:
        _readable_or_forbidden(conversation, conversation.readable)
    return conversation


def own_answer_get(*, user, message_id: object, or_question: bool = False) -> Message:
    """One of the user's own answers (its question and conversation selected), under the conversation's access rule.
    With ``or_question``, the id of one of the user's questions stands for its latest answer: the `accepted` frame
    names the question, and a client that lost its connection before the `plan` frame knows only that id. One query
    either way.

    Raises:
        AskError(not_found): unknown or malformed id, another user's message, a question (with ``or_question``: a
            question without an answer).
        AskError(forbidden): the user's own answer in a domain they may no longer read (B05: refused exactly as the
            conversation's HTTP endpoint refuses it).
    """
    answers = Message.objects.select_related("reply_to", "conversation__domain").annotate(
        readable=domain_readable(user, "conversation__domain"))
    try:
        pk = record_id(message_id)
        if or_question:  # ids are unique across messages: the id is an answer's, or its question's, never both
            message = answers.filter(Q(pk=pk) | Q(reply_to_id=pk), conversation__user=user,
                                     role=Message.Role.ASSISTANT).order_by("-pk")[:1].get()
        else:
            message = answers.get(pk=pk, conversation__user=user, role=Message.Role.ASSISTANT)
    except (Message.DoesNotExist, TypeError, ValueError, OverflowError):
        raise AskError("not_found", "Message not found.")
    _readable_or_forbidden(message.conversation, message.readable)
    return message


def question_of(key: str) -> Message | None:
    """The question stored under an idempotency key (chat.persistence.client_key), conversation selected.

    The key's condition is restated as the unique index's own (``NOT client_key = ''``): SQLite uses a partial index
    only when the query repeats its condition, else it scans every message. A new key (every first send of a
    question) is answered by a query of the key alone: Django composes the four-table query with its selected
    relations in about 1 ms of Python, five times what the database takes, on the worker every ask waits for."""
    keyed = Message.objects.filter(~Q(client_key=""), client_key=key, role=Message.Role.USER).order_by()
    pk = next(iter(keyed.values_list("pk", flat=True)[:1]), None)
    if pk is None:
        return None
    return next(iter(Message.objects.select_related("conversation__domain", "conversation__user")
                     .filter(pk=pk).order_by()[:1]), None)


def answer_of(question: Message) -> Message | None:
    """The latest answer of a question (a regenerated answer is later than the one it replaced; the earlier ones are
    kept as ``question.answers``); None when none was started."""
    return Message.objects.filter(reply_to=question).select_related("reply_to").order_by("-pk").first()


#: Most conversations the sidebar and a search list (the newest first).
CONVERSATIONS_LISTED = 100
#: Longest search text (characters); a longer one is cut.
SEARCH_CHARS = 200


def conversation_list(*, user, query: str = "", limit: int = CONVERSATIONS_LISTED) -> list[Conversation]:
    """The user's conversations in the domains they may read, most recently used first (a question asked or an
    answer regenerated moves a conversation to the top; a rename does not), at most ``limit``.

    With ``query`` (whitespace-trimmed, cut to SEARCH_CHARS characters), only those whose title or any message text
    contains it, case-insensitively (none for a query no text can hold: a NUL, an unpaired surrogate); each then
    carries ``match``: the first matching message text around the query (at most about 120 characters; "" when only
    the title matched).
    """
    readable = Domain.objects.readable_by(user)
    rows = Conversation.objects.filter(user=user, domain__in=readable).select_related("domain")
    query = " ".join(str(query or "").split())[:SEARCH_CHARS]
    if not query:
        return list(rows.order_by("-updated_at", "-pk")[:limit])
    if not storable(query):  # no stored text holds a NUL or an unpaired surrogate (PostgreSQL raised on one)
        return []
    hits = Message.objects.filter(conversation__user=user, text__icontains=query)
    rows = rows.filter(Q(title__icontains=query) | Q(pk__in=hits.values("conversation_id")))
    found = list(rows.order_by("-updated_at", "-pk")[:limit])
    texts: dict[int, str] = {}
    for conversation_id, text in (hits.filter(conversation__in=found).order_by("pk")
                                  .values_list("conversation_id", "text")):
        texts.setdefault(conversation_id, text)
    for conversation in found:
        conversation.match = _excerpt(texts.get(conversation.pk, ""), query)
    return found


def _excerpt(text: str, query: str, width: int = 120) -> str:
    """About ``width`` characters of ``text`` around the first case-insensitive occurrence of ``query``, read without
    the answer's citation markers (grounding.citation_strip.strip_markers): "[S1]" means nothing in a search result
    (the s19 new-user run); a query that holds a marker itself is found in the text as stored."""
    plain = strip_markers(text)
    if query.lower() in plain.lower() or not parse_markers(query):
        text = plain
    at = text.lower().find(query.lower())
    if at < 0:
        return ""
    start = max(0, at - (width - len(query)) // 2)
    end = min(len(text), start + width)
    return ("…" if start else "") + " ".join(text[start:end].split()) + ("…" if end < len(text) else "")


def answer_markdown(*, answer: Message) -> str:
    """An answer as Markdown to copy (the page's Copy): its text with each [S#] marker turned into a numbered
    footnote reference ("[1]", grounding.citation_labels.labels_as_footnotes), then the sources those numbers
    stand for, one per line: "[1] Equipment and Laptop Policy, Refresh (2025-01, 2025-01-15)" (title, section path,
    and the version, date and status when not current). Labels outside the answer's sources are removed.

    Returns:
        Markdown text (characters); the abstention text as it is; "" for an answer without text (stopped before its
        first words).
    """
    if not answer.text.strip():
        return ""
    by_label = {s.get("label"): s for s in answer.sources if isinstance(s, dict) and s.get("label")}
    text, order = labels_as_footnotes(answer.text, by_label)
    if not order:
        return text.strip() + "\n"
    lines = [text.strip(), "", "Sources:"]
    for number, label in enumerate(order, 1):
        s = by_label[label]
        section = _cited_section(answer, label, s)
        name = ", ".join(p for p in (s.get("title", ""), " › ".join(p for p in section.split(" > ") if p)) if p)
        meta = ", ".join(p for p in (s.get("version", ""), s.get("date", ""), s.get("status", ""))
                         if p and p != "current")
        lines.append(f"[{number}] {name}" + (f" ({meta})" if meta else ""))
    return "\n".join(lines) + "\n"


def _cited_section(answer: Message, label: str, source: dict) -> str:
    """The section an answer's citation of ``label`` names (the cited sentence's own: a source merged from chunks of
    several sections, or one chunk spanning several, has one section per sentence, grounding.types.Source.section_of),
    else the section of the stored ``source``."""
    cited = next((c.get("section") for c in answer.citations or () if isinstance(c, dict) and c.get("label") == label
                  and c.get("section") is not None), None)
    return str(cited if cited is not None else source.get("section") or "")


def conversation_markdown(*, conversation: Conversation) -> str:
    """The conversation as Markdown for download: each question, each answer with its [S#] markers, and under each
    answer the sources it cited as frozen when it was given (title, section, version, date, the cited text), plus its
    contradiction notes and its status when it did not complete. Access is the caller's to check.

    Returns:
        Markdown text (characters); "" never: a conversation without turns gives its heading only.
    """
    lines = [f"# {conversation}", "", f"Documents: {conversation.domain.name}  ",
             f"Started: {conversation.created_at:%Y-%m-%d %H:%M} UTC", ""]
    for m in conversation.messages.order_by("pk"):
        if m.role == Message.Role.USER:
            lines += ["## Question", "", m.text, ""]
            continue
        lines += ["### Answer" + ("" if m.status == Message.Status.COMPLETE else f" ({m.status})"), ""]
        lines += [m.text or "(no text)", ""]
        if m.abstained:
            lines += ["_The documents did not hold the answer._", ""]
        if m.error and m.status != Message.Status.COMPLETE:
            lines += [f"_Not completed: {m.error}_", ""]
        for note in answer_notes(m.trace.get("notes", []), (c.get("label", "") for c in m.citations or ()),
                                 m.text or ""):
            lines += [f"> Note: {note.get('text', '')}", ""]
        by_label = {s.get("label"): s for s in m.sources}
        cited = list(dict.fromkeys(c.get("label") for c in m.citations))
        if cited:
            lines.append("Sources:")
            for label in cited:
                s = by_label.get(label, {})
                where = " > ".join(p for p in (s.get("title", ""), _cited_section(m, label, s)) if p)
                meta = ", ".join(p for p in (s.get("version", ""), s.get("date", ""), s.get("status", ""))
                                 if p and p != "current")
                quote = next((c.get("cited_text", "") for c in m.citations if c.get("label") == label), "")
                lines.append(f"- [{label}] {where}" + (f" ({meta})" if meta else "")
                             + (f": \"{' '.join(quote.split())}\"" if quote else ""))
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


#: A streaming answer stored before heartbeats (no ``alive_at``) and older than this no longer counts as being
#: generated.
ANSWER_STALE_AFTER = timedelta(minutes=10)
#: A streaming answer whose generating task has not touched its ``alive_at`` for this long lost its server (a stop or
#: restart mid-answer); the task touches it every chat.generation.HEARTBEAT_SECONDS (10 s).
ORPHANED_AFTER = timedelta(seconds=60)


def answer_is_live(message: Message) -> bool:
    """True when ``message`` is a streaming answer whose generating task is alive: a heartbeat within
    ORPHANED_AFTER, or for a row without a heartbeat, created within ANSWER_STALE_AFTER."""
    if message.status != Message.Status.STREAMING:
        return False
    now = timezone.now()
    if message.alive_at is not None:
        return message.alive_at >= now - ORPHANED_AFTER
    return message.created_at >= now - ANSWER_STALE_AFTER


def session_signed_in(*, session_key: str | None, user_id: int) -> bool:
    """Whether the login session ``session_key`` still signs in the user ``user_id``: the session exists and has not
    expired, names that user, the account is active, and the password has not changed since the login (Django's
    session auth hash, as django.contrib.auth.get_user checks it on every request). A websocket authenticates once,
    at its handshake: this is asked again before each ask, regeneration and resume, so a logout, a deactivated
    account or a changed password ends what an open socket may do. Two queries (the session, the user)."""
    if not session_key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return user is not None and constant_time_compare(data.get(HASH_SESSION_KEY) or "", user.get_session_auth_hash())
