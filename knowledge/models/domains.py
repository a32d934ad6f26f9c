"""Domains (document sets with their own instructions, readers and context settings) and the system prompt versions."""

from __future__ import annotations

import hashlib

from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from grounding.budget import BudgetPolicy
from grounding.context import ContextSettings
from grounding.ordering import ORDERINGS
from grounding.prompt import default_prompt_raw
from grounding.prompt_sources import FORMAT_STYLES, SourceFormat
from grounding.token_pieces import raw_count
from knowledge.access import readable_ids


def counted_digest(text: str) -> str:
    """The sha256 hex digest (64 characters) of ``text`` as counted, stored beside its token count so that a count
    is used only for the text it was made from."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def count_on_save(instance: models.Model, kwargs: dict, watched: set[str], text: str, tokens_field: str,
                  digest_field: str) -> None:
    """Before ``instance`` is saved with ``kwargs``: store the cl100k tokens (grounding.token_pieces.raw_count) of
    ``text`` in ``tokens_field`` and its digest (:func:`counted_digest`) in ``digest_field`` when the save writes
    one of the ``watched`` fields (a save naming ``update_fields`` without them leaves the count as it is; one naming
    them writes the count too)."""
    fields = kwargs.get("update_fields")
    if fields is None or watched & set(fields):
        setattr(instance, tokens_field, raw_count(text))
        setattr(instance, digest_field, counted_digest(text))
        if fields is not None:
            kwargs["update_fields"] = {*fields, tokens_field, digest_field}


def stored_count(tokens: int | None, digest: str, text: str) -> int | None:
    """A stored count (tokens) when it was made from ``text`` (its digest matches), else None: a text changed
    without a save (a queryset update) or a conflict rule changed in the code since the save is counted again when
    an answer is planned, never budgeted with a stale count."""
    return tokens if tokens is not None and digest == counted_digest(text) else None


class DomainQuerySet(models.QuerySet):
    """Domain queries with the access rule in one place."""

    def readable_by(self, user) -> "DomainQuerySet":
        """The domains ``user`` may read: superusers read all; other signed-in users read the domains that name
        none of the groups (open to everyone signed in) and those naming one of their groups; anonymous or inactive
        users none (knowledge.access)."""
        rule = readable_ids(user)
        if isinstance(rule, bool):
            return self.all() if rule else self.none()
        return self.filter(pk__in=rule)


class Domain(models.Model):
    """A set of documents with its own instructions (e.g. HR, legal), readable by the groups it names (none named:
    every signed-in user)."""

    objects = DomainQuerySet.as_manager()

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    instructions = models.TextField(blank=True, help_text="Domain-specific rules added to the system prompt.")
    #: The published retrieval index: changes whenever the domain's retrievable chunks change (knowledge.indexing).
    index_token = models.CharField(max_length=32, default="", editable=False)
    groups = models.ManyToManyField(Group, blank=True, related_name="domains",
                                    help_text="Groups whose members may read this domain; none: every signed-in user.")
    citation_mode = models.CharField(
        max_length=10, default="text", choices=[("text", "text markers [S#]"), ("native", "provider-native citations")],
        help_text="Native mode sends sources as search results with citations enabled (Anthropic only).")
    model = models.CharField(max_length=100, blank=True,
                             help_text="Model name for this domain; blank: the provider's configured default.")

    # Context construction settings (grounding.context.ContextSettings); defaults are the library's.
    ordering = models.CharField(max_length=20, default="relevance", choices=[(o, o) for o in ORDERINGS],
                                help_text="Order of sources in the prompt; 'edges' counters lost-in-the-middle.")
    format_style = models.CharField(max_length=10, default="xml", choices=[(s, s) for s in FORMAT_STYLES])
    answer_mode = models.CharField(max_length=20, default="direct",
                                   choices=[("direct", "direct"), ("quote_then_answer", "quote then answer")])
    relevance_threshold = models.FloatField(default=0.35, help_text="Best cosine below which answers abstain.",
                                            validators=[MinValueValidator(-1.0), MaxValueValidator(1.0)])
    window = models.PositiveIntegerField(default=16_000, help_text="Model context window, tokens.",
                                         validators=[MinValueValidator(2_000)])
    completion_reserve = models.PositiveIntegerField(default=1_024, help_text="Tokens kept for the answer.")
    history_floor = models.PositiveIntegerField(default=256, help_text="Tokens reserved for history, if needed.")
    history_cap = models.FloatField(default=0.35, help_text="Largest share of the budget history may take.",
                                    validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    sources_floor = models.PositiveIntegerField(default=1_024, help_text="Tokens reserved for sources, if needed.")
    sources_cap = models.FloatField(default=1.0, help_text="Largest share of the budget sources may take.",
                                    validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    max_sources = models.PositiveIntegerField(default=8, validators=[MinValueValidator(1), MaxValueValidator(50)])
    conflict_policy = models.CharField(
        max_length=20, default="prefer_newest",
        choices=[("prefer_newest", "prefer the newest source, mention the older"),
                 ("show_both", "show both sides without choosing")],
        help_text="What answers do when sources disagree.")

    #: cl100k tokens of prompt_instructions() (stripped), counted when the domain is saved, so planning an answer does
    #: not encode them again (grounding.prompt.system_prefix_raw); None: not counted yet (planning counts them).
    instructions_tokens = models.PositiveIntegerField(null=True, blank=True, editable=False,
                                                      help_text="cl100k tokens of the instructions with the conflict "
                                                                "rule, counted at save")
    #: counted_digest of the text instructions_tokens counted ("" before the s17 round): the count is read only for it.
    instructions_digest = models.CharField(max_length=64, blank=True, default="", editable=False)

    CONFLICT_RULES = {
        "prefer_newest": "When sources disagree, answer from the most recent source and say that an older or other "
                         "source says otherwise, citing both.",
        "show_both": "When sources disagree, present each position with its source's date and citation, and do not "
                     "choose between them.",
    }

    def prompt_instructions(self) -> str:
        """The domain's instructions plus its conflict rule (the stable part of the system prompt)."""
        rule = self.CONFLICT_RULES.get(self.conflict_policy, "")
        return "\n".join(part for part in (self.instructions.strip(), rule) if part)

    def save(self, *args, **kwargs) -> None:
        """Save, counting the instructions as the system prompt will hold them (stored counts follow the text:
        a save naming ``update_fields`` without the instructions or the conflict policy leaves the count as is)."""
        count_on_save(self, kwargs, {"instructions", "conflict_policy"}, self.prompt_instructions().strip(),
                      "instructions_tokens", "instructions_digest")
        super().save(*args, **kwargs)

    def stored_counts(self, prompt: "SystemPrompt | None") -> tuple[int | None, int | None]:
        """The raw counts plan_context's ``stored_counts`` takes: the prompt version's and this domain's
        instructions' (tokens; None where not stored yet). No version active: the built-in default prompt's count,
        made once per process. A count is read only for the text it was made from (:func:`stored_count`)."""
        own = stored_count(self.instructions_tokens, self.instructions_digest, self.prompt_instructions().strip())
        return (prompt.stored_tokens() if prompt is not None else default_prompt_raw()), own

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Validate the settings together: they must form a usable policy with room left for a question."""
        try:
            settings = self.context_settings()
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc
        if settings.policy.limit < 1_000:
            raise ValidationError(f"window x safety margin minus the completion reserve leaves "
                                  f"{settings.policy.limit} tokens; at least 1,000 are needed for the prompt")

    def context_settings(self) -> ContextSettings:
        """This domain's settings as the framework-free type. Raises ValueError for out-of-range values."""
        policy = BudgetPolicy(window=self.window, completion_reserve=self.completion_reserve,
                              history_floor=self.history_floor, history_cap=self.history_cap,
                              sources_floor=self.sources_floor, sources_cap=self.sources_cap,
                              relevance_threshold=self.relevance_threshold, max_sources=self.max_sources)
        return ContextSettings(policy=policy, ordering=self.ordering, answer_mode=self.answer_mode,
                               source_format=SourceFormat(style=self.format_style))


