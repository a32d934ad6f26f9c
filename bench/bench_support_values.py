"""Benchmark: the support check of real answers on the 18F handbook, its sources' values found in their texts (the
old path) against read from what ingestion stored (grounding.support_store, the new path), in the same run (issue 20
point 3).

The domain: the 18F handbook's current pages ingested once into --data (SQLite database, index folder; reused). The
answers: the offline answerer's to the questions of the calibration half of evaluation/golden/18f.jsonl (never the
test half), planned as the chat plans them (chat.answering.answer_prepare), the texts the check embeds given to it
beforehand (grounding.embeddings.KnownVectors, as the server's batcher does), so no model call is timed.

Per answer and path, best of --repeat:
  old = check_support(answer, sources)                                  (values found in every cited source's text)
  new = reading the planned chunks' stored values from the index + grounding.support_store.plan_values
        + check_support(answer, sources, stored_values=...)
  values only: old = grounding.support_values.source_values of each cited source; new = the stored read + plan_values
Cold: the caches both paths use (grounding.values.value_keys, typed_values; grounding.context_merge.joined_text; the
index's parsed value rows and grounding.support_values.values_of_keys) emptied before each timed run; warm: measured
again with them full. Reports the totals over all answers and the
ratios new/old, and how many cited sources were read from stored values. Every answer's report is checked equal on
both paths.

Run in the product's environment:
    .venv/bin/python bench/bench_support_values.py [--questions 60] [--data /tmp/grounded-bench-18f]
        [--embedding-cache var/test-embedding-cache]   (optional: vectors the test suite cached, to ingest faster)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402

QUESTIONS_FILE = ROOT / "evaluation" / "golden" / "18f.jsonl"
DOMAIN = "18f"


def calibration_questions() -> list[str]:
    """The calibration half's questions (the test half is not read)."""
    out = []
    for line in QUESTIONS_FILE.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("split") == "calibration" and "question" in record:
                out.append(record["question"])
    return out


def remember_cache(path: Path) -> None:
    """Give the default embedder the vectors of a test-suite embedding cache (.json texts, .npy rows), if present."""
    import numpy as np

    from grounding.embeddings import default_embedder

    names, rows = path.with_suffix(".json"), path.with_suffix(".npy")
    if not (names.is_file() and rows.is_file()):
        return
    saved = json.loads(names.read_text())
    texts = saved["texts"] if saved.get("model") == default_embedder().name else []
    matrix = np.load(rows)
    remember = getattr(default_embedder(), "remember", None)
    if remember is not None and len(texts) == len(matrix):
        remember(dict(zip(texts, matrix)))


