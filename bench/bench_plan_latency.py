"""Benchmark: one user, a domain of 10,000 chunks, the offline answerer: server time from the `ask` frame to the
`plan` frame, against its unavoidable parts measured in the same run (issue 20).

The domain (bench/corpus.py, built once and kept in --data): the 18F handbook, its dated versions and public
evaluation passages, at least 10,000 chunks, all current. The server is the real ASGI application in this process
(config.asgi: session auth, the chat consumer, the database worker, the CPU pool, the query batcher), warmed as a
worker starts (chat.warmup: model loaded, indexes mapped); the client is channels' WebsocketCommunicator on the same
event loop, so no network is timed. One user asks the 18F questions (evaluation/golden/18f.jsonl, a different
question each time, each in a new conversation, with `progress` so the status frames split the time), one after the
other, each answered to its `done` before the next.

Per question, in the same process right after its ask:
  reference = one question embedding (the model's encode of that question, bypassing the embedder's cache, as a new
              question costs) + one exact dense search of the domain's index (numpy ``matrix @ q`` and
              argpartition, top 50: the depth retrieval fuses)
Reports p50/p95 of ask -> plan and of the reference, the ratio of the medians (target <= 1.5x), the p50 target
(<= 50 ms), and the median split of ask -> plan by frame: ask -> accepted (question stored), accepted -> searching
(the answer row and memory read), searching -> planning (query embedding), planning -> plan (search, planning,
notes, the plan stored). Also reported, not targeted: ask -> first delta (the offline answerer composing its answer
after the plan: it reads its sources' sentence vectors made at ingestion) and ask -> done.

Run in the product's environment:
    .venv/bin/python bench/bench_plan_latency.py [--questions 100] [--data /tmp/grounded-bench-10k]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402

QUESTIONS_FILE = ROOT / "evaluation" / "golden" / "18f.jsonl"


def questions() -> list[str]:
    records = [json.loads(line) for line in QUESTIONS_FILE.read_text().splitlines() if line.strip()]
    return list(dict.fromkeys(r["question"] if "question" in r else r["turns"][0]["question"] for r in records))


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1] if len(values) > 1 \
        else values[0]


async def ask_all(texts: list[str], cookie: bytes, pause: float = 0.0) -> list[dict]:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from grounding.embeddings import default_embedder
    from grounding.retrieve import top_k_inner
    from knowledge.models import Domain
    from knowledge.selectors import domain_index

    domain = await asyncio.to_thread(Domain.objects.get, slug=corpus.DOMAIN)
    index = await asyncio.to_thread(domain_index, domain=domain)
    embedder = default_embedder()
    comm = WebsocketCommunicator(application, "/ws/chat/", headers=[(b"origin", b"http://localhost"),
                                                                   (b"host", b"localhost"), (b"cookie", cookie)])
    connected, _ = await comm.connect()
    assert connected, "the socket was refused"
    rows = []
    for i, text in enumerate(texts):
        at: dict[str, float] = {}
        if pause:
            await asyncio.sleep(pause)
        sent = time.perf_counter()
        await comm.send_json_to({"type": "ask", "domain": corpus.DOMAIN, "text": text, "client_id": f"q{i}",
                                 "progress": True})
        while True:
            frame = await comm.receive_json_from(timeout=120)
            kind = frame["type"]
            key = frame.get("stage", kind) if kind == "status" else kind
            at.setdefault(key, time.perf_counter() - sent)
            if kind in ("done", "error"):
                break
        if "plan" not in at:
            raise SystemExit(f"no plan frame for {text!r}: {frame}")
        # the unavoidable parts, measured now on the same question: one encode (no cache) + one exact search
        start = time.perf_counter()
        vector = embedder._encode([text])[0]
        encoded = time.perf_counter()
        top_k_inner(index.vectors, vector, 50)
        searched = time.perf_counter()
        rows.append({**at, "embed": encoded - start, "search": searched - encoded})
    await comm.disconnect()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "grounded-bench-10k")
    ap.add_argument("--skip", type=int, default=3, help="first asks not counted (the process's first ask)")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds between one ask's reference measurement and the next ask (a user reading the answer; "
                         "0: back to back, the previous answer's closing work still running)")
    args = ap.parse_args()

    if not (args.data / "corpus.json").is_file():  # built once, in its own process
        import subprocess

        subprocess.run([sys.executable, str(ROOT / "bench" / "corpus.py"), str(args.data)], check=True)
    info = json.loads((args.data / "corpus.json").read_text())
    work = Path(tempfile.mkdtemp(prefix="bench-plan-"))  # asks write: run on a copy
    for item in args.data.iterdir():
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, work / item.name)
    corpus.setup(work)
    from django.contrib.auth import get_user_model
    from django.test import Client

    from chat.warmup import warm

    user = get_user_model().objects.create_user(f"plan{os.getpid()}", password=None)
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    warmed = warm()
    texts = questions()[:args.questions + args.skip]
    load_before = os.getloadavg()[0]
    rows = asyncio.run(ask_all(texts, cookie, args.pause))[args.skip:]
    load_after = os.getloadavg()[0]
    shutil.rmtree(work, ignore_errors=True)

    plan = [r["plan"] * 1000 for r in rows]
    ref = [(r["embed"] + r["search"]) * 1000 for r in rows]
    embed = [r["embed"] * 1000 for r in rows]
    search = [r["search"] * 1000 for r in rows]
    split = {"ask -> accepted (question stored)": [r["accepted"] * 1000 for r in rows],
             "accepted -> searching (answer row, memory)": [(r["searching"] - r["accepted"]) * 1000 for r in rows],
             "searching -> planning (query embedding)": [(r["planning"] - r["searching"]) * 1000 for r in rows],
             "planning -> plan (search, plan, notes, stored)": [(r["plan"] - r["planning"]) * 1000 for r in rows]}
    first = [r["delta"] * 1000 for r in rows if "delta" in r]
    done = [r["done"] * 1000 for r in rows if "done" in r]
    ratio = statistics.median(plan) / statistics.median(ref)
    result = {"chunks": info["chunks"], "questions": len(rows), "plan_p50_ms": round(statistics.median(plan), 1),
              "plan_p95_ms": round(pct(plan, 0.95), 1), "reference_p50_ms": round(statistics.median(ref), 1),
              "embed_p50_ms": round(statistics.median(embed), 1), "search_p50_ms": round(statistics.median(search), 2),
              "ratio_of_medians": round(ratio, 2),
              "median_ratio": round(statistics.median(p / r for p, r in zip(plan, ref)), 2),
              "split_p50_ms": {k: round(statistics.median(v), 1) for k, v in split.items()},
              "first_delta_p50_ms": round(statistics.median(first), 1), "first_delta_p95_ms": round(pct(first, 0.95), 1),
              "done_p50_ms": round(statistics.median(done), 1),
              "warmup_s": warmed["seconds"], "load_avg": [round(load_before, 1), round(load_after, 1)],
              "cpus": os.cpu_count()}
    print(json.dumps(result))
    print(f"\n{info['chunks']:,} chunks ({info['parts']}), {len(rows)} questions, offline answerer, "
          f"load average {load_before:.1f} -> {load_after:.1f} on {os.cpu_count()} CPUs")
    print(f"ask -> plan        p50 {result['plan_p50_ms']:7.1f} ms   p95 {result['plan_p95_ms']:7.1f} ms  "
          f"(target p50 <= 50 ms: {'met' if result['plan_p50_ms'] <= 50 else 'NOT met'})")
    print(f"reference          p50 {result['reference_p50_ms']:7.1f} ms   (embedding {result['embed_p50_ms']} ms + "
          f"exact search {result['search_p50_ms']} ms)")
    print(f"ratio of medians   {ratio:.2f}x  (target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'}); "
          f"median of per-question ratios {result['median_ratio']:.2f}x")
    for k, v in result["split_p50_ms"].items():
        print(f"  {k:<48} p50 {v:7.1f} ms")
    print(f"ask -> first delta p50 {result['first_delta_p50_ms']:7.1f} ms   p95 {result['first_delta_p95_ms']:7.1f} ms   "
          f"ask -> done p50 {result['done_p50_ms']:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
