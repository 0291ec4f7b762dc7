"""The race half of a room's lifecycle: start, moves allowed, finishes, time limit,
ranking and rematch, as pure functions over an immutable `Room` (see `server.room`
for the theory of operation and the lobby half).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

import engine
from protocol import BoardView, ErrorCode, events
from server._ranking import PlayerStats, race_results
from server.room import (
    Player,
    Room,
    RoomError,
    Transition,
    put_player,
    require_host,
    require_phase,
)

__all__ = [
    "check_move",
    "deadline",
    "expire",
    "finish_race",
    "is_over",
    "player_finished",
    "rematch",
    "start",
]


def deadline(room: Room) -> int | None:
    """When the server must next call `start` or `expire`; ``None`` if no timer runs."""
    if room.phase == "countdown":
        return room.start_at_ms
    if room.phase == "racing":
        return _window(room)[1]
    return None


def start(room: Room, now_ms: int) -> Transition:
    """Start the race once the countdown is over; otherwise change nothing."""
    if room.phase != "countdown" or room.start_at_ms is None or now_ms < room.start_at_ms:
        return Transition(room)
    room = replace(room, phase="racing")
    start_at, ends_at = _window(room)
    board = BoardView.from_engine(engine.view(engine.new_game(room.variant, room.seed)))
    started = events.RaceStarted(
        race_no=room.race_no, start_at_ms=start_at, ends_at_ms=ends_at, board=board
    )
    return Transition(room, (started,))


def check_move(room: Room, seat: int | None, now_ms: int) -> Player:
    """The player, if they may still play now; `RoomError` with the move/* code if not."""
    if seat is None:
        raise RoomError(ErrorCode.MOVE_SPECTATOR, "spectators cannot play")
    _, ends_at = _window(room)
    if now_ms >= ends_at:
        raise RoomError(ErrorCode.MOVE_NOT_RACING, "the time limit has passed")
    player = room.player(seat)
    if player.outcome != "playing":
        raise RoomError(ErrorCode.MOVE_FINISHED, f"your race is over ({player.outcome})")
    return player


def player_finished(
    room: Room, seat: int, outcome: Literal["won", "stuck", "resigned"], now_ms: int
) -> Transition:
    """A player won, got stuck or resigned at ``now_ms``."""
    player = check_move(room, seat, now_ms)
    start_at, _ = _window(room)
    room = put_player(room, replace(player, outcome=outcome, finished_at_ms=now_ms))
    finished = events.PlayerFinished(
        seat=seat, outcome=outcome, at_ms=now_ms, elapsed_ms=now_ms - start_at
    )
    return Transition(room, (finished,))


def expire(room: Room, now_ms: int) -> Transition:
    """Time every player still playing out once the time limit is reached."""
    if room.phase != "racing":
        return Transition(room)
    start_at, ends_at = _window(room)
    if now_ms < ends_at:
        return Transition(room)
    late = [player for player in room.players if player.outcome == "playing"]
    for player in late:
        room = put_player(room, replace(player, outcome="timeout", finished_at_ms=ends_at))
    timed_out = tuple(
        events.PlayerFinished(
            seat=p.seat, outcome="timeout", at_ms=ends_at, elapsed_ms=ends_at - start_at
        )
        for p in late
    )
    return Transition(room, timed_out)


def is_over(room: Room) -> bool:
    """Racing, and nobody is still playing: time for `finish_race`."""
    return room.phase == "racing" and all(p.outcome != "playing" for p in room.players)


def finish_race(room: Room, stats: Mapping[int, PlayerStats], now_ms: int) -> Transition:
    """End the race: rank the players and reveal the seed. ``stats`` maps seat to record."""
    if not is_over(room):
        raise RoomError(ErrorCode.ROOM_WRONG_PHASE, "the race is not over")
    start_at, _ = _window(room)
    over = events.RaceOver(
        race_no=room.race_no,
        start_at_ms=start_at,
        ended_at_ms=now_ms,
        seed=room.seed.hex(),
        seed_commit=room.seed_commit,
        ranking=race_results(room.players, stats, start_at),
    )
    return Transition(replace(room, phase="finished"), (over,))


def rematch(room: Room, seat: int, secret: bytes) -> Transition:
    """Host only, after a race: back to the lobby with a new secret, nobody ready.

    Players who left during the race lose their seats now.
    """
    require_host(room, seat)
    require_phase(room, "finished")
    gone = [player.seat for player in room.players if player.away]
    players = tuple(Player(p.seat, p.name) for p in room.players if not p.away)
    room = replace(
        room,
        secret=secret,
        players=players,
        phase="lobby",
        race_no=room.race_no + 1,
        start_at_ms=None,
    )
    left = (events.PlayerLeft(seat=s, away=False) for s in gone)
    return Transition(room, (events.Rematch(race_no=room.race_no), *left))


def _window(room: Room) -> tuple[int, int]:
    """Start and end of the running race; `RoomError` when none runs."""
    if room.phase != "racing" or room.start_at_ms is None:
        raise RoomError(ErrorCode.MOVE_NOT_RACING, "no race is running")
    return room.start_at_ms, room.start_at_ms + room.settings.time_limit_s * 1000
