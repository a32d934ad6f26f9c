"""The chat websocket: a small typed JSON protocol over one AsyncJsonWebsocketConsumer.

client -> server   {"type": "ask", "conversation": id | null, "domain": slug (new conversation), "text": str,
                    "client_id": str}
                   {"type": "stop"}
                   {"type": "resume", "message": id}
server -> client   accepted {message, conversation, client_id}
                   plan {message, sources, notes, budget, dropped, provider}
                   delta {message, seq, text, cites}   (cites: [start, end] of the citation markers in text)
                   partial {message, seq, text, cites}   (resume of an answer still generating: the text up to seq)
                   done {message, status, text, html, citations, invalid, abstained, provider}
                   error {code, message} (rate_limited also has retry_after, seconds)

Generation runs in an asyncio.Task (never inside the receive handler), so `stop` is seen at once, and a dropped
socket does not stop it: the answer is completed and saved either way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from chat import ratelimit, services
from chat.models import Conversation, Message

log = logging.getLogger("grounded.ws")

#: Strong references to running generations (a task that outlives its socket must not be garbage collected).
_running: set[asyncio.Task] = set()


class ChatConsumer(AsyncJsonWebsocketConsumer):
    """One browser tab's chat connection. Refuses anonymous users (C14)."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.user = user
        self.task: asyncio.Task | None = None
        self.answered = False
        self.open = True
        self.following: dict[int, int] = {}  # resumed answers still generating -> the seq their partial reached
        await self.accept()

    async def disconnect(self, code: int) -> None:
        self.open = False  # the generation task goes on and saves its result
        for message_id in list(getattr(self, "following", {})):
            await self.channel_layer.group_discard(services.answer_group(message_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        try:
            content = json.loads(text_data or "")
        except (TypeError, ValueError, RecursionError):
            await self.emit({"type": "error", "code": "bad_frame", "message": "Malformed frame: not JSON."})
            return
        if not isinstance(content, dict):
            await self.emit({"type": "error", "code": "bad_frame", "message": "Malformed frame: expected an object."})
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs) -> None:
        kind = content.get("type")
        try:
            if kind == "ask":
                await self.handle_ask(content)
            elif kind == "stop":
                if self.task and not self.task.done():
                    self.task.cancel()
                else:
                    await self.emit({"type": "error", "code": "nothing_to_stop",
                                     "message": "No answer is being generated."})
            elif kind == "resume":
                await self.handle_resume(content)
            else:
                await self.emit({"type": "error", "code": "unknown_type",
                                 "message": f"Unknown frame type {str(kind)[:40]!r}; expected ask, stop or resume."})
        except services.AskError as exc:
            await self.emit({"type": "error", "code": exc.code, "message": exc.message})

    async def emit(self, frame: dict[str, Any]) -> None:
        """Send a frame if the socket is still open; a closed socket is not an error (the result is saved)."""
        if frame.get("type") in ("done", "error"):
            self.answered = True  # the running task may still be folding turns into the summary
        if not self.open:
            return
        try:
            await self.send_json(frame)
        except Exception:  # the client went away between the check and the send
            self.open = False

    async def handle_ask(self, content: dict[str, Any]) -> None:
        if self.task and not self.task.done() and (self.task.cancelling() or self.answered):
            # the previous answer is delivered (or stopped) and its task is finishing up: let it
            await asyncio.wait([self.task], timeout=10)
        if self.task and not self.task.done():
            raise services.AskError("busy", "An answer is still being generated. Wait for it or press stop.")
        text = services.validate_question(content.get("text"))
        decision = await database_sync_to_async(ratelimit.ask_check)(self.user)
        if not decision.allowed:  # refused before anything is stored: the user resends it later
            refused = ratelimit.RateLimited(decision)
            await self.emit({"type": "error", "code": refused.code, "message": refused.message,
                             "retry_after": refused.retry_after})
            return
        client_id = str(content.get("client_id") or "")[:64]
        conversation = await self._conversation(content.get("conversation"), content.get("domain"))
        user_message, created = await database_sync_to_async(services.turn_append_user)(
            conversation=conversation, text=text, client_id=client_id)
        await self.emit({"type": "accepted", "message": user_message.pk, "conversation": conversation.pk,
                         "client_id": client_id, "title": conversation.title or text[:80]})
        if not created:
            reply = await database_sync_to_async(_reply_of)(user_message)
            if reply is not None and reply.status == Message.Status.COMPLETE:
                await self.emit(_done_frame(reply))
                return
            if reply is not None and reply.status == Message.Status.STREAMING:
                await self.emit({"type": "error", "code": "in_progress", "message_id": reply.pk,
                                 "message": "This message is already being answered; the answer will be saved."})
                return
            if reply is not None:  # a failed or interrupted answer: retry it
                await database_sync_to_async(reply.delete)()
        self.answered = False
        self.task = asyncio.create_task(self.generate(conversation, user_message))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)

    async def _conversation(self, conversation_id: object, domain_slug: object) -> Conversation:
        if conversation_id not in (None, ""):
            return await database_sync_to_async(services.conversation_get)(user=self.user,
                                                                           conversation_id=conversation_id)
        if not isinstance(domain_slug, str) or not domain_slug:
            raise services.AskError("unknown_domain", "Choose a domain for the new conversation.")
        domain = await database_sync_to_async(services.domain_get)(slug=domain_slug, user=self.user)
        return await database_sync_to_async(services.conversation_create)(user=self.user, domain=domain)

    async def handle_resume(self, content: dict[str, Any]) -> None:
        """A stored answer comes back as its `done` frame; one still generating (here or on another worker) as its
        plan, a `partial` frame with the text so far, then the remaining deltas and `done` as they are made."""
        message = await database_sync_to_async(_own_message)(self.user, content.get("message"))
        if message.status == Message.Status.STREAMING:
            group = services.answer_group(message.pk)
            await self.channel_layer.group_add(group, self.channel_name)  # join first: no frame falls in between
            message = await database_sync_to_async(_own_message)(self.user, message.pk)
            if message.status == Message.Status.STREAMING:
                frames = await database_sync_to_async(services.resume_frames)(message=message)
                self.following[message.pk] = frames[-1]["seq"]
                for frame in frames:
                    await self.emit(frame)
                return
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.emit(_done_frame(message))

    async def answer_frame(self, event: dict[str, Any]) -> None:
        """A frame of an answer this socket resumed (channel layer group ``answer.<id>``)."""
        frame = event["frame"]
        message_id = frame.get("message") if frame.get("type") != "error" else frame.get("message_id")
        if message_id not in self.following:
            return
        if frame.get("type") == "delta" and frame.get("seq", 0) <= self.following[message_id]:
            return  # already in the partial text
        await self.emit(frame)
        if frame.get("type") in ("done", "error"):
            del self.following[message_id]
            await self.channel_layer.group_discard(services.answer_group(message_id), self.channel_name)

    async def generate(self, conversation: Conversation, user_message: Message) -> None:
        """Plan, stream and save one answer (services.answer_run); frames go to this socket while it is open."""
        await services.answer_run(conversation=conversation, user_message=user_message, emit=self.emit)


def _reply_of(message: Message) -> Message | None:
    return Message.objects.filter(reply_to=message).select_related("reply_to").first()


def _own_message(user, message_id: object) -> Message:
    try:
        return Message.objects.select_related("reply_to").get(pk=int(message_id), conversation__user=user,
                                                           role=Message.Role.ASSISTANT)
    except (Message.DoesNotExist, TypeError, ValueError, OverflowError):
        raise services.AskError("not_found", "Message not found.")


def _done_frame(message: Message) -> dict[str, Any]:
    return services.done_frame(message)
