"""System prompts (versioned, one active) and the domain instruction presets the admin offers."""

from __future__ import annotations

import re

from django.db import transaction

from grounding.prompt import ABSTAIN_TOKEN, DEFAULT_SYSTEM_PROMPT
from grounding.tokens import counter_for
from knowledge.models import Domain, SystemPrompt


def system_prompt_warnings(text: str) -> list[str]:
    """Problems of a system prompt text that would weaken grounding (empty list: none). Warnings, not errors: an
    admin may still save the prompt.

    Checks that the text keeps the citation rule (mentions the [S1]-style markers) and the abstention token
    (grounding.prompt.ABSTAIN_TOKEN), without which abstentions cannot be recognised."""
    warnings = []
    if not re.search(r"\[S\d*\]|\[S#\]|\[S[nN]\]", text):
        warnings.append("The prompt lacks the citation rule: it never shows the [S1] marker format, so answers may "
                        "come without citations the application can render.")
    if ABSTAIN_TOKEN not in text:
        warnings.append(f"The prompt lacks the abstention token {ABSTAIN_TOKEN}: an answer that cannot be grounded "
                        "will not be recognised as an abstention.")
    warnings += _window_warnings(text)
    return warnings


#: Tokens a domain's window must keep after the system prompt and its instructions: the question, history and
#: sources (Domain.clean asks the same of the window alone).
ROOM_NEEDED = 1_000


def _window_warnings(text: str) -> list[str]:
    """One warning per domain whose usable window (window x safety margin - completion reserve) the prompt and the
    domain's instructions leave fewer than ROOM_NEEDED tokens of (cl100k): every ask there would fail with a budget
    error (the s44 breaker saved a prompt longer than the window without a word, and every ask failed)."""
    prompt = counter_for("extractive").count(text.strip())
    out = []
    for domain in Domain.objects.order_by("name"):
        try:
            limit = domain.context_settings().policy.limit
        except ValueError:
            continue
        own = domain.instructions_tokens if domain.instructions_tokens is not None \
            else counter_for("extractive").count(domain.prompt_instructions())
        room = limit - prompt - own
        if room < ROOM_NEEDED:
            out.append(f"The prompt is {prompt:,} tokens: in the domain {domain.name} (window {domain.window:,}, "
                       f"{limit:,} usable) it and the domain's instructions ({own:,}) leave {max(room, 0):,} tokens "
                       f"for the question, history and sources, fewer than {ROOM_NEEDED:,}; asks there would fail. "
                       "Shorten the prompt or raise the domain's window.")
    return out


@transaction.atomic
def system_prompt_save(*, text: str, user=None, note: str = "", activate: bool = True) -> SystemPrompt:
    """Store ``text`` as a new system prompt version (versions are never edited in place).

    With ``activate`` the new version becomes the active one and the previous active version is kept, inactive.
    Raises:
        ValueError: the text is empty.
    """
    if not text or not text.strip():
        raise ValueError("The system prompt is empty.")
    last = SystemPrompt.objects.select_for_update().order_by("-version").first()
    if activate:
        SystemPrompt.objects.filter(is_active=True).update(is_active=False)
    return SystemPrompt.objects.create(version=(last.version + 1) if last else 1, text=text.strip(), note=note[:200],
                                       is_active=activate, created_by=user if getattr(user, "pk", None) else None)


@transaction.atomic
def system_prompt_activate(*, prompt: SystemPrompt) -> SystemPrompt:
    """Make ``prompt`` the one active version (to roll back to an earlier version)."""
    SystemPrompt.objects.filter(is_active=True).exclude(pk=prompt.pk).update(is_active=False)
    prompt.is_active = True
    prompt.save(update_fields=["is_active"])
    return prompt


def system_prompt_active() -> tuple[str, SystemPrompt | None]:
    """The system prompt text answers use now and its version row (None: no version is active, the built-in
    grounding.prompt.DEFAULT_SYSTEM_PROMPT is used)."""
    active = SystemPrompt.objects.filter(is_active=True).first()
    return (active.text, active) if active else (DEFAULT_SYSTEM_PROMPT, None)


#: Sensible domain instructions per kind of documents (the admin's preset select fills Domain.instructions with one;
#: the admin may edit them after). Each line is a rule the model follows on top of the evidence contract.
DOMAIN_PRESETS: dict[str, tuple[str, str]] = {
    "legal": ("Legal", "\n".join([
        "- Quote the operative wording of a clause exactly when it decides the answer, and name its document, "
        "section and version.",
        "- Do not give legal advice or predict outcomes: say what the documents state, and refer decisions about a "
        "specific case to the legal team.",
        "- Keep defined terms with their defined meaning and capitalisation.",
        "- Give the effective date of the provision you rely on, and say when it was amended or superseded.",
        "- If the documents do not cover the jurisdiction, party or situation asked about, say so.",
    ])),
    "medical": ("Medical", "\n".join([
        "- Never diagnose, prescribe or suggest a dose that a source does not state word for word.",
        "- Keep doses, units, thresholds and intervals exactly as written, and cite the source of each number.",
        "- Mention the contraindications, warnings and exceptions the sources attach to the answer.",
        "- For an urgent or individual medical situation, tell the reader to contact a qualified clinician or the "
        "emergency services.",
        "- Say when a source is dated or superseded by a newer guideline.",
    ])),
    "financial": ("Financial", "\n".join([
        "- Give figures exactly as written, with their currency, unit and period, and cite the source of each "
        "figure.",
        "- Do not project, forecast or give investment, tax or accounting advice; when you combine figures, show the "
        "arithmetic.",
        "- Name the fiscal year, reporting period or effective date each figure applies to.",
        "- When figures from different sources or periods differ, give both with their dates.",
        "- Say when a limit or an approval depends on a role or an amount the question does not give.",
    ])),
    "code": ("Code and engineering", "\n".join([
        "- Quote code, commands, configuration keys and identifiers exactly, in code blocks, citing the source that "
        "shows them.",
        "- Name the version of the software, API or library a source describes; do not assume the behaviour of "
        "other versions.",
        "- Do not invent functions, flags, endpoints or options the sources do not show.",
        "- Point out the deprecations, breaking changes and security warnings the sources attach to the answer.",
        "- Prefer the smallest complete example the sources support.",
    ])),
    "hr": ("HR", "\n".join([
        "- Explain the policy as written for employees in general; do not decide individual cases (eligibility, "
        "pay, discipline) and refer those to HR.",
        "- State eligibility conditions, notice periods, amounts and limits exactly, with their effective dates.",
        "- Mention differences by location, contract type or seniority where the sources make them.",
        "- Use neutral, respectful language; do not ask for or repeat personal data.",
        "- Point to the contact or process the sources name for requests and exceptions.",
    ])),
}


