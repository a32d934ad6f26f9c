"""Load: N users at once, each on its own websocket asking a different 18F question, against a fresh Daphne server
with the scripted provider (issues 10 and 20).

What it does:
  1. once (kept in --data, reused by later runs): migrates a SQLite database, ingests the 18F handbook
     (../shared/corpora/18f-handbook/current/pages) into domain "18f", creates one user with a logged-in session per
     user to simulate;
  2. per user count (--users 10,100,300): copies that data into a throwaway directory and starts a NEW Daphne process
     on it (bench/load_asgi.py: config.asgi with the provider registry answering with grounding.providers.
     ScriptedProvider), so every run starts with cold caches: the server warms up at start (model, indexes:
     chat.warmup) as a deployment does, but no question was ever asked of it;
  3. opens N websockets (one per user, real session cookie and origin), waits until all are open, then sends one
     `ask` on each at once, each user a different question of evaluation/golden/18f.jsonl (question texts only; with
     more users than the set's 219 questions, the extra users ask questions already taken, and the report says how
     many), and collects frames until `done` or `error`;
  4. checks the database: every user turn stored, every answer complete, streamed deltas == `done` text == stored.

Reports per user count: lost frames (missing accepted/plan/done, gaps in delta seq; target 0), lost turns (target
0), streamed text != stored text (target 0), time to first delta p50/p95 from sending `ask` (targets at 100 users:
p95 <= 1 s, p50 <= 0.5 s) and the same less the scripted provider's own delay before its first piece (LOAD_DELAY:
the server's part), time to `plan` and to `done`, the `queued` frames seen (asks told to wait, highest position),
the load average during the run, and the server processes' CPU time (user + system, all threads) per ask during the
burst: the work an ask costs, which other load on a shared machine changes little; one JSON line per count, then a
table of the curve.
`--check` exits 1 when any lost frame, lost turn or text mismatch is found.

Run with the product's environment plus `websockets` (pinned in bench/requirements.txt):
    .venv/bin/pip install websockets==17.4
    .venv/bin/python bench/load_ws.py [--users 10,100,300] [--data /tmp/grounded-load-18f] [--check]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUESTIONS_FILE = ROOT / "evaluation" / "golden" / "18f.jsonl"
import load_data  # noqa: E402  (bench/, beside this file)
from load_data import DOMAIN, check_database, django_env, fresh_run_database, prepare_data  # noqa: E402


def questions() -> list[str]:
    """The question texts of the 18F question set, in file order, without repeats (of a conversation record, its
    first question: the follow-ups need the conversation)."""
    records = [json.loads(line) for line in QUESTIONS_FILE.read_text().splitlines() if line.strip()]
    return list(dict.fromkeys(r["question"] if "question" in r else r["turns"][0]["question"] for r in records))


def scripted_pieces(n: int) -> list[str]:
    """An answer of ``n`` pieces (about two words each) ending with a citation marker split across two pieces."""
    words = ("According to the handbook the policy described in the cited source applies to every employee and is "
             "reviewed each year by the people team so check the current version before you plan anything that "
             "depends on it").split()
    pieces = [" ".join(words[(2 * i) % len(words):(2 * i) % len(words) + 2]) + " " for i in range(max(n - 2, 1))]
    return pieces + ["[S", "1]."]


@dataclass
class Conversation:
    """What one client saw."""

    index: int
    client_id: str
    question: str
    frames: list[dict] = field(default_factory=list)
    sent_at: float = 0.0
    plan_at: float | None = None
    first_delta_at: float | None = None
    done_at: float | None = None
    error: str = ""
    #: (seconds after sending `ask`, frame type) of every frame received, for --timeline
    arrivals: list[tuple[float, str]] = field(default_factory=list)

    @property
    def deltas(self) -> list[dict]:
        return [f for f in self.frames if f.get("type") == "delta"]

    @property
    def streamed(self) -> str:
        return "".join(f["text"] for f in sorted(self.deltas, key=lambda f: f["seq"]))

    def frame(self, kind: str) -> dict | None:
        return next((f for f in self.frames if f.get("type") == kind), None)

    def lost_frames(self) -> int:
        """Missing accepted, plan or done frames, plus gaps and disorder in the delta sequence numbers."""
        lost = sum(self.frame(kind) is None for kind in ("accepted", "plan", "done"))
        seqs = [f["seq"] for f in self.deltas]
        expected = list(range(1, (max(seqs) if seqs else 0) + 1))
        lost += len(set(expected) - set(seqs)) + (seqs != expected and set(seqs) == set(expected))
        if self.frame("done") is not None and not seqs and (self.frame("plan") or {}).get("sufficient", True):
            lost += 1  # an answered question with no delta at all
        return lost


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workdir: Path, port: int, pieces: list[str], delay: float,
                 workers: int = 1, database: str | None = None) -> tuple[subprocess.Popen, float]:
    """A new Daphne process on ``workdir``'s data; returns it and the seconds it took to listen (its warm-up). With
    ``workers`` processes on the machine, each gets an equal share of the cores for its CPU pool."""
    env = {**os.environ, **django_env(workdir, database), "LOAD_PIECES": json.dumps(pieces), "LOAD_DELAY": str(delay),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if workers > 1:
        env["GROUNDED_CPU_WORKERS"] = str(max(1, (os.cpu_count() or 2) // workers))
    log = open(workdir / f"daphne-{port}.log", "wb")
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "bench.load_asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = started + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited with {proc.returncode}; see {workdir / f'daphne-{port}.log'}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, time.monotonic() - started
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("daphne did not start listening within 300 s")


async def converse(conv: Conversation, url: str, origin: str, cookie: str, start: asyncio.Event,
                   opened: asyncio.Queue, timeout: float) -> None:
    from websockets.asyncio.client import connect

    try:
        async with connect(url, origin=origin, additional_headers={"Cookie": cookie}, open_timeout=timeout,
                           max_size=None, ping_interval=None) as ws:
            await opened.put(conv.index)
            await start.wait()
            conv.sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "ask", "domain": DOMAIN, "text": conv.question,
                                      "client_id": conv.client_id}))
            async with asyncio.timeout(timeout):
                while True:
                    frame = json.loads(await ws.recv())
                    now = time.perf_counter()
                    conv.frames.append(frame)
                    kind = frame.get("type")
                    conv.arrivals.append((round(now - conv.sent_at, 4), kind))
                    if kind == "plan" and conv.plan_at is None:
                        conv.plan_at = now
                    if kind == "delta" and conv.first_delta_at is None:
                        conv.first_delta_at = now
                    if kind in ("done", "error"):
                        conv.done_at = now
                        if kind == "error":
                            conv.error = f"{frame.get('code')}: {frame.get('message')}"
                        return
    except Exception as exc:  # a refused or dropped socket, or a timeout: reported, never raised
        conv.error = conv.error or f"{type(exc).__name__}: {exc}"
        await opened.put(conv.index)


async def run_clients(ports: list[int], convs: list[Conversation], cookies: list[str], timeout: float) -> float:
    """Open every socket (user i on ports[i % len(ports)], as a proxy spreading connections over the workers would),
    then ask on all at once; returns the wall time from the asks to the last frame."""
    start, opened = asyncio.Event(), asyncio.Queue()
    tasks = []
    for c, cookie in zip(convs, cookies):
        port = ports[c.index % len(ports)]
        url, origin = f"ws://127.0.0.1:{port}/ws/chat/", f"http://127.0.0.1:{port}"
        tasks.append(asyncio.create_task(converse(c, url, origin, cookie, start, opened, timeout)))
    for _ in convs:
        await opened.get()
    t0 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    return time.perf_counter() - t0


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation (statistics.quantiles, inclusive method); nan for no values."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def cpu_seconds(pid: int, system: bool = False) -> float:
    """CPU time (user + system, seconds, all threads) a process has used so far, from /proc (Linux); with ``system``,
    the system (kernel) part alone. The servers' CPU per ask is the work an ask costs, which other processes on a
    shared machine do not change (times do)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[12]) + (0 if system else int(fields[11]))) / os.sysconf("SC_CLK_TCK")


