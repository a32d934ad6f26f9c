"""Document versions: which version is current (the newest by effective date among those in effect; one dated after
today is scheduled until its date), and the admin's changes to versions and documents (supersede, make current,
delete, re-index). Every change to which chunks are retrievable ends with
knowledge.indexing.index_publish inside its transaction, so retrieval never returns a deleted or superseded chunk as
current, and no request builds an index."""

from __future__ import annotations

import datetime as dt
import logging
import re
import threading

from django.db import transaction
from django.utils import timezone

from grounding.embeddings import Embedder, default_embedder
from grounding.retrieve import index_text
from grounding.types import Chunk as GChunk
from knowledge.indexing import index_publish
from knowledge.models import Chunk, Document, DocumentVersion, Domain
from knowledge.sentences import sentences_embed

log = logging.getLogger("grounded.versions")

def _newest(versions: list[DocumentVersion]) -> DocumentVersion:
    """The version that is current: the latest effective date, ties to the later ingestion.

    A version without an effective date is taken to be at least as new as every version ingested before it (its
    effective date is the latest of theirs): an undated upload replaces what was there, a dated revision replaces an
    undated original, and a dated older version ingested later (a backfill) stays superseded.
    """
    latest = dt.date.min
    keyed = []
    for v in sorted(versions, key=lambda v: (v.created_at, v.pk)):  # in ingestion order
        effective = v.effective_date or latest
        latest = max(latest, effective)
        keyed.append(((effective, v.created_at, v.pk), v))
    return max(keyed, key=lambda kv: kv[0])[1]


def version_next_label(*, document: Document) -> str:
    """The label of a document's next version when none is given (no --version, front matter version or date): "v1"
    for the first, then one more than both the number of its versions and the highest "vN" among their labels
    ("v3" after v1 and v2, and after a deleted v1 too). The content hash stays the version's identity
    (DocumentVersion.content_hash); a hash prefix was the label before, unreadable to users."""
    labels = list(document.versions.values_list("label", flat=True))
    numbered = [int(label[1:]) for label in labels if re.fullmatch(r"v\d{1,6}", label)]
    return f"v{max([len(labels), *numbered]) + 1}"


def version_older_than_current(version: DocumentVersion, date: dt.date | None) -> bool:
    """True when the incoming content (an existing version, dated ``date``) is older than the current version."""
    current = version.document.versions.filter(status=DocumentVersion.Status.CURRENT).first()
    if current is None:
        return False
    return date is not None and current.effective_date is not None and date < current.effective_date


def version_reactivate(version: DocumentVersion, date: dt.date | None) -> None:
    """An earlier version whose content came back: dated ``date`` and ingested now, then the statuses refreshed."""
    from django.utils import timezone

    version.effective_date = date
    version.created_at = timezone.now()
    version.save(update_fields=["effective_date", "created_at"])
    document_statuses_refresh(version.document)


def document_statuses_refresh(document: Document, *, today: dt.date | None = None) -> None:
    """Decide the statuses of a document's non-draft versions on ``today`` (default: the local date,
    settings.TIME_ZONE): a version dated after today is scheduled (never retrieved, not even for questions about
    the past); among the others (in effect: dated today or earlier, or undated) the one with the latest effective
    date, then the latest ingestion, is current (:func:`_newest`) and the rest superseded. A document whose only
    versions are scheduled has no current version until the first date comes (:func:`versions_activate_due`)."""
    today = today or timezone.localdate()
    versions = list(document.versions.exclude(status=DocumentVersion.Status.DRAFT))
    in_effect = [v for v in versions if v.effective_date is None or v.effective_date <= today]
    newest = _newest(in_effect) if in_effect else None
    for v in versions:
        status = (DocumentVersion.Status.SCHEDULED if v not in in_effect
                  else DocumentVersion.Status.CURRENT if v.pk == newest.pk else DocumentVersion.Status.SUPERSEDED)
        if v.status != status:
            v.status = status
            v.save(update_fields=["status"])
    if newest is not None and document.title != newest.title:
        document.title = newest.title
        document.save(update_fields=["title"])


def version_schedule_notes(*, version: DocumentVersion) -> list[str]:
    """An ingestion report's note for a version dated after today (status scheduled): when it starts to answer and
    which version answers until then. [] for any other version."""
    version.refresh_from_db(fields=["status"])
    if version.status != DocumentVersion.Status.SCHEDULED:
        return []
    current = version.document.versions.filter(status=DocumentVersion.Status.CURRENT).first()
    until = (f"until then version {current.label!r}" + (f" (dated {current.effective_date.isoformat()})"
                                                        if current.effective_date else "") + " answers"
             if current else "until then the document does not answer")
    return [f"Dated {version.effective_date.isoformat()}, after today: this version becomes current on that date; "
            f"{until}."]


def version_undated_notes(*, version: DocumentVersion) -> list[str]:
    """An ingestion report's note for a dated version that became current over an undated one ingested before it
    (:func:`_newest`: an undated version counts as no newer than a dated revision ingested after it): which version it
    replaced and how to undo it when the undated one is the newer text (the s28 breaker ingested the 18F folder, then
    an older dated revision of one page, which silently became current). [] for any other version."""
    version.refresh_from_db(fields=["status"])
    if version.status != DocumentVersion.Status.CURRENT or version.effective_date is None:
        return []
    replaced = version.document.versions.filter(
        status=DocumentVersion.Status.SUPERSEDED, effective_date__isnull=True, created_at__lt=version.created_at
    ).order_by("-created_at", "-pk").first()  # the undated version ingested last: the one that was current
    if replaced is None:
        return []
    return [f"Dated {version.effective_date.isoformat()}, this version is now current and replaces version "
            f"{replaced.label!r}, which has no date. If that one is the newer text, ingest it again with its date "
            "(--date) or make it current in the admin."]