class SystemPrompt(models.Model):
    """One version of the system prompt (the stable prefix of every answer's prompt).

    Versions are append-only: editing creates a new version, the history stays, and at most one version is active
    (none active: grounding.prompt.DEFAULT_SYSTEM_PROMPT is used). Each answer records the version it used.
    """

    version = models.PositiveIntegerField(unique=True)
    text = models.TextField()
    note = models.CharField(max_length=200, blank=True, help_text="What changed in this version.")
    is_active = models.BooleanField(default=False)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    #: cl100k tokens of the stripped text, counted when the version is saved (grounding.prompt.system_prefix_raw).
    tokens = models.PositiveIntegerField(null=True, blank=True, editable=False,
                                         help_text="cl100k tokens of the text, counted at save")
    #: counted_digest of the text ``tokens`` counted ("" before the s17 round).
    digest = models.CharField(max_length=64, blank=True, default="", editable=False)

    def save(self, *args, **kwargs) -> None:
        """Save, counting the text (the count is stored with it whenever the text is saved)."""
        count_on_save(self, kwargs, {"text"}, self.text.strip(), "tokens", "digest")
        super().save(*args, **kwargs)

    def stored_tokens(self) -> int | None:
        """The stored count of the stripped text (tokens), None when it was not made from the text as it is."""
        return stored_count(self.tokens, self.digest, self.text.strip())

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["is_active"], condition=models.Q(is_active=True),
                                               name="one_active_system_prompt")]

    def __str__(self) -> str:
        return f"System prompt v{self.version}" + (" (active)" if self.is_active else "")
