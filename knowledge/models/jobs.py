"""Uploads from the admin, ingested in the background: the job and each of its files."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from knowledge.models.domains import Domain


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
