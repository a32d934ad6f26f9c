"""Read-only review of conversations: every turn, and for each answer its trace (sources, dropped candidates and
reasons, budget split, notes, memory, prompt version)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html

from chat.models import Conversation, Message
from knowledge.admin import CSS, badge, budget_segments
from knowledge.models import Chunk


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


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "domain", "turns", "abstentions", "created_at", "updated_at")
    list_filter = ("domain", AnswerFilter, "updated_at")
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
    }
