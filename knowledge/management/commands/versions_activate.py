"""python manage.py versions_activate [--date YYYY-MM-DD]"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from knowledge.services import versions_activate_due


class Command(BaseCommand):
    help = ("Make current every scheduled document version whose effective date has come (run daily just after "
            "midnight, e.g. from cron; workers also do it when they start and when an ask finds one due).")

    def add_arguments(self, parser):
        parser.add_argument("--date", default=None, help="decide as on this day, YYYY-MM-DD (default: today); a day "
                                                         "after today needs --early")
        parser.add_argument("--early", action="store_true",
                            help="allow a --date after today: versions scheduled up to that day become current NOW, "
                                 "for every user (undo in the admin: make the earlier version current)")

    def handle(self, *args, date: str | None = None, early: bool = False, **options):
        try:
            today = dt.date.fromisoformat(date) if date else None
        except ValueError:
            raise CommandError(f"--date must be YYYY-MM-DD, got {date!r}")
        if today is not None and today > timezone.localdate() and not early:
            raise CommandError(f"--date {today.isoformat()} is after today: versions scheduled up to then would "
                               "become current now, for every user. Add --early to do that.")
        domains = versions_activate_due(today=today)
        self.stdout.write(f"scheduled versions made current in {len(domains)} domain(s)"
                          + (f": {', '.join(d.slug for d in domains)}" if domains else ""))
