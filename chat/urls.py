from django.urls import path

from chat import views

app_name = "chat"
urlpatterns = [
    path("", views.index, name="index"),
    path("c/<int:conversation_id>/", views.index, name="conversation"),
    path("c/<int:conversation_id>/export.md", views.export, name="export"),
    path("conversations/search", views.conversation_search, name="conversation_search"),
    path("conversations/<str:conversation_id>/rename", views.conversation_rename, name="conversation_rename"),
    path("conversations/<str:conversation_id>/delete", views.conversation_delete, name="conversation_delete"),
    path("answers/<str:message_id>/feedback", views.answer_feedback, name="answer_feedback"),
]
