"""A retrieval index on disk, memory-mapped by every worker process (retrieval at scale).

One index is a directory written once and never modified (a changed domain gets a new directory):

    vectors.npy   float32 (n, dim) L2-normalised embeddings; row i belongs to ids[i]   (np.load, mmap_mode="r")
    ids.npy       int64 (n,) the chunks' primary keys
    bm25/         the bm25s lexical index (sparse CSC arrays, loaded with mmap=True)
    section_labels.json  numbered section labels -> rows (grounding.heading_lookup)
    ann.usearch   an HNSW graph (usearch, inner product) when n >= ann_threshold, opened as a view (mmap)
    records.bin   the chunks' records (JSON objects, UTF-8, one after another; row i is
                  records.bin[offsets[i]:offsets[i + 1]]), so that retrieval reads what it returns from the index,
                  never from the database
    offsets.npy   int64 (n + 1,) byte offsets into records.bin                              (np.load, mmap_mode="r")
    sentences.npy float32 (m, dim) the rows' sentence vectors, row after row (made at ingestion: what contradiction
                  detection compares), and sentence_offsets.npy int64 (n + 1,): row i's are
                  sentences[sentence_offsets[i]:sentence_offsets[i + 1]]; both absent when none were given
    sentence_distinct.npy float32 (u, dim) the distinct rows of sentences.npy, with sentence_map.npy int32 (m,) each
                  sentence's row among them: a search scans u rows, not m (absent when nearly all are distinct)
    units.npy     float32 (u, dim) the rows' answer-unit vectors (made at ingestion: the other texts the offline
                  answerer reads a chunk as), with unit_offsets.npy int64 (n + 1,) as for sentences; never scored
    layouts.bin   the chunks' layouts (JSON per row, with layout_offsets.npy): read only for an answer's planned chunks
    readings.bin  the readings of the rows' sentences (grounding.claim_readings, a JSON list per row, with
                  reading_offsets.npy): what contradiction detection reads of the planned chunks' sentences
    values.bin    the rows' values (grounding.support_store.chunk_values, a JSON object per row, with
                  value_offsets.npy): what the support check reads of the planned chunks' values
    meta.json     {"format": 2, "n": ..., "dim": ..., "ann": bool, "answer": what it carries for answering,
                  "readings": the READINGS_VERSION of readings.bin}

The operating system's page cache holds each file once however many processes map it, so a domain's matrix is
resident once per machine, not once per worker. Exact search (numpy, the inner products then ``argpartition``) is the
default; above ``ann_threshold`` vectors the HNSW graph answers the dense side (Malkov & Yashunin 2018, "Efficient and
robust approximate nearest neighbor search using Hierarchical Navigable Small World graphs"), and its recall@10
against exact search is measured in bench/bench_retrieval.py. Dense and lexical rankings are fused by reciprocal rank
fusion (grounding.retrieve.rrf_fuse, Cormack et al. 2009); BM25 tokens come from grounding.lexical.bm25_tokens.
When the rows have sentence vectors, each chunk also gets the cosine of its best-matching sentence (or sentence in
context: contexts.npy, float32 (m, dim), each sentence's vector plus the one before it in its chunk, re-normalised,
written next to sentences.npy; with context_scale.npy, float32 (m,), an exact scan reads only sentences.npy and
derives the context cosines from the sentences' own: grounding.ranking.context_scores), and that ranking is fused
with the other two (grounding.ranking.fuse).

No Django imports.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence, TypeVar

import bm25s
import numpy as np

from grounding.contact_lookup import contact_heading
from grounding.heading_lookup import label_map
from grounding.index_files import ANN_EXPANSION, ANN_THRESHOLD, FORMAT, build_directory
from grounding.index_search import Hit, Searching

T = TypeVar("T")

__all__ = ["Hit", "StoredIndex"]


def _mapped(path: Path) -> np.ndarray:
    """An .npy file memory-mapped read-only, as a plain ndarray view of the map: slicing a numpy.memmap runs Python
    code (its __array_finalize__) on every slice, 40 microseconds each, several hundred per ask (a candidate's
    vector, sentence and unit vectors); the view reads the same mapped pages with none of it."""
    return np.load(path, mmap_mode="r").view(np.ndarray)


def _mapped_bytes(path: Path, offsets: np.ndarray) -> np.ndarray:
    """A file of rows of bytes (``offsets``: int64 (n + 1,) bounds) memory-mapped as a plain uint8 ndarray view;
    an empty array when the rows are all empty (numpy cannot map an empty file)."""
    if int(offsets[-1]) <= 0:
        return np.zeros(0, dtype=np.uint8)
    return np.memmap(path, dtype=np.uint8, mode="r").view(np.ndarray)


class StoredIndex(Searching):
    """A read-only index directory (see the module docstring), opened with memory maps.

    Raises:
        FileNotFoundError: the directory or one of its files is missing.
        ValueError: the files disagree (rows vs ids) or the format is unknown.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        meta = json.loads((self.path / "meta.json").read_text())
        if meta.get("format") != FORMAT:
            raise ValueError(f"unknown index format {meta.get('format')!r} in {self.path}")
        self.vectors: np.ndarray = _mapped(self.path / "vectors.npy")
        self.ids: np.ndarray = _mapped(self.path / "ids.npy")
        if self.vectors.shape[0] != self.ids.shape[0]:
            raise ValueError(f"{self.vectors.shape[0]} vectors for {self.ids.shape[0]} ids in {self.path}")
        self.offsets: np.ndarray = _mapped(self.path / "offsets.npy")
        self._records = _mapped_bytes(self.path / "records.bin", self.offsets)
        if self.offsets.shape[0] != self.ids.shape[0] + 1:
            raise ValueError(f"{self.offsets.shape[0] - 1} records for {self.ids.shape[0]} ids in {self.path}")
        self._sentences: np.ndarray | None = None
        self._sentence_offsets: np.ndarray | None = None
        if (self.path / "sentence_offsets.npy").is_file():
            self._sentences = _mapped(self.path / "sentences.npy")
            self._sentence_offsets = _mapped(self.path / "sentence_offsets.npy")
        self._distinct: np.ndarray | None = None  # the distinct sentence vectors, and each sentence's row among them
        self._sentence_map: np.ndarray | None = None
        if self._sentences is not None and (self.path / "sentence_map.npy").is_file():
            self._distinct = _mapped(self.path / "sentence_distinct.npy")
            self._sentence_map = _mapped(self.path / "sentence_map.npy")
            if self._sentence_map.shape != self._sentences.shape[:1]:
                raise ValueError(f"the distinct sentence map disagrees with the sentence vectors in {self.path}")
        self._layouts: np.ndarray | None = None
        self._layout_offsets: np.ndarray | None = None
        if (self.path / "layout_offsets.npy").is_file():
            self._layout_offsets = _mapped(self.path / "layout_offsets.npy")
            self._layouts = _mapped_bytes(self.path / "layouts.bin", self._layout_offsets)
        self._readings: np.ndarray | None = None
        self._reading_offsets: np.ndarray | None = None
        if (self.path / "reading_offsets.npy").is_file():
            self._reading_offsets = _mapped(self.path / "reading_offsets.npy")
            self._readings = _mapped_bytes(self.path / "readings.bin", self._reading_offsets)
        self._values: np.ndarray | None = None
        self._value_offsets: np.ndarray | None = None
        self._values_read: dict[int, dict | None] = {}  # rows parsed (StoredIndex.values)
        self._layouts_read: dict[int, list | None] = {}  # rows parsed (StoredIndex.layout)
        self._made: dict[int, object] = {}  # what StoredIndex.made made of a row's record
        self._labels: dict[str, list[int]] | None = None  # StoredIndex.section_labels, once read
        self._contacts: dict[int, tuple[object, str]] | None = None  # StoredIndex.contact_sections, once read
        if (self.path / "value_offsets.npy").is_file():
            self._value_offsets = _mapped(self.path / "value_offsets.npy")
            self._values = _mapped_bytes(self.path / "values.bin", self._value_offsets)
        self._units: np.ndarray | None = None
        self._unit_offsets: np.ndarray | None = None
        if (self.path / "unit_offsets.npy").is_file():
            self._units = _mapped(self.path / "units.npy")
            self._unit_offsets = _mapped(self.path / "unit_offsets.npy")
        self.bm25: bm25s.BM25 | None = (bm25s.BM25.load(str(self.path / "bm25"), mmap=True, show_progress=False)
                                        if (self.path / "bm25").is_dir() else None)
        self._contexts: np.ndarray | None = None
        if self._sentences is not None and (self.path / "contexts.npy").is_file():
            self._contexts = _mapped(self.path / "contexts.npy")
            if self._contexts.shape != self._sentences.shape:
                raise ValueError(f"context vectors disagree with the sentence vectors in {self.path}")
        self._context_scale: np.ndarray | None = None
        if self._sentences is not None and (self.path / "context_scale.npy").is_file():
            self._context_scale = np.load(self.path / "context_scale.npy")
            if self._context_scale.shape != self._sentences.shape[:1]:
                raise ValueError(f"context scales disagree with the sentence vectors in {self.path}")
        self.ann = None
        if meta.get("ann"):
            from usearch.index import Index

            self.ann = Index.restore(str(self.path / "ann.usearch"), view=True)
            self.ann.expansion_search = ANN_EXPANSION

    @staticmethod
    def carries(path: Path | str) -> tuple[int, int, int]:
        """What the index directory at ``path`` carries, from one read of its meta.json: (what it carries for
        answering: "answer", grounding.index_files.ANSWER_DATA, 0 for an index written before it was recorded; the
        READINGS_VERSION (grounding.claim_readings) of its sentence readings: "readings", 0 when it carries none;
        the grounding.injection.DETECTOR_VERSION its rows' injection flags were made by: "injection", 0 before it
        was recorded).

        Raises:
            FileNotFoundError: no meta.json at ``path``. ValueError: meta.json is not JSON.
        """
        meta = json.loads((Path(path) / "meta.json").read_text())
        return int(meta.get("answer", 0)), int(meta.get("readings", 0)), int(meta.get("injection", 0))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @property
    def approximate(self) -> bool:
        """True when the dense side is answered by the HNSW graph."""
        return self.ann is not None

    # --- building -----------------------------------------------------------------------------------------------

    def record(self, row: int, *, holding: bytes = b"") -> dict:
        """The stored record of a row (the JSON object given to :meth:`build`; {} when none was given, or when
        ``holding`` is given and the record's bytes do not hold it: a cheap test before the JSON is parsed)."""
        start, end = int(self.offsets[row]), int(self.offsets[row + 1])
        raw = bytes(self._records[start:end]) if end > start else b""
        return json.loads(raw) if raw and holding in raw else {}

    def section_labels(self) -> dict[str, list[int]]:
        """The numbered section labels of the rows and the rows each heads (grounding.heading_lookup.label_map:
        "day 3" -> [42]), read once per process and index from section_labels.json, or made from the records of
        an index built before that file was written."""
        if self._labels is None:
            path = self.path / "section_labels.json"
            self._labels = (json.loads(path.read_text()) if path.is_file()
                            else label_map(str(self.record(r).get("section") or "") for r in range(len(self))))
        return self._labels

    def contact_sections(self) -> dict[int, tuple[object, str]]:
        """The rows under a contact heading (grounding.contact_lookup.contact_heading): row -> (document id, section
        path), read from the records once per process and index (a worker reads them when it starts, chat.warmup; the
        records' bytes are tested for a heading word before one is parsed)."""
        if self._contacts is None:
            found = {}
            for r in range(len(self)):
                start, end = int(self.offsets[r]), int(self.offsets[r + 1])
                raw = bytes(self._records[start:end])
                if any(w in raw.lower() for w in (b"contact", b"question", b"help")):
                    record = json.loads(raw)
                    if contact_heading(section := str(record.get("section") or "")):
                        found[r] = (record.get("document_id"), section)
            self._contacts = found
        return self._contacts

    def made(self, row: int, make: Callable[[dict], T]) -> T:
        """What ``make`` makes of a row's record (:meth:`record`), made once per process and index: every retrieval
        reads its candidates' records, and the same chunks come back for question after question. ``make`` must
        return an immutable value (it is shared) and be the same function on every call for this index (the
        retrieval's record reader)."""
        found = self._made.get(row)
        if found is None:
            found = self._made[row] = make(self.record(row))
        return found  # type: ignore[return-value]

    def sentence_vectors(self, row: int) -> np.ndarray | None:
        """The sentence vectors stored for a row, float32 (k, dim) (a view into the memory map); None when the
        index holds none."""
        if self._sentence_offsets is None:
            return None
        return self._sentences[int(self._sentence_offsets[row]):int(self._sentence_offsets[row + 1])]

    def layout(self, row: int) -> list | None:
        """The layout stored for a row (grounding.sentence_store.chunk_layout), parsed once per process and index
        (a shared list: never change it; the planned chunks of one question are planned again by the next);
        None when none is kept."""
        if self._layout_offsets is None:
            return None
        found = self._layouts_read.get(row, False)
        if found is False:
            start, end = int(self._layout_offsets[row]), int(self._layout_offsets[row + 1])
            found = self._layouts_read[row] = json.loads(bytes(self._layouts[start:end])) if end > start else None
        return found

    def readings(self, row: int) -> list | None:
        """The readings stored for a row's sentences (one grounding.claim_readings.reading_row each, in the order
        of its record's "sentences"), parsed; None when none are kept."""
        if self._reading_offsets is None:
            return None
        start, end = int(self._reading_offsets[row]), int(self._reading_offsets[row + 1])
        return json.loads(bytes(self._readings[start:end])) if end > start else None

    def values(self, row: int) -> dict | None:
        """The values stored for a row (grounding.support_store.chunk_values), parsed once per process and index (a
        shared dict: never change it); None when none are kept (an index built before they were: the support check
        then reads the chunk's text)."""
        if self._value_offsets is None:
            return None
        found = self._values_read.get(row, False)
        if found is False:
            start, end = int(self._value_offsets[row]), int(self._value_offsets[row + 1])
            found = self._values_read[row] = json.loads(bytes(self._values[start:end])) if end > start else None
        return found

    def row_of(self, key: int) -> int | None:
        """The row of a chunk key (the ids are in ascending order, as indexes are built); None when absent."""
        pos = int(np.searchsorted(self.ids, key))
        return pos if pos < len(self.ids) and int(self.ids[pos]) == key else None

    def unit_vectors(self, row: int) -> np.ndarray | None:
        """The answer-unit vectors stored for a row, float32 (k, dim) (a view into the memory map); None when the
        index holds none."""
        if self._unit_offsets is None:
            return None
        return self._units[int(self._unit_offsets[row]):int(self._unit_offsets[row + 1])]

    @classmethod
    def build(cls, path: Path | str, ids: Sequence[int] | np.ndarray, matrix: np.ndarray, texts: Sequence[str], *,
              records: Sequence[dict] | None = None, sentence_vectors: Sequence[np.ndarray] | None = None,
              unit_vectors: Sequence[np.ndarray] | None = None, layouts: Sequence[list | None] | None = None,
              readings: Sequence[list | None] | None = None, values: Sequence[dict | None] | None = None,
              ann_threshold: int = ANN_THRESHOLD) -> "StoredIndex":
        """Write an index directory atomically (grounding.index_files.build_directory: the arguments, the errors)
        and open it; when another process finished the same index meanwhile, its directory is opened instead."""
        return cls(build_directory(path, ids, matrix, texts, records=records, sentence_vectors=sentence_vectors,
                                   unit_vectors=unit_vectors, layouts=layouts, readings=readings,
                                   values=values, ann_threshold=ann_threshold))

    def vector(self, row: int) -> np.ndarray:
        """The unit vector of a row (a view into the memory map)."""
        return self.vectors[row]

