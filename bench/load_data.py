"""The data of a load run (bench/load_ws.py): the ingested 18F handbook and the users' sessions, prepared once; the
environment a server process runs with; after a run, the check of what was stored.

SQLite (default): the data folder holds the database; each run copies the folder. PostgreSQL + Redis
(``SERVICES``, set by load_ws's --database-url/--redis-url): the handbook is ingested into a database of its own,
each run gets a fresh copy of it (CREATE DATABASE ... TEMPLATE) and an emptied Redis database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from load_ws import Conversation

ROOT = Path(__file__).resolve().parent.parent
HANDBOOK = ROOT.parent / "shared" / "corpora" / "18f-handbook" / "current" / "pages"
DOMAIN = "18f"

#: With --database-url (PostgreSQL) and --redis-url: the deployment docs/operations.md describes for several workers
#: (PostgreSQL, the Redis channel layer and cache). Set by main(); None: SQLite in the data folder, in-memory layer.
SERVICES: dict[str, str] | None = None


def _pg_url(name: str) -> str:
    """The --database-url with its database name replaced by ``name``."""
    base = SERVICES["database"].rsplit("/", 1)[0]
    return f"{base}/{name}"


def _pg_names(datadir: Path) -> tuple[str, str]:
    """The prepared database (built once, the template of every run) and the run's database, named after the
    data folder."""
    stem = "".join(ch if ch.isalnum() else "_" for ch in datadir.name.lower())
    return f"load_{stem}", f"load_{stem}_run"


def django_env(workdir: Path, database: str | None = None) -> dict[str, str]:
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false",
           "GROUNDED_VAR_DIR": str(workdir), "DATABASE_URL": f"sqlite:///{workdir / 'load.sqlite3'}",
           "LLM_PROVIDER": "extractive", "GROUNDED_LOG_LEVEL": "WARNING", "GROUNDED_ASK_RATE_LIMIT": "0",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    if SERVICES is not None:
        env["DATABASE_URL"] = _pg_url(database or _pg_names(workdir)[0])
        env["REDIS_URL"] = SERVICES["redis"]
    return env


def fresh_run_database(datadir: Path) -> str:
    """PostgreSQL: the run's database made anew as a copy of the prepared one (CREATE DATABASE ... TEMPLATE), and the
    Redis database emptied, so every run starts cold; returns the run database's name."""
    import psycopg
    import redis

    prepared, run = _pg_names(datadir)
    with psycopg.connect(_pg_url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{run}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{run}" TEMPLATE "{prepared}"')
    redis.Redis.from_url(SERVICES["redis"]).flushdb()
    return run


def ensure_prepared_database(datadir: Path) -> None:
    """PostgreSQL: create the prepared database when missing (ingestion then fills it)."""
    import psycopg

    prepared, _ = _pg_names(datadir)
    with psycopg.connect(_pg_url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (prepared,)).fetchone():
            conn.execute(f'CREATE DATABASE "{prepared}"')


def prepare_data(datadir: Path, users: int) -> list[str]:
    """The ingested 18F handbook and ``users`` users with sessions in ``datadir`` (built once, then reused; users
    added when a run needs more); returns the session cookies."""
    if SERVICES is not None:
        ensure_prepared_database(datadir)
    cookies_file = datadir / "cookies.json"
    cookies = json.loads(cookies_file.read_text()) if cookies_file.is_file() else []
    if len(cookies) >= users:
        # data built by an earlier checkout: its database gets this checkout's migrations (in a separate process,
        # so this one never sets Django up)
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], check=True,
                       env={**os.environ, **django_env(datadir)})
        return cookies
    datadir.mkdir(parents=True, exist_ok=True)
    os.environ.update(django_env(datadir))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from knowledge.services import domain_get_or_create, ingest_path

    call_command("migrate", verbosity=0)
    if not cookies:
        started = time.perf_counter()
        ingest_path(path=HANDBOOK, domain=domain_get_or_create(slug=DOMAIN, name="18F handbook"))
        print(f"ingested the 18F handbook in {time.perf_counter() - started:.0f} s", flush=True)
    for i in range(len(cookies), users):
        user = get_user_model().objects.create_user(f"load{i:03d}", password=None)  # unusable password: no hashing
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    from django.db import connections

    connections.close_all()
    cookies_file.write_text(json.dumps(cookies))
    return cookies


def check_database(workdir: Path, convs: list[Conversation], database: str | None = None) -> dict[str, list]:
    """Per conversation: the user turn stored, its answer complete, stored text == done text == streamed deltas
    (read with sqlite3, or psycopg for the PostgreSQL run ``database``, directly: this process never set Django up
    on the run's copy)."""
    problems: dict[str, list] = {"lost_turns": [], "text_mismatch": []}
    if database is not None:
        import psycopg

        db = psycopg.connect(_pg_url(database), autocommit=True)
        db.execute = _qmark(db.execute)
    else:
        import sqlite3

        db = sqlite3.connect(workdir / "load.sqlite3", timeout=30)
    deadline = time.monotonic() + 30  # answers are saved before `done`; summaries may still be folding
    while db.execute("select count(*) from chat_message where status = 'streaming'").fetchone()[0] \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    for conv in convs:
        user = db.execute("select id, text from chat_message where client_id = ? and role = 'user'",
                          (conv.client_id,)).fetchone()
        reply = db.execute("select status, text from chat_message where reply_to_id = ?",
                           (user[0],)).fetchone() if user else None
        if user is None or user[1] != conv.question:
            problems["lost_turns"].append((conv.client_id, "user turn not stored"))
            continue
        if reply is None or reply[0] != "complete":
            problems["lost_turns"].append((conv.client_id, f"answer {reply[0] if reply else 'missing'}"))
            continue
        done = conv.frame("done") or {}
        if not (conv.streamed == done.get("text") == reply[1]):
            problems["text_mismatch"].append((conv.client_id, conv.streamed[:60], reply[1][:60]))
    db.close()
    return problems


def _qmark(execute):
    """psycopg's execute taking sqlite3's "?" placeholders (the queries of check_database are written once)."""
    return lambda sql, params=(): execute(sql.replace("?", "%s"), params)
