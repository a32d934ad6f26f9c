from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    """Evaluation of the answer path on public data sets and a project's own questions (manage.py evaluate).
    Depends on chat (it asks through the chat's one ask orchestration); chat never imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "evaluation"
