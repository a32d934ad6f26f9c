"""The retrieval index lifecycle: built by ingestion (and every change of what is retrievable), swapped in
atomically, never built by a request.

    index_publish(domain)   build the domain's indexes (current and superseded chunks) from the database into the
                            directories of a new token, then point the domain at that token (one UPDATE, inside the
                            writer's transaction: readers see the new index when the change is committed, the
                            previous one until then). Directories of older tokens are removed once they are
                            KEEP_SECONDS old (an ask in flight, or a transaction rolled back to an earlier token,
                            may still use one).
    index_ensure(domain)    build the current token's directories when missing (a worker starting on a fresh
                            index folder, data from before indexes were built at ingestion).

Each index directory (grounding.index_store) holds the chunk records as well as the vectors and BM25 arrays, so a
search reads nothing from the database (knowledge.selectors.retrieve_vector).
"""

from __future__ import annotations

import fcntl
import logging
import shutil
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy as np
from django.conf import settings
from django.db import transaction

from grounding.dedup import value_key
from grounding.claim_readings import READINGS_VERSION, stored_readings, stored_rows
from grounding.index_files import ANSWER_DATA
from grounding.index_store import StoredIndex
from grounding.injection import DETECTOR_VERSION, injection_signals
from grounding.sentence_store import chunk_layout
from grounding.support_store import chunk_values, values_current
from knowledge.models import Chunk, DocumentVersion, Domain
from knowledge.records import chunk_record

log = logging.getLogger("grounded.index")

#: How long (seconds) an index directory no longer current stays on disk.
KEEP_SECONDS = 600

#: The version statuses that have an index of their own (drafts are never retrieved).
STATUSES = (DocumentVersion.Status.CURRENT, DocumentVersion.Status.SUPERSEDED)


def index_path(*, domain: Domain | int, status: str, token: str) -> Path:
    """The directory of one version of a domain's index for one version status (settings.INDEX_DIR)."""
    pk = domain if isinstance(domain, int) else domain.pk
    return Path(settings.INDEX_DIR) / f"domain-{pk}-{status}-{token or 'initial'}"


@contextmanager
def _domain_lock(domain: Domain) -> Iterator[None]:
    """One builder per domain across processes (a file lock beside the index directories)."""
    root = Path(settings.INDEX_DIR)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".domain-{domain.pk}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _build(*, domain: Domain, status: str, path: Path, relayout: bool = False) -> StoredIndex:
    """Write one index directory from the database: vectors, ids, BM25 over title > section + text, records, and
    the chunks' sentence vectors. Chunks stored before ingestion embedded their sentences (checked them for passages
    addressed to an AI assistant, gave them their value key) get theirs here, once (saved to their rows, so the next
    build reads them). With ``relayout`` (the index it replaces was built before the current ANSWER_DATA), so does a
    chunk whose stored layout an answering rule now reads otherwise (a short line ending with a parenthetical read as
    a heading, ANSWER_DATA 10): its layout and answer units are made again and saved. (Checking every chunk's layout
    costs about 5 ms a chunk, so it is done once per upgrade, not on every publish.)"""
    rows = (Chunk.objects.filter(version__document__domain=domain, version__status=status).order_by("pk")
            .select_related("version__document"))
    ids, blobs, texts, records, sentence_sets, missing, backfilled = [], [], [], [], [], [], []
    unit_sets, no_units, kept = [], [], []
    for chunk in rows.iterator(chunk_size=2_000):
        ids.append(chunk.pk)
        kept.append(chunk)
        blobs.append(bytes(chunk.embedding))
        dim = len(blobs[-1]) // 4
        said = chunk.sentence_matrix(dim) if chunk.sentences or chunk.sentence_vectors else None
        if said is None and chunk.layout is not None:  # made at ingestion with its layout: it has no sentences
            said = np.zeros((0, dim), dtype=np.float32)
        if said is None or len(said) != len(chunk.sentences or []):
            missing.append((len(ids) - 1, chunk))
            said = np.zeros((0, dim), dtype=np.float32)
        sentence_sets.append(said)
        if relayout and chunk.layout is not None and chunk.layout != chunk_layout(chunk.text):
            chunk.layout = None  # read by an older rule (ANSWER_DATA counted up): made again with its units below
        units = chunk.unit_matrix(dim)
        if units is None or chunk.layout is None:
            no_units.append((len(ids) - 1, chunk))
            units = np.zeros((0, dim), dtype=np.float32)
        unit_sets.append(units)
        stale = chunk.injection is None or chunk.injection_version != DETECTOR_VERSION
        if stale or not chunk.value_key:  # stored before ingestion made these, or flagged by an earlier detector
            if stale:
                chunk.injection = bool(injection_signals(chunk.text))
                chunk.injection_version = DETECTOR_VERSION
            chunk.value_key = chunk.value_key or value_key(chunk.text)
            backfilled.append(chunk)
        record = chunk_record(chunk)
        head = " > ".join(p for p in (record["title"], record["section"]) if p)
        texts.append(f"{head}\n{record['text']}" if head else record["text"])  # grounding.retrieve.index_text's
        records.append(record)
    if missing:
        _backfill_sentences(missing, records, sentence_sets)
    if no_units:
        _backfill_units(no_units, records, unit_sets)
    if backfilled:
        Chunk.objects.bulk_update(backfilled, ["injection", "injection_version", "value_key"], batch_size=500)
    matrix = (np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(ids), -1) if ids
              else np.zeros((0, 384), dtype=np.float32))
    layouts = [chunk.layout for chunk in kept]  # read apart, only for planned chunks (not with every record)
    readings = _readings(kept, records)
    values = _support_values(kept)  # what the support check reads of each chunk
    return StoredIndex.build(path, ids, matrix, texts, records=records, sentence_vectors=sentence_sets,
                             unit_vectors=unit_sets, layouts=layouts, readings=readings, values=values,
                             ann_threshold=settings.RETRIEVAL_ANN_THRESHOLD)


