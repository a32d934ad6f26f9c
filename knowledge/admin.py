from django.contrib import admin

from knowledge.models import Document, DocumentVersion, Domain


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    list_display = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


class VersionInline(admin.TabularInline):
    model = DocumentVersion
    fields = ("label", "effective_date", "status", "created_at")
    readonly_fields = ("created_at",)
    extra = 0


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("title", "domain", "key")
    list_filter = ("domain",)
    search_fields = ("title", "key")
    inlines = [VersionInline]
