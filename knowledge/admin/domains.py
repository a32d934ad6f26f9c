"""Admin of domains: instruction presets, who may read a domain, retrieval, token budget and answer settings, with
each domain's document, chunk and token counts. (The chat app extends this admin with the prompt preview.)"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Count, Q, Sum
from django.urls import reverse
from django.utils.html import format_html

from knowledge.admin.common import CSS, unix_newlines
from knowledge.models import DocumentVersion, Domain
from knowledge.services import DOMAIN_PRESETS


class DomainForm(forms.ModelForm):
    preset = forms.ChoiceField(
        required=False, label="Preset",
        choices=[("", "(keep the instructions below)")] + [(k, label) for k, (label, _) in DOMAIN_PRESETS.items()],
        help_text="Fills the instructions with sensible rules for this kind of documents; edit them before saving or "
                  "after. (Without JavaScript the preset replaces the instructions unless you edited them here.)")

    class Meta:
        model = Domain
        fields = "__all__"
        widgets = {"description": forms.Textarea(attrs={"rows": 2, "class": "vLargeTextField"}),
                   "instructions": forms.Textarea(attrs={"rows": 10, "class": "vLargeTextField"}),
                   "model": forms.TextInput(attrs={"placeholder": "provider default"})}

    def clean_instructions(self) -> str:
        return unix_newlines(self.cleaned_data["instructions"])

    def clean(self):
        cleaned = super().clean()
        preset = cleaned.get("preset")
        edited = cleaned.get("instructions", "") != unix_newlines(self.initial.get("instructions") or "")
        if preset and not edited:
            cleaned["instructions"] = DOMAIN_PRESETS[preset][1]
        return cleaned


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    form = DomainForm
    list_display = ("name_and_slug", "documents_link", "indexed", "access", "settings_summary", "tools")
    list_filter = ("groups", "ordering", "format_style", "conflict_policy", "citation_mode")
    search_fields = ("name", "slug", "description", "instructions")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("groups",)
    change_form_template = "admin/knowledge/domain/change_form.html"
    fieldsets = [
        (None, {"fields": ("name", "slug", "description")}),
        ("Instructions", {"fields": ("preset", "instructions"),
                          "description": "Domain-specific rules, added to the system prompt after the evidence "
                                         "contract, followed by the conflict rule chosen below."}),
        ("Who may read it", {"fields": ("groups",),
                             "description": "No group chosen: every signed-in user may read this domain."}),
        ("Retrieval and sources", {"fields": ("relevance_threshold", "max_sources", "ordering", "format_style")}),
        ("Token budget", {"fields": ("window", "completion_reserve", ("history_floor", "history_cap"),
                                     ("sources_floor", "sources_cap")),
                          "description": "available = window x 0.9 safety margin - completion reserve - system "
                                         "prompt - question; history and sources share it within their floors "
                                         "(tokens) and caps (shares of available)."}),
        ("Answers", {"fields": ("answer_mode", "conflict_policy", "citation_mode", "model")}),
    ]

    class Media:
        css = CSS

    def get_queryset(self, request):
        current = Q(documents__versions__status=DocumentVersion.Status.CURRENT)
        return (super().get_queryset(request).prefetch_related("groups")
                .annotate(n_documents=Count("documents", distinct=True),
                          n_chunks=Count("documents__versions__chunks", filter=current),
                          n_tokens=Sum("documents__versions__chunks__tokens", filter=current)))

    @admin.display(description="domain", ordering="name")
    def name_and_slug(self, obj: Domain) -> str:
        return format_html('<strong>{}</strong><br><span class="ax-muted">{}</span>', obj.name, obj.slug)

    @admin.display(description="documents", ordering="n_documents")
    def documents_link(self, obj: Domain) -> str:
        url = reverse("admin:knowledge_document_changelist") + f"?domain__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, obj.n_documents)

    @admin.display(description="current chunks · tokens", ordering="n_chunks")
    def indexed(self, obj: Domain) -> str:
        return f"{obj.n_chunks:,} · {obj.n_tokens or 0:,}"

    @admin.display(description="readable by")
    def access(self, obj: Domain) -> str:
        names = [g.name for g in obj.groups.all()]
        return ", ".join(names) if names else format_html('<span class="ax-muted">{}</span>', "everyone signed in")

    @admin.display(description="settings")
    def settings_summary(self, obj: Domain) -> str:
        return format_html('{} · {} · ≥{} · {}k<br><span class="ax-muted">{} · {} citations · {}</span>',
                           obj.ordering, obj.format_style, f"{obj.relevance_threshold:.2f}", obj.window // 1000,
                           obj.conflict_policy.replace("_", " "), obj.citation_mode, obj.model or "default model")

    @admin.display(description="")
    def tools(self, obj: Domain) -> str:
        return format_html('<a class="ax-link" href="{}">Upload</a>',
                           reverse("admin:knowledge_document_upload") + f"?domain={obj.pk}")

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["presets"] = {k: text for k, (_, text) in DOMAIN_PRESETS.items()}
        return super().render_change_form(request, context, add, change, form_url, obj)
