from django.apps import AppConfig


class KnowledgeConfig(AppConfig):
    name = "knowledge"
    verbose_name = "Documents and domains"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from knowledge.models import DocumentVersion
        from knowledge.originals import on_version_deleted

        # a stored original goes when the last version using it goes, however the version was deleted (with its
        # document or domain too)
        post_delete.connect(on_version_deleted, sender=DocumentVersion, dispatch_uid="knowledge.original_discard")
