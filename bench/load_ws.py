"""Load: N concurrent websocket conversations against a local Daphne server with the scripted provider (issue 10).

What it does, in a throwaway directory (nothing of the checkout's var/ is touched):
  1. migrates a fresh SQLite database, ingests the demo corpus (demo/corpus) into domain "handbook", creates N users
     and a logged-in session for each;
  2. starts Daphne on 127.0.0.1 with bench/load_asgi.py (config.asgi with the provider registry answering with
     grounding.providers.ScriptedProvider: fixed pieces, a delay between them);
  3. warms the server up with one conversation (the embedding model loads on the first question; not counted);
  4. opens N websockets (one per user, real session cookie and origin), waits until all are open, then sends one
     `ask` with a client id on each at once and collects frames until `done` or `error`;
  5. checks the database: every user turn stored, every answer complete, and the concatenated deltas equal to both
     the `done` text and the stored answer text.

Reports lost frames (missing `accepted`/`plan`/`done`, gaps in delta `seq`; target 0), lost turns (user turn not
stored or answer not complete; target 0), answers whose streamed text differs from the stored text (target 0),
p50/p95 time from sending `ask` to the first delta and to `done`, and the total time, as one JSON line and a table.
`--check` exits 1 when any lost frame, lost turn or text mismatch is found.

Run with the product's environment plus `websockets` (pinned in bench/requirements.txt):
    .venv/bin/pip install websockets==17.4
    .venv/bin/python bench/load_ws.py [--conversations 100] [--pieces 24] [--delay 0.02] [--check]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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

QUESTIONS = (
    "How often are laptops replaced?",
    "What is the daily meal allowance?",
    "How many weeks of paid parental leave do employees get?",
    "How long must a password be?",
    "How many days of paid time off do employees get?",
)


def scripted_pieces(n: int) -> list[str]:
    """An answer of ``n`` pieces (about two words each) ending with a citation marker split across two pieces."""
    words = ("According to the handbook the policy described in the cited source applies to every employee of "
             "Tallgrass and is reviewed each year by the people team so check the current version before you "
             "plan anything that depends on it").split()
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
    first_delta_at: float | None = None
    done_at: float | None = None
    error: str = ""

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
        if self.frame("done") is not None and not seqs:
            lost += 1  # an answered question with no delta at all
        return lost


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def setup_django(workdir: Path) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DJANGO_DEBUG": "false",
        "GROUNDED_VAR_DIR": str(workdir),
        "DATABASE_URL": f"sqlite:///{workdir / 'load.sqlite3'}",
        "LLM_PROVIDER": "extractive",
        "GROUNDED_LOG_LEVEL": "WARNING",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    })
    import django

    django.setup()


def prepare_data(n: int) -> list[str]:
    """Migrate, ingest the demo corpus, create n users with sessions; returns their session cookies."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from knowledge.services import domain_get_or_create, ingest_path

    call_command("migrate", verbosity=0)
    domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook")
    ingest_path(path=ROOT / "demo" / "corpus", domain=domain)
    cookies = []
    for i in range(n + 1):  # user 0 warms the server up
        user = get_user_model().objects.create_user(f"load{i:03d}", password=None)  # unusable password: no hashing
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return cookies


def start_server(workdir: Path, port: int, pieces: list[str], delay: float) -> subprocess.Popen:
    env = {**os.environ, "LOAD_PIECES": json.dumps(pieces), "LOAD_DELAY": str(delay),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    log = open(workdir / "daphne.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "bench.load_asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited with {proc.returncode}; see {workdir / 'daphne.log'}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("daphne did not start listening within 120 s")


async def converse(conv: Conversation, url: str, origin: str, cookie: str, start: asyncio.Event,
                   opened: asyncio.Queue, timeout: float) -> None:
    from websockets.asyncio.client import connect

    try:
        async with connect(url, origin=origin, additional_headers={"Cookie": cookie}, open_timeout=timeout,
                           max_size=None, ping_interval=None) as ws:
            await opened.put(conv.index)
            await start.wait()
            conv.sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "ask", "domain": "handbook", "text": conv.question,
                                      "client_id": conv.client_id}))
            async with asyncio.timeout(timeout):
                while True:
                    frame = json.loads(await ws.recv())
                    now = time.perf_counter()
                    conv.frames.append(frame)
                    if frame.get("type") == "delta" and conv.first_delta_at is None:
                        conv.first_delta_at = now
                    if frame.get("type") in ("done", "error"):
                        conv.done_at = now
                        if frame["type"] == "error":
                            conv.error = f"{frame.get('code')}: {frame.get('message')}"
                        return
    except Exception as exc:  # a refused or dropped socket, or a timeout: reported, never raised
        conv.error = conv.error or f"{type(exc).__name__}: {exc}"
        await opened.put(conv.index)


