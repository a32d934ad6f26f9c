"""The real answer pipeline on evaluation data: passages ingested into a temporary domain, questions asked through
the chat's one ask orchestration as ``manage.py ask --json`` asks them (chat.orchestration.ask_sync, each question
in a new conversation of the command-line account) -> chat.serializers.answer_payload.

A TemporaryDomain is created for one evaluation run, readable only by a temporary group (so signed-in users do not
see it in their domain list while it exists), reloaded with each record's passages (written as files to a temporary
folder and ingested with knowledge.services.ingest_path, the same parsing, chunking and embedding as any ingestion)
and deleted with its documents, chunks, conversations and group at the end, also when the run fails. The user's
domains are never written to; the golden suite only reads them (its conversations, of the command-line account, are
deleted at the end).
"""

from __future__ import annotations

import html
import re
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from django.conf import settings
from django.contrib.auth.models import Group

from evaluation.common import CachingEmbedder, EvaluationError
from chat.errors import AskError
from chat.models import Conversation
from chat.orchestration import ask_sync
from chat.persistence import operator_user
from chat.providers import ProviderRegistry
from chat.serializers import answer_payload
from grounding.embeddings import default_embedder
from grounding.extractive import ExtractiveAnswerer
from grounding.providers import Provider
from knowledge.indexing import index_publish
from knowledge.models import Chunk, Document, DocumentVersion, Domain
from knowledge.services import ingest_path

PROVIDERS = ("extractive", "anthropic", "openai")
#: Slug prefix of temporary domains (followed by 12 hex digits).
TEMPORARY_PREFIX = "eval-tmp-"


def make_provider(name: str) -> Provider:
    """The answer provider called ``name``, built from the same settings as chat.providers.provider_from_settings
    (which picks the provider from LLM_PROVIDER instead of by name).

    Raises:
        EvaluationError: unknown name, or anthropic without ANTHROPIC_API_KEY.
    """
    if name == "extractive":
        return ExtractiveAnswerer()
    if name == "anthropic":
        if not settings.ANTHROPIC_API_KEY:
            raise EvaluationError("--provider anthropic needs ANTHROPIC_API_KEY in the environment")
        from grounding.providers_anthropic import AnthropicProvider

        return AnthropicProvider(api_key=settings.ANTHROPIC_API_KEY, model=settings.ANTHROPIC_MODEL,
                                 citation_mode=settings.ANTHROPIC_CITATION_MODE)
    if name == "openai":
        from grounding.providers_openai import OpenAICompatibleProvider

        return OpenAICompatibleProvider(base_url=settings.OPENAI_BASE_URL, model=settings.OPENAI_MODEL,
                                        api_key=settings.OPENAI_API_KEY or None)
    raise EvaluationError(f"unknown provider {name!r}; expected one of {', '.join(PROVIDERS)}")


@dataclass(frozen=True)
class EvalDocument:
    """One passage to ingest, identified by its ``title`` (unique within a record; letters, digits and spaces). It
    is written as "<title>.txt" (plain text: the parser takes the title from the file name) or, for ``html``
    fragments (ConditionalQA's evidence), "<title>.html" under an <h1> title."""

    title: str
    text: str
    html: bool = False

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 ]*", self.title):
            raise ValueError(f"document title {self.title!r} must be letters, digits and spaces")

    @property
    def file_name(self) -> str:
        return self.title + (".html" if self.html else ".txt")

    def file_text(self) -> str:
        """The file's content. NUL characters are dropped (a few RAMDocs web scrapes carry them, and the parser
        rightly refuses a file with NUL bytes as binary)."""
        text = self.text.replace("\x00", "")
        if self.html:
            return f"<h1>{html.escape(self.title)}</h1>\n{text}\n"
        return text.strip() + "\n"


