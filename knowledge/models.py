"""Domains, documents, document versions and chunks (with their embeddings and token counts)."""

from __future__ import annotations


import numpy as np
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from grounding.budget import BudgetPolicy
from grounding.context import ContextSettings
from grounding.ordering import ORDERINGS
from grounding.prompt_sources import FORMAT_STYLES, SourceFormat
from knowledge.access import readable_ids


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



class Document(models.Model):
    """A document of a domain, identified by a stable key (front matter doc_id, else its relative path)."""

    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="documents")
    key = models.CharField(max_length=500)
    title = models.CharField(max_length=500)
    source_path = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        unique_together = [("domain", "key")]
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class DocumentVersion(models.Model):
    """One content of a document. At most one version per document is current: the newest by effective date among
    those in effect (dated today or earlier, or undated); one dated after today is scheduled until its date
    (knowledge.services.versions)."""

    class Status(models.TextChoices):
        CURRENT = "current"
        DRAFT = "draft"
        SUPERSEDED = "superseded"
        SCHEDULED = "scheduled"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    title = models.CharField(max_length=500)
    label = models.CharField(max_length=100)
    effective_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.CURRENT)
    content_hash = models.CharField(max_length=64)
    metadata = models.JSONField(default=dict, blank=True)
    outline = models.JSONField(default=list, blank=True,
                               help_text="the version's section paths in document order, each joined with ' > ' "
                                         "(grounding.list_answers.outline_of); empty: ingested before outlines")
    created_at = models.DateTimeField(auto_now_add=True)
    # the file this version was ingested from (knowledge.originals): stored once per content under ORIGINALS_DIR
    original_name = models.CharField(max_length=255, blank=True, help_text="file name as uploaded")
    original_hash = models.CharField(max_length=64, blank=True, db_index=True,
                                     help_text="SHA-256 of the original bytes (blank: ingested before originals "
                                               "were kept)")
    original_type = models.CharField(max_length=100, blank=True, help_text="content type of the original")
    original_size = models.PositiveBigIntegerField(default=0, help_text="bytes")

    class Meta:
        unique_together = [("document", "content_hash")]
        ordering = ["document", "-effective_date", "-created_at"]

    def __str__(self) -> str:
        return f"{self.document.title} ({self.label})"


