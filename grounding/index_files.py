"""Writing one retrieval index directory (grounding.index_store describes the files): the vectors and ids, the
records, the per-row sentence and answer-unit vector sets with the sentences' context vectors and scales, the BM25
index and, from a threshold, the HNSW graph. grounding.index_store.StoredIndex.build opens what :func:`build_directory`
writes: the inputs validated, :func:`write_files` on a temporary directory renamed into place.

No Django imports.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

import bm25s
import numpy as np

from grounding.claim_readings import READINGS_VERSION
from grounding.heading_lookup import label_map
from grounding.injection import DETECTOR_VERSION
from grounding.lexical import bm25_tokens
from grounding.ranking import context_scale, context_vectors

#: Vectors at or above which the dense side is searched approximately (HNSW) instead of exactly.
ANN_THRESHOLD = 200_000
#: HNSW graph parameters (usearch): links per node, build breadth and search breadth. Tuned for recall on the
#: hardest case, random 384-dim unit vectors (recall@10 0.98 at 20k vectors against exact search; 16/128/64, the
#: library's defaults, give 0.33 there); real embeddings cluster and need less.
ANN_CONNECTIVITY = 32
ANN_EXPANSION_ADD = 200
ANN_EXPANSION = 512
FORMAT = 2
#: What an index carries for answering, counted up when that changes (meta.json "answer"; an index with less is built
#: again when a worker starts, knowledge.indexing.index_ensure): 1 answer-unit vectors, 2 the chunks' layouts, 3 the
#: layouts kept apart from the records (layouts.bin: retrieval parses every candidate's record, an answer only the
#: planned chunks' layouts), 4 the distinct sentence vectors (a search scans each distinct sentence once), 5 the
#: sentences' readings (grounding.claim_readings: what contradiction detection reads of them), 6 the chunks' values
#: (grounding.support_store: what the support check reads of them), 7 the layouts split with inline code whole
#: (grounding.sentences: "leave a `.` or a note" is one sentence), 8 the documents' front matter keywords in the
#: records (grounding.parsing.keywords_of), 10 the layouts reading a short line that ends with a parenthetical ("Day 5
#: (Friday)") as a heading (grounding.sentence_data._heading_like; 9 was taken by an unmerged branch's indexes on
#: shared machines, so such an index is built again too), 11 the BM25 index holding single digits as terms
#: (grounding.lexical.BM25_TOKEN_PATTERN: "Day 3"), 12 the layouts reading "10 seconds" as a duration, not a count
#: (grounding.typed_values).
ANSWER_DATA = 12
#: The distinct sentence vectors are written apart (sentence_distinct.npy, sentence_map.npy) when they are at most
#: this share of all the sentence vectors (a domain holding dated versions of its documents repeats most sentences).
DISTINCT_SHARE = 0.9


def write_files(tmp: Path, ids_array: np.ndarray, matrix: np.ndarray, texts: Sequence[str], *,
                records: Sequence[dict] | None, sentence_vectors: Sequence[np.ndarray] | None,
                unit_vectors: Sequence[np.ndarray] | None, ann_threshold: int,
                layouts: Sequence[list | None] | None = None, readings: Sequence[list | None] | None = None,
                values: Sequence[dict | None] | None = None) -> None:
    """Write every file of an index into the directory ``tmp`` (inputs as StoredIndex.build takes them, validated
    there: ids_array int64 (n,), matrix float32 (n, dim) contiguous)."""
    np.save(tmp / "vectors.npy", matrix)
    np.save(tmp / "ids.npy", ids_array)
    _save_json_rows(tmp, "records.bin", "offsets.npy", records if records is not None else [None] * len(texts))
    # the numbered section labels ("day 3") and their rows (grounding.heading_lookup), read by every search
    (tmp / "section_labels.json").write_text(json.dumps(label_map(str((r or {}).get("section") or "")
                                                                  for r in records or ())))
    dim = matrix.shape[1] if matrix.ndim == 2 else 0
    if sentence_vectors is not None:
        sets = _save_sets(tmp, "sentences", "sentence_offsets", sentence_vectors, dim)
        contexts = [context_vectors(v) for v in sets]
        np.save(tmp / "contexts.npy", np.concatenate(contexts) if contexts else np.zeros((0, dim), np.float32))
        scales = [context_scale(v) for v in sets]
        np.save(tmp / "context_scale.npy", np.concatenate(scales) if scales else np.zeros(0, np.float32))
        flat = np.concatenate(sets) if sets else np.zeros((0, dim), np.float32)
        first, mapping = distinct_rows(flat)
        if len(first) <= DISTINCT_SHARE * len(flat):
            np.save(tmp / "sentence_distinct.npy", flat[first])
            np.save(tmp / "sentence_map.npy", mapping.astype(np.int32))
    if unit_vectors is not None:
        _save_sets(tmp, "units", "unit_offsets", unit_vectors, dim)
    if layouts is not None:  # JSON per row, read only for the chunks an answer plans (StoredIndex.layout)
        _save_json_rows(tmp, "layouts.bin", "layout_offsets.npy", layouts)
    if readings is not None:  # JSON per row, read only for the chunks an answer plans (StoredIndex.readings)
        _save_json_rows(tmp, "readings.bin", "reading_offsets.npy", readings)
    if values is not None:  # JSON per row, read only for the chunks an answer plans (StoredIndex.values)
        _save_json_rows(tmp, "values.bin", "value_offsets.npy", values)
    tokens = bm25_tokens(list(texts)) if len(texts) else []
    if any(tokens):
        bm25 = bm25s.BM25()
        bm25.index(tokens, show_progress=False)
        bm25.save(str(tmp / "bm25"), show_progress=False)
    ann = ann_threshold > 0 and matrix.shape[0] >= ann_threshold
    if ann:
        from usearch.index import Index

        graph = Index(ndim=matrix.shape[1], metric="ip", dtype="f32", connectivity=ANN_CONNECTIVITY,
                      expansion_add=ANN_EXPANSION_ADD, expansion_search=ANN_EXPANSION)
        graph.add(np.arange(matrix.shape[0], dtype=np.uint64), matrix, log=False)
        graph.save(str(tmp / "ann.usearch"))
    (tmp / "meta.json").write_text(json.dumps({"format": FORMAT, "n": int(matrix.shape[0]),
                                               "dim": int(matrix.shape[1]) if matrix.ndim == 2 else 0,
                                               "ann": bool(ann), "answer": ANSWER_DATA,
                                               "readings": READINGS_VERSION, "injection": DETECTOR_VERSION}))


def distinct_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``matrix`` (float32 (m, dim)), equal meaning equal bytes: (the index of each distinct
    row's first occurrence, int64 (u,), in row order; for each row, the position of its distinct row among those,
    int64 (m,)). ``matrix[first][mapping]`` equals ``matrix``."""
    if len(matrix) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    rows = np.ascontiguousarray(matrix)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # distinct rows in the order they first occur
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    return first[order].astype(np.int64), position[inverse.ravel()].astype(np.int64)


