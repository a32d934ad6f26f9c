"""The queue test runs where its queue is: the task queue (RQ) is installed only with REDIS_URL, in the PostgreSQL +
Redis pass of scripts/test; the SQLite pass does not collect it (rather than report it skipped)."""

from django.conf import settings

collect_ignore = [] if settings.REDIS_URL else ["test_ingest_queue.py"]
