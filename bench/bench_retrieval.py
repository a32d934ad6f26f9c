"""Benchmark: retrieval at scale (issue 11) on random unit vectors, 384 dimensions.

For each size (default 100k and 1M vectors) in the same run and on the same data:
  exact     grounding.index_store.StoredIndex dense search: the memory-mapped float32 matrix, ``matrix @ q`` and
            ``argpartition`` (numpy), the product's default
  faiss     faiss.IndexFlatIP.search on the same vectors (the reference; target: our p50 within 1.5x of it)
  hnsw      the same StoredIndex with its usearch HNSW graph (sizes in --ann-sizes): speed-up over exact and
            recall@10 against exact search
and, for the largest size, memory with 4 worker processes that each open the index and search it: the proportional
set size (PSS) of the vectors file's mapping per worker and summed. Target: the matrix is resident once (the sum of
the workers' PSS for the mapping is about one matrix, not four).

Equal terms: faiss (OpenMP) and numpy (its BLAS, through threadpoolctl) are pinned to the same thread count
(--threads, default 1: a server answers many single queries at once, one core each), and the count is reported. With
faiss left at its default of one OpenMP thread per core, a single 384 x n query pays for waking the other threads,
which made faiss look slower than it is (issue 20).

Machines here are noisy: read the ratios, which compare runs made seconds apart in one process.

Run (separate environment; nothing here is installed by the app or the tests):
    python3 -m venv bench/.venv && bench/.venv/bin/pip install -r bench/requirements.txt
    PYTHONPATH=. bench/.venv/bin/python bench/bench_retrieval.py [--sizes 100000,1000000] [--ann-sizes 100000]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grounding.index_store import StoredIndex  # noqa: E402
from grounding.retrieve import top_k_inner  # noqa: E402

DIM = 384


def unit_rows(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):  # in blocks: no float64 copy of a million rows
        block = rng.standard_normal((min(100_000, n - start), DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start:start + len(block)] = block
    return out


def timed(fn, queries: np.ndarray) -> list[float]:
    fn(queries[0])  # warm: page the mapping in, as a serving process would be
    times = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - start) * 1000)
    return times


def p50(times: list[float]) -> float:
    return statistics.median(times)


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def mapping_pss_kb(path: str) -> tuple[int, int]:
    """(Pss, Rss) in kB of this process's mappings of ``path`` (from /proc/self/smaps)."""
    pss = rss = 0
    current = False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            first = line.split()[0] if line.strip() else ""
            if "-" in first and ":" not in first:  # a mapping header line: address range, perms, ..., path
                current = line.rstrip().endswith(path)
            elif current and line.startswith("Pss:"):
                pss += int(line.split()[1])
            elif current and line.startswith("Rss:"):
                rss += int(line.split()[1])
    return pss, rss


def worker(path: str, queries: np.ndarray, ready, go, out) -> None:
    index = StoredIndex(path)
    for q in queries:
        index.dense_top(q, 10)
    ready.wait()  # every worker has touched the whole matrix before anyone measures
    go.wait()
    pss, rss = mapping_pss_kb(str(Path(path) / "vectors.npy"))
    out.put((pss, rss))


