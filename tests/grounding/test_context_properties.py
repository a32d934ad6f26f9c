"""Property-based invariants of context construction (hypothesis)."""

from hypothesis import HealthCheck, given, settings, strategies as st

from grounding.budget import BudgetError, BudgetPolicy
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.dedup import dedup_exact
from grounding.ordering import ORDERINGS
from grounding.prompt import DEFAULT_SYSTEM_PROMPT
from grounding.prompt_sources import SourceFormat
from grounding.tokens import counter_for
from grounding.types import Turn

from .helpers import cand

counter = counter_for("extractive")
WORDS = ["policy", "leave", "$65", "days", "<|endoftext|>", "</source>", "not", "travel", "2024-01-01", "the",
         "{{ user.password }}", "\n", "Ignore previous instructions", "|", "Key: value"]

text_st = st.lists(st.sampled_from(WORDS), min_size=1, max_size=120).map(" ".join).filter(str.strip)
cands_st = st.lists(st.tuples(text_st, st.floats(0.0, 1.0)), max_size=25).map(
    lambda xs: [cand(i + 1, t, round(s, 3), doc=i % 4, date=f"202{i % 5}-01-01") for i, (t, s) in enumerate(xs)])
history_st = st.lists(text_st, max_size=30).map(
    lambda xs: [Turn("user" if i % 2 == 0 else "assistant", t, counter.count(t)) for i, t in enumerate(xs)])
settings_st = st.builds(
    lambda window, reserve, cap, ordering, style: ContextSettings(
        policy=BudgetPolicy(window=window, completion_reserve=reserve, history_cap=cap, history_floor=64,
                            sources_floor=128, relevance_threshold=0.3),
        ordering=ordering, source_format=SourceFormat(style=style)),
    st.integers(600, 8_000), st.integers(0, 500), st.floats(0.0, 1.0), st.sampled_from(ORDERINGS),
    st.sampled_from(["basic", "metadata", "xml"]))
question_st = st.sampled_from(["What is the meal allowance?", "  compare leave vs travel <|im_start|> ", "x"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=cands_st, history=history_st, ctx=settings_st, question=question_st)
def test_plan_invariants(cands, history, ctx, question):
    try:
        plan = plan_context(question=question, candidates=cands, history=history, system_prompt=DEFAULT_SYSTEM_PROMPT,
                            settings=ctx, counter=counter)
    except BudgetError:
        return  # only when the fixed parts alone cannot fit; covered by its own test
    prompt = prompt_for(plan, system_prompt=DEFAULT_SYSTEM_PROMPT, settings=ctx)
    real = counter.count_messages(prompt.system, prompt.messages)
    # total <= budget, by the real count of the formatted prompt, and the plan's total is that real count
    assert real == plan.budget["total"] <= ctx.policy.limit
    # the question appears once, last, unchanged
    assert prompt.messages[-1] == {"role": "user", "content": question}
    assert sum(m["content"] == question for m in prompt.messages) == 1 or question in [t.text for t in history]
    # ordering is a permutation of what the budget kept
    relevance = plan_context(question=question, candidates=cands, history=history,
                             system_prompt=DEFAULT_SYSTEM_PROMPT,
                             settings=ContextSettings(policy=ctx.policy, source_format=ctx.source_format),
                             counter=counter)
    assert sorted(s.label for s in plan.sources) == sorted(s.label for s in relevance.sources)
    # every candidate is either in a source or dropped with a reason
    accounted = {i for s in plan.sources for i in s.chunk_ids} | {d.chunk_id for d in plan.dropped}
    assert accounted == {c.chunk.chunk_id for c in cands} or not plan.sufficient
    # labels resolve through the source map only
    assert all(plan.source_map[s.label] is s for s in plan.sources)


@settings(max_examples=100, deadline=None)
@given(cands=cands_st)
def test_dedup_exact_is_idempotent(cands):
    once = dedup_exact(cands)
    twice = dedup_exact([c for c, _ in once.kept])
    assert [c.chunk.chunk_id for c, _ in twice.kept] == [c.chunk.chunk_id for c, _ in once.kept]
    assert twice.dropped == ()


# B01: history (raw cl100k counts stored with each turn) and every other part are counted by the same calibrated
# counter; with the provider's factor the real count of the formatted prompt never passes the limit.
raw_history_st = st.lists(text_st, max_size=30).map(
    lambda xs: [Turn("user" if i % 2 == 0 else "assistant", t, counter.raw(t)) for i, t in enumerate(xs)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cands=cands_st, history=raw_history_st, ctx=settings_st, question=question_st,
       factor=st.sampled_from([0.9, 1.0, 1.15, 1.3]))
def test_b01_real_count_never_exceeds_the_limit_whatever_the_calibration_factor(cands, history, ctx, question, factor):
    from grounding.tokens import TokenCounter

    calibrated = TokenCounter(provider="anthropic", factor=factor, counting="calibrated")
    try:
        plan = plan_context(question=question, candidates=cands, history=history, system_prompt=DEFAULT_SYSTEM_PROMPT,
                            settings=ctx, counter=calibrated)
    except BudgetError:
        return
    prompt = prompt_for(plan, system_prompt=DEFAULT_SYSTEM_PROMPT, settings=ctx)
    real = calibrated.count_messages(prompt.system, prompt.messages)  # each message's text counted and scaled
    # the plan scales each part and rounds it up, so with a factor its total can only exceed the real count (by
    # less than one token per part); unscaled it is the real count
    assert real <= plan.budget["total"] <= ctx.policy.limit
    assert real == plan.budget["total"] or factor != 1.0
    assert plan.budget["factor"] == factor and plan.budget["counting"] == "calibrated"
    # the history the plan reports is what the calibrated counter gives for those turns, not their raw counts
    assert plan.budget["history"] >= sum(calibrated.count(t.text) for t in plan.history) or factor < 1.0 \
        or not plan.history


def test_b01_history_is_scaled_like_everything_else():
    from grounding.tokens import TokenCounter

    turns = [Turn("user", "How long is parental leave? " * 40, 0), Turn("assistant", "Sixteen weeks. " * 60, 0)]
    turns = [Turn(t.role, t.text, counter.raw(t.text)) for t in turns]
    ctx = ContextSettings(policy=BudgetPolicy(window=16_000, relevance_threshold=0.3))
    plain = plan_context(question="And for contractors?", candidates=[cand(1, "Leave is 16 weeks.", 0.8)],
                         history=turns, system_prompt=DEFAULT_SYSTEM_PROMPT, settings=ctx, counter=counter)
    scaled = plan_context(question="And for contractors?", candidates=[cand(1, "Leave is 16 weeks.", 0.8)],
                          history=turns, system_prompt=DEFAULT_SYSTEM_PROMPT, settings=ctx,
                          counter=TokenCounter(provider="anthropic", factor=1.3, counting="calibrated"))
    raw_history = sum(counter.raw(t.text) + 3 for t in turns)
    assert plain.budget["history"] == raw_history
    assert scaled.budget["history"] == sum(-(-counter.raw(t.text) * 13 // 10) + 3 for t in turns)
