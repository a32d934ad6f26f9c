from django.urls import path

from knowledge import views

app_name = "knowledge"

urlpatterns = [
    path("documents/<int:version_id>/", views.version_text, name="version"),
    path("documents/<int:version_id>/original", views.original_file, name="original"),
]
