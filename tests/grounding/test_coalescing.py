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


async def _timed(stream: Coalesced) -> list[tuple[float, object]]:
    """Every event of the stream with the loop time it was given."""
    loop = asyncio.get_running_loop()
    return [(loop.time(), e) async for e in stream]


async def test_with_a_pace_text_deltas_come_at_most_that_often_and_pieces_arriving_meanwhile_join_them():
    pieces = [TextDelta(f"w{i} ") for i in range(12)]
    loop = asyncio.get_running_loop()
    start = loop.time()
    got = await _timed(Coalesced(_stream(pieces + [Usage(input_tokens=1, output_tokens=2), Done()], gap=0.01),
                                 pace=lambda: 0.05))
    texts = [(t, e) for t, e in got if isinstance(e, TextDelta)]
    assert texts[0][1] == TextDelta("w0 ") and texts[0][0] - start < 0.04  # the first words never wait
    assert all(b - a >= 0.049 for (a, _), (b, _) in zip(texts, texts[1:]))
    assert 3 <= len(texts) <= 5  # about 120 ms of pieces at one delta per 50 ms, not 12 deltas
    assert "".join(e.text for _, e in texts) == "".join(p.text for p in pieces)
    assert [e for _, e in got][-2:] == [Usage(input_tokens=1, output_tokens=2), Done()]
    assert got[-1][0] - texts[-1][0] < 0.03  # the end is not held back by the pace


async def test_a_pace_of_zero_changes_nothing():
    pieces = [TextDelta("Laptops "), TextDelta("are "), TextDelta("replaced "), Done()]
    asked = []

    def pace() -> float:
        asked.append(1)
        return 0.0

    got = [e async for e in Coalesced(_stream(pieces, gap=0.01), pace=pace)]
    assert got == pieces and len(asked) == 2  # asked before each text delta but the first
