"""Uploads in the admin: the multi-file upload form, the upload and progress pages (served under the document
admin's URLs by ``UploadViewsMixin``; ingestion runs as a background job) and the read-only list of ingestion jobs."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from grounding.extract import supported_suffixes
from knowledge.admin.common import CSS, badge
from knowledge.models import Domain, IngestJob
from knowledge.selectors import ingest_job_status
from knowledge.services import ingest_job_start


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


def _sole_domain() -> int | None:
    """The id of the only domain, when there is exactly one (the upload form then has it chosen already)."""
    ids = list(Domain.objects.values_list("pk", flat=True)[:2])
    return ids[0] if len(ids) == 1 else None


class UploadViewsMixin:
    """The upload page and its progress page and status (JSON) under a ModelAdmin's URLs (the document admin's:
    ``admin:knowledge_document_upload``, ``..._upload_progress``, ``..._upload_status``)."""

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("upload/", view(self.upload_view), name="knowledge_document_upload"),
            path("upload/<int:job_id>/", view(self.upload_progress_view), name="knowledge_document_upload_progress"),
            path("upload/<int:job_id>/status/", view(self.upload_status_view),
                 name="knowledge_document_upload_status"),
        ] + super().get_urls()

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or more files into a domain; ingestion runs in the background (see the progress page)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = UploadForm(request.POST or None, request.FILES or None,
                          initial={"domain": request.GET.get("domain") or _sole_domain()})
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
