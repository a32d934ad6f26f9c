"""The API types of domains and uploads: the domains one may read, and an upload into a domain (an ingestion job
and its files)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from api.schemas.common import Id, Open


class Domain(BaseModel):
    slug: str
    name: str
    description: str


class DomainList(BaseModel):
    domains: list[Domain]


class UploadFile(Open):
    """One uploaded file of an ingestion job: its ingestion status ("queued", "running", then "new",
    "new_version", "unchanged", "restored" or "failed" with the reason in ``error``), and what came of it."""

    name: str
    size: int = Field(description="bytes")
    status: str
    title: str = ""
    version: str = ""
    chunks: int = 0
    tokens: int = 0
    error: str = ""
    pages_done: int = 0
    pages_total: int = 0
    notes: list[str] = []


class IngestJob(Open):
    """An upload into a domain, ingested in the background one file at a time."""

    id: Id
    domain: str
    status: Literal["queued", "running", "done", "failed"]
    finished: bool
    error: str = Field(description="why the whole job failed (a file's own error is on the file)")
    total: int
    done: int
    failed: int
    files: list[UploadFile]
