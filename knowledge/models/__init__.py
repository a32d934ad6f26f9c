"""The knowledge app's models: domains and system prompts (knowledge.models.domains), documents, versions and chunks
(knowledge.models.documents), background uploads (knowledge.models.jobs)."""

from knowledge.models.documents import Chunk, Document, DocumentVersion
from knowledge.models.domains import Domain, DomainQuerySet, SystemPrompt
from knowledge.models.jobs import IngestJob, IngestJobFile

__all__ = ["Chunk", "Document", "DocumentVersion", "Domain", "DomainQuerySet", "IngestJob", "IngestJobFile",
           "SystemPrompt"]
