"""Ingest the bundled demo corpus and create the demo user; prints the login."""

from __future__ import annotations

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from knowledge.services import domain_get_or_create, ingest_path

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-handbook"


class Command(BaseCommand):
    help = "Ingest the demo corpus into the 'handbook' domain and create the demo user (idempotent)."

    def handle(self, *args, **options):
        domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook",
                                      description="Demo: the fictional Tallgrass Robotics staff handbook.")
        report = ingest_path(path=settings.DEMO_CORPUS_DIR, domain=domain)
        self.stdout.write(f"demo corpus: {report.summary()}")
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USER)
        if created or not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save()
        address = os.environ.get("BIND", "127.0.0.1:8000")
        self.stdout.write(self.style.SUCCESS(
            f"Demo login: username '{DEMO_USER}', password '{DEMO_PASSWORD}' at http://{address}/"))
