"""Two ASGI worker processes (Daphne) on loopback sharing PostgreSQL and the Redis channel layer: ask on worker A,
drop the socket mid-answer, reconnect to worker B, resume, and receive the complete stored answer (issue 11).

Needs the servers that scripts/services.sh starts (GROUNDED_PG_URL, GROUNDED_REDIS_URL; .ci/run sets them). Without
them the test is skipped locally and fails in CI.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import psycopg
import pytest

from tests.scale.scripted_answer import PIECES

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("GROUNDED_PG_URL", "")
REDIS_URL = os.environ.get("GROUNDED_REDIS_URL", "")
DB_NAME = "grounded_two_workers"

if not (PG_URL and REDIS_URL):
    if os.environ.get("CI"):
        raise RuntimeError("GROUNDED_PG_URL and GROUNDED_REDIS_URL must be set in CI (scripts/services.sh)")
    pytest.skip("PostgreSQL and Redis are not configured (eval \"$(scripts/services.sh)\")", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def workers(tmp_path_factory):
    """Migrate a fresh PostgreSQL database, set up the demo, and start two Daphne workers on it."""
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    database_url = re.sub(r"/[^/]*$", f"/{DB_NAME}", PG_URL)
    var_dir = tmp_path_factory.mktemp("two-workers")
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": REDIS_URL, "GROUNDED_VAR_DIR": str(var_dir),
           "DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    for command in (["migrate", "--noinput", "-v", "0"], ["demo_setup"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True,
                       timeout=600)
    ports = [free_port(), free_port()]
    procs = [subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "tests.scale.asgi_scripted:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(var_dir / f"worker-{port}.log", "w"))
             for port in ports]
    try:
        for port in ports:
            deadline = time.monotonic() + 180
            while True:
                try:
                    if httpx2.get(f"http://127.0.0.1:{port}/login/", timeout=5).status_code == 200:
                        break
                except httpx2.TransportError:
                    pass
                if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                    raise RuntimeError((var_dir / f"worker-{port}.log").read_text()[-3000:])
                time.sleep(0.5)
        yield ports, database_url
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def login(port: int) -> str:
    """Sign in as the demo user through the login form; returns the session cookie header."""
    with httpx2.Client(base_url=f"http://127.0.0.1:{port}") as client:
        page = client.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        response = client.post("/login/", data={"username": "demo", "password": "demo-handbook",
                                                "csrfmiddlewaretoken": token},
                               headers={"Referer": f"http://127.0.0.1:{port}/login/"})
        assert response.status_code == 302, response.text[:500]
        return f"sessionid={client.cookies['sessionid']}"


async def socket_to(port: int, cookie: str):
    from websockets.asyncio.client import connect

    return await connect(f"ws://127.0.0.1:{port}/ws/chat/", additional_headers={
        "Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"})


async def receive(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout=60))


def test_a_dropped_socket_resumes_on_another_worker_and_gets_the_whole_answer(workers):
    (port_a, port_b), database_url = workers
    cookie = login(port_a)  # sessions live in PostgreSQL: worker B knows this session too

    async def scenario():
        ws_a = await socket_to(port_a, cookie)
        await ws_a.send(json.dumps({"type": "ask", "domain": "handbook", "client_id": "two-workers-1",
                                    "text": "How often are laptops replaced?"}))
        deltas, message_id = [], None
        while len(deltas) < 4:
            frame = await receive(ws_a)
            assert frame["type"] != "error", frame
            if frame["type"] == "plan":
                message_id = frame["message"]
            elif frame["type"] == "delta":
                deltas.append(frame)
        await ws_a.close()  # the user's network drops; worker A goes on generating
        ws_b = await socket_to(port_b, cookie)
        await ws_b.send(json.dumps({"type": "resume", "message": message_id}))
        frames = []
        while not frames or frames[-1]["type"] not in ("done", "error"):
            frames.append(await receive(ws_b))
        await ws_b.close()
        return message_id, deltas, frames

    message_id, deltas, frames = asyncio.run(scenario())
    kinds = [f["type"] for f in frames]
    assert kinds[:2] == ["plan", "partial"] and kinds[-1] == "done" and set(kinds[2:-1]) <= {"delta"}, kinds
    partial = frames[1]
    later = [f for f in frames if f["type"] == "delta"]
    assert [f["seq"] for f in later] == list(range(partial["seq"] + 1, partial["seq"] + 1 + len(later)))
    streamed = partial["text"] + "".join(f["text"] for f in later)
    done = frames[-1]
    assert done["status"] == "complete" and streamed == done["text"] == "".join(PIECES)
    with psycopg.connect(database_url) as conn:
        status, text = conn.execute("SELECT status, text FROM chat_message WHERE id = %s", (message_id,)).fetchone()
    assert (status, text) == ("complete", "".join(PIECES))
