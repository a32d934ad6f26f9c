"""Admin for system prompts, domains, documents, versions and uploads, plus the prompt preview (dry run).

Thin by design: every write goes through knowledge.services (versions, presets, supersede, delete, re-index, upload
jobs), every read that is more than a query through knowledge.selectors (upload progress, prompt preview). Every view
is wrapped by ``admin_site.admin_view`` (active staff only) and checks the model permission it needs.

One module per admin area, each registering its own ModelAdmin when imported (Django's admin autodiscover imports
this package, which imports them all):

- ``common``: what every area shares: the stylesheet, status badges, the token budget bar, POST buttons on a
  change page (``ObjectActionsMixin``), the deletion summary and newline clean-up of textareas.
- ``prompts``: system prompt versions (append-only, activation, checks, diff to the previous version).
- ``domains``: domains with their instruction presets, access groups and retrieval/budget settings.
- ``documents``: documents with their versions inline, re-index and delete.
- ``versions``: document versions (supersede, make current, delete, chunks as retrieved, the original file).
- ``uploads``: the upload form and its progress pages, and the read-only list of ingestion jobs.
"""

from __future__ import annotations

from django.contrib import admin

admin.site.site_header = "Grounded chat administration"
admin.site.site_title = "Grounded chat admin"
admin.site.index_title = "Prompts, domains, documents and conversations"

# importing each area registers its admins (after the site titles above)
from knowledge.admin import documents, domains, prompts, uploads, versions  # noqa: E402

__all__ = ["documents", "domains", "prompts", "uploads", "versions"]
