"""The chat websocket: a small typed JSON protocol over one AsyncJsonWebsocketConsumer (a door of the ask
orchestration: it translates frames, chat.orchestration decides).

client -> server   {"type": "ask", "conversation": id | null, "domain": slug (new conversation), "text": str,
                    "client_id": str, "progress": bool (status frames wanted)}
                   {"type": "regenerate", "message": answer id, "client_id": str, "progress": bool}: a new answer
                    to that answer's question (the earlier ones are kept)
                   {"type": "stop"}
                   {"type": "resume", "message": id}
server -> client   accepted, plan, delta (with cites: the decided citation markers), partial, done, error
                   (chat.frames has their keys)

Generation runs in an asyncio.Task (never inside the receive handler), so `stop` is seen at once, and a dropped
socket does not stop it: the answer is completed and saved either way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from chat import executors
from chat.broadcast import answer_group
from chat.errors import AskError
from chat.frames import Frame
from chat.orchestration import SIGNED_OUT, Submission, ask_submit
from chat.regeneration import answer_regenerate
from chat.resume import SYNC_TIMEOUT, WATCH_SECONDS, Follower, answer_resume, answer_settled, stored_partial
from chat.providers import ProviderRegistry, registry
from chat.selectors import session_signed_in
from chat.serializers import done_frame

log = logging.getLogger("grounded.ws")


class ChatConsumer(AsyncJsonWebsocketConsumer):
    """One browser tab's chat connection. Refuses anonymous users (C14). One generation at a time per socket (the one
    `stop` stops)."""

    #: The provider registry asks use (``ChatConsumer.as_asgi(providers=...)`` hands in another).
    providers: ProviderRegistry = registry

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.user = user
        self.task: asyncio.Task | None = None
        self.answered = False
        self.open = True
        self.following: dict[int, Follower] = {}  # resumed answers still generating
        await self.accept()

    async def disconnect(self, code: int) -> None:
        self.open = False  # the generation task goes on and saves its result
        for message_id in list(getattr(self, "following", {})):
            await self.channel_layer.group_discard(answer_group(message_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        try:
            content = json.loads(text_data or "")
        except RecursionError:  # valid JSON nested deeper than the parser goes (the s47 breaker: 30,000 levels)
            await self.emit({"type": "error", "code": "bad_frame",
                             "message": "Malformed frame: JSON nested too deeply (a frame is one flat object)."})
            return
        except (TypeError, ValueError):
            await self.emit({"type": "error", "code": "bad_frame", "message": "Malformed frame: not JSON."})
            return
        if not isinstance(content, dict):
            await self.emit({"type": "error", "code": "bad_frame", "message": "Malformed frame: expected an object."})
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs) -> None:
        kind = content.get("type")
        try:
            if kind in ("regenerate", "resume") and not await self._signed_in():
                raise AskError("signed_out", SIGNED_OUT)  # an ask is checked in its own database visit
            if kind == "ask":
                await self.handle_ask(content)
            elif kind == "regenerate":
                await self.handle_regenerate(content)
            elif kind == "stop":
                if self.task and not self.task.done():
                    self.task.cancel()
                else:
                    await self.emit({"type": "error", "code": "nothing_to_stop",
                                     "message": "No answer is being generated."})
            elif kind == "resume":
                await self.handle_resume(content)
            else:
                said = "The frame has no type" if kind is None else f"Unknown frame type {str(kind)[:40]!r}"
                await self.emit({"type": "error", "code": "unknown_type",
                                 "message": f"{said}; expected ask, regenerate, stop or resume."})
        except AskError as exc:
            if exc.code == "signed_out":
                # the socket authenticated at its handshake; since then the user signed out, or the account was
                # deactivated or its password changed: nothing more is answered on it
                await self.emit(exc.frame())
                await self.close(code=4401)
                return
            frame = exc.frame()
            client_id = content.get("client_id")
            if kind in ("ask", "regenerate") and exc.code != "invalid_client_id" and isinstance(client_id, str) \
                    and client_id:
                frame["client_id"] = client_id  # which of several asks sent at once was refused (busy, rate limit)
            await self.emit(frame)

    async def _signed_in(self) -> bool:
        """Whether the handshake's login session still signs this user in (chat.selectors.session_signed_in)."""
        session = self.scope.get("session")
        return await executors.current().db(session_signed_in)(
            session_key=getattr(session, "session_key", None), user_id=self.user.pk)

    async def emit(self, frame: Frame) -> None:
        """Send a frame if the socket is still open; a closed socket is not an error (the result is saved)."""
        if frame.get("type") in ("done", "error"):
            self.answered = True  # the running task may still be folding turns into the summary
        if not self.open:
            return
        try:
            await self.send_json(frame)
        except Exception:  # the client went away between the check and the send
            self.open = False

    async def emit_without_status(self, frame: Frame) -> None:
        """:meth:`emit` for a client that did not ask for ``status`` frames (searching, planning, writing)."""
        if frame.get("type") != "status":
            await self.emit(frame)

    async def _idle(self) -> None:
        """Raise AskError(busy) while this socket's previous answer is being generated (one at a time)."""
        if self.task and not self.task.done() and (self.task.cancelling() or self.answered):
            # the previous answer is delivered (or stopped) and its task is finishing up: let it
            await asyncio.wait([self.task], timeout=10)
        if self.task and not self.task.done():
            raise AskError("busy", "An answer is still being generated. Wait for it or press stop.")

    async def handle_ask(self, content: dict[str, Any]) -> None:
        await self._idle()
        session_key = getattr(self.scope.get("session"), "session_key", None)
        submission = await ask_submit(user=self.user, text=content.get("text"), client_id=content.get("client_id"),
                                      conversation_id=content.get("conversation"),
                                      domain_slug=content.get("domain"), providers=self.providers,
                                      signed_in=lambda: session_signed_in(session_key=session_key,
                                                                          user_id=self.user.pk))
        await self._run(submission, content)

    async def handle_regenerate(self, content: dict[str, Any]) -> None:
        """A new answer to the question of the user's answer ``message`` (chat.regeneration.answer_regenerate):
        accepted (with ``regenerates``), then the frames of an ask."""
        await self._idle()
        submission = await answer_regenerate(user=self.user, message_id=content.get("message"),
                                             client_id=content.get("client_id"), providers=self.providers)
        await self._run(submission, content)

    async def _run(self, submission: Submission, content: dict[str, Any]) -> None:
        await self.emit(submission.accepted())
        if submission.stored is not None:
            await self.emit(done_frame(submission.stored, submission.question))
            return
        if submission.running is not None:
            await self.emit(submission.in_progress().frame())
            return
        self.answered = False
        self.task = submission.start(self.emit if content.get("progress") is True else self.emit_without_status)

    async def handle_resume(self, content: dict[str, Any]) -> None:
        """A stored answer comes back as its `done` frame; one still generating (here or on another worker) as its
        plan, a `partial` frame with the text so far, then the remaining deltas and `done` as they are made
        (chat.resume)."""
        async def join(group: str) -> None:
            await self.channel_layer.group_add(group, self.channel_name)  # join first: no frame falls in between

        resumed = await answer_resume(user=self.user, message_id=content.get("message"), join=join,
                                      reply_to=self.channel_name)
        if resumed.group and resumed.follower is None:  # it finished meanwhile: the stored answer is all
            await self.channel_layer.group_discard(resumed.group, self.channel_name)
        elif resumed.follower is not None:
            self.following[resumed.message_id] = resumed.follower
            asyncio.create_task(self._fallback(resumed.message_id))
        for frame in resumed.frames:
            await self.emit(frame)

    async def _fallback(self, message_id: int) -> None:
        """No reply from the generating task in time (its worker is gone): the stored text so far; then, while the
        answer is followed, its row is read every WATCH_SECONDS, and once it is settled (finished, or its server gone
        for good: stored as interrupted) its ``done`` frame is shown (chat.resume.answer_settled)."""
        await asyncio.sleep(SYNC_TIMEOUT)
        follower = self.following.get(message_id)
        if follower is None or follower.seq is not None:
            return  # the generating task replied: its own frames follow, up to its done
        await self._show(message_id, await stored_partial(user=self.user, message_id=message_id))
        while message_id in self.following and self.open:
            await asyncio.sleep(WATCH_SECONDS)
            if message_id in self.following and (frame := await answer_settled(user=self.user,
                                                                               message_id=message_id)):
                await self._show(message_id, frame)

    async def answer_frame(self, event: dict[str, Any]) -> None:
        """A frame of an answer this socket resumed (channel layer group ``answer.<id>``, or the generating task's
        reply with the text so far)."""
        frame = event["frame"]
        message_id = frame.get("message") if frame.get("type") != "error" else frame.get("message_id")
        await self._show(message_id, frame)

    async def _show(self, message_id: object, frame: dict[str, Any]) -> None:
        follower = self.following.get(message_id)
        if follower is None:
            return
        for shown in follower.on_frame(frame):
            await self.emit(shown)
        if frame.get("type") in ("done", "error"):
            self.following.pop(message_id, None)
            await self.channel_layer.group_discard(answer_group(message_id), self.channel_name)
