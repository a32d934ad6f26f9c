"""Admin of document versions: status (supersede, make current), delete, the original file and the chunks as
retrieved with their locations."""

from __future__ import annotations

from typing import Any, Callable

from django.contrib import admin, messages
from django.db.models import Count, Sum
from django.shortcuts import redirect
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from grounding.location import Location, location_text
from knowledge.admin.common import CSS, ObjectActionsMixin, badge, summarized_deletion
from knowledge.models import DocumentVersion
from knowledge.services import version_delete, version_make_current, version_supersede


@admin.register(DocumentVersion)
class DocumentVersionAdmin(ObjectActionsMixin, admin.ModelAdmin):
    list_display = ("__str__", "label", "status_badge", "effective_date", "ingested", "chunks", "tokens", "domain")
    list_filter = ("status", "document__domain", "effective_date")
    search_fields = ("title", "label", "document__title", "document__key")
    list_select_related = ("document__domain",)
    date_hierarchy = "created_at"
    fields = ("document", "title", "label", "status_badge", "effective_date", "created_at", "content_hash",
              "original", "metadata", "chunks", "tokens", "passages")
    readonly_fields = fields
    actions = ["supersede_selected", "make_current_selected", "delete_selected"]
    object_actions = {"supersede": ("Mark superseded", "supersede_one", ""),
                      "make-current": ("Make current", "make_current_one", "ax-primary")}
    editable = False

    class Media:
        css = CSS

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_chunks=Count("chunks"), n_tokens=Sum("chunks__tokens"))

    def has_add_permission(self, request):
        return False

    def object_action_buttons(self, request, obj):
        pointless = {"current": "make-current", "superseded": "supersede"}.get(obj.status)
        return [b for b in super().object_action_buttons(request, obj) if b["slug"] != pointless]

    @admin.display(description="status", ordering="status")
    def status_badge(self, obj: DocumentVersion) -> str:
        return badge(obj.status)

    @admin.display(description="ingested", ordering="created_at")
    def ingested(self, obj: DocumentVersion):
        return obj.created_at

    @admin.display(description="chunks", ordering="n_chunks")
    def chunks(self, obj: DocumentVersion) -> int:
        return obj.n_chunks

    @admin.display(description="tokens", ordering="n_tokens")
    def tokens(self, obj: DocumentVersion) -> str:
        return f"{obj.n_tokens or 0:,}"

    @admin.display(description="domain", ordering="document__domain__name")
    def domain(self, obj: DocumentVersion) -> str:
        return obj.document.domain.name

    @admin.display(description="original file")
    def original(self, obj: DocumentVersion) -> str:
        if not obj.original_hash:
            return "– (ingested before original files were kept)"
        return format_html('<a href="{}">{}</a> <span class="ax-muted">{}, {}</span>',
                           reverse("knowledge:original", args=[obj.pk]), obj.original_name, obj.original_type,
                           filesizeformat(obj.original_size))

    @admin.display(description="chunks as retrieved")
    def passages(self, obj: DocumentVersion) -> str:
        rows = format_html_join("", '<tr><td class="ax-num">{}</td><td>{}</td><td>{}</td><td class="ax-num">{}</td>'
                                    '<td><div class="ax-pre">{}</div></td></tr>',
                                ((c.ordinal, c.section or "–", location_text(Location.from_dict(c.location)) or "–",
                                  c.tokens, c.text)
                                 for c in obj.chunks.order_by("ordinal")))
        return format_html('<table class="ax-passages"><thead><tr><th class="ax-num">#</th><th>section</th>'
                           '<th>location</th><th class="ax-num">tokens</th><th>text</th></tr></thead>'
                           '<tbody>{}</tbody></table>', rows)

    def get_deleted_objects(self, objs, request):
        return summarized_deletion(super().get_deleted_objects(objs, request), objs)

    def delete_model(self, request, obj):
        version_delete(version=obj)

    def delete_queryset(self, request, queryset):
        for version in queryset.select_related("document__domain"):
            version_delete(version=version)

    def response_delete(self, request, obj_display, obj_id):
        # the document may be gone with its last version: the version list is always there to return to
        self.message_user(request, f"Deleted {obj_display}; its chunks are no longer retrieved.", messages.SUCCESS)
        return redirect("admin:knowledge_documentversion_changelist")

    def _apply(self, request, versions, service: Callable[..., Any], done: str) -> None:
        for version in versions:
            service(version=version)
        self.message_user(request, done, messages.SUCCESS)

    def supersede_one(self, request, obj: DocumentVersion) -> None:
        self._apply(request, [obj], version_supersede, f"{obj} is superseded: it is no longer retrieved as current.")

    def make_current_one(self, request, obj: DocumentVersion) -> None:
        self._apply(request, [obj], version_make_current, f"{obj} is now the current version.")

    @admin.action(description="Mark the selected versions superseded", permissions=["change"])
    def supersede_selected(self, request, queryset):
        versions = list(queryset.select_related("document__domain"))
        self._apply(request, versions, version_supersede, f"{len(versions)} versions marked superseded.")

    @admin.action(description="Make the selected version current", permissions=["change"])
    def make_current_selected(self, request, queryset):
        versions = list(queryset.select_related("document__domain"))
        if len({v.document_id for v in versions}) != len(versions):
            self.message_user(request, "Choose at most one version per document to make current.", messages.ERROR)
            return
        self._apply(request, versions, version_make_current, f"{len(versions)} versions made current.")