def versions_activate_due(*, today: dt.date | None = None) -> list[Domain]:
    """Give every document with a scheduled version whose date has come (effective date <= ``today``, default the
    local date) its statuses on that day (:func:`document_statuses_refresh`: the scheduled version becomes current,
    the one before it superseded), and publish the index of each domain that changed, in one transaction per
    domain. Run when a worker starts (chat.warmup), by ``manage.py versions_activate`` (a daily cron job just after
    midnight makes the change exact) and, when an ask finds a version due, in the background
    (:func:`versions_activate_soon`). Returns the domains whose index was published."""
    today = today or timezone.localdate()
    due = (DocumentVersion.objects.filter(status=DocumentVersion.Status.SCHEDULED, effective_date__lte=today)
           .values_list("document__domain_id", flat=True).distinct())
    published = []
    for domain in Domain.objects.filter(pk__in=list(due)):
        with transaction.atomic():
            documents = Document.objects.filter(domain=domain, versions__status=DocumentVersion.Status.SCHEDULED,
                                                versions__effective_date__lte=today).distinct()
            for document in documents:
                document_statuses_refresh(document, today=today)
            index_publish(domain=domain)
        published.append(domain)
    return published


_activating = threading.Lock()


def versions_activate_soon() -> bool:
    """Run :func:`versions_activate_due` in a daemon thread of this process (it closes its own database connection),
    unless one is running already: an ask that finds a scheduled version due (knowledge.selectors.
    version_next_scheduled) is answered from the published index, and the index is never built on a request.
    Returns True when a thread was started."""
    from django.db import connection

    if not _activating.acquire(blocking=False):
        return False

    def work() -> None:
        try:
            versions_activate_due()
        except Exception:  # logged; the next ask that finds the version due tries again
            log.exception("activating scheduled versions failed")
        finally:
            _activating.release()
            connection.close()

    threading.Thread(target=work, name="versions-activate", daemon=True).start()
    return True


@transaction.atomic
def version_supersede(*, version: DocumentVersion) -> DocumentVersion:
    """Mark a version superseded (it leaves current retrieval at once; questions about the past may still see it).

    Superseding the current version leaves its document without a current version; no older version is promoted
    (use version_make_current for that).
    """
    version.status = DocumentVersion.Status.SUPERSEDED
    version.save(update_fields=["status"])
    index_publish(domain=version.document.domain)
    return version


@transaction.atomic
def version_make_current(*, version: DocumentVersion) -> DocumentVersion:
    """Make a version its document's current one (an admin override of "newest is current", e.g. to roll back a bad
    new version); the previously current version becomes superseded, drafts stay drafts. The override holds until
    the document is ingested again, when the newest version by effective date becomes current as usual."""
    (version.document.versions.filter(status=DocumentVersion.Status.CURRENT).exclude(pk=version.pk)
     .update(status=DocumentVersion.Status.SUPERSEDED))
    version.status = DocumentVersion.Status.CURRENT
    version.save(update_fields=["status"])
    document = version.document
    if document.title != version.title:
        document.title = version.title
        document.save(update_fields=["title"])
    index_publish(domain=document.domain)
    return version


@transaction.atomic
def version_delete(*, version: DocumentVersion) -> Document | None:
    """Delete a version and its chunks (they leave retrieval at once).

    Deleting the current version makes the newest remaining non-draft version current (as if the deleted content had
    never been ingested); deleting the last version deletes the document. Returns the document, or None when it was
    deleted too.
    """
    document = version.document
    domain = document.domain
    was_current = version.status == DocumentVersion.Status.CURRENT
    version.delete()
    if not document.versions.exists():
        document.delete()
        document = None
    elif was_current:
        document_statuses_refresh(document)
    index_publish(domain=domain)
    return document


@transaction.atomic
def document_delete(*, document: Document) -> None:
    """Delete a document with all its versions and chunks (they leave retrieval at once). Answers already given keep
    their frozen source snapshots."""
    domain = document.domain
    document.delete()
    index_publish(domain=domain)


def document_reindex(*, document: Document, embedder: Embedder | None = None) -> int:
    """Embed every chunk of every version of a document again from its stored text (e.g. after the embedding model
    or the index text recipe changed) and refresh the retrieval index. Chunking and token counts are unchanged.

    Returns:
        the number of chunks re-embedded.
    """
    chunks = list(Chunk.objects.filter(version__document=document).select_related("version").order_by("pk"))
    if chunks:
        vectors = (embedder or default_embedder()).embed(
            [index_text(GChunk(0, 0, c.version.title, c.section, "", "", c.text, c.tokens)) for c in chunks])
        sentences = sentences_embed(texts=[c.text for c in chunks], sections=[c.section for c in chunks],
                                    embedder=embedder or default_embedder())
        for c, vector, said in zip(chunks, vectors, sentences):
            c.embedding = vector.astype("<f4").tobytes()
            c.sentences, c.sentence_vectors = said.claims, said.claim_vectors
            c.units, c.unit_vectors, c.layout = said.units, said.unit_vectors, said.layout
            c.readings = said.readings
        with transaction.atomic():
            Chunk.objects.bulk_update(chunks, ["embedding", "sentences", "sentence_vectors", "units", "unit_vectors",
                                               "layout", "readings"], batch_size=500)
            index_publish(domain=document.domain)
    return len(chunks)