class Chunk(models.Model):
    """A retrievable passage of a document version, with its section path, location in the original file, token
    count and embedding."""

    version = models.ForeignKey(DocumentVersion, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    section = models.CharField(max_length=1000, blank=True)
    text = models.TextField()
    tokens = models.PositiveIntegerField(help_text="cl100k tokens of the text")
    embedding = models.BinaryField(help_text="float32 little-endian, L2-normalised")
    location = models.JSONField(default=dict, blank=True,
                                help_text="where the text is in the original file (grounding.location JSON shape: "
                                          "format, pages, slides, sheet, rows, ocr_pages, and the parts of a chunk "
                                          "over several places); {} for Markdown")
    sentences = models.JSONField(default=list, blank=True,
                                 help_text="the text's sentences as contradiction detection reads them "
                                           "(grounding.contradictions.claims), split once at ingestion")
    sentence_vectors = models.BinaryField(default=b"", blank=True,
                                          help_text="float32 little-endian (len(sentences), 384), L2-normalised: "
                                                    "the sentences' embeddings, made once at ingestion")
    units = models.JSONField(null=True, blank=True, default=None,
                             help_text="the other texts the offline answerer reads the chunk as (list items, table "
                                       "rows as column: value pairs, the section heading; knowledge.sentences), made "
                                       "once at ingestion; empty: not made")
    layout = models.JSONField(null=True, blank=True, default=None,
                              help_text="how the offline answerer reads the text: per sentence [start, end, kind, "
                                        "quoted text, typed values] (grounding.sentence_store.chunk_layout), made once "
                                        "at ingestion; empty: not made")
    readings = models.JSONField(null=True, blank=True, default=None,
                                help_text="what contradiction detection reads of each of the sentences: "
                                          "{version, rows} (grounding.claim_readings.stored_readings), made once at "
                                          "ingestion; empty: not made")
    support_values = models.JSONField(null=True, blank=True, default=None,
                                      help_text="the values the support check reads of the text: {v, all, lines} "
                                                "(grounding.support_store.chunk_values), made once at ingestion; "
                                                "empty: not made")
    unit_vectors = models.BinaryField(default=b"", blank=True,
                                      help_text="float32 little-endian (len(units), 384), L2-normalised: the units' "
                                                "embeddings, made once at ingestion")
    injection = models.BooleanField(null=True, blank=True,
                                    help_text="whether the text has a passage addressed to an AI assistant "
                                              "(grounding.injection), checked once at ingestion; empty: not checked")
    value_key = models.TextField(blank=True, default="",
                                 help_text="what near-duplicate removal compares of the text "
                                           "(grounding.dedup.value_key: its stated values and negation count), "
                                           "computed once at ingestion; "
                                           "empty: not computed")

    class Meta:
        ordering = ["version", "ordinal"]
        unique_together = [("version", "ordinal")]

    def vector(self) -> np.ndarray:
        return np.frombuffer(bytes(self.embedding), dtype="<f4")

    def sentence_matrix(self, dim: int = 384) -> np.ndarray | None:
        """The sentence vectors as float32 (len(sentences), dim); None when they were never made (a chunk stored
        before sentences were embedded at ingestion)."""
        data = bytes(self.sentence_vectors or b"")
        if not data and self.sentences:
            return None
        return np.frombuffer(data, dtype="<f4").reshape(-1, dim)

    def unit_matrix(self, dim: int = 384) -> np.ndarray | None:
        """The answer units' vectors as float32 (len(units), dim); None when the units were never made (a chunk
        stored before they were made at ingestion) or their vectors disagree with them."""
        if self.units is None:
            return None
        matrix = np.frombuffer(bytes(self.unit_vectors or b""), dtype="<f4").reshape(-1, dim)
        return matrix if len(matrix) == len(self.units) else None


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

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["is_active"], condition=models.Q(is_active=True),
                                               name="one_active_system_prompt")]

    def __str__(self) -> str:
        return f"System prompt v{self.version}" + (" (active)" if self.is_active else "")


class IngestJob(models.Model):
    """One upload of files into a domain from the admin, ingested in the background one file at a time so the admin
    page can show progress and each file's outcome (knowledge.services.ingest_job_start)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="ingest_jobs")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, help_text="why the whole job failed (file errors are on the files)")
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "upload"

    def __str__(self) -> str:
        return f"Upload {self.pk} into {self.domain}"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)


class IngestJobFile(models.Model):
    """One uploaded file of an IngestJob: queued, running (with pages done of pages total), then an ingestion outcome
    (knowledge.services.FileReport statuses: new, new_version, unchanged, restored, failed) with its chunk and token
    counts or its error, and its notes."""

    job = models.ForeignKey(IngestJob, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    size = models.PositiveIntegerField(default=0, help_text="bytes")
    status = models.CharField(max_length=12, default="queued")
    title = models.CharField(max_length=500, blank=True)
    version = models.CharField(max_length=100, blank=True)
    chunks = models.PositiveIntegerField(default=0)
    tokens = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    pages_done = models.PositiveIntegerField(default=0, help_text="pages (slides, sheets) read so far")
    pages_total = models.PositiveIntegerField(default=0, help_text="pages (slides, sheets) of the file; 0: unknown "
                                                                   "yet or a format without pages")
    notes = models.TextField(blank=True, help_text="what to know besides the outcome, one line each (macros not "
                                                   "run, pages OCR found no text on)")

    PENDING = ("queued", "running")

    class Meta:
        ordering = ["job", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"
