"""Benchmark: the embedding model on ONNX Runtime against sentence-transformers on torch (issue 20: the question
embedding was the largest part of an ask's CPU).

Both runtimes encode the same texts in the same run, on the same number of native threads (--threads, pinned for
torch, ONNX Runtime and numpy's BLAS alike, and reported): the 18F golden questions one at a time and in batches
of --batch (as the server's micro-batcher forms them under a burst), and 18F handbook chunks of about --chunk-chars
characters in batches of 64 (as ingestion encodes them). Each text set is encoded twice per runtime, alternating
the runtimes, with the embedder's cache off, so every call encodes; the figures are CPU milliseconds per text of the
calling thread (``time.thread_time``; with one thread it is the work) and wall milliseconds per text, and the ratio
torch / ONNX. The largest difference between the two runtimes' vectors of the same text is reported too.

Run (the product's environment):
    PYTHONPATH=. .venv/bin/python bench/bench_embedding.py [--threads 1] [--questions 200] [--chunks 200]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grounding.embeddings import MiniLMEmbedder  # noqa: E402

HANDBOOK = ROOT.parent / "shared" / "corpora" / "18f-handbook" / "current" / "pages"


def questions(n: int) -> list[str]:
    """The 18F golden set's questions (single questions and conversation turns), in file order."""
    out: list[str] = []
    for line in (ROOT / "evaluation" / "golden" / "18f.jsonl").open():
        record = json.loads(line)
        out += [record["question"]] if "question" in record else [t["question"] for t in record.get("turns", [])]
    return out[:n]


def chunks(n: int, chars: int) -> list[str]:
    """Consecutive pieces of ``chars`` characters of the handbook's pages (sorted by path), n of them."""
    out: list[str] = []
    for page in sorted(HANDBOOK.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        out += [text[i:i + chars] for i in range(0, len(text), chars)]
        if len(out) >= n:
            break
    return out[:n]


def timed(embedder: MiniLMEmbedder, texts: list[str], batch: int) -> tuple[float, float, np.ndarray]:
    """(CPU ms per text, wall ms per text, the vectors) of encoding ``texts`` in calls of ``batch`` texts."""
    cpu, wall = time.thread_time(), time.perf_counter()
    vectors = np.concatenate([embedder.embed(texts[i:i + batch]) for i in range(0, len(texts), batch)])
    return ((time.thread_time() - cpu) * 1000 / len(texts), (time.perf_counter() - wall) * 1000 / len(texts),
            vectors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1, help="native threads for every runtime (a server task: 1)")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--batch", type=int, default=20, help="questions per call in the batched run")
    parser.add_argument("--chunks", type=int, default=200)
    parser.add_argument("--chunk-chars", type=int, default=900)
    args = parser.parse_args()

    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(args.threads)
    threadpool_limits(limits=args.threads)
    runtimes = {name: MiniLMEmbedder(runtime=name, cache_size=0) for name in ("onnx", "torch")}
    for embedder in runtimes.values():
        embedder.load()
        embedder.embed(["warm up"])
    asked = questions(args.questions)
    sets = [("questions, one per call", asked, 1), (f"questions, {args.batch} per call", asked, args.batch),
            (f"chunks of {args.chunk_chars} characters, 64 per call", chunks(args.chunks, args.chunk_chars), 64)]
    print(f"threads: {args.threads} (torch {torch.get_num_threads()}, ONNX Runtime intra-op {args.threads}); "
          f"runtimes in use: {', '.join(f'{k}={v.runtime}' for k, v in runtimes.items())}")
    print(f"{'texts':<46} {'n':>5} {'onnx cpu':>9} {'torch cpu':>10} {'ratio':>6} {'onnx wall':>10} "
          f"{'torch wall':>11} {'max |diff|':>11}")
    for label, texts, batch in sets:
        cpu = {name: [] for name in runtimes}
        wall = {name: [] for name in runtimes}
        vectors = {}
        for _ in range(2):  # alternated: onnx, torch, onnx, torch
            for name, embedder in runtimes.items():
                c, w, v = timed(embedder, texts, batch)
                cpu[name].append(c)
                wall[name].append(w)
                vectors[name] = v
        best = {name: min(cpu[name]) for name in runtimes}
        diff = float(np.abs(vectors["onnx"] - vectors["torch"]).max())
        print(f"{label:<46} {len(texts):>5} {best['onnx']:>9.2f} {best['torch']:>10.2f} "
              f"{best['torch'] / best['onnx']:>5.2f}x {min(wall['onnx']):>10.2f} {min(wall['torch']):>11.2f} "
              f"{diff:>11.1e}")
    print("ms per text, the better of two alternated runs; ratio = torch / ONNX Runtime CPU")


if __name__ == "__main__":
    main()