def run_once(n: int, cookies: list[str], datadir: Path, args) -> dict:
    """One fresh server on a copy of the data, n users asking at once; the figures as a dict."""
    workdir = Path(tempfile.mkdtemp(prefix=f"grounded-load-{n}-"))
    for item in datadir.iterdir():
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, workdir / item.name)
    texts = questions()
    convs = [Conversation(i, f"load-{n}-{i:03d}", texts[i % len(texts)]) for i in range(n)]
    ports, servers, listen_s = [], [], 0.0
    database = fresh_run_database(datadir) if load_data.SERVICES is not None else None
    try:
        for _ in range(args.workers):  # one after the other: the first builds whatever index is missing
            ports.append(free_port())
            server, started = start_server(workdir, ports[-1], scripted_pieces(args.pieces), args.delay, args.workers,
                                           database)
            servers.append(server)
            listen_s = max(listen_s, started)
        load_before = os.getloadavg()[0]
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        system_before = sum(cpu_seconds(server.pid, system=True) for server in servers)
        total = asyncio.run(run_clients(ports, convs, cookies[:n], args.timeout))
        cpu_used = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
        system_used = sum(cpu_seconds(server.pid, system=True) for server in servers) - system_before
        load_after = os.getloadavg()[0]
        problems = check_database(workdir, convs, database)
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    ttfd = [c.first_delta_at - c.sent_at for c in convs if c.first_delta_at is not None]
    plan = [c.plan_at - c.sent_at for c in convs if c.plan_at is not None]
    ttd = [c.done_at - c.sent_at for c in convs if c.done_at is not None and c.frame("done") is not None]
    queued = [max(f["position"] for f in c.frames if f.get("type") == "queued") for c in convs
              if any(f.get("type") == "queued" for f in c.frames)]
    errors: dict[str, int] = {}
    for c in convs:
        if c.error:
            key = c.error.split(":")[0]
            errors[key] = errors.get(key, 0) + 1
    result = {
        "users": n, "distinct_questions": len({c.question for c in convs}),
        "completed": sum((c.frame("done") or {}).get("status") == "complete" for c in convs),
        "abstained": sum(not (c.frame("plan") or {}).get("sufficient", True) for c in convs),
        "lost_frames": sum(c.lost_frames() for c in convs), "lost_turns": len(problems["lost_turns"]),
        "text_mismatch": len(problems["text_mismatch"]), "errors": errors,
        "ttfd_p50_s": round(percentile(ttfd, 0.50), 3), "ttfd_p95_s": round(percentile(ttfd, 0.95), 3),
        "server_ttfd_p50_s": round(percentile(ttfd, 0.50) - args.delay, 3),
        "server_ttfd_p95_s": round(percentile(ttfd, 0.95) - args.delay, 3),
        "plan_p50_s": round(percentile(plan, 0.50), 3), "plan_p95_s": round(percentile(plan, 0.95), 3),
        "done_p50_s": round(percentile(ttd, 0.50), 3), "done_p95_s": round(percentile(ttd, 0.95), 3),
        "queued_asks": len(queued), "queued_max_position": max(queued, default=0),
        "server_cpu_ms_per_ask": round(cpu_used * 1000 / n, 1),
        "server_system_cpu_ms_per_ask": round(system_used * 1000 / n, 1),
        "total_s": round(total, 2), "server_start_s": round(listen_s, 1), "workers": args.workers,
        "provider_delay_s": args.delay, "pieces": args.pieces,
        "load_avg_before": round(load_before, 2), "load_avg_after": round(load_after, 2), "cpus": os.cpu_count(),
    }
    for kind in ("lost_turns", "text_mismatch"):
        for p in problems[kind][:5]:
            print(f"{kind}: {p}", file=sys.stderr)
    for c in [c for c in convs if c.error][:5]:
        print(f"error {c.client_id}: {c.error}", file=sys.stderr)
    if args.timeline:
        with args.timeline.open("a") as out:
            for c in convs:
                out.write(json.dumps({"users": n, "user": c.index, "question": c.question,
                                      "frames": c.arrivals}) + "\n")
    if args.keep:
        print(f"kept {workdir}", file=sys.stderr)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--users", default="10,100,300", help="user counts, one fresh server each")
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "grounded-load-18f",
                    help="where the ingested handbook and the users are kept between runs")
    ap.add_argument("--pieces", type=int, default=24, help="pieces of the scripted answer")
    ap.add_argument("--delay", type=float, default=0.02, help="seconds the scripted provider waits before each piece")
    ap.add_argument("--timeout", type=float, default=900, help="seconds a conversation may take")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes (Daphne) on the same data, users spread over them as a proxy would "
                         "(docs/operations.md: running at scale); each gets cores / workers CPU-pool threads")
    ap.add_argument("--keep", action="store_true", help="keep each run's directory (database, server log)")
    ap.add_argument("--timeline", type=Path, default=None,
                    help="write every user's frame arrivals (seconds after its `ask`, frame type) as JSON lines")
    ap.add_argument("--check", action="store_true", help="exit 1 on any lost frame, lost turn or text mismatch")
    ap.add_argument("--database-url", default="",
                    help="PostgreSQL server (postgres://user:pass@host:port/any): the data is prepared in a database of "
                         "its own and each run gets a fresh copy; with --redis-url, the deployment of several workers")
    ap.add_argument("--redis-url", default="", help="Redis for the channel layer and cache (emptied before each run)")
    args = ap.parse_args(argv)
    if bool(args.database_url) != bool(args.redis_url):
        ap.error("--database-url and --redis-url go together (several workers share both)")
    if args.database_url:
        load_data.SERVICES = {"database": args.database_url, "redis": args.redis_url}

    counts = [int(x) for x in args.users.split(",") if x]
    cookies = prepare_data(args.data, max(counts))
    results = []
    for n in counts:
        result = run_once(n, cookies, args.data, args)
        print(json.dumps(result), flush=True)
        results.append(result)
    print(f"\n18F handbook, scripted provider ({args.pieces} pieces, {args.delay * 1000:.0f} ms before each), "
          f"{args.workers} server process(es), {'PostgreSQL + Redis' if load_data.SERVICES else 'SQLite, in-memory layer'}, {os.cpu_count()} CPUs; times in seconds from sending `ask`; 'server' = less the provider's first delay")
    head = ("users", "lost fr.", "lost turns", "text !=", "ttfd p50", "ttfd p95", "server p50", "server p95",
            "plan p50", "plan p95", "done p95", "queued", "load", "cpu/ask ms")
    print(" ".join(f"{h:>10}" for h in head))
    for r in results:
        cells = (r["users"], r["lost_frames"], r["lost_turns"], r["text_mismatch"], r["ttfd_p50_s"], r["ttfd_p95_s"],
                 r["server_ttfd_p50_s"], r["server_ttfd_p95_s"], r["plan_p50_s"], r["plan_p95_s"], r["done_p95_s"],
                 f"{r['queued_asks']}/{r['queued_max_position']}", f"{r['load_avg_before']:.1f}",
                 r["server_cpu_ms_per_ask"])
        print(" ".join(f"{c:>10}" for c in cells))
    bad = any(r["lost_frames"] or r["lost_turns"] or r["text_mismatch"] for r in results)
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
