"""A very long conversation costs each ask what its context plan can use, not the conversation's length: the
memory read before planning and the summary refresh after the answer read a bounded number of rows and queries, and
the plan made from them is the plan made from every turn. (Counts, never times: the speed is in
bench/bench_long_conversation.py.)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.answering import answer_prepare, settings_for
from chat.generation import answer_begin
from chat.memory import OLDER_CANDIDATES, history_cost, memory_turns, summary_get, summary_refresh
from chat.models import ConversationSummary, Message
from chat.persistence import question_store
from grounding.memory import ExtractiveSummarizer
from tests.chat.long_conversation import conversation_make

QUESTION = "What does the handbook say about parental leave for my team?"


@pytest.fixture
def asker(db):
    return get_user_model().objects.create_user("long-talker", password="pw")


class RowsRead:
    """Counts the Message rows Django builds from the database (every row read whole) while active."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        original = Message.from_db.__func__

        def counting(cls, db, field_names, values):
            self.count += 1
            return original(cls, db, field_names, values)

        monkeypatch.setattr(Message, "from_db", classmethod(counting))


def cost_of_one_ask(*, user, domain, exchanges: int, monkeypatch) -> tuple[int, int, int, int]:
    """(messages read whole, queries) of the memory read before the plan, then of the summary refresh after it, for
    a new question in a conversation of ``exchanges`` answered questions."""
    conversation = conversation_make(user=user, domain=domain, exchanges=exchanges)
    _, question, _ = question_store(user=user, conversation=conversation, domain=domain, text=QUESTION)
    rows = RowsRead(monkeypatch)
    with CaptureQueriesContext(connection) as begin:
        answer, history, summary, inputs = answer_begin(question=question)
    begin_rows, rows.count = rows.count, 0
    Message.objects.filter(pk=answer.pk).update(status=Message.Status.COMPLETE, text="Sixteen weeks [S1].", tokens=6)
    share = int(inputs.settings.policy.limit * settings_for(domain).policy.history_cap)
    with CaptureQueriesContext(connection) as refresh:
        summary_refresh(conversation=conversation, history_share=share, summarizer=ExtractiveSummarizer())
    return begin_rows, len(begin), rows.count, len(refresh)


def test_an_ask_in_a_900_turn_conversation_reads_no_more_rows_or_queries_than_in_a_600_turn_one(
        demo_domain, asker, monkeypatch):
    """A tester's 600-turn conversation waited about 2 s per answer instead of 0.25 s: every ask read and decoded
    every earlier message (sources, citations, trace) twice, before planning and again for the summary. Now an ask
    reads whole only the turns its plan can use (those the summary does not cover, the few older exchanges sharing
    the question's terms) in the same number of queries however long the conversation is."""
    short = cost_of_one_ask(user=asker, domain=demo_domain, exchanges=300, monkeypatch=monkeypatch)
    monkeypatch.undo()
    long = cost_of_one_ask(user=asker, domain=demo_domain, exchanges=450, monkeypatch=monkeypatch)
    assert long == short
    begin_rows, _, refresh_rows, _ = long
    summary = summary_get(conversation=Message.objects.latest("pk").conversation)
    unsummarized = 450 * 2 + 2 - summary.covers  # the new exchange included
    # the answer row made, the question and what the plan can use: the unsummarized turns and older candidates
    assert begin_rows <= 2 + unsummarized + 2 * OLDER_CANDIDATES < 200
    assert refresh_rows <= unsummarized + 2 < 200


