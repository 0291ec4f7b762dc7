"""The countdown's spoken seconds, on a clock the test moves."""

from __future__ import annotations

from client_cli.session.countdown import count_down


async def test_each_second_before_the_start_is_written_on_time() -> None:
    clock = {"now": 10_000}
    said: list[tuple[int, str]] = []

    async def sleep(seconds: float) -> None:
        clock["now"] += round(seconds * 1000)

    def write(text: str) -> None:
        said.append((clock["now"], text))

    await count_down(13_000, lambda: clock["now"], write, sleep)
    assert said == [(11_000, "Starting in 2 seconds."), (12_000, "Starting in 1 second.")]


async def test_a_countdown_already_over_says_nothing() -> None:
    said: list[str] = []
    await count_down(5_000, lambda: 5_500, said.append)
    assert said == []
