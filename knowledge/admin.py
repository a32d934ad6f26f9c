"""Admin for system prompts, domains, documents, versions and uploads, plus the prompt preview (dry run).

Thin by design: every write goes through knowledge.services (versions, presets, supersede, delete, re-index, upload
jobs), every read that is more than a query through knowledge.selectors (upload progress, prompt preview). Every view
is wrapped by ``admin_site.admin_view`` (active staff only) and checks the model permission it needs.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.template.defaultfilters import filesizeformat
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join

from grounding.extract import supported_suffixes
from grounding.location import Location, location_text
from knowledge.models import Document, DocumentVersion, Domain, IngestJob, SystemPrompt
from knowledge.selectors import ingest_job_status
from knowledge.services import (DOMAIN_PRESETS, document_delete, document_reindex, ingest_job_start,
                                system_prompt_activate, system_prompt_active, system_prompt_save,
                                system_prompt_warnings, version_delete, version_make_current, version_supersede)

CSS = {"all": ("admin_extra/admin.css",)}

admin.site.site_header = "Grounded chat administration"
admin.site.site_title = "Grounded chat admin"
admin.site.index_title = "Prompts, domains, documents and conversations"


def badge(value: str, label: str | None = None) -> str:
    """A coloured status pill (styles in static/admin_extra/admin.css)."""
    return format_html('<span class="ax-badge ax-{}">{}</span>', value, label or value.replace("_", " "))


def budget_segments(budget: dict[str, float]) -> list[dict[str, Any]]:
    """The parts of a plan's token budget laid over the window, for the budget bar and table.

    Each segment: key, label, tokens and percent of the window. The prompt parts (system, question, history with the
    summary, notes, sources, then source delimiters) add up to ``total``; then come the room left under ``limit``,
    the completion reserve and the safety margin (window minus usable).
    """
    if not budget or not budget.get("window"):
        return []
    window = float(budget["window"])
    parts = [("system", "system prefix"), ("question", "question"), ("history", "history"), ("notes", "notes"),
             ("sources", "sources")]
    rows = [(key, label, int(budget.get(key, 0))) for key, label in parts]
    prompt = int(budget.get("total", 0))
    rows.append(("delimiters", "source delimiters", max(0, prompt - sum(t for _, _, t in rows))))
    rows.append(("free", "unused", max(0, int(budget.get("limit", 0)) - prompt)))
    rows.append(("reserve", "completion reserve", int(budget.get("completion_reserve", 0))))
    rows.append(("margin", "safety margin", max(0, int(window - budget.get("usable", window)))))
    return [{"key": k, "label": lab, "tokens": t, "percent": round(100 * t / window, 2)} for k, lab, t in rows if t]


def summarized_deletion(found: tuple, objs) -> tuple:
    """Django's deletion summary with only the objects chosen listed (their chunks are counted, not listed one by
    one on the confirmation page)."""
    _, counts, perms_needed, protected = found
    return [str(o) for o in objs], counts, perms_needed, protected


class ObjectActionsMixin:
    """POST buttons on an object's change page (rendered in the object tools by admin/ax_change_form.html).

    ``object_actions`` maps a URL slug to (button label, method name, CSS class); the method takes (request, obj),
    calls one service and messages the user. ``editable = False`` hides the save buttons of a read-only change page.
    """

    object_actions: dict[str, tuple[str, str, str]] = {}
    editable = True
    change_form_template = "admin/ax_change_form.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        extra = [path(f"<path:object_id>/{slug}/", self.admin_site.admin_view(self._object_action),
                      {"slug": slug}, name=f"{info[0]}_{info[1]}_{slug}") for slug in self.object_actions]
        return extra + super().get_urls()

    def _object_action(self, request: HttpRequest, object_id: str, slug: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, object_id)
        if obj is None:
            raise Http404
        if not self.has_change_permission(request, obj):
            raise PermissionDenied
        getattr(self, self.object_actions[slug][1])(request, obj)
        return redirect(reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk]))

    def object_action_buttons(self, request: HttpRequest, obj) -> list[dict[str, str]]:
        """The buttons offered for ``obj`` (override to leave some out)."""
        info = self.opts.app_label, self.opts.model_name
        return [{"slug": slug, "label": label, "css": css,
                 "url": reverse(f"admin:{info[0]}_{info[1]}_{slug}", args=[obj.pk])}
                for slug, (label, _, css) in self.object_actions.items()]

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and change and self.has_change_permission(request, obj):
            context["ax_buttons"] = self.object_action_buttons(request, obj)
        if not self.editable:
            context.update(show_save=False, show_save_and_continue=False, show_save_and_add_another=False)
        return super().render_change_form(request, context, add, change, form_url, obj)


def unix_newlines(text: str) -> str:
    """Browsers send textarea lines ending in CRLF; prompts keep plain newlines."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- system prompts -------------------------------------------------------------------------------------------------

