"""python manage.py ask "QUESTION" --domain SLUG [--json]: one grounded answer through the same path as the chat."""

from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from chat.services import AskError, answer_json, answer_once, domain_get


class Command(BaseCommand):
    help = "Answer one question from a domain's documents, with citations (no conversation is stored)."

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--domain", required=True, help="domain slug")
        parser.add_argument("--json", action="store_true", help="print the full result as JSON")

    def handle(self, *args, question: str, domain: str, json: bool, **options):
        try:
            prepared, verified = answer_once(domain=domain_get(slug=domain), question=question)
        except AskError as exc:
            raise CommandError(exc.message)
        result = answer_json(prepared, verified)
        if json:
            self.stdout.write(_dumps(result))
            return
        self.stdout.write(result["answer"])
        for c in result["citations"]:
            where = " > ".join(p for p in (c["title"], c["section"]) if p)
            self.stdout.write(f"  [{c['label']}] {where} (version {c['version'] or '-'}, {c['date'] or 'undated'})")
        for label in result["invalid_citations"]:
            self.stdout.write(f"  [{label}] invalid citation (no such source)")


def _dumps(data) -> str:
    return jsonlib.dumps(data, ensure_ascii=False, indent=2)
