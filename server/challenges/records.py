"""A challenge and its runs as stored, made from a finished race (pure, no I/O).

A run keeps what its race's ``race_over`` said of one racer, the server's stamps
included, plus when each card first came home (`reached`), replayed from the
deal once when the run is recorded so that standings never replay a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import msgpack
from pydantic import TypeAdapter

import engine
from protocol import PlayerResult, RaceOver
from protocol.models import Settings
from server.lifecycle.state import Player

__all__ = [
    "Challenge",
    "Run",
    "pack",
    "reached_times",
    "run_of",
    "runs_of",
    "split",
    "unpack_challenge",
    "unpack_run",
    "with_log",
]

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class Challenge:
    code: str
    variant: str
    settings: Settings
    seed: bytes
    """Secret until the challenge closes (a public deal's is ``deal:N``)."""
    room: str
    race_no: int
    created_ms: int
    closes_at_ms: int
    key_digest: str
    """The sha256 hex of the key that closes it early (the creator's)."""
    raced_by: tuple[str, ...] = ()
    """The accounts that raced or watched the original room: they know the deal."""


@dataclass(frozen=True, slots=True)
class Run:
    name: str
    account: str
    """'' for a guest."""
    original: bool
    start_at_ms: int
    outcome: str
    progress: int
    progress_at_ms: int
    moves: int
    finished_at_ms: int
    reached: tuple[int, ...]
    """Race time (ms) at which 1, 2, ... cards were first home."""
    log: tuple[tuple[str, int, str], ...]
    """Each move: its text, its server stamp, the client's move id."""
    reached_moves: tuple[int, ...] = ()
    """Moves made by the time 1, 2, ... cards were first home."""
    ranked: bool = True
    """In the standings; False for practice (an account's second attempt, a guest
    challenger, an account that raced the original)."""

    @property
    def elapsed_ms(self) -> int:
        return self.finished_at_ms - self.start_at_ms

    @property
    def progress_ms(self) -> int:
        return max(0, self.progress_at_ms - self.start_at_ms)


_CHALLENGE = TypeAdapter(Challenge)
_RUN = TypeAdapter(Run)


def pack(record: Challenge | Run) -> bytes:
    """Storage form (msgpack); `unpack_challenge` / `unpack_run` give it back."""
    adapter: TypeAdapter[object] = _CHALLENGE if isinstance(record, Challenge) else _RUN  # type: ignore[assignment]
    data: bytes = msgpack.packb(adapter.dump_python(record))
    return data


def unpack_challenge(data: bytes) -> Challenge:
    return _CHALLENGE.validate_python(msgpack.unpackb(data, use_list=False))


def unpack_run(data: bytes) -> Run:
    return _RUN.validate_python(msgpack.unpackb(data, use_list=False))


def reached_times(
    variant: str, seed: bytes, moves: Sequence[tuple[str, int]], start_ms: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Race time at which each count of cards home was first reached, and the moves
    made by then, replaying `moves` (text, server stamp) on the deal."""
    state = engine.new_game(variant, seed)
    reached: list[int] = []
    made: list[int] = []
    for count, (text, at_ms) in enumerate(moves, start=1):
        state = engine.apply(state, engine.Move.parse(text))
        while len(reached) < engine.progress(state):
            reached.append(max(0, at_ms - start_ms))
            made.append(count)
    return tuple(reached), tuple(made)


def split(run: Run) -> tuple[bytes, bytes]:
    """A run's storage form in two parts: all but its moves, and its moves."""
    log: bytes = msgpack.packb(run.log)
    return pack(replace(run, log=())), log


def with_log(run: Run, log: bytes | None) -> Run:
    """The run with its moves back (none if `log` is None)."""
    if log is None:
        return run
    moves = tuple((str(text), int(at), str(move_id)) for text, at, move_id in msgpack.unpackb(log))
    return replace(run, log=moves)


def runs_of(
    over: RaceOver, players: Sequence[Player], variant: str, seed: bytes
) -> tuple[Run, ...]:
    """The original race's runs, in its ranking's order, from its ``race_over``."""
    accounts = {player.seat: player.account for player in players}
    return tuple(
        run_of(line, accounts.get(line.seat, ""), over.start_at_ms, variant, seed, original=True)
        for line in over.ranking
    )


def run_of(
    line: PlayerResult,
    account: str,
    start_ms: int,
    variant: str,
    seed: bytes,
    *,
    original: bool,
    ranked: bool = True,
) -> Run:
    """One racer's run from its line of ``race_over``."""
    log = tuple((entry.move, entry.at_ms, entry.move_id) for entry in line.log)
    reached, made = reached_times(variant, seed, [(text, at) for text, at, _ in log], start_ms)
    return Run(
        name=line.name,
        account=account,
        original=original,
        start_at_ms=start_ms,
        outcome=line.outcome,
        progress=line.progress,
        progress_at_ms=line.progress_at_ms,
        moves=line.moves,
        finished_at_ms=line.finished_at_ms,
        reached=reached,
        reached_moves=made,
        log=log,
        ranked=ranked,
    )
