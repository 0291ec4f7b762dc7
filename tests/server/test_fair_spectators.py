"""Spectating never shows a racer what lies ahead in their own deal.

Every board frame a spectator gets before ``race_over`` is checked against
what each player still racing had seen of the deal when the frame arrived:
it may show no card that `engine.spectator_view` would hide given those
games (moves count from their server stamps, finishes from theirs). The
rule itself is tested in tests/engine/test_fairview.py; here, that the
server applies it with what the players have really seen, at every frame,
to every spectator, a racer's own second connection included.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

import engine
from protocol import HIDDEN_CARD, BoardView, EventFrame, Settings, decode_server
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._client import Client
from tests.server._players import (
    Connect,
    Race,
    Racer,
    add_watcher,
    board_of,
    conceals,
    greedy_line,
    open_race,
    race_over,
    serve,
    start,
    worst_line,
)

NUMBER = 1
SEED = b"deal:%d" % NUMBER


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as server:
        yield server


def settings() -> Settings:
    return Settings(countdown_s=1, deal_number=NUMBER)


async def test_a_racer_spectating_does_not_see_its_own_stock_ahead(connect: Connect) -> None:
    race = await open_race(connect, "little-forty", ["Ann", "Bob"], settings(), watchers=0)
    bob_watching = await add_watcher(race, connect)
    await start(race)
    ann, bob = race.racers
    await ann.play("draw")
    early = await bob_watching.wait_event("board", lambda e: e.seat == ann.seat)
    assert early.version == 1 and early.board.waste == (HIDDEN_CARD,) * 3
    assert early.board.stock == 61
    await bob.play("draw")
    assert bob.board is not None
    drawn = bob.board.waste
    assert ann.board is not None and drawn == ann.board.waste
    later = await bob_watching.wait_event(
        "board", lambda e: e.seat == ann.seat and e.board.waste == drawn
    )
    assert later.version == 1
    shown_before = [
        e.board.waste for e in bob_watching.events("board") if e.seat == ann.seat and e != later
    ]
    assert all(set(waste) == {HIDDEN_CARD} for waste in shown_before)


class Knowledge:
    """What each racer had seen, and whether they were still racing, at any instant."""

    def __init__(self, race: Race, finished_ms: dict[int, int]) -> None:
        self.racers = race.racers
        self.finished_ms = finished_ms
        self.games = {racer.seat: tracked_games(race.variant, racer) for racer in race.racers}

    def games_at(self, at_ms: int) -> list[engine.GameState]:
        """The games of the players still racing at ``at_ms``, as they stood then."""
        states = []
        for racer in self.racers:
            if self.finished_ms.get(racer.seat, at_ms + 1) <= at_ms:
                continue
            times = [sent.at_ms for sent in racer.sent]
            version = bisect.bisect_right(times, at_ms)
            states.append(self.games[racer.seat][version].state)
        return states

    def allowed(self, seat: int, version: int, at_ms: int) -> BoardView:
        """The most a spectator may see of ``seat`` at ``version`` when ``at_ms`` arrives."""
        game = self.games[seat][version]
        known = engine.seen_by_all(self.games_at(at_ms))
        return BoardView.from_engine(engine.spectator_view(game, known))


def tracked_games(variant: str, racer: Racer) -> list[engine.TrackedGame]:
    game = engine.TrackedGame.start(variant, SEED)
    games = [game]
    for sent in racer.sent:
        game = game.apply(engine.Move.parse(sent.move))
        games.append(game)
    return games


def check_watcher(watcher: Client, knowledge: Knowledge) -> int:
    """Check every board frame before ``race_over``; how many hid something."""
    hid = 0
    for frame, arrived_ms in zip(watcher.frames, watcher.arrived_ms, strict=True):
        message = decode_server(frame)
        if not isinstance(message, EventFrame):
            continue
        if message.event.type == "race_over":
            return hid
        if message.event.type != "board":
            continue
        shown = message.event
        true = board_of(knowledge.games[shown.seat][shown.version].state)
        assert conceals(shown.board, true)
        allowed = knowledge.allowed(shown.seat, shown.version, arrived_ms)
        assert conceals(shown.board, allowed), (shown, allowed)
        hid += shown.board != true
    raise AssertionError("no race_over arrived")


async def play_then_resign(racer: Racer, moves: list[str]) -> None:
    """Play, a millisecond of the clock before each move, then resign if still playing."""
    for text in moves:
        if not racer.playing:
            return
        racer.client.advance_to(racer.client.clock.now_ms() + 1)
        await racer.play(text)
        await asyncio.sleep(0)
    if racer.playing:
        await racer.resign()


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
async def test_every_spectator_frame_hides_what_a_racer_still_racing_has_not_seen(
    connect: Connect, variant: str
) -> None:
    race = await open_race(connect, variant, ["Ann", "Bob", "Cy"], settings(), watchers=1)
    bob_watching = await add_watcher(race, connect)
    await start(race)
    ann, bob, cy = race.racers
    best, worst = greedy_line(variant, SEED), worst_line(variant, SEED, limit=40)
    await asyncio.gather(play_then_resign(ann, best[:60]), play_then_resign(cy, best[:12]))
    await play_then_resign(bob, worst)
    await race_over(race)
    finished = {e.seat: e.at_ms for e in race.watchers[0].events("player_finished")}
    assert set(finished) == {ann.seat, bob.seat, cy.seat}
    knowledge = Knowledge(race, finished)
    hidden = [check_watcher(watcher, knowledge) for watcher in race.watchers]
    assert all(hidden), hidden
    for racer in race.racers:
        true = board_of(knowledge.games[racer.seat][racer.version].state)
        await bob_watching.wait_event("board", shows(racer, true))


def shows(racer: Racer, true: BoardView) -> Callable[[Any], bool]:
    """Matches the racer's last board with nothing hidden (sent once the race is over)."""
    return lambda e: bool(e.seat == racer.seat and e.version == racer.version and e.board == true)
