"""Synchronous calls made while the loop was busy share one trip to the database thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games.live import batching

pytestmark = pytest.mark.asyncio


@pytest.mark.contract
async def test_concurrent_calls_share_one_hop_in_order_with_their_own_results(monkeypatch):
    hops = []  # the calls each trip to the database thread carried
    real = batching._run_all_in_thread

    async def counting(batch):
        hops.append(len(batch))
        return await real(batch)

    monkeypatch.setattr(batching, "_run_all_in_thread", counting)
    ran = []

    def work(name: str) -> str:
        ran.append((name, threading.current_thread() is threading.main_thread()))
        if name == "bad":
            raise ValueError(name)
        return name.upper()

    results = await asyncio.gather(
        *(batching.run_batched(work, name) for name in ("a", "bad", "c")), return_exceptions=True
    )
    assert results[0] == "A" and results[2] == "C"
    assert isinstance(results[1], ValueError)  # only its own caller sees the error
    assert [name for name, _ in ran] == ["a", "bad", "c"]  # in the order they were queued
    assert not any(on_main for _, on_main in ran)  # off the event loop's thread
    assert hops == [3]
    # A call made once that batch is done goes in a hop of its own.
    assert await batching.run_batched(work, "d") == "D"
    assert hops == [3, 1]


async def test_a_caller_that_went_away_does_not_break_the_batch():
    gate = threading.Event()

    def slow() -> str:
        gate.wait(5)
        return "slow"

    first = asyncio.ensure_future(batching.run_batched(slow))
    second = asyncio.ensure_future(batching.run_batched(str.upper, "x"))
    await asyncio.sleep(0)
    first.cancel()  # its connection closed while the batch ran
    gate.set()
    assert await second == "X"
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_each_call_of_a_batch_runs_in_its_callers_language(monkeypatch):
    from django.utils import translation

    hops = []
    real = batching._run_all_in_thread

    async def counting(batch):
        hops.append(len(batch))
        return await real(batch)

    monkeypatch.setattr(batching, "_run_all_in_thread", counting)

    async def call_in(language: str) -> str:
        with translation.override(language):
            return await batching.run_batched(translation.get_language)

    assert await asyncio.gather(call_in("bg"), call_in("ru"), call_in("en")) == ["bg", "ru", "en"]
    assert hops == [3]  # one trip for the three
