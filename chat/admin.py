from django.contrib import admin

from chat.models import Conversation, Message


class MessageInline(admin.TabularInline):
    model = Message
    fields = ("role", "status", "text", "provider", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "domain", "updated_at")
    list_filter = ("domain",)
    search_fields = ("title", "user__username")
    inlines = [MessageInline]
