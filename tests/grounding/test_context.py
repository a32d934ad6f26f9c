import pytest

from grounding.context import BudgetError, BudgetPolicy, dedup_exact, plan_context
from grounding.prompt import DEFAULT_SYSTEM_PROMPT, build_prompt, format_source
from grounding.tokens import counter_for
from grounding.types import Turn

from .helpers import cand

counter = counter_for("extractive")


def plan(cands, **kw):
    return plan_context(question=kw.pop("question", "What is the meal allowance?"), candidates=cands,
                        system_prompt=kw.pop("system_prompt", DEFAULT_SYSTEM_PROMPT), counter=counter, **kw)


def test_c16_nothing_retrieved_abstains_without_sources():
    p = plan([])
    assert not p.sufficient and p.sources == () and p.abstain_reason == "nothing was retrieved"
    prompt = build_prompt(system_prompt=DEFAULT_SYSTEM_PROMPT, instructions="", sources=p.sources, notes=(),
                          history=(), question=p.question)
    assert "<sources>" not in prompt.system  # no empty sources block


def test_c16_all_below_threshold_abstains_and_lists_them():
    p = plan([cand(1, "Unrelated text about parking.", 0.2), cand(2, "Other unrelated text.", 0.1)],
             policy=BudgetPolicy(relevance_threshold=0.35))
    assert not p.sufficient
    assert [(d.chunk_id, d.reason) for d in p.dropped] == [(1, "below_threshold"), (2, "below_threshold")]
    assert "0.20 is below the threshold 0.35" in p.abstain_reason


def test_sources_labelled_in_relevance_order_with_metadata():
    p = plan([cand(7, "The daily meal allowance is $65.", 0.8, title="Travel", section="Meals",
                   version="2025-03", date="2025-03-01"),
              cand(3, "Hotels are capped at $225.", 0.5, title="Travel", section="Lodging")])
    assert [(s.label, s.chunk_id) for s in p.sources] == [("S1", 7), ("S2", 3)]
    assert p.source_map["S1"].section == "Meals" and p.source_map["S1"].version == "2025-03"
    assert p.sources[0].tokens == counter.count(format_source(p.sources[0])) + 1


def test_c12_exact_duplicates_keep_best_score_and_merge_ids():
    text = "Employees accrue 1.5 days of paid time off per month."
    cands = [cand(1, "Other text one.", 0.9), cand(2, text, 0.5), cand(3, text.upper(), 0.7),
             cand(4, text + "  ", 0.6), cand(5, text, 0.4)]
    kept, dropped = dedup_exact(cands)
    assert [(c.chunk.chunk_id, ids) for c, ids in kept] == [(1, (1,)), (3, (3, 2, 4, 5))]
    assert {d.chunk_id for d in dropped} == {2, 4, 5}
    assert all(d.reason == "duplicate_of" and "chunk 3" in d.detail for d in dropped)
    again, _ = dedup_exact([c for c, _ in kept])  # idempotent
    assert [c.chunk.chunk_id for c, _ in again] == [1, 3]


def test_source_that_does_not_fit_is_skipped_whole_and_a_smaller_one_still_fits():
    big = " ".join(["The policy has many words."] * 400)  # ~2,400 tokens
    small = "The meal allowance is $65 per day."
    policy = BudgetPolicy(window=2_400, safety_margin=1.0, completion_reserve=200)
    p = plan([cand(1, big, 0.9), cand(2, small, 0.8)], policy=policy, system_prompt="Answer from sources.")
    assert [s.chunk_id for s in p.sources] == [2]
    assert [(d.chunk_id, d.reason) for d in p.dropped] == [(1, "over_budget")]
    assert p.budget["total"] <= p.budget["limit"]


def test_total_is_the_real_count_and_within_budget_with_history():
    history = [Turn("user", "What is PTO?", counter.count("What is PTO?")),
               Turn("assistant", "Paid time off.", counter.count("Paid time off."))]
    p = plan([cand(i, f"Rule {i}: employees must follow procedure {i} carefully.", 0.9 - i / 100)
              for i in range(20)], history=history, policy=BudgetPolicy(window=1_500, completion_reserve=300))
    prompt = build_prompt(system_prompt=DEFAULT_SYSTEM_PROMPT, instructions="", sources=p.sources, notes=(),
                          history=p.history, question=p.question)
    assert p.budget["total"] == counter.count_messages(prompt.system, prompt.messages)
    assert p.budget["total"] <= p.budget["limit"] == int(1_500 * 0.9) - 300
    assert prompt.messages[-1] == {"role": "user", "content": p.question}


def test_c03_fixed_parts_exceed_the_budget_raise_a_typed_error_with_numbers():
    with pytest.raises(BudgetError) as exc:
        plan([cand(1, "text here", 0.9)], system_prompt="word " * 3_000,
             policy=BudgetPolicy(window=3_000, completion_reserve=500))
    assert exc.value.numbers["completion_reserve"] == 500
    assert exc.value.numbers["system"] > 2_900
    assert "usable window 2700 tokens" in str(exc.value)
