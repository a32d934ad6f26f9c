"""What one ask costs the database worker, counted in queries (never timed): every ask's database work queues for
one thread (chat.executors), so each query an ask adds costs every ask behind it under a burst (issue 20). The
counts are the exact figures of the code as it stands; a change that adds a round trip fails here and must say why.

Inside a test's transaction Django's atomic blocks are savepoints: a transaction counts two queries (SAVEPOINT,
RELEASE) here, as BEGIN and COMMIT do on the server.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.models import Message
from chat.orchestration import ask_accept
from chat.persistence import answer_interrupt, answer_result_save, answer_plan_save
from chat.providers import registry
from chat.regeneration import regenerate_accept

pytestmark = pytest.mark.django_db

QUESTION = "How often are laptops replaced?"


@pytest.fixture
def asker(db):
    return get_user_model().objects.create_user("counted", password="pw")


def accept(user, *, text: str = QUESTION, client_id: str = "", conversation_id=None, domain_slug="handbook"):
    return ask_accept(user=user, text=text, client_id=client_id, conversation_id=conversation_id,
                      domain_slug=domain_slug, providers=registry, rate_limit=True, access=True)


def queries(ctx: CaptureQueriesContext) -> str:
    return "\n".join(q["sql"][:160] for q in ctx.captured_queries)


def answered(submission) -> None:
    """The submission's answer stored complete (as an answer's end stores it)."""
    Message.objects.filter(pk=submission.answer.pk).update(status=Message.Status.COMPLETE,
                                                           text="Every 36 months [S1].", tokens=8)


def test_a_new_conversations_ask_is_accepted_and_its_answer_begun_in_six_queries(demo_domain, asker):
    """The domain (access rule), one transaction of three inserts (conversation, question, answer row; no lookup
    of the client id first, no savepoint inside), the active system prompt. No memory (a new conversation), no
    second read of the domain's index token."""
    accept(asker, client_id="warm")  # the process's first ask loads what every later one reuses
    with CaptureQueriesContext(connection) as ctx:
        submission = accept(asker, client_id="new-1")
    assert submission.answer is not None and submission.fresh
    history, summary = submission.begun[1:3]
    assert (history, summary) == ([], None)
    assert len(ctx.captured_queries) == 1 + 2 + 3 + 1, queries(ctx)


def test_a_resent_question_in_a_new_conversation_finds_its_answer_and_stores_nothing(demo_domain, asker):
    """The insert refused by the unique key is how a resend is found: nothing of the resend is kept."""
    first = accept(asker, client_id="again-1")
    again = accept(asker, client_id="again-1")
    assert again.running is not None and again.running.pk == first.answer.pk and again.answer is None
    assert again.conversation.pk == first.conversation.pk
    assert Message.objects.filter(conversation__user=asker).count() == 2
    from chat.errors import AskError

    with pytest.raises(AskError) as reused:
        accept(asker, text="Another question?", client_id="again-1")
    assert reused.value.code == "client_id_reused"


def test_a_continued_conversations_ask_is_accepted_in_a_bounded_number_of_queries(demo_domain, asker):
    """The conversation with its access rule (one query), the client id's key looked up (a resend must be told
    in_progress, not busy; one query: every question sent with a client id holds its key, chat migration 0008), one
    transaction of the conversation touched (which locks it), the question, the busy check (one query) and the
    answer row; then the system prompt and the memory (summary, count, the walk back, the exchange read whole)."""
    first = accept(asker, client_id="c-1")
    answered(first)
    accept(asker, text="And desktops?", client_id="warm", conversation_id=first.conversation.pk)
    Message.objects.filter(conversation=first.conversation, status=Message.Status.STREAMING).update(
        status=Message.Status.COMPLETE, text="Every 48 months [S1].", tokens=8)
    with CaptureQueriesContext(connection) as ctx:
        submission = accept(asker, text="And monitors?", client_id="c-2", conversation_id=first.conversation.pk)
    assert submission.answer is not None and not submission.fresh and len(submission.begun[1]) == 4
    assert len(ctx.captured_queries) == 1 + 1 + (2 + 4) + 1 + 5, queries(ctx)


def test_a_busy_conversation_keeps_nothing_of_the_refused_ask(demo_domain, asker):
    from chat.errors import AskError

    first = accept(asker, client_id="b-1")
    touched = first.conversation.updated_at
    with pytest.raises(AskError) as busy:
        accept(asker, text="And desktops?", client_id="b-2", conversation_id=first.conversation.pk)
    assert busy.value.code == "busy"
    assert not Message.objects.filter(client_id="b-2").exists()
    first.conversation.refresh_from_db()
    assert first.conversation.updated_at == touched


def test_a_regeneration_is_accepted_in_one_visit(demo_domain, asker):
    """The answer regenerated with its access rule (one query), the transaction (conversation locked, the regeneration's key, the busy
    check, the conversation moved up, the new answer row), then the system prompt and the memory."""
    first = accept(asker, client_id="r-1")
    answered(first)
    with CaptureQueriesContext(connection) as ctx:
        submission = regenerate_accept(user=asker, message_id=first.answer.pk, client_id="regen-1",
                                       providers=registry, rate_limit=True)
    assert submission.answer is not None and submission.regenerates == first.answer.pk
    assert submission.begun[0].pk == submission.answer.pk
    assert len(ctx.captured_queries) == 1 + (2 + 5) + 1 + 2, queries(ctx)


def test_the_plan_and_the_outcome_are_one_update_each_and_the_outcome_leaves_the_snapshot_alone(demo_domain,
                                                                                              asker):
    submission = accept(asker, client_id="o-1")
    answer = submission.answer
    answer.sources = [{"label": "S1", "title": "Equipment", "text": "Every 36 months."}]
    with CaptureQueriesContext(connection) as plan:
        answer_plan_save(message=answer)
    answer.text, answer.status = "Every 36 months [S1].", Message.Status.COMPLETE
    with CaptureQueriesContext(connection) as outcome:
        answer_result_save(message=answer)
    assert len(plan.captured_queries) == 1 and len(outcome.captured_queries) == 1
    assert '"sources"' not in outcome.captured_queries[0]["sql"]
    stored = Message.objects.get(pk=answer.pk)
    assert stored.text == "Every 36 months [S1]." and stored.sources == answer.sources
    with CaptureQueriesContext(connection) as interrupted:
        answer_interrupt(message=answer, text="Every", status=Message.Status.INTERRUPTED, error="stopped")
    assert len(interrupted.captured_queries) == 1