def domain_ready(datadir: Path, cache: Path | None):
    """The 18F domain in ``datadir``'s database, ingested the first time."""
    from knowledge.models import Domain
    from knowledge.services import domain_get_or_create, ingest_path

    found = Domain.objects.filter(slug=DOMAIN).first()
    if found is not None and found.index_token:
        return found
    if cache is not None:
        remember_cache(cache)
    domain = domain_get_or_create(slug=DOMAIN, name="18F handbook")
    started = time.perf_counter()
    ingest_path(path=corpus.HANDBOOK / "current" / "pages", domain=domain)
    print(f"ingested the 18F handbook in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return Domain.objects.get(pk=domain.pk)


async def answer_text(prepared) -> str:
    from grounding.providers import TextDelta

    return "".join([e.text async for e in prepared.provider.stream(prepared.prompt, prepared.plan)
                    if isinstance(e, TextDelta)])


def clear_caches() -> None:
    """Both paths cold: the value caches (grounding.values), the joined texts, the stored rows parsed by the index
    and their values (grounding.support_values.values_of_keys)."""
    from grounding import support_values
    from grounding.context_merge import joined_text
    from grounding.values import typed_values, value_keys
    from knowledge.selectors import domain_index
    from knowledge.models import Domain

    for cached in (value_keys, typed_values, joined_text, support_values._values_of):
        cached.cache_clear()
    domain_index(domain=Domain.objects.get(slug=DOMAIN))._values_read.clear()


def best(fn, repeat: int, cold: bool) -> float:
    times = []
    for _ in range(repeat):
        if cold:
            clear_caches()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", type=int, default=60)
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "grounded-bench-18f")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--embedding-cache", type=Path, default=ROOT / "var" / "test-embedding-cache")
    args = ap.parse_args()

    os.environ.update(corpus.django_env(args.data))
    corpus.setup(args.data)
    from chat.answering import answer_prepare
    from grounding.embeddings import KnownVectors, default_embedder
    from grounding.support import check_support, support_texts
    from grounding.support_store import plan_values
    from grounding.support_values import source_values
    from knowledge.selectors import chunk_value_rows

    domain = domain_ready(args.data, args.embedding_cache)
    embedder = default_embedder()
    cases = []
    for question in calibration_questions()[:args.questions]:
        prepared = answer_prepare(domain=domain, question=question)
        if not prepared.plan.sufficient:
            continue
        text = asyncio.run(answer_text(prepared))
        sources = {s.label: s.text for s in prepared.plan.sources}
        stored = {**{s.label: s.sentences.vectors for s in prepared.plan.sources if s.sentences is not None},
                  **prepared.source_vectors}
        wanted = support_texts(text, sources, stored)
        known = KnownVectors(embedder, dict(zip(wanted, embedder.embed(wanted)))) if wanted else embedder
        cases.append((question, text, sources, stored, known, prepared))
    if not cases:
        raise SystemExit("no answered question")

    # the planned chunks as answer_plan holds them (its candidates' chunks), from the index records: not timed
    from knowledge.records import chunk_from_record
    from knowledge.selectors import domain_index

    index = domain_index(domain=domain)
    chunks_of = {id(p): {i: chunk_from_record(index.record(index.row_of(i))) for s in p.plan.sources
                         for i in s.chunk_ids if index.row_of(i) is not None} for *_, p in cases}

    totals = {(path, part, warmth): 0.0 for path in ("old", "new") for part in ("check", "values")
              for warmth in ("cold", "warm")}
    cited = read = 0
    for question, text, sources, stored, known, prepared in cases:
        plan = prepared.plan
        chunks = chunks_of[id(prepared)]
        ids = [i for s in plan.sources for i in s.chunk_ids]
        labels = [lab for lab in sources if re.search(rf"\b{lab}\b", text)]  # the sources the answer cites

        def new_values():
            return plan_values(plan, chunks, chunk_value_rows(domain=domain.pk, chunk_ids=ids, token=domain.index_token))

        values = new_values()
        cited += len(labels)
        read += sum(1 for lab in labels if lab in values)
        old_report = check_support(text, sources, known, source_vectors=stored, question=question)
        new_report = check_support(text, sources, known, source_vectors=stored, question=question,
                                   stored_values=values)
        assert old_report.as_dict() == new_report.as_dict(), question
        for lab, got in values.items():
            assert got == source_values(sources[lab]), (question, lab)

        def old_check():
            check_support(text, sources, known, source_vectors=stored, question=question)

        def new_check():
            check_support(text, sources, known, source_vectors=stored, question=question,
                          stored_values=new_values())

        def old_values():
            return {lab: source_values(sources[lab]) for lab in labels}

        for warmth in ("cold", "warm"):
            cold = warmth == "cold"
            totals["old", "check", warmth] += best(old_check, args.repeat, cold)
            totals["new", "check", warmth] += best(new_check, args.repeat, cold)
            totals["old", "values", warmth] += best(old_values, args.repeat, cold)
            totals["new", "values", warmth] += best(new_values, args.repeat, cold)

    print(f"{len(cases)} answers of the 18F calibration half; {read} of {cited} cited sources read from stored values")
    for part, name in (("check", "support check (whole)"), ("values", "sources' values only")):
        for warmth in ("cold", "warm"):
            old, new = totals["old", part, warmth], totals["new", part, warmth]
            print(f"{name:24} {warmth}: old {old * 1000:8.1f} ms  new {new * 1000:8.1f} ms  new/old {new / old:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
