"""Shared helpers of the chat tests."""

from __future__ import annotations

import asyncio


def answer_once(*, domain, question: str, provider=None, history=None, summary=None):
    """(prepared, verified) of one answer planned and streamed through the chat's own modules, outside any
    conversation (nothing stored); the frames are discarded."""
    from chat.answering import answer_prepare
    from chat.streaming import AnswerStream

    prepared = answer_prepare(domain=domain, question=question, provider=provider, history=history, summary=summary)

    async def discard(frame):
        return None

    return prepared, asyncio.run(AnswerStream(prepared).run(discard))
