"""No face-down card, no seed and no stock order reaches anyone before the race is over.

Whole races of each game on secret deals, with every frame each player and
spectator receives recorded. The test alone reads the seed from the store, so
it can replay every player's true game. For each frame that arrived before
``race_over``, every card text in it must have been face up by that moment in
some player's game (moves stamped no later than the frame's arrival count), and
every board in it must be a true board of some player.
"""

from __future__ import annotations

import asyncio
import bisect
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import msgpack
import pytest
from pydantic import BaseModel

import engine
from engine.cards import format_card
from protocol import BoardView, Settings, decode_server
from server.app import RaceServer
from server.clock import ManualClock
from server.lifecycle import room as rooms
from server.store import Store
from tests.server._client import Client
from tests.server._players import (
    Connect,
    Race,
    Racer,
    board_of,
    conceals,
    greedy_line,
    open_race,
    pin_secrets,
    race_over,
    ready_all,
    secret_deal,
    serve,
    states_of,
    wait_start,
    worst_line,
)

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")
NOT_CARDS = frozenset({"token", "code", "seed", "seed_commit", "move_id"})
"""Keys whose values are identifiers that may spell a card by chance."""


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as server:
        yield server


def face_up(state: engine.GameState) -> set[str]:
    """Cards a player sees: tableau, waste, the reserve's top, the foundations' tops."""
    cards = [card for pile in state.tableau for card in pile] + list(state.waste)
    cards += [top for top in state.foundations if top >= 0] + list(state.reserve[-1:])
    return {format_card(card) for card in cards}


class Timeline:
    """Cards seen face up in one player's game, growing with each move's server stamp."""

    def __init__(self, racer: Racer, seed: bytes) -> None:
        assert racer.start is not None
        states = states_of(racer.start.board.variant, seed, [s.move for s in racer.sent])
        self.times = [racer.start.start_at_ms] + [sent.at_ms for sent in racer.sent]
        self.seen: list[frozenset[str]] = []
        so_far: set[str] = set()
        for state in states:
            so_far |= face_up(state)
            self.seen.append(frozenset(so_far))
        self.boards = {board_of(state) for state in states}

    def by(self, at_ms: int) -> frozenset[str]:
        """Every card face up by `at_ms`; none before the race starts."""
        index = bisect.bisect_right(self.times, at_ms) - 1
        return self.seen[index] if index >= 0 else frozenset()


def card_texts(value: Any, key: str = "") -> Iterator[str]:
    """Every card-like word in a decoded frame, identifiers left out."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from card_texts(item, name)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_texts(item, key)
    elif isinstance(value, str) and key not in NOT_CARDS:
        yield from CARD.findall(value)


def boards_in(value: Any) -> Iterator[BoardView]:
    """Every board a frame carries, wherever it sits."""
    if isinstance(value, BoardView):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from boards_in(item)
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from boards_in(getattr(value, name))


def giveaways(variant: str, seed: bytes) -> list[bytes]:
    """Byte strings that would give the deal away: the seed and the face-down orders."""
    deal = engine.new_game(variant, seed)
    found = [seed, seed.hex().encode(), engine.to_bytes(deal)]
    found += [bytes(pile) for pile in (deal.stock, deal.reserve[:-1]) if pile]
    return found


def check_frames(client: Client, race: Race, seed: bytes) -> int:
    """Check every frame before ``race_over``; how many were checked."""
    timelines = [Timeline(racer, seed) for racer in race.racers]
    true_boards = set().union(*(timeline.boards for timeline in timelines))
    given_away = giveaways(race.variant, seed)
    arrivals = zip(client.frames, client.arrived_ms, strict=True)
    for checked, (frame, arrived_ms) in enumerate(arrivals):
        message = decode_server(frame)
        if message.type == "event" and message.event.type == "race_over":
            return checked
        assert not [secret for secret in given_away if secret in frame], message
        visible = frozenset().union(*(timeline.by(arrived_ms) for timeline in timelines))
        hidden = set(card_texts(msgpack.unpackb(frame))) - visible
        assert not hidden, (hidden, message)
        for board in boards_in(message):
            assert any(conceals(board, true) for true in true_boards), message
    raise AssertionError("no race_over arrived")


async def secret_seed(store: Store, code: str) -> bytes:
    """The deal's seed, read from the store by the test alone (never sent anywhere)."""
    record = await store.load_room(code)
    assert record is not None
    return rooms.from_bytes(record.room).seed


async def run_out(racer: Racer, moves: list[str]) -> None:
    """Play the moves (up to the game's end), then resign if still playing.

    The clock moves a millisecond before each move, so every move has a stamp
    of its own and each frame is checked against the cards seen by its arrival.
    """
    for text in moves:
        if not racer.playing:
            return
        racer.client.advance_to(racer.client.clock.now_ms() + 1)
        await racer.play(text)
    if racer.playing:
        await racer.resign()


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
async def test_no_hidden_card_leaves_the_server_before_the_end(
    connect: Connect, store: Store, race_server: RaceServer, variant: str
) -> None:
    secret = secret_deal(f"hidden cards, {variant}")
    assert len(greedy_line(variant, secret)) > 15
    pin_secrets(race_server, secret)
    names = ["Ann", "Bob", "Cy"]
    race = await open_race(connect, variant, names, Settings(countdown_s=1), watchers=2)
    await ready_all(race)
    seed = await secret_seed(store, race.code)
    assert seed == secret
    await wait_start(race, seed)
    best, worst = greedy_line(variant, seed), worst_line(variant, seed, limit=60)
    ann, bob, cy = race.racers
    await asyncio.gather(run_out(ann, best[:150]), run_out(bob, worst), run_out(cy, best[:15]))
    over = await race_over(race)
    assert bytes.fromhex(over.seed) == seed
    for client in race.clients:
        assert check_frames(client, race, seed) > len(race.racers)
    assert any(racer.version > 10 for racer in race.racers)
