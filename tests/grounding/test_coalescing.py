"""Text pieces a provider streamed while the server was busy go out as one (grounding.coalescing, issue 20)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from grounding.coalescing import Coalesced
from grounding.providers import CitationEvent, Done, ProviderError, TextDelta, Usage


async def _stream(events, gap: float = 0.0):
    for event in events:
        if gap:
            await asyncio.sleep(gap)
        yield event


async def test_a_reader_that_keeps_up_gets_every_piece_as_it_came():
    pieces = [TextDelta("Laptops "), TextDelta("are "), TextDelta("replaced "), Done()]
    got = [e async for e in Coalesced(_stream(pieces, gap=0.01))]
    assert got == pieces


async def test_pieces_waiting_behind_a_busy_reader_are_merged_in_order_around_other_events():
    go = asyncio.Event()

    async def provider():
        yield TextDelta("a")
        await go.wait()  # the rest arrives while the reader is busy with "a"
        for event in [TextDelta("b"), CitationEvent("S1", "cited"), TextDelta("c"), TextDelta("d"),
                      Usage(input_tokens=3, output_tokens=4), Done()]:
            yield event

    stream = Coalesced(provider())
    first = await stream.__anext__()
    assert first == TextDelta("a")  # nothing was waiting behind it
    go.set()
    await asyncio.sleep(0.01)
    rest = [e async for e in stream]
    assert rest == [TextDelta("b"), CitationEvent("S1", "cited"), TextDelta("cd"),
                    Usage(input_tokens=3, output_tokens=4), Done()]


async def test_at_most_max_chars_are_merged_into_one_piece():
    got = [e async for e in Coalesced(_stream([TextDelta("x" * 4) for _ in range(5)]), max_chars=8)]
    assert [len(e.text) for e in got] == [8, 8, 4] and "".join(e.text for e in got) == "x" * 20


async def test_a_provider_failure_is_raised_after_the_text_before_it():
    async def failing():
        yield TextDelta("partial ")
        raise ProviderError("overloaded")

    stream = Coalesced(failing())
    assert await stream.__anext__() == TextDelta("partial ")
    with pytest.raises(ProviderError, match="overloaded"):
        await stream.__anext__()


async def test_closing_stops_reading_and_closes_the_providers_stream():
    closed = asyncio.Event()

    async def endless():
        try:
            while True:
                yield TextDelta("more ")
                await asyncio.sleep(0.005)
        finally:
            closed.set()

    async with contextlib.aclosing(Coalesced(endless())) as stream:
        assert (await stream.__anext__()).text.startswith("more")
    assert closed.is_set()


async def test_with_a_pace_a_text_delta_waits_its_turn_and_takes_the_pieces_that_arrived_meanwhile():
    """Deterministic: the test feeds the provider. The first words and the end never wait (the pace is not even
    asked); a later delta is given no sooner than the pace after the previous one, with every piece that came
    meanwhile."""
    feed: asyncio.Queue = asyncio.Queue()

    async def provider():
        while (event := await feed.get()) is not None:
            yield event

    asked = []

    def pace() -> float:
        asked.append(1)
        return 0.2

    loop = asyncio.get_running_loop()
    stream = Coalesced(provider(), pace=pace)
    feed.put_nowait(TextDelta("Laptops "))
    first = await stream.__anext__()
    given = loop.time()
    assert first == TextDelta("Laptops ") and asked == []  # the first words: no pace asked, no wait
    for piece in ("are ", "replaced "):
        feed.put_nowait(TextDelta(piece))
    second = asyncio.ensure_future(stream.__anext__())
    await asyncio.sleep(0.01)
    feed.put_nowait(TextDelta("every 36 months."))  # arrives while the second delta waits its turn
    assert await second == TextDelta("are replaced every 36 months.")
    assert loop.time() - given >= 0.2 and asked == [1]
    for event in (Usage(input_tokens=1, output_tokens=2), Done(), None):
        feed.put_nowait(event)
    assert [e async for e in stream] == [Usage(input_tokens=1, output_tokens=2), Done()]
    assert asked == [1]  # the end is not paced


async def test_a_pace_of_zero_changes_nothing():
    pieces = [TextDelta("Laptops "), TextDelta("are "), TextDelta("replaced "), Done()]
    asked = []

    def pace() -> float:
        asked.append(1)
        return 0.0

    got = [e async for e in Coalesced(_stream(pieces, gap=0.01), pace=pace)]
    assert got == pieces and len(asked) == 2  # asked before each text delta but the first
