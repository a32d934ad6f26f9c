"""Ready before the first question: what an ask needs is loaded when a server worker starts (issue 20 point 5),
not by the first user's question (which otherwise waits about 8 s for the embedding model on this machine)."""

from __future__ import annotations

import gc
import logging
import time

from django.conf import settings
from django.db import DatabaseError, connections

from grounding.embeddings import default_embedder
from grounding.language import question_language
from grounding.tokens import counter_for

log = logging.getLogger("grounded.warmup")


def warm() -> dict[str, float | int]:
    """Limit native threads per task (chat.runtime.limit_compute_threads), load and run the embedding model once, load
    the token counter and the language identifier (grounding.language), make current the scheduled versions whose
    date has come (knowledge.services.versions), mark failed the uploads a stopped server left unfinished (without a
    task queue: knowledge.services.jobs.ingest_jobs_abandoned), build any missing domain index and map every domain's
    index with its numbered section labels and its contact sections (knowledge.indexing, knowledge.selectors,
    grounding.heading_lookup, grounding.contact_lookup). A
    database that is not ready (not migrated yet) is logged and skipped: asks then map indexes on first use.

    Last, what start-up made is frozen out of the cyclic garbage collector (``gc.freeze``: the technique of Instagram's
    "Dismissing Python Garbage Collection at Instagram", 2017, and of CPython's gc documentation for pre-fork
    servers): the millions of objects of torch, transformers and Django live as long as the process, and a full
    collection walking them held the GIL for hundreds of milliseconds in the middle of a burst of asks (measured with
    a native sampling profile of bench/load_ws.py at 10 users: first words p50 0.73-0.87 s with, 0.42-0.47 s without).

    Returns:
        {"seconds": time spent, "domains": domains mapped, "built": indexes that had to be built}.
    """
    from knowledge.indexing import index_ensure_all
    from knowledge.services import ingest_jobs_abandoned, versions_activate_due
    from knowledge.models import DocumentVersion, Domain
    from knowledge.selectors import domain_index

    from chat.runtime import limit_compute_threads

    started = time.monotonic()
    limit_compute_threads()
    default_embedder().embed(["Ready when the first question comes."])
    counter_for("extractive").count("warm up")
    question_language("Ready when the first question comes.")  # the language identifier's model (about 1 s)
    domains = built = 0
    try:
        versions_activate_due()  # scheduled versions whose date came while no worker ran
        if not settings.INGEST_QUEUE:  # uploads a stopped server was ingesting in its own thread end as failed
            ingest_jobs_abandoned()
        built = index_ensure_all()
        for domain in Domain.objects.all():
            for status in (DocumentVersion.Status.CURRENT, DocumentVersion.Status.SUPERSEDED):
                # its numbered section labels too (read from the records of an index built before they were kept)
                domain_index(domain=domain, status=status).section_labels()
            # and the rows under a contact heading, read from the records (grounding.contact_lookup: 139 ms on the
            # 10,030-chunk bench index, which the first "Who do I contact ...?" paid)
            current = domain_index(domain=domain, status=DocumentVersion.Status.CURRENT)
            current.contact_sections()
            # and the documents' words a misspelled question word is read as (grounding.respelling: 0.47 s on the
            # 10,030-chunk bench index, which the first question with a word the documents never use paid)
            current.domain_words()
            domains += 1
    except DatabaseError as exc:
        log.warning("indexes not mapped at start (%s); they are mapped on first use", exc)
    finally:
        connections.close_all()  # the server's threads open their own connections
    gc.collect()
    gc.freeze()  # what start-up made (modules, the model, mapped indexes) lives as long as the process: never scan it again
    seconds = time.monotonic() - started
    log.info("ready: warm in %.1f s: %d domains mapped, %d indexes built", seconds, domains, built)
    return {"seconds": round(seconds, 3), "domains": domains, "built": built}
