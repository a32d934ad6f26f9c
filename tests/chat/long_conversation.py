"""A made-up long conversation, stored as the chat stores one: questions and complete answers (each answer with a
real frozen source snapshot, citations, tokens and terms counted as when saved) and the rolling summary folded as
after each answer. Used by tests/chat/test_long_conversation.py and bench/bench_long_conversation.py."""

from __future__ import annotations

from chat.models import Conversation, Message

TOPICS = ["meal allowance", "laptop replacement", "parental leave", "paid time off", "vacation carry over",
          "mileage rate", "travel approval", "hotel booking", "remote work", "sick days", "expense reports",
          "equipment returns", "training budget", "holiday calendar", "security badges"]


def conversation_make(*, user, domain, exchanges: int, summarize: bool = True) -> Conversation:
    """A conversation of ``exchanges`` answered questions in ``domain`` (about 2 * exchanges messages), each
    answer citing a real source snapshot of the domain; with ``summarize`` the rolling summary is folded as the chat
    would have after the last answer (chat.memory.summary_refresh with the offline summarizer)."""
    from chat.answering import answer_prepare, settings_for
    from chat.memory import history_cost, summary_refresh
    from chat.serializers import source_view
    from grounding.memory import ExtractiveSummarizer

    prepared = answer_prepare(domain=domain, question="What is the daily meal allowance when travelling?")
    sources = [source_view(s.as_dict()) for s in prepared.plan.sources]
    first = sources[0]
    conversation = Conversation.objects.create(user=user, domain=domain, title="A long conversation")
    for start in range(0, exchanges, 200):
        questions = []
        for i in range(start, min(exchanges, start + 200)):
            topic = TOPICS[i % len(TOPICS)]
            q = Message(conversation=conversation, role=Message.Role.USER,
                        text=f"Question {i}: what does the handbook say about {topic} for team {i}?")
            q.tokens, q.terms = history_cost(q)
            questions.append(q)
        Message.objects.bulk_create(questions)
        answers = []
        for q in Message.objects.filter(conversation=conversation, role=Message.Role.USER,
                                        pk__gte=questions[0].pk).order_by("pk"):
            topic = q.text.split("about ", 1)[1].split(" for", 1)[0]
            a = Message(conversation=conversation, role=Message.Role.ASSISTANT, reply_to=q,
                        status=Message.Status.COMPLETE, provider="extractive", sources=sources,
                        text=f"The handbook's rule on {topic}: {first['text'][:300]} [S1]",
                        html=f"<p>The handbook's rule on {topic}.</p>",
                        citations=[{"label": "S1", "title": first["title"], "chunk_id": first["chunk_id"]}],
                        trace={"budget": dict(prepared.plan.budget)})
            a.tokens, a.terms = history_cost(a)
            answers.append(a)
        Message.objects.bulk_create(answers)
    if summarize:
        share = int(prepared.plan.budget.get("available", 0) * settings_for(domain).policy.history_cap)
        summary_refresh(conversation=conversation, history_share=share, summarizer=ExtractiveSummarizer())
    return conversation