def _save_json_rows(folder: Path, name: str, offsets_name: str, rows: Sequence) -> None:
    """Write one JSON value per row (UTF-8, one after another; None: nothing) to ``name`` and their int64 (n + 1,)
    byte offsets to ``offsets_name``."""
    blobs = [json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() if r is not None else b"" for r in rows]
    offsets = np.zeros(len(blobs) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in blobs], out=offsets[1:])
    (folder / name).write_bytes(b"".join(blobs))
    np.save(folder / offsets_name, offsets)


def _save_sets(folder: Path, name: str, offsets_name: str, given: Sequence[np.ndarray], dim: int) -> list[np.ndarray]:
    """Write per-row vector sets as one float32 matrix ``name``.npy, row after row, and their int64 (n + 1,) bounds
    ``offsets_name``.npy; returns the sets as float32 (k_i, dim) arrays."""
    sets = [np.asarray(v, dtype=np.float32).reshape(-1, dim) for v in given]
    bounds = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([len(v) for v in sets], out=bounds[1:])
    np.save(folder / f"{name}.npy", np.concatenate(sets) if sets else np.zeros((0, dim), np.float32))
    np.save(folder / f"{offsets_name}.npy", bounds)
    return sets


def build_directory(path: Path | str, ids: Sequence[int] | np.ndarray, matrix: np.ndarray, texts: Sequence[str], *,
                    records: Sequence[dict] | None = None, sentence_vectors: Sequence[np.ndarray] | None = None,
                    unit_vectors: Sequence[np.ndarray] | None = None, layouts: Sequence[list | None] | None = None,
                    readings: Sequence[list | None] | None = None, values: Sequence[dict | None] | None = None,
                    ann_threshold: int = ANN_THRESHOLD) -> Path:
    """Write an index directory atomically; returns its path (grounding.index_store.StoredIndex opens it).

    The files go to a temporary sibling directory first, which is renamed to ``path`` in one step; when another
    process finished the same index meanwhile (or the directory exists), that directory is kept.
    Args:
        ids: (n,) chunk keys; matrix: float32 (n, dim) unit vectors; texts: (n,) the indexed texts for BM25.
        records: (n,) JSON-ready objects kept per row (what StoredIndex.record returns); None: none kept.
        sentence_vectors: (n,) float32 (k_i, dim) arrays, each row's sentence vectors (StoredIndex.sentence_vectors);
            None: none kept.
        unit_vectors: (n,) float32 (u_i, dim) arrays, each row's answer-unit vectors (StoredIndex.unit_vectors);
            None: none kept.
        layouts: (n,) each row's layout (grounding.sentence_store.chunk_layout; None: not made), kept apart from
            the records so that retrieval does not parse them (StoredIndex.layout); None: none kept.
        readings: (n,) each row's sentence readings (grounding.claim_readings.reading_row per sentence of its
            record's "sentences"; None: not made), kept apart as layouts are (StoredIndex.readings); None: none kept.
        values: (n,) each row's values (grounding.support_store.chunk_values of its text; None: not made), kept
            apart as layouts are (StoredIndex.values); None: none kept.
        ann_threshold: build the HNSW graph when n >= this; 0: never (exact search at every size).
    Raises:
        ValueError: the inputs differ in length.
    """
    path = Path(path)
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    ids_array = np.asarray(ids, dtype=np.int64)
    if not (matrix.shape[0] == ids_array.shape[0] == len(texts)):
        raise ValueError(f"{matrix.shape[0]} vectors, {ids_array.shape[0]} ids and {len(texts)} texts")
    if records is not None and len(records) != len(texts):
        raise ValueError(f"{len(records)} records for {len(texts)} texts")
    for name, given in (("sentence", sentence_vectors), ("unit", unit_vectors), ("layout", layouts),
                        ("reading", readings), ("value", values)):
        if given is not None and len(given) != len(texts):
            raise ValueError(f"{len(given)} {name} vector sets for {len(texts)} texts")
    if path.is_dir():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}-", dir=path.parent))
    try:
        write_files(tmp, ids_array, matrix, texts, records=records, sentence_vectors=sentence_vectors,
                    unit_vectors=unit_vectors, ann_threshold=ann_threshold, layouts=layouts, readings=readings,
                    values=values)
        try:
            os.rename(tmp, path)
        except OSError:
            if not path.is_dir():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another process built it first: use theirs
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path
