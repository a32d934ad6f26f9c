from django.urls import path

from chat import views

app_name = "chat"
urlpatterns = [
    path("", views.index, name="index"),
    path("c/<int:conversation_id>/", views.index, name="conversation"),
    path("c/<int:conversation_id>/export.md", views.export, name="export"),
]