def _readings(chunks: list[Chunk], records: list[dict]) -> list[list | None]:
    """Per chunk (row), the readings of its sentences (grounding.claim_readings.stored_rows) as the index keeps
    them; chunks stored without them, or with readings of another READINGS_VERSION, get theirs here, once (saved to
    their rows, so the next build reads them)."""
    out: list[list | None] = []
    made = []
    for chunk, record in zip(chunks, records):
        said = record.get("sentences") or []
        rows = stored_rows(chunk.readings, said)
        if rows is None:
            chunk.readings = stored_readings(said)
            rows = chunk.readings["rows"]
            made.append(chunk)
        out.append(rows or None)
    if made:
        log.info("reading the sentences of %d chunks stored without their readings", len(made))
        Chunk.objects.bulk_update(made, ["readings"], batch_size=500)
    return out


def _support_values(chunks: list[Chunk]) -> list[dict]:
    """Per chunk (row), the values the support check reads of its text (grounding.support_store.chunk_values), as
    stored with it at ingestion; chunks stored without them, or with values of another VALUES_VERSION, get theirs
    here, once (saved to their rows, so the next build reads them)."""
    made = []
    for chunk in chunks:
        if not values_current(chunk.support_values):
            chunk.support_values = chunk_values(chunk.text)
            made.append(chunk)
    if made:
        log.info("reading the values of %d chunks stored without them", len(made))
        Chunk.objects.bulk_update(made, ["support_values"], batch_size=500)
    return [chunk.support_values for chunk in chunks]


def _backfill_sentences(missing: list[tuple[int, Chunk]], records: list[dict], sentence_sets: list) -> None:
    """Split and embed the sentences of chunks that have none stored (rows from before they were made at
    ingestion), save them to the rows and put them in the index being built; their answer units are made in the
    same call (put in the index by :func:`_backfill_units`, which finds them made)."""
    from grounding.embeddings import default_embedder
    from knowledge.sentences import sentences_embed

    log.info("embedding the sentences of %d chunks stored without them", len(missing))
    made = sentences_embed(texts=[c.text for _, c in missing], sections=[c.section for _, c in missing],
                           embedder=default_embedder())
    for (row, chunk), stored in zip(missing, made):
        said, data = stored.claims, stored.claim_vectors
        chunk.sentences, chunk.sentence_vectors = said, data
        chunk.units, chunk.unit_vectors, chunk.layout = stored.units, stored.unit_vectors, stored.layout  # same call
        chunk.readings = stored.readings
        records[row]["sentences"] = said
        sentence_sets[row] = np.frombuffer(data, dtype="<f4").reshape(len(said), -1) if said else \
            np.zeros((0, sentence_sets[row].shape[1]), dtype=np.float32)
    Chunk.objects.bulk_update([c for _, c in missing], ["sentences", "sentence_vectors", "units", "unit_vectors",
                                                        "layout", "readings"], batch_size=500)


