"""Benchmark: recall@10 of the HNSW graph against exact search on REAL sentence embeddings, by size (issue 20).

The vectors are MiniLM embeddings of real text, all made by ingestion (bench/corpus.py's domain of 10,000+ chunks,
kept in --data): every chunk's embedding (18F handbook pages, its dated versions, public evaluation passages) and
every sentence vector ingestion stored with the chunks (grounding.claims.claims of each chunk), without
repeats (the dated versions repeat many sentences word for word, and identical vectors make ties that no index
orders alike). The queries are the 18F question set's questions (evaluation/golden/18f.jsonl), embedded with the
same model. For each size (a random subset of the vectors, the same subset for both searches) the graph is built
with the product's parameters (grounding.index_files: connectivity, expansion at build and at search) and
recall@10 = |HNSW top 10 & exact top 10| / 10, averaged over the queries; the build time and both searches' p50
latency are reported, with faiss-free numpy exact search pinned to the same single thread as usearch's search.

Run in the product's environment (usearch is a runtime dependency):
    .venv/bin/python bench/bench_ann_recall.py [--sizes 10000,25000,50000,all] [--data /tmp/grounded-bench-10k]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
from grounding import index_files  # noqa: E402
from grounding.retrieve import top_k_inner  # noqa: E402


def real_vectors(data: Path) -> np.ndarray:
    """The chunk and sentence vectors of the kept domain, float32 (n, 384), unique rows, in a fixed order."""
    corpus.setup(data)
    from knowledge.models import Chunk

    rows = []
    for chunk in Chunk.objects.filter(version__document__domain__slug=corpus.DOMAIN).order_by("pk").iterator(2_000):
        rows.append(np.frombuffer(bytes(chunk.embedding), dtype="<f4"))
        said = chunk.sentence_matrix()
        if said is not None and len(said):
            rows.extend(said)
    matrix = np.ascontiguousarray(np.stack(rows), dtype=np.float32)
    _, first = np.unique(matrix.view(np.dtype((np.void, matrix.shape[1] * 4))).ravel(), return_index=True)
    return matrix[np.sort(first)]


def question_vectors() -> np.ndarray:
    from grounding.embeddings import default_embedder

    records = [json.loads(x) for x in (ROOT / "evaluation" / "golden" / "18f.jsonl").read_text().splitlines() if x]
    texts = list(dict.fromkeys(r["question"] if "question" in r else r["turns"][0]["question"] for r in records))
    return default_embedder().embed(texts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,25000,50000,all")
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "grounded-bench-10k")
    ap.add_argument("--threads", type=int, default=1, help="threads of numpy's BLAS (usearch searches one query "
                                                          "on one thread)")
    args = ap.parse_args()
    from threadpoolctl import threadpool_limits
    from usearch.index import Index

    threadpool_limits(limits=args.threads)
    matrix = real_vectors(args.data)
    queries = question_vectors()
    rng = np.random.default_rng(20)
    order = rng.permutation(len(matrix))
    sizes = [len(matrix) if s == "all" else min(int(s), len(matrix)) for s in args.sizes.split(",") if s]
    print(f"{len(matrix):,} unique real vectors (chunks and sentences), {len(queries)} question queries, "
          f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs", flush=True)
    results = []
    for n in dict.fromkeys(sizes):
        sub = np.ascontiguousarray(matrix[np.sort(order[:n])])
        start = time.perf_counter()
        graph = Index(ndim=sub.shape[1], metric="ip", dtype="f32", connectivity=index_files.ANN_CONNECTIVITY,
                      expansion_add=index_files.ANN_EXPANSION_ADD, expansion_search=index_files.ANN_EXPANSION)
        graph.add(np.arange(n, dtype=np.uint64), sub, log=False)
        build_s = time.perf_counter() - start
        hits, t_exact, t_ann = 0, [], []
        for q in queries:
            t0 = time.perf_counter()
            exact = top_k_inner(sub, q, 10)[0]
            t1 = time.perf_counter()
            approx = np.asarray(graph.search(q, 10).keys, dtype=np.int64)
            t2 = time.perf_counter()
            t_exact.append((t1 - t0) * 1000)
            t_ann.append((t2 - t1) * 1000)
            hits += len(set(exact.tolist()) & set(approx.tolist()))
        row = {"n": n, "recall10": round(hits / (10 * len(queries)), 4), "build_s": round(build_s, 1),
               "exact_p50_ms": round(statistics.median(t_exact), 2), "hnsw_p50_ms": round(statistics.median(t_ann), 2),
               "load_avg": round(os.getloadavg()[0], 1)}
        results.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'vectors':>9} {'recall@10':>10} {'build s':>8} {'exact p50 ms':>13} {'hnsw p50 ms':>12}")
    for r in results:
        print(f"{r['n']:>9,} {r['recall10']:>10.3f} {r['build_s']:>8.1f} {r['exact_p50_ms']:>13.2f} "
              f"{r['hnsw_p50_ms']:>12.2f}")
    holding = [r["n"] for r in results if r["recall10"] >= 0.95]
    print(f"sizes where recall@10 >= 0.95: {holding or 'none'}; above {max(r['n'] for r in results):,} vectors the "
          "recall is not measured")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
