"""The chat's admin: a read-only review of conversations (every turn, and for each answer the asker's feedback and its
trace: sources, dropped candidates and reasons, budget split, notes, memory, prompt version, usage), and the prompt preview added to
the domain admin (a dry run of one answer through the chat's own preparation; knowledge never imports chat, so the
chat extends the knowledge app's DomainAdmin here)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from chat.errors import AskError
from chat.models import Conversation, Message
from chat.preview import prompt_preview
from knowledge.admin.common import CSS, badge, budget_segments
from knowledge.admin.domains import DomainAdmin
from knowledge.models import Chunk, Domain


class AnswerFilter(admin.SimpleListFilter):
    title = "answers"
    parameter_name = "answers"

    def lookups(self, request, model_admin):
        return [("abstained", "with an abstention"), ("failed", "with a failed or interrupted answer"),
                ("invalid", "with invalid citations")]

    def queryset(self, request, queryset):
        answers = Message.objects.filter(role=Message.Role.ASSISTANT)
        matching = {"abstained": answers.filter(abstained=True),
                    "failed": answers.filter(status__in=[Message.Status.FAILED, Message.Status.INTERRUPTED]),
                    "invalid": answers.exclude(invalid_citations=[])}.get(self.value())
        return queryset if matching is None else queryset.filter(pk__in=matching.values("conversation_id"))


class FeedbackFilter(admin.SimpleListFilter):
    title = "feedback"
    parameter_name = "feedback"

    def lookups(self, request, model_admin):
        return [("unhelpful", "with an answer marked not helpful"), ("helpful", "with an answer marked helpful")]

    def queryset(self, request, queryset):
        if self.value() not in ("helpful", "unhelpful"):
            return queryset
        rated = Message.objects.filter(role=Message.Role.ASSISTANT, feedback=self.value())
        return queryset.filter(pk__in=rated.values("conversation_id"))


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "domain", "turns", "abstentions", "created_at", "updated_at")
    list_filter = ("domain", AnswerFilter, FeedbackFilter, "updated_at")
    search_fields = ("title", "user__username", "messages__text")
    list_select_related = ("user", "domain")
    date_hierarchy = "updated_at"
    fields = ("title", "user", "domain", "created_at", "updated_at", "rolling_summary", "transcript")
    readonly_fields = fields

    class Media:
        css = CSS

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            n_messages=Count("messages", distinct=True),
            n_abstained=Count("messages", filter=Q(messages__abstained=True), distinct=True))

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # a review: nothing here edits or deletes a conversation

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="messages", ordering="n_messages")
    def turns(self, obj: Conversation) -> int:
        return obj.n_messages

    @admin.display(description="abstentions", ordering="n_abstained")
    def abstentions(self, obj: Conversation) -> int:
        return obj.n_abstained

    @admin.display(description="rolling summary")
    def rolling_summary(self, obj: Conversation) -> str:
        stored = getattr(obj, "summary", None)
        if stored is None:
            return "None yet (all turns still fit verbatim)."
        return format_html('<div class="ax-pre">{}</div><p class="ax-muted">turns 1..{} · {} tokens · {}</p>',
                           stored.text, stored.covers, stored.tokens, stored.summarizer or "summarizer unknown")

    @admin.display(description="turns")
    def transcript(self, obj: Conversation) -> str:
        messages = list(obj.messages.select_related("prompt_version").order_by("pk"))
        dropped_ids = {d.get("chunk_id") for m in messages for d in (m.trace or {}).get("dropped", [])}
        where = {c.pk: _passage(c)
                 for c in Chunk.objects.filter(pk__in=dropped_ids - {None}).select_related("version__document")}
        preview = reverse("admin:knowledge_domain_preview", args=[obj.domain_id]) + f"?conversation={obj.pk}"
        return render_to_string("admin/chat/conversation/transcript.html", {
            "turns": [_turn(m, where) for m in messages], "preview_url": preview})


def _passage(c: Chunk) -> str:
    """Where a chunk comes from: "Title › Section (version, status)"."""
    v = c.version
    return f"{v.title or v.document.title}{f' › {c.section}' if c.section else ''} ({v.label}, {v.status})"


def _turn(m: Message, where: dict[int, str]) -> dict[str, Any]:
    """One message with its trace laid out for the transcript template."""
    trace = m.trace or {}
    version = m.prompt_version
    return {
        "m": m,
        "status": badge({"complete": "current", "streaming": "draft"}.get(m.status, m.status), m.status),
        "budget": budget_segments(trace.get("budget") or {}),
        "budget_raw": trace.get("budget") or {},
        "dropped": [{**d, "where": where.get(d.get("chunk_id"), "chunk no longer stored")}
                    for d in trace.get("dropped", [])],
        "notes": trace.get("notes", []),
        "memory": [(k.replace("_", " "), v) for k, v in (trace.get("memory") or {}).items()],
        "query": trace.get("retrieval_query", ""),
        "ordering": trace.get("ordering", ""),
        "abstain_reason": trace.get("abstain_reason", ""),
        "prompt_version": version,
        "prompt_url": reverse("admin:knowledge_systemprompt_change", args=[version.pk]) if version else "",
        "cited": {c.get("label") for c in m.citations if isinstance(c, dict)},
        "coverage": (m.support or {}).get("coverage"),
        "usage": trace.get("usage") or {},
        "max_tokens": trace.get("max_tokens"),
    }


# --- the prompt preview on the domain admin ---------------------------------------------------------------------------

class PreviewForm(forms.Form):
    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "class": "vLargeTextField",
                                                            "placeholder": "A question as a user would type it"}),
                               strip=False)
    conversation = forms.IntegerField(required=False, label="Conversation id (optional)",
                                      help_text="Preview the question as the next turn of this conversation "
                                                "(its history and summary count in the budget).")

    def __init__(self, *args, domain: Domain, **kwargs):
        super().__init__(*args, **kwargs)
        self.domain = domain

    def clean_conversation(self):
        pk = self.cleaned_data.get("conversation")
        if pk is None:
            return None
        conversation = Conversation.objects.filter(pk=pk, domain=self.domain).first()
        if conversation is None:
            raise forms.ValidationError(f"No conversation {pk} in the domain {self.domain.name}.")
        return conversation


class DomainPreviewAdmin(DomainAdmin):
    """The knowledge app's DomainAdmin with the prompt preview (URL name ``admin:knowledge_domain_preview``)."""

    def get_urls(self):
        return [path("<path:object_id>/preview/", self.admin_site.admin_view(self.preview_view),
                     name="knowledge_domain_preview")] + super().get_urls()

    @admin.display(description="")
    def tools(self, obj: Domain) -> str:
        return format_html('<a class="ax-link" href="{}">Preview prompt</a><br>{}',
                           reverse("admin:knowledge_domain_preview", args=[obj.pk]), super().tools(obj))

    def preview_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Dry run of one answer: the exact request and the budget split, without calling the answer model.

        GET ?question=...&conversation=<id> (optional, a conversation of this domain); ?format=json returns the
        preview as JSON (chat.preview.PromptPreview.as_dict).
        """
        domain = self.get_object(request, object_id)
        if domain is None:
            raise Http404
        if not self.has_view_permission(request, domain):
            raise PermissionDenied
        form = PreviewForm(request.GET or None, domain=domain)
        preview, error = None, ""
        if form.is_bound and form.is_valid():
            try:
                preview = prompt_preview(domain=domain, question=form.cleaned_data["question"],
                                         conversation=form.cleaned_data["conversation"])
            except AskError as exc:
                error = exc.message
        if request.GET.get("format") == "json":
            if preview is None:
                return JsonResponse({"error": error or form.errors.get_json_data()}, status=400)
            return JsonResponse(preview.as_dict(), json_dumps_params={"ensure_ascii": False})
        recent = Conversation.objects.filter(domain=domain).select_related("user").order_by("-updated_at")[:10]
        data = preview.as_dict() if preview else {}
        return TemplateResponse(request, "admin/knowledge/domain/preview.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "domain": domain,
            "title": f"Prompt preview: {domain.name}", "form": form, "preview": preview, "error": error,
            "budget": budget_segments(data.get("budget", {})), "sources": data.get("sources", []),
            "dropped": data.get("dropped", []), "notes": data.get("notes", []),
            "request_json": json.dumps(data.get("request"), indent=2, ensure_ascii=False),
            "recent": recent, "media": self.media,
        })


admin.site.unregister(Domain)
admin.site.register(Domain, DomainPreviewAdmin)
