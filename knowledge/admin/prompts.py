"""Admin of system prompt versions: append-only (saving an edited text makes a new version), one active version,
checks that the citation rule and abstention token are kept, and the diff to the previous version."""

from __future__ import annotations

import difflib

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from knowledge.admin.common import CSS, ObjectActionsMixin, badge, unix_newlines
from knowledge.models import SystemPrompt
from knowledge.services import (system_prompt_activate, system_prompt_active, system_prompt_save,
                                system_prompt_warnings)


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
