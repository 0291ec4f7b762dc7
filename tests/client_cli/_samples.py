"""Protocol values for client tests: real deals from the engine, rooms and results by hand."""

from __future__ import annotations

from typing import Any, get_args

import engine
from protocol import (
    BoardView,
    FinishOutcome,
    HostEnd,
    LogEntry,
    PlayerInfo,
    PlayerResult,
    RaceOver,
    RaceSummary,
    RoomEvent,
    RoomSnapshot,
    Settings,
    SummaryLine,
)

COMMIT = "6f" * 32


def room_event_types() -> set[type[Any]]:
    """Every type in the protocol's `RoomEvent` union (its first argument; the second
    is the discriminator)."""
    union, *_ = get_args(RoomEvent)
    return set(get_args(union))


def board(variant: str, seed: bytes = b"deal:1", moves: tuple[str, ...] = ()) -> BoardView:
    """The board of a public deal after ``moves``."""
    return BoardView.from_engine(engine.view(engine.replay(variant, seed, moves)))


def player(seat: int, name: str, **fields: Any) -> PlayerInfo:
    values: dict[str, Any] = {
        "ready": False,
        "away": False,
        "outcome": "playing",
        "progress": 0,
        "moves": 0,
        "finished_at_ms": None,
    }
    return PlayerInfo(seat=seat, name=name, **{**values, **fields})


def room(**fields: Any) -> RoomSnapshot:
    """A lobby with Ada (host, ready) and Bob; fields replace any part."""
    values: dict[str, Any] = {
        "code": "K7PQ2M",
        "variant": "little-forty",
        "settings": Settings(),
        "phase": "lobby",
        "race_no": 1,
        "host": 0,
        "players": (player(0, "Ada", ready=True), player(1, "Bob")),
        "spectators": 0,
        "start_at_ms": None,
        "seed_commit": None,
        "seed": None,
    }
    return RoomSnapshot(**{**values, **fields})


def result(rank: int, seat: int, name: str, **fields: Any) -> PlayerResult:
    values: dict[str, Any] = {
        "outcome": "resigned",
        "progress": 0,
        "progress_at_ms": 1000,
        "moves": 0,
        "finished_at_ms": 5000,
        "elapsed_ms": 4000,
        "log": (),
    }
    return PlayerResult(rank=rank, seat=seat, name=name, **{**values, **fields})


def log(*moves: str) -> tuple[LogEntry, ...]:
    return tuple(
        LogEntry(move=move, at_ms=1000 + i, move_id=f"m{i}") for i, move in enumerate(moves)
    )


def race_over(
    ranking: tuple[PlayerResult, ...], seed: bytes = b"deal:1", **fields: Any
) -> RaceOver:
    values: dict[str, Any] = {
        "race_no": 1,
        "start_at_ms": 1000,
        "ended_at_ms": 90000,
        "seed": seed.hex(),
        "seed_commit": COMMIT,
    }
    return RaceOver(ranking=ranking, **{**values, **fields})


def last_race() -> RaceSummary:
    """Race 1 of Little Forty in brief, which the host Ada ended at 3:00: Bob won, Cy
    resigned, Dee had timed out for idling before, Ada was stopped."""
    lines: tuple[tuple[str, FinishOutcome, int, int], ...] = (
        ("Bob", "won", 104, 161_250),
        ("Ada", "timeout", 61, 180_000),
        ("Cy", "resigned", 40, 95_500),
        ("Dee", "timeout", 12, 170_000),
    )
    seats = {"Ada": 0, "Bob": 1, "Cy": 2, "Dee": 3}
    ranking = tuple(
        SummaryLine(
            rank=rank, seat=seats[name], name=name, outcome=outcome, progress=progress,
            elapsed_ms=elapsed,
        )
        for rank, (name, outcome, progress, elapsed) in enumerate(lines, start=1)
    )  # fmt: skip
    return RaceSummary(
        race_no=1,
        variant="little-forty",
        ranking=ranking,
        ended_by_host=HostEnd(seat=0, elapsed_ms=180_000),
    )
