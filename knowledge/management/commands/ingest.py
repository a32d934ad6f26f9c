"""python manage.py ingest PATH --domain SLUG [--version LABEL] [--date YYYY-MM-DD]"""

from __future__ import annotations

import datetime as dt
import signal
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from knowledge.models import Domain
from knowledge.services import IngestError, domain_get_or_create, ingest_path


class Command(BaseCommand):
    help = ("Ingest a file or folder of Markdown, text, HTML, PDF, Word, PowerPoint, Excel or CSV documents into a domain "
            "(created when missing).")

    def create_parser(self, prog_name, subcommand, **kwargs):
        # --version is ours (a document version label), not Django's "show the Django version".
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("path", help="file or folder")
        parser.add_argument("--domain", required=True, help="domain slug")
        parser.add_argument("--name", default="", help="domain name when the domain is created")
        parser.add_argument("--version", dest="version_label", default=None, help="version label for every file")
        parser.add_argument("--date", default=None, help="effective date YYYY-MM-DD for every file")
        parser.add_argument("--doc-id", dest="doc_id", default=None,
                            help="document identity for every file (ingest revisions as versions of one document)")

    def handle(self, *args, path: str, domain: str, name: str, version_label: str | None, date: str | None,
               doc_id: str | None = None, **options):
        effective = None
        if date:
            try:
                effective = dt.date.fromisoformat(date)
            except ValueError:
                raise CommandError(f"--date must be YYYY-MM-DD, got {date!r}")
        from django.core.exceptions import ValidationError
        from django.core.validators import validate_slug

        try:
            validate_slug(domain.strip())
        except ValidationError:
            raise CommandError(f"--domain must be a slug (letters, digits, - and _), got {domain!r}")
        target = Path(path)
        if not target.exists():
            raise CommandError(f"{path}: no such file or folder")
        existed = Domain.objects.filter(slug=domain.strip()).exists()
        try:
            dom = domain_get_or_create(slug=domain.strip(), name=name)
        except ValueError as exc:
            raise CommandError(str(exc))
        previous = signal.signal(signal.SIGTERM, _interrupted)  # `timeout`, `kill`: stop as Ctrl-C does
        try:
            report = ingest_path(path=target, domain=dom, version=version_label, date=effective, key=doc_id,
                                 progress=lambda line: self.stdout.write(line))
        except IngestError as exc:
            if not existed:
                dom.delete()
            raise CommandError(str(exc))
        except KeyboardInterrupt:
            # the new versions are stored in one transaction at the end; a domain this run created is not left empty
            if not existed and not dom.documents.exists():
                dom.delete()
            raise CommandError("interrupted: no new version was stored by this run")
        finally:
            signal.signal(signal.SIGTERM, previous)
        if len(report.failed) == len(report.read):  # a skipped file (not a document) is no failure
            if not existed:
                dom.delete()  # nothing ingested: leave no empty domain behind
            raise CommandError(f"no file could be ingested ({report.summary()})")
        summary = report.summary()
        self.stdout.write(self.style.WARNING(summary) if report.failed else self.style.SUCCESS(summary))


def _interrupted(signum, frame):
    """SIGTERM read as an interruption (KeyboardInterrupt), so the command cleans up as on Ctrl-C."""
    raise KeyboardInterrupt
