"""Test settings: file-backed SQLite test database (the live-server browser tests need one), fast hashing."""

import atexit
import os
import shutil
import tempfile
import uuid
from pathlib import Path

from .base import *  # noqa: F401,F403
from .base import CACHES, CHANNEL_LAYERS, DATABASES, REDIS_URL, VAR_DIR

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
else:
    # named explicitly: channels' live server (forked after the test database was set up, when NAME already holds
    # the test name) falls back to "test_" + NAME and would look for "test_test_<name>"
    DATABASES["default"].setdefault("TEST", {})
    DATABASES["default"]["TEST"].setdefault("NAME", "test_" + DATABASES["default"]["NAME"])
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
# a fresh index directory per test run: index names reuse domain ids across test databases
INDEX_DIR = Path(tempfile.mkdtemp(prefix="grounded-test-index-"))
# and a fresh folder of original files (versions' originals are keyed by content, shared across test databases)
ORIGINALS_DIR = Path(tempfile.mkdtemp(prefix="grounded-test-originals-"))
_CREATOR = os.getpid()


@atexit.register
def _remove_test_folders() -> None:
    """The process that made the two folders removes them when it exits (a forked live server shares them and
    leaves them alone)."""
    if os.getpid() == _CREATOR:
        for folder in (INDEX_DIR, ORIGINALS_DIR):
            shutil.rmtree(folder, ignore_errors=True)

if REDIS_URL:  # a shared Redis server: this run's keys and groups must not meet another run's
    _run = uuid.uuid4().hex[:8]
    CACHES["default"]["KEY_PREFIX"] = f"test-{_run}"
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"asgi-test-{_run}"
    ASK_RATE_KEY_PREFIX = f"ratelimit-test-{_run}"
#: The ask limit is off in tests; tests of the limit turn it on with override_settings.
ASK_RATE_LIMIT = 0
# uploads ingest in a thread of the test process; tests/scale/test_ingest_queue.py turns the queue on
INGEST_QUEUE = False

# the ASGI application is imported by tests before the database is set up; the session fixtures load the model
WARMUP = False
