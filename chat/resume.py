"""Resuming an answer from another socket (a dropped connection, another tab, another worker).

A stored answer comes back as its ``done`` frame. One still generating comes back as its stored ``plan``, then a
``partial`` frame with the text so far, then the later deltas and ``done`` as they are made: the socket joins the
answer's group first, then asks the generating task for the text so far (chat.broadcast), and a :class:`Follower`
holds the deltas that arrive before that reply, so nothing is shown twice or missed. When no reply comes within
SYNC_TIMEOUT seconds (the generating worker is gone), the text so far is read from the shared cache or the row, and
the row is read again every WATCH_SECONDS until the answer is settled (:func:`answer_settled`: finished, or stored as
interrupted once its heartbeat is overdue).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Awaitable, Callable

from chat import executors
from chat.broadcast import answer_group, answer_sync_request, partial_get
from chat.frames import Frame
from chat.models import Message
from chat.persistence import answer_orphan_close
from chat.selectors import answer_is_live, own_answer_get
from chat.serializers import done_frame, partial_frame, stored_plan_frame

#: Seconds a resuming socket waits for the generating task's text so far before reading the stored copy.
SYNC_TIMEOUT = 2.0


@dataclass
class Follower:
    """The frames a socket following one generating answer shows, in order: the ``partial`` reply first, then only
    the deltas after its seq (those received before the reply are held). A later ``partial`` reaching further (the
    generator's reply after the stored copy a slow generator made the socket read) replaces the text shown."""

    message_id: int
    seq: int | None = None
    held: list[Frame] = field(default_factory=list)

    def on_frame(self, frame: Frame) -> list[Frame]:
        """The frames to show for one received frame (possibly none: held, or already in the partial text)."""
        kind = frame.get("type")
        if kind == "partial":
            if self.seq is not None:
                if int(frame.get("seq", 0)) <= self.seq:
                    return []  # an older or the same text (the stored copy after the generator answered): ignore
                # the generator's reply after the stored copy (it was slow to answer): its fuller text replaces the
                # shown one, and its later deltas follow (it broadcasts deltas only once a follower asked)
                self.seq = int(frame["seq"])
                return [frame]
            self.seq = int(frame.get("seq", 0))
            out: list[Frame] = [frame]
            for held in sorted(self.held, key=lambda f: f.get("seq", 0)):
                if held.get("seq", 0) > self.seq:
                    self.seq = held["seq"]
                    out.append(held)
            self.held = []
            return out
        if kind == "delta":
            if self.seq is None:
                self.held.append(frame)
                return []
            if frame.get("seq", 0) <= self.seq:
                return []
            self.seq = frame["seq"]
            return [frame]
        return [frame]  # done, error


@dataclass
class Resumed:
    """What a door sends a socket resuming an answer: ``frames`` now; with ``follower`` set the answer is still
    generating and its later frames arrive through ``group`` (feed them to the follower)."""

    frames: list[Frame]
    message_id: int
    group: str | None = None
    follower: Follower | None = None


async def answer_resume(*, user, message_id: object, join: Callable[[str], Awaitable[None]] | None = None,
                        reply_to: str | None = None) -> Resumed:
    """Resume one of the user's answers, with the same access rule as the HTTP API (B05); ``message_id`` is the
    answer's id or its question's (the `accepted` frame's ``message``: a client that lost its connection before the
    `plan` frame knows only that one), which stands for the question's latest answer.

    ``join(group)`` is awaited before the generating task is asked for the text so far (at ``reply_to``, the
    socket's channel), so no delta falls between the two; without them only the stored answer is returned.
    Raises:
        AskError: not_found (unknown id, another user's, a question not answered), forbidden (the user's own answer in a domain
            they may no longer read: their conversation's HTTP endpoint answers 403 with the same code).
    """
    db = executors.current().db
    message = await db(own_answer_get)(user=user, message_id=message_id, or_question=True)
    if message.status == Message.Status.STREAMING and not answer_is_live(message):
        # its server stopped mid-answer: stored as interrupted with the text saved so far, and said so
        message = await db(answer_orphan_close)(message=message)
    if message.status != Message.Status.STREAMING or join is None or reply_to is None:
        return Resumed([done_frame(message)], message.pk)
    group = answer_group(message.pk)
    await join(group)
    message = await db(own_answer_get)(user=user, message_id=message.pk)
    if message.status != Message.Status.STREAMING:  # finished meanwhile: its stored answer (the door leaves)
        return Resumed([done_frame(message)], message.pk, group=group)
    await answer_sync_request(message.pk, reply_to)
    return Resumed([stored_plan_frame(message)], message.pk, group=group, follower=Follower(message.pk))


#: Seconds between two reads of a followed answer whose generating task did not reply (its worker may be gone).
WATCH_SECONDS = 10.0


async def answer_settled(*, user, message_id: int) -> Frame | None:
    """The ``done`` frame of a followed answer once it is settled: finished (stored), or orphaned (no heartbeat
    within chat.selectors.ORPHANED_AFTER: its server stopped, and it is stored now as interrupted with the text saved
    so far, chat.persistence.answer_orphan_close); None while it is still generating. A socket that resumed an answer
    of a server that crashed got its plan and text so far, then waited forever (the s44 breaker)."""
    db = executors.current().db
    message = await db(own_answer_get)(user=user, message_id=message_id)
    if message.status == Message.Status.STREAMING and not answer_is_live(message):
        message = await db(answer_orphan_close)(message=message)
    return None if message.status == Message.Status.STREAMING else done_frame(message)


async def stored_partial(*, user, message_id: int) -> Frame:
    """The text so far of a generating answer from the shared cache or its row (the generator did not reply), or
    its ``done`` frame when it has finished."""
    message = await executors.current().db(own_answer_get)(user=user, message_id=message_id)
    if message.status != Message.Status.STREAMING:
        return done_frame(message)
    cached = await partial_get(message.pk)
    if cached and cached["seq"] >= message.stream_seq:
        return partial_frame(message.pk, cached["text"], cached["seq"])
    return partial_frame(message.pk, message.text, message.stream_seq)