async def run_clients(port: int, cookies: list[str], timeout: float) -> tuple[list[Conversation], float, float]:
    """Warm-up conversation first, then len(cookies) - 1 concurrent ones; returns them, the warm-up's and the
    concurrent run's wall time (seconds)."""
    url, origin = f"ws://127.0.0.1:{port}/ws/chat/", f"http://127.0.0.1:{port}"
    warm = Conversation(-1, "load-warmup", QUESTIONS[0])
    go = asyncio.Event()
    go.set()
    t0 = time.perf_counter()
    await converse(warm, url, origin, cookies[0], go, asyncio.Queue(), timeout)
    warm_time = time.perf_counter() - t0
    if warm.error or warm.frame("done") is None:
        raise SystemExit(f"warm-up conversation failed: {warm.error or warm.frames[-1:]}")
    convs = [Conversation(i, f"load-{i:03d}", QUESTIONS[i % len(QUESTIONS)]) for i in range(len(cookies) - 1)]
    start, opened = asyncio.Event(), asyncio.Queue()
    tasks = [asyncio.create_task(converse(c, url, origin, cookie, start, opened, timeout))
             for c, cookie in zip(convs, cookies[1:])]
    for _ in convs:
        await opened.get()
    t0 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    return convs, warm_time, time.perf_counter() - t0


def check_database(convs: list[Conversation]) -> dict[str, list]:
    """Per conversation: the user turn stored, its answer complete, stored text == done text == streamed deltas."""
    from chat.models import Message

    problems: dict[str, list] = {"lost_turns": [], "text_mismatch": []}
    deadline = time.monotonic() + 30  # summaries may still be folding; answers are saved before `done`
    while Message.objects.filter(status=Message.Status.STREAMING).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    for conv in convs:
        user = Message.objects.filter(client_id=conv.client_id, role=Message.Role.USER).first()
        reply = Message.objects.filter(reply_to=user).first() if user else None
        if user is None or user.text != conv.question:
            problems["lost_turns"].append((conv.client_id, "user turn not stored"))
            continue
        if reply is None or reply.status != Message.Status.COMPLETE:
            problems["lost_turns"].append((conv.client_id, f"answer {reply.status if reply else 'missing'}"))
            continue
        done = conv.frame("done") or {}
        if not (conv.streamed == done.get("text") == reply.text):
            problems["text_mismatch"].append((conv.client_id, conv.streamed[:60], reply.text[:60]))
    return problems


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation (statistics.quantiles, inclusive method); nan for no values."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--conversations", type=int, default=100, help="concurrent websocket conversations")
    ap.add_argument("--pieces", type=int, default=24, help="pieces of the scripted answer")
    ap.add_argument("--delay", type=float, default=0.02, help="seconds between scripted pieces")
    ap.add_argument("--timeout", type=float, default=600, help="seconds a conversation may take")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (database, server log)")
    ap.add_argument("--check", action="store_true", help="exit 1 on any lost frame, lost turn or text mismatch")
    args = ap.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="grounded-load-"))
    setup_django(workdir)
    t0 = time.perf_counter()
    cookies = prepare_data(args.conversations)
    setup_time = time.perf_counter() - t0
    port = free_port()
    server = start_server(workdir, port, scripted_pieces(args.pieces), args.delay)
    try:
        convs, warm_time, total = asyncio.run(run_clients(port, cookies, args.timeout))
        problems = check_database(convs)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    ttfd = [c.first_delta_at - c.sent_at for c in convs if c.first_delta_at is not None]
    ttd = [c.done_at - c.sent_at for c in convs if c.done_at is not None and c.frame("done") is not None]
    errors: dict[str, int] = {}
    for c in convs:
        if c.error:
            key = c.error.split(":")[0]
            errors[key] = errors.get(key, 0) + 1
    result = {
        "conversations": len(convs),
        "completed": sum(c.frame("done") is not None and c.frame("done").get("status") == "complete" for c in convs),
        "lost_frames": sum(c.lost_frames() for c in convs),
        "lost_turns": len(problems["lost_turns"]),
        "text_mismatch": len(problems["text_mismatch"]),
        "errors": errors,
        "deltas_per_answer": round(statistics.mean(len(c.deltas) for c in convs), 1) if convs else 0,
        "ttfd_p50_s": round(percentile(ttfd, 0.50), 3),
        "ttfd_p95_s": round(percentile(ttfd, 0.95), 3),
        "done_p50_s": round(percentile(ttd, 0.50), 3),
        "done_p95_s": round(percentile(ttd, 0.95), 3),
        "total_s": round(total, 2),
        "warmup_s": round(warm_time, 2),
        "setup_s": round(setup_time, 1),
        "pieces": args.pieces,
        "delay_s": args.delay,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result))
    rows = [("conversations", result["conversations"]), ("completed", result["completed"]),
            ("lost frames (target 0)", result["lost_frames"]), ("lost turns (target 0)", result["lost_turns"]),
            ("streamed != stored (target 0)", result["text_mismatch"]), ("errors", errors or "none"),
            ("deltas per answer", result["deltas_per_answer"]),
            ("time to first delta p50 / p95", f"{result['ttfd_p50_s']:.3f} s / {result['ttfd_p95_s']:.3f} s"),
            ("time to done p50 / p95", f"{result['done_p50_s']:.3f} s / {result['done_p95_s']:.3f} s"),
            ("total (concurrent part)", f"{result['total_s']:.2f} s"),
            ("warm-up conversation", f"{result['warmup_s']:.2f} s"),
            ("scripted answer", f"{args.pieces} pieces, {args.delay * 1000:.0f} ms apart")]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    for kind in ("lost_turns", "text_mismatch"):
        for p in problems[kind][:5]:
            print(f"{kind}: {p}")
    for c in [c for c in convs if c.error][:5]:
        print(f"error {c.client_id}: {c.error}")
    if args.keep:
        print(f"kept {workdir}")
    else:
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
    bad = result["lost_frames"] or result["lost_turns"] or result["text_mismatch"]
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
