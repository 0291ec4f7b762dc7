"""Scripted players for whole-race tests: seated clients that remember what they sent.

A `Racer` sends moves with fresh move ids and its expected version and keeps
every accepted move with the server's stamp, so a test can hold the race's
results against what really happened. When the test knows the seed (a public
deal) the racer also keeps its true game and checks each `move_ok` board
against it. `greedy_line` and `worst_line` script whole games ahead of time;
`obvious_move` reads a move off a board, for deals whose seed is secret.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import engine
from bench.greedy import play as greedy_play
from bench.greedy import rank_move
from engine.cards import parse_card, rank_of, suit_of
from protocol import (
    HIDDEN_CARD,
    BoardView,
    Countdown,
    CreateRoom,
    JoinRoom,
    LogEntry,
    MakeMove,
    MoveOk,
    RaceOver,
    RaceStarted,
    Ready,
    Resign,
    Settings,
)
from server.app import RaceServer
from server.clock import Clock
from server.config import Config
from server.store import Store
from tests.server._client import Client

Connect = Callable[[], Awaitable[Client]]

FAST = Config(port=0, rate_per_s=100_000.0, rate_burst=100_000.0, analysis_workers=0)
"""Scripted players move as fast as the server answers; the rate limit is tested elsewhere,
and so are the solver's verdicts."""


@contextlib.asynccontextmanager
async def serve(store: Store, clock: Clock, **changes: Any) -> AsyncIterator[RaceServer]:
    """A race server over the test's store whose rate limit scripted play never reaches
    (and with the `Config` ``changes`` given)."""
    async with RaceServer(replace(FAST, **changes), store, clock) as server:
        yield server


def secret_deal(name: str) -> bytes:
    """A fixed secret of 32 bytes, named by the test that pins it."""
    return name.encode().ljust(32, b".")


def pin_secrets(server: RaceServer, *secrets: bytes) -> None:
    """The server's next secret deals are these, in order, then the last one again."""
    left = list(secrets)

    def next_secret() -> bytes:
        return left.pop(0) if len(left) > 1 else left[0]

    server.services.new_secret = next_secret


def board_of(state: engine.GameState) -> BoardView:
    return BoardView.from_engine(engine.view(state))


def conceals(shown: BoardView, true: BoardView) -> bool:
    """Whether ``shown`` is ``true`` with some cards replaced by the placeholder."""

    def same(mine: Any, theirs: Any) -> bool:
        if isinstance(mine, tuple) and isinstance(theirs, tuple):
            return len(mine) == len(theirs) and all(map(same, mine, theirs))
        return bool(mine == theirs or (mine == HIDDEN_CARD and isinstance(theirs, str)))

    return all(same(getattr(shown, name), getattr(true, name)) for name in BoardView.model_fields)


@dataclass(frozen=True)
class Sent:
    """One accepted move, as its player saw it."""

    move: str
    move_id: str
    at_ms: int
    progress: int
    board: BoardView


