"""Everything decided before the model is called: retrieval for the question (follow-ups with the conversation's
help), the context plan under the one token budget, contradiction and injection notes, and the prompt.

    question (+ history, summary) -> retrieval query -> candidates (knowledge.selectors.retrieve)
        -> plan_context (grounding.context) -> notes (grounding.contradictions, grounding.injection)
        -> plan again with the notes counted -> prompt (grounding.context.prompt_for)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings

from chat.errors import AskError
from chat.providers import registry
from grounding.budget import BudgetError
from grounding.context import ContextSettings, plan_context, prompt_for
from grounding.contradictions import detect_conflicts
from grounding.embeddings import default_embedder
from grounding.injection import injection_notes
from grounding.llm_checks import LLMConflictJudge, LLMQueryRewriter, LLMSufficiencyJudge
from grounding.followup import follow_up
from grounding.memory import MemoryTurn, Summary
from grounding.ranking import relevance
from grounding.prompt import Prompt
from grounding.providers import Provider, completer_for, content_terms, counter_of
from grounding.types import ContextPlan
from knowledge.models import Domain, SystemPrompt
from knowledge.selectors import retrieve
from knowledge.services import system_prompt_active


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
    """

    plan: ContextPlan
    prompt: Prompt
    provider: Provider
    query: str = ""
    checks: dict[str, Any] = field(default_factory=dict)
    prompt_version: SystemPrompt | None = None


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


def answer_prepare(*, domain: Domain, question: str, provider: Provider | None = None,
                   history: list[MemoryTurn] | None = None, summary: Summary | None = None) -> PreparedAnswer:
    """Retrieve and plan (blocking: database and embedding; run it off the event loop).

    Follow-up questions are retrieved with the conversation's help (the model's rewrite when the provider offers
    completions and LLM_FOLLOWUP_REWRITE is on, else grounding.followup.follow_up: a question that stands on its own
    is retrieved on its own, one that refers back with the previous question's terms); the model still receives the
    question unchanged. Contradictions among the planned sources and passages addressed to an AI assistant become
    notes; the plan is made again with the notes counted in the budget.
    ``provider`` defaults to the domain's provider in the process's registry (chat.providers.registry).
    Raises:
        AskError(budget): the fixed parts of the prompt do not fit the window (the message names the numbers).
        AskError(domain_settings): the domain's settings are invalid.
    """
    provider = provider or registry.for_domain(domain)
    system_prompt, prompt_version = system_prompt_active()
    history = history or []
    complete = completer_for(provider)
    rewriter = LLMQueryRewriter(complete) if complete and settings.LLM_FOLLOWUP_REWRITE else None
    judge = LLMSufficiencyJudge(complete) if complete and settings.LLM_SUFFICIENCY_CHECK else None
    conflict_judge = LLMConflictJudge(complete) if complete and settings.LLM_CONFLICT_JUDGE else None
    alone: list = []  # the question retrieved on its own, when the follow-up decision asked how confidently

    def confidence(text: str) -> float:
        alone[:] = retrieve(domain=domain, query=text, superseded=5)
        return max((relevance(c) for c in alone), default=0.0)

    if rewriter is not None and history:
        query = rewriter(question, [(t.role, t.text) for t in history])
    else:
        query = follow_up(question, [t.text for t in history if t.role == "user"], confidence=confidence).query
    candidates = alone if alone and query == question else retrieve(domain=domain, query=query, superseded=5)
    counter = counter_of(provider)
    context_settings = settings_for(domain)
    turns = [t.as_turn() for t in history]
    try:
        def make_plan(notes: list) -> ContextPlan:
            return plan_context(question=question, candidates=candidates, history=turns,
                                system_prompt=system_prompt, instructions=domain.prompt_instructions(),
                                settings=context_settings, counter=counter, summary=summary, query=query, notes=notes,
                                judge=judge)

        plan = make_plan([])
        if plan.sufficient:
            # contradictions among the planned sources become context notes [18.8.2]; the plan is made again with
            # the notes counted in the budget, and the notes follow their sources' labels in the new plan
            notes = relevant_notes(detect_conflicts(plan.sources, default_embedder(), focus=query,
                                                    judge=conflict_judge), query)
            # a source carrying text addressed to an AI assistant gets a note naming it (never quoting it)
            notes += injection_notes(plan.sources)
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
    prompt = prompt_for(plan, system_prompt=system_prompt, instructions=domain.prompt_instructions(),
                        settings=context_settings)
    checks = {"rewrite": bool(rewriter and rewriter.calls and not rewriter.failures),
              "sufficiency": list(judge.verdicts) if judge else [],
              "judge_calls": conflict_judge.calls if conflict_judge else 0}
    return PreparedAnswer(plan=plan, prompt=prompt, provider=provider, query=query, prompt_version=prompt_version,
                          checks=checks)


def relabel_notes(notes: list, old: ContextPlan, new: ContextPlan) -> list:
    """Notes of ``old``'s labels expressed in ``new``'s labels (through the chunks the labels stand for); a note whose
    sources are not both in ``new`` is dropped. The labels named in the note's text are renamed too."""
    to_chunk = {s.label: s.chunk_id for s in old.sources}
    to_label = {s.chunk_id: s.label for s in new.sources}
    out = []
    for note in notes:
        mapping = {lab: to_label.get(to_chunk.get(lab, -1)) for lab in note.labels}
        if not all(mapping.values()):
            continue
        text = re.sub(r"\bS\d{1,3}\b", lambda m: mapping.get(m.group(0), m.group(0)), note.text)
        out.append(replace(note, labels=tuple(mapping[lab] for lab in note.labels), text=text))
    return out


#: Words that say how much or how often rather than what about ("days per year"): a note sharing only these with
#: the question is about something else (a meal allowance "per day" under a question on vacation days per year).
GENERIC_TERMS = content_terms("per day days daily week weeks weekly month months monthly year years yearly annual "
                              "annually time times hour hours minute minutes many much get gets need needs")


def relevant_notes(conflicts: list, query: str) -> list:
    """Notes of the conflicts whose sentences share content words with the question (two, or one for a one-word
    question), at least one of them not among GENERIC_TERMS when the question has such words: a disagreement
    elsewhere in a source is not what the reader asked about."""
    terms = content_terms(query)
    distinctive = (terms - GENERIC_TERMS) or terms
    need = min(2, len(terms))

    def shared(c) -> frozenset:
        return terms & (content_terms(c.sentences[0]) | content_terms(c.sentences[1]))

    return [c.as_note() for c in conflicts
            if len(common := shared(c)) >= need and common & distinctive
            and (c.kind == "version_superseded"
                 or c.similarity >= (NEGATION_NOTE_SIMILARITY if c.kind == "negation" else NOTE_SIMILARITY))]


#: Aligned sentences of two different documents must be at least this similar for their clash to become a note. The
#: detector's own threshold (0.45) is tuned for recall on the public sets; on handbook text most clashes below 0.6
#: compare sentences about different things (measured on 20 demo-handbook questions: 15 of 20 notes false at 0.45,
#: 4 at 0.6). Two versions of one document are always compared.
NOTE_SIMILARITY = 0.6
#: A polarity clash between two different documents is the least reliable kind ("sick days do not carry over" vs
#: "you continue to accrue sick days" align at about 0.6 but do not contradict): it needs closer sentences.
NEGATION_NOTE_SIMILARITY = 0.75
