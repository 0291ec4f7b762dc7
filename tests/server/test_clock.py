"""The server clock: the system clock's reads and timers, and a manual clock that tests move."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.clock import ManualClock, SystemClock


async def test_advance_runs_due_callbacks_in_deadline_order_at_their_own_time() -> None:
    clock = ManualClock(start_ms=1_000)
    ran: list[tuple[str, int]] = []
    clock.call_later(0.5, lambda: ran.append(("late", clock.now_ms())))
    clock.call_at(1_200, lambda: ran.append(("early", clock.now_ms())))
    clock.call_at(1_200, lambda: ran.append(("tie", clock.now_ms())))
    clock.call_at(9_000, lambda: ran.append(("never", clock.now_ms())))
    clock.advance(199)
    assert ran == [] and clock.pending() == 4
    clock.advance(400)
    assert ran == [("early", 1_200), ("tie", 1_200), ("late", 1_500)]
    assert clock.now_ms() == 1_599 and clock.pending() == 1


async def test_a_callback_may_schedule_another_due_in_the_same_advance() -> None:
    clock = ManualClock(start_ms=0)
    ran: list[int] = []

    def first() -> None:
        ran.append(clock.now_ms())
        clock.call_later(0.1, lambda: ran.append(clock.now_ms()))

    clock.call_at(100, first)
    clock.advance_to(250)
    assert ran == [100, 200]


async def test_a_cancelled_callback_never_runs() -> None:
    clock = ManualClock()
    ran: list[str] = []
    timer = clock.call_later(1, lambda: ran.append("cancelled"))
    timer.cancel()
    assert clock.pending() == 0
    clock.advance(5_000)
    assert ran == []


async def test_a_callback_already_due_runs_on_the_next_loop_turn() -> None:
    clock = ManualClock(start_ms=5_000)
    ran = asyncio.Event()
    clock.call_at(4_000, ran.set)
    assert not ran.is_set()
    await asyncio.sleep(0)
    assert ran.is_set() and clock.now_ms() == 5_000


async def test_monotonic_time_moves_with_the_clock_and_never_back() -> None:
    clock = ManualClock()
    before = clock.monotonic()
    clock.advance(1_500)
    assert clock.monotonic() - before == 1.5
    clock.advance_to(clock.now_ms() - 100)
    assert clock.monotonic() - before == 1.5
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance(-1)


async def test_a_sleeper_wakes_when_the_clock_reaches_its_end() -> None:
    clock = ManualClock(start_ms=0)
    sleeper = asyncio.create_task(clock.sleep(2))
    await clock.scheduled()
    clock.advance(1_999)
    await asyncio.sleep(0)
    assert not sleeper.done()
    clock.advance(1)
    await asyncio.wait_for(sleeper, 1)
    assert clock.pending() == 0


async def test_a_cancelled_sleeper_leaves_no_timer_behind() -> None:
    clock = ManualClock()
    sleeper = asyncio.create_task(clock.sleep(2))
    await clock.scheduled()
    sleeper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sleeper
    assert clock.pending() == 0


async def test_a_timeout_cancels_the_block_once_the_clock_passes_it() -> None:
    clock = ManualClock()
    never = asyncio.Event()

    async def wait() -> None:
        async with clock.timeout(10):
            await never.wait()

    waiter = asyncio.create_task(wait())
    await clock.scheduled()
    clock.advance(9_999)
    await asyncio.sleep(0)
    assert not waiter.done()
    clock.advance(1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(waiter, 1)


async def test_a_block_done_in_time_cancels_its_timeout() -> None:
    clock = ManualClock()
    async with clock.timeout(10):
        await asyncio.sleep(0)
    assert clock.pending() == 0
    clock.advance(20_000)


async def test_the_system_clock_reads_the_machine_clocks() -> None:
    clock = SystemClock()
    assert abs(clock.now_ms() - time.time() * 1000) < 1_000
    assert abs(clock.monotonic() - time.monotonic()) < 1


async def test_the_system_clock_runs_a_past_deadline_at_once_and_times_out() -> None:
    clock = SystemClock()
    ran = asyncio.Event()
    clock.call_at(clock.now_ms() - 1_000, ran.set)
    await asyncio.wait_for(ran.wait(), 1)
    cancelled = clock.call_later(0, ran.clear)
    cancelled.cancel()
    await clock.sleep(0)
    assert ran.is_set()
    with pytest.raises(TimeoutError):
        async with clock.timeout(0):
            await asyncio.Event().wait()
