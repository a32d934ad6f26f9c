from django.urls import path, re_path

from api import pages, views

app_name = "api"
urlpatterns = [
    path("api/v1/", views.unknown),  # ninja's root view (its docs link) would answer with an HTML 404
    path("api/v1/", views.api_v1.urls),
    re_path(r"^api/(?P<rest>.*)$", views.unknown),
    path("settings/tokens/", pages.tokens, name="tokens"),
    path("settings/tokens/<int:token_id>/revoke/", pages.token_revoke, name="token_revoke"),
]