def memory_with_workers(path: Path, queries: np.ndarray, workers: int = 4) -> list[tuple[int, int]]:
    ctx = mp.get_context("spawn")
    ready, go, out = ctx.Barrier(workers + 1), ctx.Barrier(workers + 1), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(str(path), queries[:5], ready, go, out)) for _ in range(workers)]
    for p in procs:
        p.start()
    ready.wait()
    go.wait()
    results = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--ann-sizes", default="100000", help="sizes that also get an HNSW graph (slow to build)")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1, help="threads for faiss (OpenMP) and numpy (BLAS) alike")
    args = parser.parse_args()
    import faiss
    from threadpoolctl import threadpool_info, threadpool_limits

    faiss.omp_set_num_threads(args.threads)
    threadpool_limits(limits=args.threads)  # numpy's BLAS (and any other OpenMP pool) in this process
    blas = sorted({f"{p['internal_api']} {p['num_threads']}" for p in threadpool_info()})

    sizes = [int(s) for s in args.sizes.split(",") if s]
    ann_sizes = {int(s) for s in args.ann_sizes.split(",") if s}
    queries = unit_rows(args.queries, seed=99)
    rows = []
    memory = None
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        for n in sizes:
            matrix = unit_rows(n, seed=n)
            ids = np.arange(n, dtype=np.int64)
            texts = [""] * n  # the dense side only: no lexical index
            start = time.perf_counter()
            exact = StoredIndex.build(Path(tmp) / f"exact-{n}", ids, matrix, texts, ann_threshold=n + 1)
            build_exact = time.perf_counter() - start
            flat = faiss.IndexFlatIP(DIM)
            flat.add(matrix)
            t_ours = timed(lambda q: exact.dense_top(q, 10), queries)
            t_faiss = timed(lambda q: flat.search(q[None, :], 10), queries)
            for q in queries[:5]:  # same answers as faiss (ties aside)
                ours_rows = exact.dense_top(q, 10)[0].tolist()
                assert ours_rows[:5] == flat.search(q[None, :], 10)[1][0].tolist()[:5]
            row = {"n": n, "ours_p50": p50(t_ours), "ours_p95": p95(t_ours), "faiss_p50": p50(t_faiss),
                   "faiss_p95": p95(t_faiss), "build_s": build_exact}
            if n in ann_sizes:
                start = time.perf_counter()
                approx = StoredIndex.build(Path(tmp) / f"ann-{n}", ids, matrix, texts, ann_threshold=1)
                row["ann_build_s"] = time.perf_counter() - start
                t_ann = timed(lambda q: approx.dense_top(q, 10), queries)
                hits = sum(len(set(approx.dense_top(q, 10)[0].tolist()) & set(top_k_inner(matrix, q, 10)[0].tolist()))
                           for q in queries)
                row.update(ann_p50=p50(t_ann), ann_p95=p95(t_ann), recall10=hits / (10 * len(queries)))
            rows.append(row)
            if n == max(sizes):
                memory = (n, matrix.nbytes, memory_with_workers(exact.path, queries, args.workers))
            del matrix, flat

    print(f"dense retrieval, random unit vectors, {DIM} dims, top-10, {args.queries} queries; threads: faiss "
          f"{faiss.omp_get_max_threads()}, numpy/BLAS {', '.join(blas)} (pinned alike with --threads {args.threads})")
    print(f"{'n':>9} {'ours p50':>9} {'p95':>7} {'faiss p50':>10} {'p95':>7} {'ours/faiss':>11} "
          f"{'hnsw p50':>9} {'speed-up':>9} {'recall@10':>10}")
    for r in rows:
        ratio = r["ours_p50"] / r["faiss_p50"]
        ann = (f"{r['ann_p50']:>9.3f} {r['ours_p50'] / r['ann_p50']:>8.1f}x {r['recall10']:>10.3f}"
               if "ann_p50" in r else f"{'-':>9} {'-':>9} {'-':>10}")
        print(f"{r['n']:>9,} {r['ours_p50']:>9.2f} {r['ours_p95']:>7.2f} {r['faiss_p50']:>10.2f} "
              f"{r['faiss_p95']:>7.2f} {ratio:>10.2f}x {ann}")
    for r in rows:
        verdict = "met" if r["ours_p50"] <= 1.5 * r["faiss_p50"] else "NOT met"
        print(f"target at {r['n']:,}: exact p50 within 1.5x of faiss IndexFlatIP: {verdict}")
    if memory:
        n, nbytes, per_worker = memory
        total_pss = sum(p for p, _ in per_worker)
        print(f"memory, {len(per_worker)} workers, {n:,} vectors ({nbytes / 2**20:,.0f} MiB matrix): "
              f"mapping PSS per worker {[round(p / 1024) for p, _ in per_worker]} MiB, RSS per worker "
              f"{[round(r / 1024) for _, r in per_worker]} MiB, PSS summed {total_pss / 1024:,.0f} MiB = "
              f"{total_pss * 1024 / nbytes:.2f} matrices (target: about 1, resident once)")


if __name__ == "__main__":
    main()
