from django.contrib import admin

from api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Administrators can see and revoke tokens (set "revoked at"); secrets are never shown, nor can they be made
    here: users create their own tokens on their settings page."""

    list_display = ("name", "user", "display", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username", "key")
    readonly_fields = ("user", "name", "key", "created_at", "last_used_at")
    fields = ("user", "name", "key", "created_at", "last_used_at", "revoked_at")

    def has_add_permission(self, request) -> bool:
        return False