class SystemPromptForm(forms.ModelForm):
    activate = forms.BooleanField(required=False, initial=True, label="Make it the active version",
                                  help_text="Answers use the active version from the next question on.")

    class Meta:
        model = SystemPrompt
        fields = ("text", "note")
        widgets = {"text": forms.Textarea(attrs={"rows": 26, "class": "ax-mono vLargeTextField"}),
                   "note": forms.TextInput(attrs={"class": "vLargeTextField",
                                                  "placeholder": "What changes in this version"})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["note"] = ""  # the note describes the new version, not the one being edited

    def clean_text(self) -> str:
        return unix_newlines(self.cleaned_data["text"]).strip()

    @property
    def text_changed(self) -> bool:
        return self.cleaned_data["text"] != unix_newlines(self.initial.get("text") or "").strip()


@admin.register(SystemPrompt)
class SystemPromptAdmin(ObjectActionsMixin, admin.ModelAdmin):
    """Versions are append-only: the change form of a version saves its edited text as a new version."""

    form = SystemPromptForm
    list_display = ("version_label", "state", "note", "checks", "answers", "created_by", "created_at")
    list_display_links = ("version_label",)
    list_filter = ("is_active", ("created_by", admin.RelatedOnlyFieldListFilter))
    search_fields = ("text", "note")
    readonly_fields = ("state", "created_by", "created_at", "answers", "checks_detail", "changes")
    actions = ["activate_selected"]
    object_actions = {"activate": ("Make this version active", "activate_one", "ax-primary")}
    change_list_template = "admin/knowledge/systemprompt/change_list.html"

    class Media:
        css = CSS

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("created_by").annotate(n_answers=Count("messages"))

    def get_fieldsets(self, request, obj=None):
        edit = (None, {"fields": ("text", "note", "activate"),
                       "description": "Saving creates a new version; this one stays in the history unchanged."
                       if obj else "The evidence contract every answer follows, before the domain's instructions."})
        if obj is None:
            return [edit]
        return [edit, (f"Version {obj.version}", {"fields": ("state", "created_by", "created_at", "answers",
                                                             "checks_detail", "changes")})]

    def get_changeform_initial_data(self, request):
        return {"text": system_prompt_active()[0], **super().get_changeform_initial_data(request)}

    def has_delete_permission(self, request, obj=None):
        return False  # the history stays: answers point at the version they used

    @admin.display(description="version", ordering="version")
    def version_label(self, obj: SystemPrompt) -> str:
        return f"v{obj.version}"

    @admin.display(description="state", ordering="-is_active")
    def state(self, obj: SystemPrompt) -> str:
        return badge("current", "active") if obj.is_active else badge("superseded", "inactive")

    @admin.display(description="checks")
    def checks(self, obj: SystemPrompt) -> str:
        problems = system_prompt_warnings(obj.text)
        return badge("failed", f"{len(problems)} warning{'s' * (len(problems) != 1)}") if problems else badge("ok")

    @admin.display(description="checks")
    def checks_detail(self, obj: SystemPrompt) -> str:
        problems = system_prompt_warnings(obj.text)
        if not problems:
            return "Keeps the citation rule and the abstention token."
        return format_html_join("", '<p class="ax-warning">{}</p>', ((p,) for p in problems))

    @admin.display(description="answers", ordering="n_answers")
    def answers(self, obj: SystemPrompt) -> int:
        return obj.n_answers

    @admin.display(description="changes from the previous version")
    def changes(self, obj: SystemPrompt) -> str:
        previous = SystemPrompt.objects.filter(version__lt=obj.version).order_by("-version").first()
        if previous is None:
            return "First version."
        diff = difflib.unified_diff(previous.text.splitlines(), obj.text.splitlines(), f"v{previous.version}",
                                    f"v{obj.version}", lineterm="", n=1)
        lines = list(diff)[2:]
        if not lines:
            return "Same text as the previous version."
        return format_html('<pre class="ax-diff">{}</pre>', format_html_join(
            "", '<span class="{}">{}</span>\n',
            (("ax-add" if ln.startswith("+") else "ax-del" if ln.startswith("-") else "", ln) for ln in lines)))

    def save_model(self, request, obj, form, change):
        """Store the form's text as a new version (never an update of ``obj``); ``obj`` then stands for it. Saving a
        version's text unchanged makes no new version (it only activates that version when asked)."""
        if change and not form.text_changed:
            if form.cleaned_data.get("activate") and not obj.is_active:
                system_prompt_activate(prompt=obj)
            obj.refresh_from_db()
            obj.unchanged = True
            return
        new = system_prompt_save(text=form.cleaned_data["text"], note=form.cleaned_data.get("note", ""),
                                 user=request.user, activate=form.cleaned_data.get("activate", False))
        for f in SystemPrompt._meta.concrete_fields:
            setattr(obj, f.attname, getattr(new, f.attname))
        obj._state.adding = False
        for warning in system_prompt_warnings(new.text):
            self.message_user(request, warning, messages.WARNING)

    def response_change(self, request, obj):
        active = " (active)" if obj.is_active else ""
        self.message_user(request, f"The text is unchanged: no new version; version {obj.version}{active} stays."
                          if getattr(obj, "unchanged", False) else
                          f"Saved as version {obj.version}{active}; the earlier versions are unchanged.",
                          messages.SUCCESS)
        if "_continue" in request.POST:
            return redirect(reverse("admin:knowledge_systemprompt_change", args=[obj.pk]))
        return redirect(reverse("admin:knowledge_systemprompt_changelist"))

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["show_save_and_add_another"] = False
        return super().render_change_form(request, context, add, change, form_url, obj)

    def changelist_view(self, request, extra_context=None):
        active = SystemPrompt.objects.filter(is_active=True).first()
        return super().changelist_view(request, {"active_prompt": active, **(extra_context or {})})

    def object_action_buttons(self, request, obj):
        return [] if obj.is_active else super().object_action_buttons(request, obj)

    def activate_one(self, request, obj: SystemPrompt) -> None:
        system_prompt_activate(prompt=obj)
        self.message_user(request, f"Version {obj.version} is now active.", messages.SUCCESS)

    @admin.action(description="Make the selected version active", permissions=["change"])
    def activate_selected(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one version to make active.", messages.ERROR)
            return
        self.activate_one(request, queryset.get())


# --- domains --------------------------------------------------------------------------------------------------------

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


# --- documents, versions and uploads ---------------------------------------------------------------------------------

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


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented pattern); cleans to a list."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ",".join(supported_suffixes())}))
        super().__init__(*args, allow_empty_file=True, **kwargs)  # an empty file is reported on its own row

    def clean(self, data, initial=None):
        one = super().clean
        if isinstance(data, (list, tuple)) and data:
            return [one(d, initial) for d in data]
        return [one(data or None, initial)]  # no file at all: the field's "required" error


class UploadForm(forms.Form):
    domain = forms.ModelChoiceField(queryset=Domain.objects.all())
    files = MultipleFileField(help_text="Markdown (front matter: title, doc_id, version, date), plain text, HTML, "
                                        "PDF (scanned pages are read by OCR), Word, PowerPoint, Excel or CSV; "
                                        "several at once. A file with the name of an existing document becomes its "
                                        "new version when its content changed (or is left unchanged). Macros in "
                                        ".docm, .pptm and .xlsm files are never run.")


@admin.register(Document)
class DocumentAdmin(ObjectActionsMixin, admin.ModelAdmin):
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

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("upload/", view(self.upload_view), name="knowledge_document_upload"),
            path("upload/<int:job_id>/", view(self.upload_progress_view), name="knowledge_document_upload_progress"),
            path("upload/<int:job_id>/status/", view(self.upload_status_view),
                 name="knowledge_document_upload_status"),
        ] + super().get_urls()

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

    # uploads ---------------------------------------------------------------------------------------------------

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or more files into a domain; ingestion runs in the background (see the progress page)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = UploadForm(request.POST or None, request.FILES or None,
                          initial={"domain": request.GET.get("domain")})
        if request.method == "POST" and form.is_valid():
            job = ingest_job_start(domain=form.cleaned_data["domain"], files=form.cleaned_data["files"],
                                   user=request.user)
            return HttpResponseRedirect(reverse("admin:knowledge_document_upload_progress", args=[job.pk]))
        jobs = IngestJob.objects.select_related("domain", "created_by").annotate(n_files=Count("files"))[:10]
        return TemplateResponse(request, "admin/knowledge/document/upload.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "title": "Upload documents", "form": form,
            "jobs": jobs, "media": self.media + form.media})

    def _job(self, request: HttpRequest, job_id: int) -> IngestJob:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return get_object_or_404(IngestJob.objects.select_related("domain"), pk=job_id)

    def upload_progress_view(self, request: HttpRequest, job_id: int) -> HttpResponse:
        job = self._job(request, job_id)
        return TemplateResponse(request, "admin/knowledge/document/upload_progress.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "title": f"Upload {job.pk} into "
            f"{job.domain.name}", "job": job, "status": ingest_job_status(job=job), "media": self.media,
            "status_url": reverse("admin:knowledge_document_upload_status", args=[job.pk])})

    def upload_status_view(self, request: HttpRequest, job_id: int) -> JsonResponse:
        return JsonResponse(ingest_job_status(job=self._job(request, job_id)))


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


@admin.register(IngestJob)
class IngestJobAdmin(admin.ModelAdmin):
    """Past and running uploads (read-only); each opens its progress page."""

    list_display = ("__str__", "domain", "job_status", "files_summary", "created_by", "created_at", "finished_at")
    list_filter = ("status", "domain")
    search_fields = ("files__name", "domain__name")
    list_select_related = ("domain", "created_by")
    list_display_links = None

    class Media:
        css = CSS

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            n_files=Count("files"), n_failed=Count("files", filter=Q(files__status="failed")))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return redirect("admin:knowledge_document_upload_progress", job_id=object_id)

    @admin.display(description="status", ordering="status")
    def job_status(self, obj: IngestJob) -> str:
        return badge({"done": "current", "queued": "draft"}.get(obj.status, obj.status), obj.status)

    @admin.display(description="files")
    def files_summary(self, obj: IngestJob) -> str:
        url = reverse("admin:knowledge_document_upload_progress", args=[obj.pk])
        failed = f", {obj.n_failed} failed" if obj.n_failed else ""
        return format_html('<a href="{}">{} files{}</a>', url, obj.n_files, failed)
