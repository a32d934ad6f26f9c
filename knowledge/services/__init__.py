"""Writes of the knowledge app (HackSoft styleguide: services are keyword-only ``<entity>_<action>`` functions), one
module per concern; this package names the public ones so callers import ``knowledge.services``.

    domains     domain_get_or_create
    ingestion   ingest_path, document_ingest: files to stored versions, chunks and vectors, the index published
    preparing   a folder's files (and the skipped ones), each file extracted and chunked before it is stored
    reports     IngestError, FileReport, IngestReport, max_file_bytes, too_large_error
    versions    which version is current (versions_activate_due, versions_activate_soon: scheduled versions whose
                date came); version_supersede, version_make_current, version_delete, document_delete,
                document_reindex
    prompts     system prompts (system_prompt_save, system_prompt_activate, system_prompt_active, warnings) and
                DOMAIN_PRESETS
    uploads     ingest_job_start, ingest_job_launch: an upload saved and its background job started
    jobs        ingest_job_run: an upload job's files ingested one at a time; ingest_jobs_abandoned at start
"""

from knowledge.services.domains import domain_get_or_create
from knowledge.services.ingestion import document_ingest, ingest_path
from knowledge.services.jobs import ingest_job_run, ingest_jobs_abandoned
from knowledge.services.prompts import (DOMAIN_PRESETS, system_prompt_activate, system_prompt_active,
                                        system_prompt_save, system_prompt_warnings)
from knowledge.services.reports import FileReport, IngestError, IngestReport, max_file_bytes, too_large_error
from knowledge.services.uploads import UploadedFileLike, ingest_job_launch, ingest_job_start
from knowledge.services.versions import (document_delete, document_reindex, version_delete, version_make_current,
                                         version_supersede, versions_activate_due, versions_activate_soon)

__all__ = ["DOMAIN_PRESETS", "FileReport", "IngestError", "IngestReport", "UploadedFileLike", "document_delete",
           "document_ingest", "document_reindex", "domain_get_or_create", "ingest_job_launch", "ingest_job_run",
           "ingest_jobs_abandoned", "ingest_job_start", "ingest_path", "max_file_bytes", "system_prompt_activate",
           "system_prompt_active",
           "system_prompt_save", "system_prompt_warnings", "too_large_error", "version_delete",
           "version_make_current", "version_supersede", "versions_activate_due", "versions_activate_soon"]
