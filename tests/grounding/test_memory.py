"""Conversation memory: summaries, follow-up retrieval queries, stale labels, history in the budget."""

import pytest

from grounding.budget import BudgetPolicy
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.memory import (ExtractiveSummarizer, LLMSummarizer, MemoryTurn, Summary, relevant_older,
                              rewrite_stale_labels, summarize_incremental, summary_request)
from grounding.prompt import DEFAULT_SYSTEM_PROMPT
from grounding.tokens import counter_for
from grounding.types import Turn

from .helpers import cand

counter = counter_for("extractive")


def mt(role, text, sources=()):
    return MemoryTurn(role, text, counter.count(text), sources=tuple(sources))


def test_extractive_summary_keeps_numbers_names_and_sources():
    turns = [mt("user", "What is the daily meal allowance?"),
             mt("assistant", "Receipts are optional for meals. The daily meal allowance is $65 per day (source: "
                             "Travel and Expenses Policy). Meals are covered when you travel.",
                ["Travel and Expenses Policy"])]
    text = ExtractiveSummarizer(sentences_per_answer=1).summarize("", turns)
    assert text == ("- Asked: What is the daily meal allowance? Answer: The daily meal allowance is $65 per day "
                    "(source: Travel and Expenses Policy). (sources: Travel and Expenses Policy)")


def test_incremental_summary_folds_only_newly_evicted_turns_and_keeps_provenance():
    calls = []

    class Recording(ExtractiveSummarizer):
        def summarize(self, previous, turns):
            calls.append((previous, [t.text for t in turns]))
            return super().summarize(previous, turns)

    s = Recording()
    turns = [mt("user", f"Question {i}?") if i % 2 == 0 else mt("assistant", f"Answer {i} is {i * 10} days.",
                                                                  [f"Doc {i}"]) for i in range(8)]
    first = summarize_incremental(summarizer=s, previous=None, turns=turns, evict_until=4, cap=500,
                                  counter=counter).summary
    second = summarize_incremental(summarizer=s, previous=first, turns=turns, evict_until=7, cap=500,
                                   counter=counter).summary  # 7 rounds down to whole exchanges: 6
    assert calls == [("", ["Question 0?", "Answer 1 is 10 days.", "Question 2?", "Answer 3 is 30 days."]),
                     (first.text, ["Question 4?", "Answer 5 is 50 days."])]
    assert (first.covers, second.covers) == (4, 6)
    assert second.sources == ("Doc 1", "Doc 3", "Doc 5")
    assert "50 days" in second.text and "10 days" in second.text
    assert summarize_incremental(summarizer=s, previous=second, turns=turns, evict_until=6, cap=500,
                                 counter=counter) is None  # nothing new to fold


def test_summary_is_recompressed_when_it_outgrows_its_cap():
    turns = []
    for i in range(40):
        turns += [mt("user", f"What about item {i}?"), mt("assistant", f"Item {i} costs ${i}. It is blue.")]
    update = summarize_incremental(summarizer=ExtractiveSummarizer(), previous=None, turns=turns, evict_until=80,
                                   cap=120, counter=counter)
    assert update.summary.tokens <= 120 == 120
    assert "$39" in update.summary.text  # the newest facts survive compression


def test_c05_llm_summarizer_request_has_a_user_turn_and_empty_output_fails():
    system, messages = summary_request("Earlier: PTO is 18 days.", [mt("user", "And sick leave?")])
    assert system and [m["role"] for m in messages] == ["user"]
    assert "PTO is 18 days" in messages[0]["content"] and "And sick leave?" in messages[0]["content"]
    with pytest.raises(ValueError, match="empty summary"):
        LLMSummarizer(lambda s, m: "  ").summarize("", [mt("user", "x")])


def test_stale_labels_become_the_titles_they_pointed_at():
    text = "The allowance is $65 [S1]. Hotels cost $225 [S2][S9]."
    assert rewrite_stale_labels(text, {"S1": "Travel", "S2": "Lodging"}) == (
        "The allowance is $65 (source: Travel). Hotels cost $225 (source: Lodging).")


def test_relevant_older_exchange_is_found():
    turns = [Turn("user", "What is the meal allowance?", 8), Turn("assistant", "It is $65.", 5),
             Turn("user", "How do I book hotels?", 6), Turn("assistant", "Use TripDesk.", 4)]
    assert relevant_older("Is the meal allowance paid on the first day?", turns) == [0]
    assert relevant_older("Who is the CEO?", turns) == []


def test_relevant_older_takes_the_most_related_exchange_that_fits_the_room_left():
    turns = [Turn("user", "What is the meal allowance for travel?", 9), Turn("assistant", "A long answer.", 500),
             Turn("user", "Is the meal allowance taxed?", 7), Turn("assistant", "No.", 2)]
    question = "What is the meal allowance for travel abroad?"
    assert relevant_older(question, turns) == [0]  # three shared terms against two
    # 9 + 500 + 2 * 4 tokens do not fit 30; the second exchange (7 + 2 + 2 * 4 = 17 tokens) does
    assert relevant_older(question, turns, max_tokens=30, overhead=4) == [2]
    assert relevant_older(question, turns, max_tokens=16, overhead=4) == []  # 17 > 16: nothing fits


def test_summary_and_history_share_one_budget_with_the_newest_turn_verbatim():
    history = []
    for i in range(30):
        q, a = f"Question {i} about travel rules?", f"Answer {i}: " + "travel detail " * 60
        history += [Turn("user", q, counter.count(q)), Turn("assistant", a, counter.count(a))]
    summary = Summary(text="- Asked: meal allowance? Answer: $65 per day.", covers=40,
                      tokens=counter.count("- Asked: meal allowance? Answer: $65 per day."))
    policy = BudgetPolicy(window=3_000, completion_reserve=300, history_cap=0.4)
    p = plan_context(question="What about hotels?", candidates=[cand(1, "Hotels are capped at $225.", 0.8)],
                     history=history, system_prompt=DEFAULT_SYSTEM_PROMPT, counter=counter,
                     settings=ContextSettings(policy=policy, relevant_older=False), summary=summary)
    prompt = prompt_for(p, system_prompt=DEFAULT_SYSTEM_PROMPT, settings=ContextSettings(policy=policy))
    assert "<conversation_summary>" in prompt.system and "$65 per day" in prompt.system
    assert prompt.messages[-3]["content"] == "Question 29 about travel rules?"  # newest exchange verbatim
    assert prompt.messages[-1]["content"] == "What about hotels?"
    assert all(m["content"] != "Question 19 about travel rules?" for m in prompt.messages)  # summarized: not re-sent
    assert p.budget["total"] == counter.count_messages(prompt.system, prompt.messages) <= policy.limit
    assert p.memory["summary_tokens"] > 0 and p.memory["summary_covers"] == 40
    assert p.memory["verbatim_turns"] == len(p.history) and p.memory["omitted_turns"] == 20 - len(p.history)


def test_relevant_older_reads_the_content_terms_stored_with_a_turn():
    # the stored terms are what is searched (found when the message was saved), not the text again
    turns = [Turn("user", "Question one?", 3, terms=frozenset({"meal", "allow"})), Turn("assistant", "Yes.", 2),
             Turn("user", "What is the meal allowance?", 8, terms=frozenset()), Turn("assistant", "It is $65.", 5)]
    assert relevant_older("Is the meal allowance paid?", turns) == [0]
    without = [Turn(t.role, t.text, t.tokens) for t in turns]  # nothing stored: the texts' own terms
    assert relevant_older("Is the meal allowance paid?", without) == [2]
