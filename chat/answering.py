"""Everything decided before the model is called: retrieval for the question (follow-ups with the conversation's
help), the context plan under the one token budget, contradiction and injection notes, and the prompt.

    question (+ history, summary) -> retrieval query -> candidates (knowledge.selectors.retrieve)
        -> plan_context (grounding.context) -> notes (grounding.contradictions, grounding.injection)
        -> plan again with the notes counted -> prompt (grounding.context.prompt_for)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import numpy as np
from django.conf import settings
from django.utils import timezone

from chat.errors import AskError
from chat.followup_query import followup_probe, offline_query, previous_questions
from chat.memory import memory_trace, summary_in
from chat.providers import registry
from chat.stored_sources import source_claims, stored_source_data
from grounding.budget import BudgetError
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.contradictions import detect_conflicts
from grounding.embeddings import KnownVectors, default_embedder
from grounding.injection import injection_notes
from grounding.language import asked_in, vocabulary_share
from grounding.followup import probe_queries
from grounding.lexical import nfkc_fold
from grounding.llm_checks import LLMConflictJudge, LLMQueryRewriter, LLMSufficiencyJudge
from grounding.memory import MemoryTurn, Summary
from grounding.notes import concerns, relabel_notes, relevant_notes
from grounding.part_retrieval import part_queries, with_part_candidates
from grounding.prompt import Prompt
from grounding.providers import Provider, completer_for, counter_of
from grounding.scheduled import ScheduledVersion, scheduled_matches
from grounding.support_values import SourceValues
from grounding.types import ContextPlan
from knowledge.models import Domain, SystemPrompt
from knowledge.selectors import (chunk_readings, domain_scheduled_versions, domain_token, domain_vocabulary,
                                 respelled_query, retrieve_vector, version_next_scheduled)
from knowledge.services import system_prompt_active, versions_activate_soon


@dataclass(frozen=True)
class PreparedAnswer:
    """Everything decided before the provider is called.

    Attributes:
        plan: the context plan (sources, notes, history, budget in tokens, dropped candidates).
        prompt: the exact prompt (system prefix, context, messages).
        provider: the provider that will answer.
        query: the retrieval query (the question, or a follow-up rewritten with the conversation).
        checks: what the model-backed checks did: {"rewrite": bool, "sufficiency": [verdicts], "judge_calls": int}.
        prompt_version: the knowledge.SystemPrompt version the prompt used (None: the built-in default).
        source_vectors: label -> float32 (sentences, dim) unit vectors of that planned source's sentences, read
            from what ingestion stored (grounding.claims.claims of its chunks): the support check's source
            units, so that checking an answer embeds only the answer's own sentences. Sources without stored
            sentences are absent.
        source_values: label -> (normalised values, their bare numbers) of that planned source, read from what
            ingestion stored of its chunks (grounding.support_store.plan_values): the support check's source values,
            so that checking an answer does not find the values of its sources' texts again. Sources whose values
            cannot be read so (an index built before they were stored, a join a value could cross) are absent.
    """

    plan: ContextPlan
    prompt: Prompt
    provider: Provider
    query: str = ""
    checks: dict[str, Any] = field(default_factory=dict)
    prompt_version: SystemPrompt | None = None
    source_vectors: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    source_values: dict[str, SourceValues] = field(default_factory=dict, repr=False)


def settings_for(domain: Domain) -> ContextSettings:
    """The context settings of a domain (ordering, formatting, threshold and budget policy from its fields).

    Raises:
        AskError(domain_settings): the domain's settings are out of range (the message says which).
    """
    try:
        return domain.context_settings()
    except ValueError as exc:
        raise AskError("domain_settings", f"The settings of domain {domain.slug!r} are invalid ({exc}); "
                                          "an administrator must correct them.") from exc


@dataclass(frozen=True)
class AnswerInputs:
    """What planning needs from the database, read in one visit (so planning itself reads nothing).

    Attributes:
        domain: the domain (its settings are on the instance).
        system_prompt: the active system prompt text; prompt_version its row (None: the built-in default).
        token: the domain's published index token (knowledge.indexing).
        settings: the domain's context settings; instructions: its prompt instructions with the conflict rule.
        stored_counts: the token counts of the prompt version and of the instructions stored when they were saved
            (grounding.context.plan_context's ``stored_counts``).
        scheduled: the domain's scheduled versions with their chunks' vectors (knowledge.selectors.
            domain_scheduled_versions), () when none is still to come: a refusal names those the question matches.
    """

    domain: Domain
    system_prompt: str
    prompt_version: SystemPrompt | None
    token: str
    settings: ContextSettings
    instructions: str
    scheduled: tuple[ScheduledVersion, ...] = ()
    stored_counts: tuple[int | None, int | None] = (None, None)


def answer_inputs(*, domain: Domain, token: str | None = None) -> AnswerInputs:
    """Read what planning an answer in ``domain`` needs (blocking: database). When a scheduled version of the
    domain has reached its date, the activation that makes it current is started in the background
    (knowledge.services.versions.versions_activate_soon); this ask reads the index published before it.
    ``token``: the domain's published index token as the caller read it with the domain row in the same database
    visit (no second read); None: read now (knowledge.selectors.domain_token).

    Raises:
        AskError(domain_settings): the domain's settings are invalid.
    """
    system_prompt, prompt_version = system_prompt_active()
    if token is None:
        token = domain_token(domain=domain)
    scheduled = version_next_scheduled(domain=domain, token=token)
    if scheduled is not None and scheduled <= timezone.localdate():
        versions_activate_soon()
    return AnswerInputs(domain=domain, system_prompt=system_prompt, prompt_version=prompt_version,
                        token=token, settings=settings_for(domain), instructions=domain.prompt_instructions(),
                        stored_counts=domain.stored_counts(prompt_version),
                        scheduled=tuple(v for v in domain_scheduled_versions(domain=domain, token=token)
                                        if v.date > timezone.localdate().isoformat()) if scheduled else ())


def part_queries_of(question: str, query: str) -> list[str]:
    """The retrieval queries of the parts of a message asking several things (grounding.part_retrieval.part_queries),
    or [] when it asks one thing or is retrieved with other words than its own (a follow-up's query carries the
    previous question's terms, which belong to no one part)."""
    return part_queries(question) if query.strip() == question.strip() else []


def answer_plan(*, inputs: AnswerInputs, question: str, query: str, vector, provider: Provider,
                history: list[MemoryTurn] | None = None, summary: Summary | None = None, judge=None,
                conflict_judge=None, checks: dict[str, Any] | None = None,
                parts: Sequence[tuple[str, Any]] | None = None) -> PreparedAnswer:
    """Search the domain's index and plan the answer (CPU-bound; reads no database: run it on the CPU pool).

    Args:
        inputs: what :func:`answer_inputs` read.
        question: the question (what the model receives); query and vector: the retrieval query and its unit vector.
        provider: who answers (its model decides how tokens are counted).
        history, summary: the conversation's memory: every remembered turn, or only those its plan can use, each
            with its position (chat.memory.memory_for_question); the trace counts positions in the conversation.
        judge: an optional sufficiency check (sync) run inside planning; conflict_judge: an optional contradiction
            judge (sync) for pairs the rules leave unflagged.
        checks: what model-backed checks did before planning (for the trace).
        parts: (query, unit vector) of each part of a message asking several things (:func:`part_queries_of`), when
            the caller embedded them (chat.pipeline: through the worker's micro-batcher, beside the query); None
            reads and embeds them here (the blocking path).
    Contradictions among the planned sources and passages addressed to an AI assistant become notes; the plan is
    made again with the notes counted in the budget.
    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window (the message names the numbers).
    """
    history = history or []
    if respelled := respelled_query(domain=inputs.domain.pk, token=inputs.token, question=question, query=query):
        question, query = respelled  # a misspelled word is searched as the documents' word (grounding.respelling)
        vector, parts = default_embedder().embed([query])[0], None
    candidates = retrieve_vector(domain=inputs.domain.pk, query=query, vector=vector, token=inputs.token,
                                 superseded=5)
    if parts is None:
        queries = part_queries_of(question, query)
        parts = list(zip(queries, default_embedder().embed(queries))) if queries else []
    if parts:  # a message asking two things: each part's own best passage is planned too (grounding.part_retrieval)
        found = [retrieve_vector(domain=inputs.domain.pk, query=p, vector=v, token=inputs.token) for p, v in parts]
        candidates = with_part_candidates(candidates, found, key=lambda c: c.chunk.chunk_id)
    counter = counter_of(provider)
    turns = [t.as_turn() for t in history]
    stored_summary, summary = summary, summary_in(history, summary)  # history may be only the turns a plan can use
    sentences: KnownVectors | None = None  # the planned chunks' stored sentence vectors, once the plan is sufficient
    try:
        def make_plan(notes: list) -> ContextPlan:
            return plan_context(question=question, candidates=candidates, history=turns,
                                system_prompt=inputs.system_prompt, instructions=inputs.instructions,
                                settings=inputs.settings, counter=counter, summary=summary, query=query, notes=notes,
                                judge=judge, stored_counts=inputs.stored_counts)

        plan = make_plan([])
        if plan.sufficient:
            # contradictions among the planned sources become context notes [18.8.2]; the plan is made again with
            # the notes counted in the budget, and the notes follow their sources' labels in the new plan
            # the planned chunks' sentences were embedded at ingestion: read, not recomputed (issue 20 point 3)
            # only the planned chunks' vectors: what notes, the offline answerer and the support check read (all the
            # candidates' were copied into the embedder's cache on every ask)
            planned = {i for s in plan.sources for i in s.chunk_ids}
            planned_candidates = [c for c in candidates if c.chunk.chunk_id in planned]
            sentences = KnownVectors.of_candidates(default_embedder(), planned_candidates)
            sentences.known.setdefault(query, np.asarray(vector, dtype=np.float32))  # the focus: embedded already
            for part, part_vector in parts:  # the offline answerer reads each part's too
                sentences.known.setdefault(part, np.asarray(part_vector, dtype=np.float32))
            remember = getattr(default_embedder(), "remember", None)
            if remember is not None:  # the offline answerer and the support check read them from its cache
                remember(sentences.known)
            # only aligned pairs that could make a note about the question are examined (grounding.notes.concerns);
            # what the rules read of each sentence (values, negations, tokens) was stored at ingestion: read, not made
            readings = chunk_readings(domain=inputs.domain.pk, chunks=[c.chunk for c in planned_candidates],
                                      token=inputs.token)
            notes = relevant_notes(detect_conflicts(plan.sources, sentences, focus=query, judge=conflict_judge,
                                                    sentences=source_claims(plan.sources, candidates),
                                                    concerns=concerns(query), readings=readings), query,
                                   {s.label: f"{s.title}\n{s.section}" for s in plan.sources})
            # a source carrying text addressed to an AI assistant gets a note naming it (never quoting it); sources
            # whose chunks ingestion found free of such text are not scanned again
            clean = {c.chunk.chunk_id for c in candidates if c.chunk.injection is False}
            notes += injection_notes([s for s in plan.sources if s.withheld or not clean.issuperset(s.chunk_ids)])
            labelled_by = plan
            for _ in range(3):
                if not notes:
                    break
                candidate = make_plan(notes)
                moved = relabel_notes(notes, labelled_by, candidate)
                if moved == notes:
                    plan = candidate
                    break
                notes, labelled_by = moved, candidate
            else:
                plan = make_plan([])  # notes that keep moving are left out rather than mislabelled
    except BudgetError as exc:
        raise AskError("budget", str(exc)) from exc
    # what ingestion stored of the planned sources, read rather than computed again (chat.stored_sources)
    plan, source_vectors, source_values = stored_source_data(plan, candidates, domain=inputs.domain.pk,
                                                             token=inputs.token, sentences=sentences)
    # a question in another language than the documents': a refusal says so (grounding.language)
    language = asked_in(question, vocabulary_share(question, domain_vocabulary(domain=inputs.domain.pk,
                                                                               token=inputs.token)))
    if language:
        plan = replace(plan, asked_in=language)
    # scheduled versions the question would match: a refusal says they are not yet in effect (grounding.scheduled)
    matches = scheduled_matches(vector, inputs.scheduled, inputs.settings.policy.relevance_threshold)
    if matches:
        plan = replace(plan, scheduled=matches)
    memory = memory_trace(plan.memory, history, stored_summary)
    if memory != plan.memory or summary is not stored_summary:  # numbered in the whole conversation again
        plan = replace(plan, memory=memory, history_omitted=memory["omitted_turns"],
                       summary=stored_summary if plan.summary is not None else None)
    prompt = prompt_for(plan, system_prompt=inputs.system_prompt, instructions=inputs.instructions,
                        settings=inputs.settings)
    checks = {"rewrite": False, "sufficiency": [], "judge_calls": 0, **(checks or {})}
    if judge is not None:
        checks["sufficiency"] = list(judge.verdicts)
    if conflict_judge is not None:
        checks["judge_calls"] = conflict_judge.calls
    return PreparedAnswer(plan=plan, prompt=prompt, provider=provider, query=query,
                          prompt_version=inputs.prompt_version, checks=checks, source_vectors=source_vectors,
                          source_values=source_values)


def answer_prepare(*, domain: Domain, question: str, provider: Provider | None = None,
                   history: list[MemoryTurn] | None = None, summary: Summary | None = None) -> PreparedAnswer:
    """Retrieve and plan in one blocking call (database, embedding, model-backed checks through the provider's
    blocking client): the admin's prompt preview, tests and one-off scripts. The chat runs the same steps as stages
    (chat.pipeline).

    Follow-up questions are retrieved with the conversation's help (the model's rewrite when the provider offers
    completions and LLM_FOLLOWUP_REWRITE is on, else :func:`offline_query`); the model still receives the question
    unchanged but for its compatibility characters, read in their NFKC form as every step reads them
    (grounding.lexical.nfkc_fold: "ＦＹ２０２５" is asked as "FY2025"; the stored question keeps what was typed).
    ``provider`` defaults to the domain's provider in the process's registry (chat.providers.registry).
    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window (the message names the numbers).
        AskError(domain_settings): the domain's settings are invalid.
    """
    provider = provider or registry.for_domain(domain)
    inputs = answer_inputs(domain=domain)
    history = history or []
    question = nfkc_fold(question)
    complete = completer_for(provider)
    rewriter = LLMQueryRewriter(complete) if complete and settings.LLM_FOLLOWUP_REWRITE else None
    judge = LLMSufficiencyJudge(complete) if complete and settings.LLM_SUFFICIENCY_CHECK else None
    conflict_judge = LLMConflictJudge(complete) if complete and settings.LLM_CONFLICT_JUDGE else None
    if rewriter is not None and history:
        query = rewriter(question, [(t.role, t.text) for t in history])
    else:
        probes = probe_queries(question, previous_questions(history))
        confidences = followup_probe(domain=inputs.domain.pk, token=inputs.token, queries=probes,
                                     vectors=default_embedder().embed(list(probes))) if probes else None
        query = offline_query(question, history, confidences)
    vector = default_embedder().embed([query])[0]
    return answer_plan(inputs=inputs, question=question, query=query, vector=vector, provider=provider,
                       history=history, summary=summary, judge=judge, conflict_judge=conflict_judge,
                       checks={"rewrite": bool(rewriter and rewriter.calls and not rewriter.failures)})

