"""Stages of many asks waiting for one executor are served by stage and age (chat.priority, issue 20): an earlier
ask's planning before a later ask's, anybody's planning before the work after someone's first words."""

from __future__ import annotations

import asyncio

import pytest

from chat import priority
from chat.priority import ACCEPTING, ANSWERING, FINISHING, PriorityGate


async def _jobs(gate: PriorityGate, prioritised: list[tuple[str, tuple[int, int]]]) -> list[str]:
    """Queue the named jobs behind one running job, in the order given; return the order they ran in."""
    ran: list[str] = []
    release = asyncio.Event()

    async def blocker():
        await release.wait()

    first = asyncio.create_task(gate.run(blocker, (ACCEPTING, 0)))
    await asyncio.sleep(0)

    def job(name):
        async def run():
            ran.append(name)
        return run

    tasks = []
    for name, prio in prioritised:
        tasks.append(asyncio.create_task(gate.run(job(name), prio)))
        await asyncio.sleep(0)
    assert gate.waiting == len(prioritised)
    release.set()
    await asyncio.gather(first, *tasks)
    return ran


async def test_waiting_jobs_run_by_stage_then_by_age_not_by_arrival():
    gate = PriorityGate(1)
    ran = await _jobs(gate, [("finish 1", (FINISHING, 1)), ("answer 3", (ANSWERING, 3)), ("accept 4", (ACCEPTING, 4)),
                             ("answer 2", (ANSWERING, 2)), ("accept 5", (ACCEPTING, 5))])
    assert ran == ["accept 4", "accept 5", "answer 2", "answer 3", "finish 1"]
    assert gate.active == 0 and gate.waiting == 0


async def test_equal_priorities_run_first_come_first_served():
    gate = PriorityGate(1)
    ran = await _jobs(gate, [("a", (ANSWERING, 7)), ("b", (ANSWERING, 7)), ("c", (ANSWERING, 7))])
    assert ran == ["a", "b", "c"]


async def test_a_job_cancelled_while_waiting_takes_no_place_and_the_rest_still_run():
    gate = PriorityGate(1)
    release = asyncio.Event()
    ran = []

    async def blocker():
        await release.wait()

    async def job():
        ran.append("kept")

    first = asyncio.create_task(gate.run(blocker))
    await asyncio.sleep(0)
    dropped = asyncio.create_task(gate.run(job, (ACCEPTING, 1)))
    kept = asyncio.create_task(gate.run(job, (ANSWERING, 2)))
    await asyncio.sleep(0)
    dropped.cancel()
    release.set()
    await asyncio.gather(first, kept)
    with pytest.raises(asyncio.CancelledError):
        await dropped
    assert ran == ["kept"] and gate.active == 0 and gate.waiting == 0


async def test_a_failing_job_gives_its_place_back():
    gate = PriorityGate(1)

    async def boom():
        raise ValueError("broken")

    with pytest.raises(ValueError, match="broken"):
        await gate.run(boom)

    async def ok():
        return 42

    assert await gate.run(ok) == 42 and gate.active == 0


async def test_at_most_capacity_jobs_run_at_once():
    gate = PriorityGate(2)
    running, peak = [0], [0]

    async def job():
        running[0] += 1
        peak[0] = max(peak[0], running[0])
        await asyncio.sleep(0.01)
        running[0] -= 1

    await asyncio.gather(*(gate.run(job, (ANSWERING, i)) for i in range(6)))
    assert peak[0] == 2 and gate.active == 0


async def test_an_ask_is_numbered_on_arrival_and_its_tasks_inherit_its_stage():
    async def ask():
        mine = priority.ask_arrived()
        priority.stage(ANSWERING)
        inherited = await asyncio.create_task(_current())
        priority.stage(FINISHING)
        return mine, inherited, priority.current()

    async def _current():
        return priority.current()

    (a, a_task, a_end), (b, _, _) = await asyncio.gather(ask(), ask())
    assert a[0] == ACCEPTING and b[1] > a[1]  # arrival order
    assert a_task == (ANSWERING, a[1]) and a_end == (FINISHING, a[1])
