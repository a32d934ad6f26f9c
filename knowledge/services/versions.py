"""Document versions: which version is current (the newest by effective date), and the admin's changes to versions
and documents (supersede, make current, delete, re-index). Every change to which chunks are retrievable ends with
knowledge.indexing.index_publish inside its transaction, so retrieval never returns a deleted or superseded chunk as
current, and no request builds an index."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from grounding.embeddings import Embedder, default_embedder
from grounding.retrieve import index_text
from grounding.types import Chunk as GChunk
from knowledge.indexing import index_publish
from knowledge.models import Chunk, Document, DocumentVersion
from knowledge.sentences import sentences_embed

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


def document_statuses_refresh(document: Document) -> None:
    """The non-draft version with the latest effective date (then latest ingestion) is current; others superseded."""
    versions = list(document.versions.exclude(status=DocumentVersion.Status.DRAFT))
    if not versions:
        return
    newest = _newest(versions)
    for v in versions:
        status = DocumentVersion.Status.CURRENT if v.pk == newest.pk else DocumentVersion.Status.SUPERSEDED
        if v.status != status:
            v.status = status
            v.save(update_fields=["status"])
    if document.title != newest.title:
        document.title = newest.title
        document.save(update_fields=["title"])


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
        with transaction.atomic():
            Chunk.objects.bulk_update(chunks, ["embedding", "sentences", "sentence_vectors", "units", "unit_vectors",
                                               "layout"], batch_size=500)
            index_publish(domain=document.domain)
    return len(chunks)


