"""python manage.py ask "QUESTION" ["FOLLOW-UP" ...] --domain SLUG [--json]: grounded answers through the same ask
orchestration as the chat; several questions are asked in order as one conversation."""

from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from chat.errors import AskError
from chat.orchestration import ask_sync
from chat.persistence import operator_user
from chat.selectors import domain_get
from chat.serializers import answer_payload
from chat.validation import CLIENT_ID_MAX, validate_client_id, validate_question
from grounding.location import Location, location_text


class Command(BaseCommand):
    help = ("Answer questions from a domain's documents, with citations. Several questions are asked in order as one "
            "conversation (follow-ups are understood as in the chat); with --json one JSON object per answer, one "
            "per line.")

    def add_arguments(self, parser):
        parser.add_argument("questions", nargs="+", metavar="QUESTION")
        parser.add_argument("--domain", required=True, help="domain slug")
        parser.add_argument("--json", action="store_true", help="print each answer as one JSON object per line")
        parser.add_argument("--user", help="ask as this user (default: the command's own account); the domain "
                                           "need not be readable by the user: the command line is an operator's")
        parser.add_argument("--client-id", default="", help="idempotency key of the (first) question: asking again "
                                                            "with the same key prints the stored answer")

    def handle(self, *args, questions: list[str], domain: str, json: bool, user: str | None, client_id: str,
               **options):
        try:
            target = domain_get(slug=domain)
        except AskError as exc:
            raise CommandError(exc.message)
        try:
            asker = operator_user(username=user)
        except LookupError as exc:
            raise CommandError(str(exc))
        for question in questions:  # a message the chat would refuse is refused before the model loads (10 s)
            try:
                validate_question(question)
            except AskError as exc:
                raise CommandError(exc.message)
        client_ids = [turn_client_id(client_id, i) for i in range(len(questions))]
        for turn_id in client_ids:  # the follow-ups' ids too ("<id>:1"), before anything is asked or stored
            try:
                validate_client_id(turn_id)
            except AskError as exc:
                more = (f" With {len(questions)} questions, --client-id may have at most "
                        f"{CLIENT_ID_MAX - len(f':{len(questions) - 1}')} characters (each follow-up's id is "
                        f"\"<id>:<n>\").") if turn_id != client_id else ""
                raise CommandError(exc.message + more)
        _load_model(self.stderr)
        conversation = None
        for i, question in enumerate(questions):
            try:
                answer, frames = ask_sync(user=asker, text=question, conversation_id=conversation,
                                          domain_slug=target.slug if conversation is None else None,
                                          client_id=client_ids[i],
                                          access=False)
            except AskError as exc:
                raise CommandError(exc.message)
            error = next((f for f in frames if f.get("type") == "error"), None)
            if answer is None or error is not None:
                raise CommandError((error or {}).get("message", "The answer failed; please retry."))
            conversation = answer.conversation_id
            result = answer_payload(answer)
            if json:  # the question too: with several, a line is matched to its question by more than its order
                self.stdout.write(_dumps({"question": question, **result}))
                continue
            if len(questions) > 1:
                self.stdout.write(f"Q: {question}")
            self.stdout.write(result["answer"])
            for c in result["citations"]:
                self.stdout.write(f"  [{c['label']}] {citation_line(c)}")
            for label in result["invalid_citations"]:
                self.stdout.write(f"  [{label}] invalid citation (no such source)")


def turn_client_id(client_id: str, i: int) -> str:
    """The idempotency key of question ``i`` (0 for the first) of one ``ask`` run: ``client_id`` itself for the
    first, "<client_id>:<i>" for each follow-up, "" without one."""
    return f"{client_id}:{i}" if client_id and i else client_id


def citation_line(citation: dict) -> str:
    """One citation of the plain output: "Leave > Leave types, p. 4 (version v1, undated)". The place is what
    ``--json`` gives as the citation's ``location`` (grounding.location.location_text: page, slide, sheet and row,
    paragraph), after the title and section; a passage without a place (Markdown, HTML, text) has none."""
    where = " > ".join(p for p in (citation["title"], citation["section"]) if p)
    place = location_text(Location.from_dict(citation.get("location")))
    where = f"{where}, {place}" if where and place else where or place
    return f"{where} (version {citation['version'] or '-'}, {citation['date'] or 'undated'})"


def _load_model(stderr) -> None:
    """Load the embedding model before the first question, saying so on stderr (it takes about 10 s on a small
    machine; a silent command looked stuck to a new user). stdout stays the answers only (--json stays parseable).

    Raises:
        CommandError: the embedding runtime setting is invalid or the model cannot be loaded (its message, no
            traceback).
    """
    from grounding.embeddings import default_embedder

    try:
        embedder = default_embedder()
        if not getattr(embedder, "loaded", True):
            stderr.write("Loading the embedding model (about 10 s)...")
            embedder.load()
    except (RuntimeError, ValueError) as exc:  # a misspelt GROUNDED_EMBEDDING_RUNTIME, the model package missing
        raise CommandError(str(exc)) from exc


def _dumps(data) -> str:
    return jsonlib.dumps(data, ensure_ascii=False)
