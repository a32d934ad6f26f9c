"""What every admin area of the knowledge app shares: the admin stylesheet, status badges, the token budget bar
(also used by the chat's prompt preview and conversation review), POST buttons on a change page, the deletion summary
and the newline clean-up of textareas."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html

CSS = {"all": ("admin_extra/admin.css",)}


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
