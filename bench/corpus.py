"""A domain of at least 10,000 chunks of real text for the scale benchmarks (issue 20): the 18F handbook's current
pages, its dated versions (each file its own document, so every chunk is current and searched), then public
evaluation passages from ../shared/eval (Natural Questions gold passages of lost_in_the_middle, ConflictQA's evidence
passages, RAMDocs' documents) written as text files in a temporary folder and ingested like any upload, until the
domain holds ``target`` chunks.

Built once into a data directory (SQLite database, index folder) and reused: bench/bench_plan_latency.py and
bench/bench_ann_recall.py read it. Nothing of the checkout's var/ is touched.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
HANDBOOK = SHARED / "corpora" / "18f-handbook"
EVAL = SHARED / "eval"
DOMAIN = "big"


def django_env(datadir: Path) -> dict[str, str]:
    """The settings of a process working on ``datadir`` (embedded defaults, offline answerer, no warm-up)."""
    return {"DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false",
            "GROUNDED_VAR_DIR": str(datadir), "DATABASE_URL": f"sqlite:///{datadir / 'bench.sqlite3'}",
            "LLM_PROVIDER": "extractive", "GROUNDED_LOG_LEVEL": "WARNING", "GROUNDED_ASK_RATE_LIMIT": "0",
            "GROUNDED_WARMUP": "false", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false"}


def setup(datadir: Path) -> None:
    """Django set up on ``datadir`` (created when missing), its database migrated to this checkout's models (a
    domain built by an earlier checkout gets the newer migrations)."""
    datadir.mkdir(parents=True, exist_ok=True)
    os.environ.update(django_env(datadir))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def eval_passages() -> list[tuple[str, str]]:
    """(title, text) of public evaluation passages, in a fixed order, without repeats."""
    out: dict[str, str] = {}
    with gzip.open(EVAL / "lost_in_the_middle" / "nq-open-oracle.jsonl.gz", "rt") as f:
        for line in f:
            for ctx in json.loads(line)["ctxs"]:
                out.setdefault(ctx["text"], ctx["title"])
    for line in (EVAL / "conflictqa" / "conflictQA-strategyQA-gpt4.dev.jsonl").read_text().splitlines():
        r = json.loads(line)
        for key in ("parametric_memory", "counter_memory", "parametric_memory_aligned_evidence",
                    "counter_memory_aligned_evidence"):
            if r.get(key):
                out.setdefault(r[key], r["question"])
    for line in (EVAL / "ramdocs" / "RAMDocs_dev.jsonl").read_text().splitlines():
        r = json.loads(line)
        for doc in r["documents"]:
            out.setdefault(doc["text"], r["question"])
    return [(title, text) for text, title in out.items() if text.strip()]


def chunk_count() -> int:
    from knowledge.models import Chunk

    return Chunk.objects.filter(version__document__domain__slug=DOMAIN).count()


def build(datadir: Path, target: int = 10_000) -> dict:
    """The domain ``big`` with at least ``target`` chunks in ``datadir`` (kept; a second call returns at once).

    Returns:
        {"chunks": n, "seconds": ingestion time, "parts": chunks per part}.
    """
    setup(datadir)
    done = datadir / "corpus.json"
    if done.is_file():
        return json.loads(done.read_text())
    from django.core.management import call_command

    from knowledge.services import domain_get_or_create, ingest_path

    call_command("migrate", verbosity=0)
    domain = domain_get_or_create(slug=DOMAIN, name="18F handbook and public passages")
    started, parts = time.perf_counter(), {}
    for name, path in (("18F handbook (current)", HANDBOOK / "current" / "pages"),
                       ("18F handbook (dated versions)", HANDBOOK / "versions")):
        before = chunk_count()
        ingest_path(path=path, domain=domain)
        parts[name] = chunk_count() - before
        print(f"{name}: {parts[name]} chunks, {time.perf_counter() - started:.0f} s", flush=True)
    passages = eval_passages()
    with tempfile.TemporaryDirectory(prefix="bench-passages-") as tmp:
        at = 0
        while chunk_count() < target and at < len(passages):
            need = target - chunk_count()
            folder = Path(tmp) / f"batch-{at}"
            folder.mkdir()
            for i, (title, text) in enumerate(passages[at:at + need]):
                (folder / f"p{at + i:05d}.txt").write_text(f"{title}\n\n{text}\n", encoding="utf-8")
            at += need
            before = chunk_count()
            ingest_path(path=folder, domain=domain)
            parts["public evaluation passages"] = parts.get("public evaluation passages", 0) + chunk_count() - before
            print(f"passages: {chunk_count()} chunks, {time.perf_counter() - started:.0f} s", flush=True)
    from django.db import connections

    connections.close_all()
    info = {"chunks": chunk_count(), "seconds": round(time.perf_counter() - started), "parts": parts}
    done.write_text(json.dumps(info))
    return info


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()) / "grounded-bench-10k"))
