"""The race half of a room's lifecycle: start, moves allowed, finishes, time limit,
idle limit, ending early, ranking and rematch, as pure functions over an immutable
`Room` (see `server.lifecycle.room` for the theory of operation and the lobby half).

Deadlines: `deadline` says from the room alone when the server must next look
at it (the countdown's end, the time limit, or the earliest an idle warning can
fall due); `next_deadline` refines it with each racer's last move, which is
kept with the player's game rather than in the room.

Idle limit (``settings.idle_limit_s``): once some player has finished, a player
still racing whose last move (or the first finish, if later) is ``idle_limit_s``
old times out. ``IDLE_WARNING_S`` before, an ``idle_warning`` event announces
the instant; a warning sent late announces at least ``IDLE_WARNING_S`` ahead, so
nobody times out unwarned. A move after the warning starts the wait again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Literal

import engine
from protocol import BoardView, ErrorCode, HostEnd, events
from protocol.limits import IDLE_WARNING_S
from server.lifecycle import ghosts
from server.lifecycle.ranking import PlayerStats, race_results, summary
from server.lifecycle.rating import has_account
from server.lifecycle.room import (
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
    "end_race",
    "expire",
    "finish_race",
    "idle_step",
    "idle_timeouts",
    "is_over",
    "next_deadline",
    "player_finished",
    "rematch",
    "results",
    "standing_warnings",
    "start",
    "time_limit",
]

WARNING_MS = IDLE_WARNING_S * 1000


def deadline(room: Room) -> int | None:
    """When the server must next look at the room (`start`, `expire`, idle, a finished
    race's records: `server.lifecycle.recording`); ``None``: never.

    An idle warning may fall due later than this says, never earlier.
    """
    if room.phase == "countdown":
        return room.start_at_ms
    if room.phase == "finished" and (room.records_due or room.runs_due):
        return room.ended_at_ms
    if room.phase != "racing":
        return None
    first = _first_finish(room)
    limit_ms = _idle_limit_ms(room)
    ends_at = _with_ghosts(room, _window(room)[1])
    if first is None or limit_ms is None or not _racing(room):
        return ends_at
    return min(ends_at, first + limit_ms - WARNING_MS)


def _with_ghosts(room: Room, due: int) -> int:
    """`due`, or the room's next ghost step if that comes first."""
    step = ghosts.next_step_ms(room)
    return due if step is None else min(due, step)


def next_deadline(room: Room, last_moves: Mapping[int, int]) -> int | None:
    """`deadline`, exact for idle warnings and timeouts given each seat's last move (ms)."""
    if room.phase != "racing" or _idle_limit_ms(room) is None or _first_finish(room) is None:
        return deadline(room)
    due = [_with_ghosts(room, _window(room)[1])]
    for player in _racing(room):
        timeout, announced = _idle_timeout(room, player, last_moves), player.idle_timeout_ms
        warned = announced is not None and timeout <= announced
        due.append(announced if announced is not None and warned else timeout - WARNING_MS)
    return min(due)


def standing_warnings(room: Room, last_moves: Mapping[int, int]) -> dict[int, int]:
    """Seats warned for idling with no move since, each with its announced timeout
    (before the time limit: a warning past it has nothing left to announce)."""
    if room.phase != "racing" or _idle_limit_ms(room) is None or _first_finish(room) is None:
        return {}
    ends_at = _window(room)[1]
    return {
        player.seat: player.idle_timeout_ms
        for player in _racing(room)
        if player.idle_timeout_ms is not None
        and _idle_timeout(room, player, last_moves) <= player.idle_timeout_ms
        and player.idle_timeout_ms < ends_at
    }


def idle_timeouts(room: Room, last_moves: Mapping[int, int], now_ms: int) -> list[int]:
    """Seats warned for idling, with no move since, whose announced timeout is due."""
    return [seat for seat, at_ms in standing_warnings(room, last_moves).items() if at_ms <= now_ms]


def idle_step(
    room: Room, last_moves: Mapping[int, int], now_ms: int, timed_out: Collection[int]
) -> Transition:
    """Time out the seats in `timed_out` (from `idle_timeouts`); warn those now due a warning."""
    if room.phase != "racing" or _idle_limit_ms(room) is None or _first_finish(room) is None:
        return Transition(room)
    gone = [p for p in _racing(room) if p.seat in timed_out and p.idle_timeout_ms is not None]
    result = _time_out(room, {p.seat: p.idle_timeout_ms or 0 for p in gone})
    room, warnings = result.room, list(result.events)
    ends_at = _window(room)[1]
    for player in _racing(room):
        timeout = _idle_timeout(room, player, last_moves)
        warned = player.idle_timeout_ms is not None and timeout <= player.idle_timeout_ms
        if warned or now_ms < timeout - WARNING_MS:
            continue
        timeout = max(timeout, now_ms + WARNING_MS)
        if timeout < ends_at:
            room = put_player(room, replace(player, idle_timeout_ms=timeout))
            warnings.append(events.IdleWarning(seat=player.seat, timeout_at_ms=timeout))
    return Transition(room, tuple(warnings))


def end_race(
    room: Room, seat: int, now_ms: int, seats: Collection[int] | None = None
) -> Transition:
    """Host only, during a race: everyone still racing finishes with ``timeout`` now
    (at the time limit, if that has passed).

    `seats` limits it to those seats (the ones whose games the server timed out).
    A race the host cuts short before its time limit, stopping somebody, remembers
    it (`Room.ended_by_host`) for its results; their ``player_finished`` say so too.
    """
    require_host(room, seat)
    if room.phase != "racing":
        raise RoomError(ErrorCode.ROOM_WRONG_PHASE, f"no race is running ({room.phase})")
    late = [p.seat for p in _racing(room) if seats is None or p.seat in seats]
    start_at, ends_at = _window(room)
    if not late or now_ms >= ends_at:
        return _time_out(room, dict.fromkeys(late, ends_at))
    room = replace(room, ended_by_host=HostEnd(seat=seat, elapsed_ms=now_ms - start_at))
    return _time_out(room, dict.fromkeys(late, now_ms), ended_by=seat)


def time_limit(room: Room) -> int:
    """When the running race ends at the latest; `RoomError` when none runs."""
    return _window(room)[1]


def start(room: Room, now_ms: int) -> Transition:
    """Start the race once the countdown is over; otherwise change nothing."""
    if room.phase != "countdown" or room.start_at_ms is None or now_ms < room.start_at_ms:
        return Transition(room)
    room = replace(room, phase="racing")
    start_at, ends_at = _window(room)
    board = BoardView.from_engine(
        engine.view(engine.new_game(room.variant, room.seed, room.settings.rule_option))
    )
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
    ends_at = _window(room)[1]
    if now_ms < ends_at:
        return Transition(room)
    return _time_out(room, {player.seat: ends_at for player in _racing(room)})


def is_over(room: Room) -> bool:
    """Racing, and nobody is still playing: time for `finish_race`."""
    return room.phase == "racing" and all(p.outcome != "playing" for p in room.players)


def finish_race(room: Room, stats: Mapping[int, PlayerStats], now_ms: int) -> Transition:
    """End the race: rank the players and reveal the seed. ``stats`` maps seat to record."""
    if not is_over(room):
        raise RoomError(ErrorCode.ROOM_WRONG_PHASE, "the race is not over")
    start_at, _ = _window(room)
    due = any(has_account(player) for player in room.players)
    finished = replace(
        room,
        phase="finished",
        ended_at_ms=now_ms,
        records_due=due,
        plan=None,
        runs_due=bool(room.challenge),
    )
    return Transition(finished, (_race_over(finished, stats, start_at, now_ms),))


def results(room: Room, stats: Mapping[int, PlayerStats]) -> events.RaceOver | None:
    """A finished race's results, as its ``race_over`` gave them (None in any other
    phase). ``stats`` maps seat to record, with move logs."""
    if room.phase != "finished" or room.start_at_ms is None or room.ended_at_ms is None:
        return None
    return _race_over(room, stats, room.start_at_ms, room.ended_at_ms)


def _race_over(
    room: Room, stats: Mapping[int, PlayerStats], start_at_ms: int, ended_at_ms: int
) -> events.RaceOver:
    return events.RaceOver(
        race_no=room.race_no,
        start_at_ms=start_at_ms,
        ended_at_ms=ended_at_ms,
        seed=room.seed.hex(),
        seed_commit=room.seed_commit,
        ranking=race_results(room.players, stats, start_at_ms),
        ended_by_host=room.ended_by_host,
    )


def rematch(room: Room, seat: int, secret: bytes, stats: Mapping[int, PlayerStats]) -> Transition:
    """Host only, after a race: back to the lobby with a new secret, nobody ready.

    Players who left during the race lose their seats now. The room keeps the race
    just over in brief for its lobby (`Room.last_race`, in place of the one before),
    ranked from ``stats``: seat to record, move logs not needed.
    """
    require_host(room, seat)
    require_phase(room, "finished")
    ghosts.require_ordinary(room)
    if room.records_due:
        raise RoomError(ErrorCode.SERVER_BUSY, "the race is still being recorded; try again")
    over = results(room, stats)
    last_race = None if over is None else summary(over, room.variant)
    gone = [player.seat for player in room.players if player.away]
    players = tuple(p.seated_again for p in room.players if not p.away)
    room = replace(
        room,
        secret=secret,
        players=players,
        phase="lobby",
        race_no=room.race_no + 1,
        start_at_ms=None,
        ended_by_host=None,
        last_race=last_race,
        plan=None,
    )
    left = (events.PlayerLeft(seat=s, away=False) for s in gone)
    return Transition(room, (events.Rematch(race_no=room.race_no, last_race=last_race), *left))


def _window(room: Room) -> tuple[int, int]:
    """Start and end of the running race; `RoomError` when none runs."""
    if room.phase != "racing" or room.start_at_ms is None:
        raise RoomError(ErrorCode.MOVE_NOT_RACING, "no race is running")
    return room.start_at_ms, room.start_at_ms + room.settings.time_limit_s * 1000


def _time_out(room: Room, seats: Mapping[int, int], ended_by: int | None = None) -> Transition:
    """Seats (to the instant each times out at) finish with ``timeout``; `ended_by`:
    the host who ended the race, if that is why."""
    start_at = _window(room)[0]
    finished: list[events.PlayerFinished] = []
    for seat, at_ms in seats.items():
        player = room.player(seat)
        room = put_player(room, replace(player, outcome="timeout", finished_at_ms=at_ms))
        elapsed_ms = at_ms - start_at
        finished.append(
            events.PlayerFinished(
                seat=seat, outcome="timeout", at_ms=at_ms, elapsed_ms=elapsed_ms, ended_by=ended_by
            )
        )
    return Transition(room, tuple(finished))


def _racing(room: Room) -> list[Player]:
    return [player for player in room.players if player.outcome == "playing"]


def _first_finish(room: Room) -> int | None:
    done = [p.finished_at_ms for p in room.players if p.finished_at_ms is not None]
    return min(done) if done else None


def _idle_limit_ms(room: Room) -> int | None:
    limit = room.settings.idle_limit_s
    return None if limit is None else limit * 1000


def _idle_timeout(room: Room, player: Player, last_moves: Mapping[int, int]) -> int:
    """When the player would time out for idling if they made no more moves."""
    start_at = _window(room)[0]
    since = max(last_moves.get(player.seat, start_at), _first_finish(room) or start_at)
    return since + (_idle_limit_ms(room) or 0)
