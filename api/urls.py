from django.urls import path, re_path

from api import pages, views

app_name = "api"
urlpatterns = [
    path("api/v1/ask", views.ask, name="ask"),
    path("api/v1/conversations", views.conversations, name="conversations"),
    path("api/v1/conversations/<str:conversation_id>", views.conversation, name="conversation"),
    path("api/v1/domains", views.domains, name="domains"),
    path("api/v1/schema", views.schema, name="schema"),
    re_path(r"^api/(?P<rest>.*)$", views.unknown),
    path("settings/tokens/", pages.tokens, name="tokens"),
    path("settings/tokens/<int:token_id>/revoke/", pages.token_revoke, name="token_revoke"),
]
