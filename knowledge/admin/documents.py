"""Admin of documents: the list with current version, version counts, chunks and tokens; versions inline;
re-index and delete. Documents are made by ingestion, so "add" leads to the upload page (``uploads``)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join

from knowledge.admin.common import CSS, ObjectActionsMixin, badge, summarized_deletion
from knowledge.admin.uploads import UploadViewsMixin
from knowledge.models import Document, DocumentVersion
from knowledge.services import document_delete, document_reindex


class VersionStatusFilter(admin.SimpleListFilter):
    title = "versions"
    parameter_name = "versions"

    def lookups(self, request, model_admin):
        return [("no_current", "no current version"), ("draft", "has a draft"), ("superseded", "has older versions")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "no_current":
            return queryset.exclude(versions__status=DocumentVersion.Status.CURRENT)
        if value in ("draft", "superseded"):
            return queryset.filter(versions__status=value).distinct()
        return queryset


class VersionInline(admin.TabularInline):
    model = DocumentVersion
    fields = ("version_link", "status_badge", "effective_date", "created_at", "n_chunks", "n_tokens")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(chunk_count=Count("chunks"), token_sum=Sum("chunks__tokens"))

    @admin.display(description="version")
    def version_link(self, obj: DocumentVersion) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:knowledge_documentversion_change", args=[obj.pk]),
                           obj.label)

    @admin.display(description="status")
    def status_badge(self, obj: DocumentVersion) -> str:
        return badge(obj.status)

    @admin.display(description="chunks")
    def n_chunks(self, obj: DocumentVersion) -> int:
        return obj.chunk_count

    @admin.display(description="tokens")
    def n_tokens(self, obj: DocumentVersion) -> str:
        return f"{obj.token_sum or 0:,}"


@admin.register(Document)
class DocumentAdmin(UploadViewsMixin, ObjectActionsMixin, admin.ModelAdmin):
    list_display = ("title", "domain", "current_label", "versions_summary", "chunks", "tokens", "updated")
    list_filter = ("domain", VersionStatusFilter)
    search_fields = ("title", "key", "source_path")
    list_select_related = ("domain",)
    fields = ("title", "domain", "key", "source_path", "created_at", "current_label", "chunks", "tokens")
    readonly_fields = fields
    inlines = [VersionInline]
    actions = ["reindex_selected", "delete_selected"]
    object_actions = {"reindex": ("Re-index", "reindex_one", "")}
    editable = False
    change_list_template = "admin/knowledge/document/change_list.html"

    class Media:
        css = CSS

    def get_queryset(self, request):
        current = DocumentVersion.objects.filter(document=OuterRef("pk"), status=DocumentVersion.Status.CURRENT)
        on_current = Q(versions__status=DocumentVersion.Status.CURRENT)
        return (super().get_queryset(request)
                .annotate(n_versions=Count("versions", distinct=True),
                          n_chunks=Count("versions__chunks", filter=on_current),
                          n_tokens=Sum("versions__chunks__tokens", filter=on_current),
                          last_ingested=Max("versions__created_at"),
                          current_version_label=Subquery(current.values("label")[:1]),
                          current_version_date=Subquery(current.values("effective_date")[:1]))
                .prefetch_related("versions"))

    @admin.display(description="current version", ordering="current_version_date")
    def current_label(self, obj: Document) -> str:
        if not obj.current_version_label:
            return badge("failed", "none")
        when = date_format(obj.current_version_date) if obj.current_version_date else "undated"
        return format_html('{}<br><span class="ax-muted">{}</span>', obj.current_version_label, when)

    @admin.display(description="versions", ordering="n_versions")
    def versions_summary(self, obj: Document) -> str:
        counts: dict[str, int] = {}
        for v in obj.versions.all():
            counts[v.status] = counts.get(v.status, 0) + 1
        url = reverse("admin:knowledge_documentversion_changelist") + f"?document__id__exact={obj.pk}"
        pills = format_html_join(" ", "{}", ((badge(s, f"{n} {s}"),) for s, n in sorted(counts.items())))
        return format_html('<a href="{}">{}</a>', url, pills)

    @admin.display(description="chunks", ordering="n_chunks")
    def chunks(self, obj: Document) -> int:
        return obj.n_chunks

    @admin.display(description="tokens", ordering="n_tokens")
    def tokens(self, obj: Document) -> str:
        return f"{obj.n_tokens or 0:,}"

    @admin.display(description="last ingested", ordering="last_ingested")
    def updated(self, obj: Document):
        return obj.last_ingested

    def add_view(self, request, form_url="", extra_context=None):
        return redirect("admin:knowledge_document_upload")  # documents are made by ingestion

    def get_deleted_objects(self, objs, request):
        return summarized_deletion(super().get_deleted_objects(objs, request), objs)

    def delete_model(self, request, obj):
        document_delete(document=obj)

    def delete_queryset(self, request, queryset):
        for document in queryset.select_related("domain"):
            document_delete(document=document)

    def reindex_one(self, request, obj: Document) -> None:
        n = document_reindex(document=obj)
        self.message_user(request, f"Re-indexed {obj.title}: {n} chunks embedded again.", messages.SUCCESS)

    @admin.action(description="Re-index the selected documents", permissions=["change"])
    def reindex_selected(self, request, queryset):
        n = sum(document_reindex(document=d) for d in queryset.select_related("domain"))
        self.message_user(request, f"Re-indexed {queryset.count()} documents ({n} chunks).", messages.SUCCESS)