@pytest.mark.parametrize("summarized", [True, False], ids=["with-its-summary", "summary-never-made"])
def test_the_plan_from_the_turns_read_is_the_plan_from_every_turn(demo_domain, asker, summarized):
    """What the bounded read hands the planner changes nothing the user sees: the same history turns are sent (the
    verbatim window, the summary, the older exchange brought back), and the trace counts positions in the whole
    conversation."""
    from chat.memory import REACH_FACTOR, memory_for_question

    conversation = conversation_make(user=asker, domain=demo_domain, exchanges=260)
    if not summarized:
        # a summarizer that kept failing: every turn is unsummarized; a very long answer before the newest exchange
        # ends the verbatim window, and an older exchange on the question's subject fits the room left
        ConversationSummary.objects.filter(conversation=conversation).delete()
        questions = list(Message.objects.filter(conversation=conversation, role=Message.Role.USER).order_by("pk"))
        long_answer = questions[258].answers.get()
        long_answer.text = "An answer far longer than the history share. " * 1500
        long_answer.tokens, long_answer.terms = history_cost(long_answer)
        long_answer.save()
    _, question, _ = question_store(user=asker, conversation=conversation, domain=demo_domain, text=QUESTION)
    summary = summary_get(conversation=conversation)
    every = memory_turns(conversation=conversation, before=question)
    limit = settings_for(demo_domain).policy.limit
    some, _ = memory_for_question(conversation=conversation, before=question, question=QUESTION,
                                  reach_tokens=int(limit * REACH_FACTOR))
    assert len(some) < (len(every) / 4 if summarized else len(every))
    assert [(t.position, t.text) for t in some] == [(t.position, t.text) for t in every
                                                    if t.position in {s.position for s in some}]
    whole = answer_prepare(domain=demo_domain, question=QUESTION, history=every, summary=summary).plan
    bounded = answer_prepare(domain=demo_domain, question=QUESTION, history=some, summary=summary).plan
    assert bounded.history == whole.history and bounded.memory == whole.memory
    assert bounded.summary == whole.summary and bounded.history_omitted == whole.history_omitted
    if summarized:
        assert whole.memory["summary_covers"] == summary.covers > 400 and whole.summary == summary
    else:
        assert whole.memory["older_turns"] and whole.memory["verbatim_turns"] == 2  # an older exchange came back


def test_a_conversations_first_question_reads_no_memory_and_its_refresh_reads_no_turns(demo_domain, asker,
                                                                                         monkeypatch):
    """A new conversation (the common case under a burst of asks) has nothing to remember yet: the memory read
    skips the walk back, and the summary refresh after its answer stops once it counts one exchange (the newest
    exchange always stays verbatim) instead of reading it."""
    begin_rows, begin_queries, refresh_rows, refresh_queries = cost_of_one_ask(
        user=asker, domain=demo_domain, exchanges=0, monkeypatch=monkeypatch)
    conversation = Message.objects.latest("pk").conversation
    assert summary_get(conversation=conversation) is None
    assert refresh_rows == 0 and refresh_queries == 2  # the stored summary (none) and the count of exchanges
    _, two = cost_of_one_ask(user=asker, domain=demo_domain, exchanges=1, monkeypatch=monkeypatch)[:2]
    assert begin_queries < two  # one answered exchange before: the walk back runs


def test_an_ask_that_makes_its_conversation_reads_no_memory_at_all(demo_domain, asker):
    from chat.orchestration import ask_store
    from chat.providers import registry

    submission = ask_store(user=asker, conversation=None, domain=demo_domain, text=QUESTION, client_id="first",
                           providers=registry)
    assert submission.fresh and submission.conversation.title == QUESTION[:80]
    with CaptureQueriesContext(connection) as fresh:
        answer, history, summary, _ = answer_begin(question=submission.question, answer=submission.answer,
                                                   fresh=True)
    with CaptureQueriesContext(connection) as read:
        assert answer_begin(question=submission.question, answer=submission.answer)[1:3] == ([], None)
    assert (history, summary) == ([], None) and len(fresh) < len(read)  # the same memory, without reading it
    Message.objects.filter(pk=answer.pk).update(status=Message.Status.COMPLETE, text="Sixteen weeks [S1].", tokens=6)
    again = ask_store(user=asker, conversation=submission.conversation, domain=demo_domain, text="And for fathers?",
                      client_id="second", providers=registry)
    assert not again.fresh  # a continued conversation reads its memory