class Racer:
    """A seated player's client and what it sent in the current race."""

    def __init__(self, client: Client, seat: int, name: str) -> None:
        self.client, self.seat, self.name = client, seat, name
        self.sent: list[Sent] = []
        self.start: RaceStarted | None = None
        self.board: BoardView | None = None
        self.game: engine.GameState | None = None
        """The true game, when the test knows the seed."""

    def begin(self, started: RaceStarted, seed: bytes | None, option: str = "") -> None:
        self.start, self.board, self.sent = started, started.board, []
        variant = started.board.variant
        self.game = None if seed is None else engine.new_game(variant, seed, option)
        if self.game is not None:
            assert started.board == board_of(self.game)

    @property
    def version(self) -> int:
        return len(self.sent)

    @property
    def playing(self) -> bool:
        """Still in the race as far as the last board says."""
        return self.board is not None and self.board.outcome == "playing"

    async def play(self, text: str) -> MoveOk:
        """Send one move; it must be accepted (and match the true game when known)."""
        assert self.start is not None
        move_id = f"r{self.start.race_no}-s{self.seat}-m{self.version + 1}"
        reply: MoveOk = await self.client.call(
            MakeMove, move=text, move_id=move_id, expected_version=self.version
        )
        assert reply.type == "move_ok", (text, reply)
        assert (reply.move_id, reply.version) == (move_id, self.version + 1)
        if self.game is not None:
            self.game = engine.apply(self.game, engine.Move.parse(text))
            assert reply.board == board_of(self.game)
            assert reply.outcome == engine.outcome(self.game).value
        self.sent.append(Sent(text, move_id, reply.at_ms, reply.progress, reply.board))
        self.board = reply.board
        return reply

    async def play_all(self, moves: Iterable[str]) -> None:
        for text in moves:
            await self.play(text)

    async def play_obvious(self, limit: int) -> None:
        """Play moves read off the board until none is left, the game ends or `limit`."""
        while self.version < limit and self.playing:
            assert self.board is not None
            text = obvious_move(self.board)
            if text is None:
                return
            await self.play(text)

    async def resign(self) -> None:
        reply = await self.client.call(Resign)
        assert reply.type == "ok", reply

    def log(self) -> tuple[LogEntry, ...]:
        return tuple(LogEntry(move=s.move, at_ms=s.at_ms, move_id=s.move_id) for s in self.sent)

    def standing(self) -> tuple[int, int]:
        """Cards home, and when that count was first reached (the start if it never changed)."""
        assert self.start is not None
        progress, at_ms = self.start.board.progress, self.start.start_at_ms
        for sent in self.sent:
            if sent.progress != progress:
                progress, at_ms = sent.progress, sent.at_ms
        return progress, at_ms


@dataclass
class Race:
    """A room of racers and spectators, as the test drives it."""

    variant: str
    code: str
    racers: list[Racer]
    watchers: list[Client]
    settings: Settings
    race_no: int = 1
    countdown: Countdown | None = None
    started: RaceStarted | None = None

    @property
    def clients(self) -> list[Client]:
        return [racer.client for racer in self.racers] + self.watchers

    def advance_to(self, when_ms: int) -> None:
        """Move the server's clock to `when_ms`, running its timers due by then."""
        self.racers[0].client.advance_to(when_ms)

    @property
    def public_seed(self) -> bytes | None:
        number = self.settings.deal_number
        return None if number is None else b"deal:%d" % number


async def open_race(
    connect: Connect, variant: str, names: Sequence[str], settings: Settings, watchers: int = 1
) -> Race:
    """A room with `names` seated in order (the first hosts) and `watchers` spectators."""
    host = await connect()
    created = await host.call(CreateRoom, variant=variant, name=names[0], settings=settings)
    assert created.type == "joined", created
    racers = [Racer(host, created.seat, names[0])]
    for name in names[1:]:
        client = await connect()
        joined = await client.call(JoinRoom, code=created.code, name=name)
        assert joined.type == "joined", joined
        racers.append(Racer(client, joined.seat, name))
    race = Race(variant, created.code, racers, [], settings)
    for _ in range(watchers):
        await add_watcher(race, connect)
    return race


async def add_watcher(race: Race, connect: Connect) -> Client:
    client = await connect()
    joined = await client.call(JoinRoom, code=race.code, name="Watcher", role="spectator")
    assert joined.type == "joined" and joined.seat is None, joined
    race.watchers.append(client)
    return client


async def ready_all(race: Race) -> Countdown:
    """Every racer says ready; the countdown every client then gets."""
    for racer in race.racers:
        assert (await racer.client.call(Ready, ready=True)).type == "ok"
    number = race.race_no
    countdowns = await _everyone(race, "countdown", lambda e: e.race_no == number)
    race.countdown = countdowns[0]
    return race.countdown


async def wait_start(race: Race, seed: bytes | None = None) -> RaceStarted:
    """The clock moved to the countdown's end, then the start on every client.

    `seed` gives racers their true game of a secret deal.
    """
    assert race.countdown is not None and race.countdown.race_no == race.race_no
    race.advance_to(race.countdown.start_at_ms)
    number = race.race_no
    starts = await _everyone(race, "race_started", lambda e: e.race_no == number)
    race.started = starts[0]
    for racer in race.racers:
        racer.begin(race.started, seed or race.public_seed, race.settings.rule_option)
    return race.started


