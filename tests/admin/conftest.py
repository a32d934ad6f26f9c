"""Helpers for the admin tests: small Markdown files, uploads run inline, and an answered conversation."""

from __future__ import annotations

import asyncio

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile


def markdown(title: str, body: str, *, doc_id: str = "", version: str = "", date: str = "") -> bytes:
    """A Markdown file with front matter like demo/corpus/*.md."""
    meta = [f"title: {title}"]
    if doc_id:
        meta.append(f"doc_id: {doc_id}")
    if version:
        meta.append(f'version: "{version}"')
    if date:
        meta.append(f"date: {date}")
    return ("---\n" + "\n".join(meta) + "\n---\n\n" + f"# {title}\n\n" + body + "\n").encode()


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/markdown")


@pytest.fixture
def inline_uploads(monkeypatch, django_capture_on_commit_callbacks, embedder):
    """Run upload jobs in the request's thread (the test transaction never commits, so a background thread could
    not see the job). Returns post(client, domain, files) -> response, running the job before returning."""
    from knowledge.services import jobs, uploads

    monkeypatch.setattr(uploads, "ingest_job_launch", lambda **kw: jobs.ingest_job_run(**kw))

    def post(client, domain, files):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post("/admin/knowledge/document/upload/", {"domain": domain.pk, "files": files})

    return post


@pytest.fixture
def answered(db, monkeypatch):
    """ask(conversation, question) -> the stored assistant message, made through the chat's own modules with the
    offline answerer (whatever provider another module left configured)."""
    from chat.answering import answer_prepare
    from chat.memory import memory_turns, summary_get
    from chat.persistence import answer_finish, answer_planned, answer_start, question_store
    from chat.providers import registry
    from chat.streaming import AnswerStream
    from grounding.extractive import ExtractiveAnswerer

    registry.configure(answerer=ExtractiveAnswerer())

    def ask(conversation, question: str):
        _, user_message, _ = question_store(user=conversation.user, conversation=conversation,
                                            domain=conversation.domain, text=question)
        answer = answer_start(question=user_message)
        history = memory_turns(conversation=conversation, before=user_message)
        prepared = answer_prepare(domain=conversation.domain, question=question, history=history,
                                  summary=summary_get(conversation=conversation))
        answer_planned(message=answer, prepared=prepared)

        async def ignore(frame):
            return None

        verified = asyncio.run(AnswerStream(prepared).run(ignore))
        return answer_finish(message=answer, verified=verified)

    return ask
