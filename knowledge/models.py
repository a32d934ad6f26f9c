"""Domains, documents, document versions and chunks (with their embeddings and token counts)."""

from __future__ import annotations

import uuid

import numpy as np
from django.db import models


class Domain(models.Model):
    """A set of documents with its own instructions (e.g. HR, legal)."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    instructions = models.TextField(blank=True, help_text="Domain-specific rules added to the system prompt.")
    #: Changes whenever the domain's retrievable chunks change; keys the in-process retrieval index cache.
    index_token = models.CharField(max_length=32, default="", editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def touch_index(self) -> None:
        """Mark the retrieval index stale (call after any change to the domain's chunks)."""
        self.index_token = uuid.uuid4().hex
        self.save(update_fields=["index_token"])


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
    """One content of a document. Exactly one version per document is current (the newest by effective date)."""

    class Status(models.TextChoices):
        CURRENT = "current"
        DRAFT = "draft"
        SUPERSEDED = "superseded"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    title = models.CharField(max_length=500)
    label = models.CharField(max_length=100)
    effective_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.CURRENT)
    content_hash = models.CharField(max_length=64)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        unique_together = [("document", "content_hash")]
        ordering = ["document", "-effective_date", "-created_at"]

    def __str__(self) -> str:
        return f"{self.document.title} ({self.label})"


class Chunk(models.Model):
    """A retrievable passage of a document version, with its section path, token count and embedding."""

    version = models.ForeignKey(DocumentVersion, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    section = models.CharField(max_length=1000, blank=True)
    text = models.TextField()
    tokens = models.PositiveIntegerField(help_text="cl100k tokens of the text")
    embedding = models.BinaryField(help_text="float32 little-endian, L2-normalised")

    class Meta:
        ordering = ["version", "ordinal"]
        unique_together = [("version", "ordinal")]

    def vector(self) -> np.ndarray:
        return np.frombuffer(bytes(self.embedding), dtype="<f4")
