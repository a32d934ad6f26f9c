"""Documents, their versions and their chunks (with embeddings, token counts and what ingestion read of them)."""

from __future__ import annotations

import numpy as np
from django.db import models

from knowledge.models.domains import Domain


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
                                          "format, pages, slides, sheet, rows, paragraphs, ocr_pages, and the parts "
                                          "of a chunk over several places); {} for Markdown")
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
    injection_version = models.PositiveSmallIntegerField(
        default=0, help_text="the grounding.injection.DETECTOR_VERSION that made ``injection`` (0: one before versions "
                             "were recorded); a chunk checked by an earlier version is checked again at the next "
                             "index build")
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
