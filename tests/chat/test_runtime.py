"""chat.runtime: what the worker's shared resources leave behind."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections

from chat.runtime import runtime

pytestmark = pytest.mark.django_db(transaction=True)


def _read_the_database():
    """A job that reads the database; returns its thread's connection wrapper (to look at once the job is over)."""
    get_user_model().objects.count()
    wrapper = connections["default"]
    assert wrapper.connection is not None  # the job did open one
    return wrapper


async def test_a_cpu_pool_job_that_reads_the_database_leaves_no_connection_open():
    used = await runtime.cpu(_read_the_database)
    assert used.connection is None


async def test_blocking_work_on_the_loops_default_executor_leaves_no_connection_open():
    assert runtime.batcher is not None  # the loop's state made: its default executor is the CPU pool
    used = await sync_to_async(_read_the_database, thread_sensitive=False)()
    assert used.connection is None