class TemporaryDomain:
    """A throwaway domain for one evaluation run (a context manager: created on enter, deleted on exit).

    ``load(documents)`` replaces the domain's documents with ``documents`` (nothing is done when they are the ones
    loaded already); ``chunks`` then maps each chunk id to (document title, chunk text).
    """

    def __init__(self, embedder=None) -> None:
        self.embedder = CachingEmbedder(embedder or default_embedder())
        self.domain: Domain | None = None
        self.group: Group | None = None
        self.loaded: tuple[EvalDocument, ...] | None = None
        self.chunks: dict[int, tuple[str, str]] = {}  # chunk id -> (document title, chunk text)
        self.keys: dict[int, str] = {}  # chunk id -> its document's key (the path relative to an ingested folder)
        self.revisions: list[dict[str, str]] = []  # revisions load_path ingested: file, key, date, status

    def __enter__(self) -> "TemporaryDomain":
        token = uuid.uuid4().hex[:12]
        self.group = Group.objects.create(name=f"{TEMPORARY_PREFIX}{token}")
        self.domain = Domain.objects.create(slug=f"{TEMPORARY_PREFIX}{token}", name=f"Evaluation {token}",
                                            description="Temporary domain of manage.py evaluate; deleted at the "
                                                        "end of the run.")
        self.domain.groups.add(self.group)
        return self

    def __exit__(self, *exc) -> None:
        if self.domain is not None:
            Conversation.objects.filter(domain=self.domain).delete()
            self.domain.delete()
        if self.group is not None:
            self.group.delete()
        self.domain = self.group = None

    def load(self, documents: Sequence[EvalDocument]) -> None:
        """Make ``documents`` the domain's only documents (ingested through knowledge.services.ingest_path).

        Raises:
            EvaluationError: a passage failed to ingest (the message says which and why).
        """
        documents = tuple(documents)
        if documents == self.loaded:
            return
        assert self.domain is not None, "use TemporaryDomain as a context manager"
        Document.objects.filter(domain=self.domain).delete()
        index_publish(domain=self.domain)
        self.loaded, self.chunks, self.keys = None, {}, {}
        with tempfile.TemporaryDirectory(prefix="evaluate-") as tmp:
            for d in documents:
                Path(tmp, d.file_name).write_text(d.file_text(), encoding="utf-8")
            report = ingest_path(path=Path(tmp), domain=self.domain, embedder=self.embedder)
        if report.failed:
            raise EvaluationError("; ".join(f.error for f in report.failed))
        self._index()
        self.loaded = documents

    def load_path(self, path: Path, revisions: Sequence = ()) -> None:
        """Make the documents under ``path`` (a file or folder, as ``manage.py ingest`` takes) the domain's only ones.

        ``revisions`` (evaluation.golden.Revision: a file, the key of the page it revises, its date) are ingested
        first, each as a dated version of its page's document; the folder's pages, undated and ingested after them,
        are then the current versions and the revisions superseded (knowledge.services: an undated version is at
        least as new as every version ingested before it).
        Raises:
            EvaluationError: nothing could be ingested from ``path``, or a revision failed.
        """
        from knowledge.services import IngestError

        assert self.domain is not None, "use TemporaryDomain as a context manager"
        Document.objects.filter(domain=self.domain).delete()
        index_publish(domain=self.domain)
        self.loaded, self.chunks, self.keys = None, {}, {}
        self.revisions = []
        try:
            for r in revisions:
                done = ingest_path(path=r.path, domain=self.domain, embedder=self.embedder, key=r.key,
                                   version=r.path.stem, date=r.date)
                if done.failed:
                    raise EvaluationError("; ".join(f.error for f in done.failed))
            report = ingest_path(path=Path(path), domain=self.domain, embedder=self.embedder)
        except IngestError as exc:
            raise EvaluationError(str(exc)) from exc
        if len(report.failed) == len(report.files):
            raise EvaluationError(f"{path}: no document could be ingested")
        for r in revisions:  # what became of each revision once the pages were in (superseded, as intended)
            version = DocumentVersion.objects.filter(document__domain=self.domain, document__key=r.key,
                                                     label=r.path.stem).first()
            self.revisions.append({"file": r.path.name, "key": r.key, "date": r.date.isoformat(),
                                   "status": version.status if version else "unchanged"})
        self._index()

    def _index(self) -> None:
        for c in Chunk.objects.filter(version__document__domain=self.domain).select_related("version__document"):
            self.chunks[c.pk] = (c.version.title, c.text)
            self.keys[c.pk] = c.version.document.key


def ask(domain: Domain, question: str, provider: Provider, *, conversation: int | None = None) -> dict[str, Any]:
    """One answer through the chat's ask orchestration, as ``ask --json`` returns it (chat.serializers.answer_payload:
    html, the spans of the chips, the frozen sources included), plus ``source_chunks`` (label -> the chunk ids the
    source carries) and ``sufficient`` (False: the plan abstained before any provider call). With ``conversation``
    the question is the next turn of that conversation (its ``conversation`` key says which). A request the pipeline
    refuses (AskError: a question too long; a provider failure) gives ``{"error": code, "message": ...}``.
    """
    try:
        answer, frames = ask_sync(user=operator_user(), text=question, domain_slug=domain.slug,
                                  conversation_id=conversation, providers=ProviderRegistry(answerer=provider),
                                  access=False)
    except AskError as exc:
        return {"error": exc.code, "message": exc.message}
    error = next((f for f in frames if f.get("type") == "error"), None)
    if answer is None or error is not None:
        error = error or {"code": "internal", "message": "The answer failed."}
        return {"error": error["code"], "message": error["message"]}
    plan = next((f for f in frames if f.get("type") == "plan"), {})
    result: dict[str, Any] = dict(answer_payload(answer))
    del result["error"]  # "" for a complete answer; here "error" marks a refusal (above)
    result["source_chunks"] = {s["label"]: list(s.get("chunk_ids") or [s["chunk_id"]]) for s in answer.sources}
    result["sufficient"] = bool(plan.get("sufficient", True))
    return result


_CHIP = re.compile(r'<button\b[^>]*\bclass="cite"[^>]*>')
_CHIP_LABEL = re.compile(r'\bdata-label="([^"]*)"')


_CHIP_SPAN = re.compile(r'\bdata-span="(\d+)"')


def chips(html_text: str) -> list[str]:
    """The labels of the citation chips of a rendered answer, in order (one per rendered citation)."""
    return [label for label, _ in chip_spans(html_text)]


def chip_spans(html_text: str) -> list[tuple[str, int]]:
    """(label, span number) of each citation chip of a rendered answer, in order: chip ``data-span`` k opens the
    answer's k-th span (a label repeated in one sentence has a span but no second chip); -1 without a number."""
    out = []
    for m in _CHIP.finditer(html_text):
        label = _CHIP_LABEL.search(m.group(0))
        span = _CHIP_SPAN.search(m.group(0))
        out.append((label.group(1) if label else "", int(span.group(1)) if span else -1))
    return out