async def start(race: Race, seed: bytes | None = None) -> RaceStarted:
    """Everyone ready, then the countdown and the start on every client."""
    await ready_all(race)
    return await wait_start(race, seed)


async def race_over(race: Race) -> RaceOver:
    """The race's `race_over`, once every client has it (all the same)."""
    number = race.race_no
    overs: list[RaceOver] = await _everyone(race, "race_over", lambda e: e.race_no == number)
    return overs[0]


async def _everyone(race: Race, kind: str, where: Callable[[Any], bool]) -> list[Any]:
    bodies = await asyncio.gather(*(c.wait_event(kind, where) for c in race.clients))
    assert all(body == bodies[0] for body in bodies), bodies
    return list(bodies)


def race_events(client: Client, race_no: int, kind: str | None = None) -> list[Any]:
    """The events a client got from the start of race `race_no` to its end."""
    bodies = client.events()
    first = next(
        i for i, e in enumerate(bodies) if e.type == "race_started" and e.race_no == race_no
    )
    last = next(
        (i for i, e in enumerate(bodies) if e.type == "race_over" and e.race_no == race_no),
        len(bodies) - 1,
    )
    return [e for e in bodies[first : last + 1] if kind is None or e.type == kind]


def greedy_line(variant: str, seed: bytes) -> list[str]:
    """The greedy player's moves on this deal (bench/greedy.py)."""
    return [move.format() for move in greedy_play(variant, seed).moves]


def worst_line(variant: str, seed: bytes, limit: int = 1000) -> list[str]:
    """Always the move the greedy player likes least, never repeating a position."""
    state = engine.new_game(variant, seed)
    seen = {state}
    moves: list[str] = []
    while len(moves) < limit and engine.outcome(state) is engine.Outcome.PLAYING:
        fresh = [(m, engine.apply(state, m)) for m in engine.legal_moves(state)]
        fresh = [(m, after) for m, after in fresh if after not in seen]
        if not fresh:
            break
        move, state = max(fresh, key=lambda item: rank_move(state, item[0]))
        seen.add(state)
        moves.append(move.format())
    return moves


def obvious_move(board: BoardView) -> str | None:
    """A move anyone reads off the board: a top card home, else the stock, else a redeal."""
    rules = engine.find_variant(board.variant)
    tops = [(f"t{i}", pile[-1]) for i, pile in enumerate(board.tableau, 1) if pile]
    tops += [("w", board.waste[-1])] if board.waste else []
    tops += [("r", board.reserve)] if board.reserve else []
    for name, card in tops:
        if any(_fits(rules, board, i, parse_card(card)) for i in range(rules.foundations)):
            return f"{name} f"
    if board.stock:
        return "deal" if rules.stock == "deal" else "draw"
    if board.passes_left != 0 and board.waste:
        return "recycle"
    return "redeal" if rules.redeals and board.passes_left else None


def _fits(rules: engine.Rules, board: BoardView, index: int, card: int) -> bool:
    """Whether `card` may go on foundation `index`, from the board alone."""
    start_rank = rules.start_rank(index, board.base_rank)
    down = rules.foundation_down[index]
    top_text = board.foundations[index]
    if top_text is None:
        suit = rules.foundation_suits[index]
        return suit in (None, suit_of(card)) and rank_of(card) == start_rank
    top = parse_card(top_text)
    step = -1 if down else 1
    height = ((start_rank - rank_of(top)) if down else (rank_of(top) - start_rank)) % 13 + 1
    follows = (rank_of(top) - 1 + step) % 13 + 1 == rank_of(card)
    return suit_of(top) == suit_of(card) and follows and height < 13


def states_of(variant: str, seed: bytes, moves: Iterable[str]) -> list[engine.GameState]:
    """The game before any move and after each of `moves`."""
    states = [engine.new_game(variant, seed)]
    for text in moves:
        states.append(engine.apply(states[-1], engine.Move.parse(text)))
    return states
