"""The preparation of one answer as stages, each on the executor it belongs on (issue 20):

    rewrite a follow-up      the provider's async client (model call; no thread held) or offline
    embed the query          the worker's micro-batcher (one encode call for the questions arriving together; a
                             message asking two things adds each part's query to the same batch)
    search, plan, notes      the CPU pool (chat.answering.answer_plan: reads the index, never the database)
    contradiction judge      the provider's async client, on the pairs planning found (planned again if one clashes)
    sufficiency check        the provider's async client (model call), after planning

The database reads it needs (chat.answering.answer_inputs, memory) are done before, on the database worker, in one
visit. chat.answering.answer_prepare runs the same steps in one blocking call for the preview, tests and scripts.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import replace
from typing import Awaitable, Callable

from django.conf import settings

from chat.answering import AnswerInputs, PreparedAnswer, answer_plan, part_queries_of
from chat.followup_query import followup_probe, offline_query, previous_questions
from chat.runtime import Runtime
from grounding.followup import probe_queries
from grounding.lexical import nfkc_fold
from grounding.llm_checks import LLMConflictJudge, LLMQueryRewriter, LLMSufficiencyJudge, PrejudgedConflicts
from grounding.memory import MemoryTurn, Summary
from grounding.providers import Provider, async_completer_for, completer_for

Status = Callable[[str], Awaitable[None]]


async def _no_status(stage: str) -> None:
    return None


async def prepare_staged(*, inputs: AnswerInputs, question: str, provider: Provider, runtime: Runtime,
                         history: list[MemoryTurn] | None = None, summary: Summary | None = None,
                         status: Status = _no_status,
                         then: Callable[[PreparedAnswer], object] | None = None) -> PreparedAnswer:
    """The prepared answer (plan, prompt) through the stages above; ``status(stage)`` is awaited as each begins
    ("searching", "planning"). The question is read NFKC-folded from here on (grounding.lexical.nfkc_fold: "ＦＹ２０２５"
    asks about "FY2025"), as chat.answering.answer_prepare reads it; the stored question keeps what was typed.
    ``then(prepared)`` (CPU work on the final prepared answer, e.g. filling the answer row's snapshot) runs on the
    CPU pool: in the planning job itself when no model-backed stage follows planning (one pool visit, not two), else
    after the last stage.

    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window.
    """
    history = history or []
    question = nfkc_fold(question)
    acomplete = async_completer_for(provider)
    await status("searching")
    rewritten = False
    if acomplete is not None and settings.LLM_FOLLOWUP_REWRITE and history:
        rewriter = LLMQueryRewriter(None, acomplete=acomplete)
        query = await rewriter.arewrite(question, [(t.role, t.text) for t in history])
        rewritten = bool(rewriter.calls and not rewriter.failures)
    else:
        confidences = None
        if probes := probe_queries(question, previous_questions(history)):
            # the decision rests on how confidently the question retrieves alone, and with the previous question's
            # terms (grounding.followup)
            vectors = await asyncio.gather(*(runtime.batcher.embed(q) for q in probes))
            confidences = await runtime.cpu(followup_probe, domain=inputs.domain.pk, token=inputs.token,
                                            queries=probes, vectors=vectors)
        query = offline_query(question, history, confidences)
    # the query and, for a message asking several things, each part's query: one micro-batch (issue 20 point 2)
    queries = part_queries_of(question, query)
    vector, *part_vectors = await asyncio.gather(*(runtime.batcher.embed(q) for q in (query, *queries)))
    await status("planning")
    plan = functools.partial(answer_plan, inputs=inputs, question=question, query=query, vector=vector,
                             provider=provider, history=history, summary=summary, checks={"rewrite": rewritten},
                             parts=list(zip(queries, part_vectors)))
    if acomplete is not None and settings.LLM_CONFLICT_JUDGE:
        # the contradiction judge's model calls never hold a pool thread: plan once to learn the pairs to judge,
        # judge them concurrently on the async client, plan again only when a verdict found a contradiction
        pending = PrejudgedConflicts()
        prepared = await runtime.cpu(plan, conflict_judge=pending)
        if pending.asked:
            judged = await pending.ajudge_all(LLMConflictJudge(None, acomplete=acomplete))
            if any(judged.verdicts.values()):
                prepared = await runtime.cpu(plan, conflict_judge=judged)
            prepared = replace(prepared, checks={**prepared.checks, "judge_calls": judged.calls})
    else:
        complete = completer_for(provider)  # a provider with a blocking client only: judged from the pool thread
        conflict_judge = LLMConflictJudge(complete) if complete and settings.LLM_CONFLICT_JUDGE else None
        if then is not None and not (acomplete is not None and settings.LLM_SUFFICIENCY_CHECK):
            return await runtime.cpu(_and_then, plan, then, conflict_judge=conflict_judge)
        prepared = await runtime.cpu(plan, conflict_judge=conflict_judge)
    prepared = await _checked(prepared, question, acomplete)
    if then is not None:
        await runtime.cpu(then, prepared)
    return prepared


def _and_then(plan: Callable[..., PreparedAnswer], then: Callable[[PreparedAnswer], object],
              **kwargs) -> PreparedAnswer:
    """``plan(**kwargs)``, then ``then`` on its result, in one job; returns the prepared answer."""
    prepared = plan(**kwargs)
    then(prepared)
    return prepared


async def _checked(prepared: PreparedAnswer, question: str, acomplete) -> PreparedAnswer:
    """The prepared answer after the model's sufficiency check (when the provider has an async client and
    LLM_SUFFICIENCY_CHECK is on, and the plan is sufficient): marked insufficient when the model finds that the
    sources do not answer the question."""
    if acomplete is not None and settings.LLM_SUFFICIENCY_CHECK and prepared.plan.sufficient:
        judge = LLMSufficiencyJudge(None, acomplete=acomplete)
        answered = await judge.acheck(question, prepared.plan.sources)
        checks = {**prepared.checks, "sufficiency": list(judge.verdicts)}
        if not answered:
            plan = replace(prepared.plan, sufficient=False,
                           abstain_reason="the sufficiency check found that the sources do not answer the question")
            return replace(prepared, plan=plan, checks=checks)
        prepared = replace(prepared, checks=checks)
    return prepared
