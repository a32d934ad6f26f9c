"""An accepted ask (chat.orchestration.ask_submit, chat.regeneration.answer_regenerate): where its question is
stored, and either the stored answer of a resend, the answer still being generated for it, or the generation to
start with what it reads before planning, read in the same visit of the database worker that accepted it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from chat.errors import AskError
from chat.frames import AcceptedFrame
from chat.generation import Begun, answer_begin, answer_run
from chat.models import Conversation, Message
from chat.providers import ProviderRegistry, registry
from chat.streaming import Emit

#: Strong references to running generations (a task that outlives its socket or request must not be collected).
_running: set[asyncio.Task] = set()


@dataclass
class Submission:
    """One accepted ask: where the question is stored, and either its stored answer (a resend of an answered
    question: nothing runs), the answer being generated for it (a resend while it runs: nothing more runs), or the
    generation to start.

    Attributes:
        conversation: the conversation (new, continued, or the one a resend belongs to).
        question: the stored question.
        stored: the complete answer of a resend, else None.
        running: the answer still being generated for a resent question, else None.
        providers: the registry the answer will use.
        task: the generation task once started.
        regenerates: for a regeneration, the id of the answer it was asked from (the earlier answers are kept).
        client_id, client_key: a regeneration's client id and idempotency key (stored on the new answer).
        answer: the streaming answer row made in the same transaction as the acceptance (so that a concurrent
            resend finds it running and a concurrent ask in the conversation finds it busy); None for a resend.
        fresh: the conversation was made by this ask: it has no memory to read before the plan, and nothing to fold
            into a summary after the answer.
        begun: what the answer reads before planning (chat.generation.answer_begin: the answer row, memory,
            summary, planning inputs), read in the acceptance's database visit, or the AskError that reading raised;
            None: the answer's task reads it (a resend whose failed answer is made again).
    """

    conversation: Conversation
    question: Message
    stored: Message | None = None
    running: Message | None = None
    answer: Message | None = None
    providers: ProviderRegistry = field(default=registry)
    task: asyncio.Task | None = None
    regenerates: int | None = None
    client_id: str = ""
    client_key: str = ""
    fresh: bool = False
    begun: Begun | AskError | None = None

    def in_progress(self) -> AskError:
        """The error a door reports for a resend whose answer is still being generated."""
        return AskError("in_progress", "This question is already being answered; the answer will be saved.",
                        message_id=self.running.pk if self.running else None)

    def accepted(self) -> AcceptedFrame:
        """The ``accepted`` frame: where the question is stored."""
        frame: AcceptedFrame = {"type": "accepted", "message": self.question.pk, "conversation": self.conversation.pk,
                                "client_id": self.question.client_id,
                                "title": self.conversation.title or self.question.text[:80],
                                "domain": self.conversation.domain.name}
        if self.regenerates is not None:
            frame["regenerates"] = self.regenerates
            frame["client_id"] = self.client_id
        return frame

    def start(self, emit: Emit) -> asyncio.Task:
        """Run :func:`answer_run` in its own task, frames to ``emit``; the task returns the saved answer (None when
        nothing could be stored). Raises RuntimeError for a resend that has its answer already."""
        if self.stored is not None or self.running is not None:
            raise RuntimeError("this question is answered already, or being answered; nothing to start")
        self.task = asyncio.create_task(answer_run(conversation=self.conversation, question=self.question,
                                                   emit=emit, providers=self.providers, client_id=self.client_id,
                                                   client_key=self.client_key, answer_row=self.answer,
                                                   fresh=self.fresh, begun=self.begun))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)
        return self.task



def submission_begin(submission: Submission) -> Submission:
    """Read what a submission's answer needs before planning (chat.generation.answer_begin) in the visit of the
    database worker that stored its answer row, instead of a second visit from the answer's task: the index token
    is the one of the domain row read in this visit. An AskError of that reading (invalid domain settings) is kept
    on the submission, for the answer's task to report after ``accepted`` as before. Nothing is read for a
    submission without an answer row (a resend). Returns the submission (``begun`` set)."""
    if submission.answer is None:
        return submission
    domain = submission.conversation.domain
    try:
        submission.begun = answer_begin(question=submission.question, answer=submission.answer,
                                        fresh=submission.fresh, token=domain.index_token)
    except AskError as exc:
        submission.begun = exc
    return submission