def _backfill_units(missing: list[tuple[int, Chunk]], records: list[dict], unit_sets: list) -> None:
    """Make the layout and embed the answer units of chunks stored before they were made at ingestion
    (knowledge.sentences), save them to the rows and put them in the index being built: once, so that no answer
    splits or embeds them."""
    from grounding.embeddings import default_embedder
    from knowledge.sentences import units_embed

    done = [(row, c) for row, c in missing if c.units is not None and c.layout is not None]  # made just now
    missing = [(row, c) for row, c in missing if c.units is None or c.layout is None]
    for row, chunk in done:
        records[row]["units"] = chunk.units
        unit_sets[row] = chunk.unit_matrix(unit_sets[row].shape[1])
    if not missing:
        return
    log.info("embedding the answer units of %d chunks stored without them", len(missing))
    made = units_embed(texts=[c.text for _, c in missing], sections=[c.section for _, c in missing],
                       said=[records[row]["sentences"] for row, _ in missing], embedder=default_embedder())
    for (row, chunk), (units, data, layout) in zip(missing, made):
        chunk.units, chunk.unit_vectors, chunk.layout = units, data, layout
        records[row]["units"] = units
        unit_sets[row] = np.frombuffer(data, dtype="<f4").reshape(len(units), -1) if units else \
            np.zeros((0, unit_sets[row].shape[1]), dtype=np.float32)
    Chunk.objects.bulk_update([c for _, c in missing], ["units", "unit_vectors", "layout"], batch_size=500)


def index_publish(*, domain: Domain) -> str:
    """Build the domain's indexes for a new token and swap them in (see the module docstring). Call it after any
    change to which chunks of the domain are retrievable, inside the writer's transaction.

    Returns:
        the new token (also set on ``domain``).
    """
    token = uuid.uuid4().hex
    with _domain_lock(domain):
        previous = Domain.objects.filter(pk=domain.pk).values_list("index_token", flat=True).first() or ""
        for status in STATUSES:
            _build(domain=domain, status=status, path=index_path(domain=domain, status=status, token=token),
                   relayout=_built_before(index_path(domain=domain, status=status, token=previous)))
        Domain.objects.filter(pk=domain.pk).update(index_token=token)
        domain.index_token = token
        keep = {token, previous or "initial"}
        now = time.time()
        for old in Path(settings.INDEX_DIR).glob(f"domain-{domain.pk}-*"):
            try:
                stale = now - old.stat().st_mtime > KEEP_SECONDS
            except OSError:
                continue
            if old.is_dir() and stale and old.name.rsplit("-", 1)[-1] not in keep:
                shutil.rmtree(old, ignore_errors=True)
    return token


def _built_before(path: Path) -> bool:
    """Whether the index directory at ``path`` (the one a publish replaces) is missing or was built before the
    current ANSWER_DATA: its chunks' stored layouts may then be read otherwise by the current rules."""
    try:
        return StoredIndex.carries(path)[0] < ANSWER_DATA
    except (OSError, ValueError):
        return True


def _outdated(answer_data: int, readings_version: int, detector: int) -> bool:
    """Whether an index carrying this (StoredIndex.carries) was built before what answers now read from it (its
    injection flags included: an upgraded detector checks the chunks again)."""
    return answer_data < ANSWER_DATA or readings_version != READINGS_VERSION or detector != DETECTOR_VERSION


def index_ensure(*, domain: Domain) -> bool:
    """Build the domain's current token's index directories when any is missing; publish a new index when the
    current one was built before indexes carried what answers now read from them (grounding.index_files.
    ANSWER_DATA: the answer units and layouts; an upgraded deployment's worker starting), so that answers stop
    making it. Returns True when it built."""
    token = Domain.objects.filter(pk=domain.pk).values_list("index_token", flat=True).first() or ""
    paths = [index_path(domain=domain, status=s, token=token) for s in STATUSES]
    if all(p.is_dir() for p in paths) and any(_outdated(*StoredIndex.carries(p)) for p in paths):
        log.info("indexing domain %s again: its index was built before the answer data it now carries", domain.slug)
        with transaction.atomic():
            index_publish(domain=domain)
        return True
    missing = [s for s in STATUSES if not index_path(domain=domain, status=s, token=token).is_dir()]
    if not missing:
        return False
    with _domain_lock(domain):
        for status in missing:
            path = index_path(domain=domain, status=status, token=token)
            if not path.is_dir():
                log.info("building the %s index of domain %s (token %s)", status, domain.slug, token or "initial")
                _build(domain=domain, status=status, path=path, relayout=True)
    return True


def index_ensure_all() -> int:
    """:func:`index_ensure` for every domain (a worker starting). Returns how many domains needed a build."""
    return sum(index_ensure(domain=d) for d in Domain.objects.all())
