"""A room kept current by applying its events in seq order, as every client does.

The server sends the whole room once (``joined`` or ``snapshot``) and then only
events; `apply_event` turns one event into the next room exactly as the server
changed its own, so every front end shows the same room without asking again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol import (
    BoardShown,
    Countdown,
    DealAnalysed,
    GhostInfo,
    GhostProgress,
    HostChanged,
    IdleWarning,
    PlayerBack,
    PlayerFinished,
    PlayerInfo,
    PlayerJoined,
    PlayerLeft,
    ProgressMade,
    RaceOver,
    RaceRated,
    RaceStarted,
    ReadyChanged,
    Rematch,
    RoomEvent,
    RoomSnapshot,
    SettingsChanged,
    SpectatorCount,
)


def apply_event(room: RoomSnapshot, event: RoomEvent) -> RoomSnapshot:
    """The room after ``event``; a ``board`` event changes no room field."""
    return _CHANGES[type(event)](room, event)


def _update(room: RoomSnapshot, seat: int, **fields: Any) -> RoomSnapshot:
    players = tuple(p.model_copy(update=fields) if p.seat == seat else p for p in room.players)
    return room.model_copy(update={"players": players})


def _every_player(room: RoomSnapshot, **fields: Any) -> tuple[PlayerInfo, ...]:
    return tuple(player.model_copy(update=fields) for player in room.players)


def _joined(room: RoomSnapshot, event: PlayerJoined) -> RoomSnapshot:
    newcomer = PlayerInfo(
        seat=event.seat,
        name=event.name,
        ready=False,
        away=False,
        outcome="playing",
        progress=0,
        moves=0,
        finished_at_ms=None,
        account=event.account,
        bot=event.bot,
        rating=event.rating,
        provisional=event.provisional,
        level=event.level,
        house=event.house,
    )
    others = [player for player in room.players if player.seat != event.seat]
    players = tuple(sorted([*others, newcomer], key=lambda player: player.seat))
    return room.model_copy(update={"players": players})


def _left(room: RoomSnapshot, event: PlayerLeft) -> RoomSnapshot:
    if event.away:
        return _update(room, event.seat, away=True)
    players = tuple(player for player in room.players if player.seat != event.seat)
    return room.model_copy(update={"players": players})


def _back(room: RoomSnapshot, event: PlayerBack) -> RoomSnapshot:
    return _update(room, event.seat, away=False)


def _host(room: RoomSnapshot, event: HostChanged) -> RoomSnapshot:
    return room.model_copy(update={"host": event.seat})


def _spectators(room: RoomSnapshot, event: SpectatorCount) -> RoomSnapshot:
    return room.model_copy(update={"spectators": event.count})


def _settings(room: RoomSnapshot, event: SettingsChanged) -> RoomSnapshot:
    """Everyone unready, and each player's rating the new game's (none if not listed)."""
    ratings = {seat_rating.seat: seat_rating for seat_rating in event.ratings}
    players = tuple(
        player.model_copy(
            update={
                "ready": False,
                "rating": ratings[player.seat].rating if player.seat in ratings else None,
                "provisional": player.seat in ratings and ratings[player.seat].provisional,
            }
        )
        for player in room.players
    )
    update = {"variant": event.variant, "settings": event.settings, "players": players}
    return room.model_copy(update=update)


def _ready(room: RoomSnapshot, event: ReadyChanged) -> RoomSnapshot:
    return _update(room, event.seat, ready=event.ready)


def _countdown(room: RoomSnapshot, event: Countdown) -> RoomSnapshot:
    update = {
        "phase": "countdown",
        "race_no": event.race_no,
        "start_at_ms": event.start_at_ms,
        "seed_commit": event.seed_commit,
        "seed": None,
    }
    return room.model_copy(update=update)


def _started(room: RoomSnapshot, event: RaceStarted) -> RoomSnapshot:
    """Every player starts from the deal, with the cards it deals home (a base card) home."""
    progress = event.board.progress
    players = _every_player(
        room,
        outcome="playing",
        progress=progress,
        moves=0,
        finished_at_ms=None,
        idle_timeout_at_ms=None,
    )
    update = {"phase": "racing", "start_at_ms": event.start_at_ms, "players": players}
    return room.model_copy(update=update)


def _progress(room: RoomSnapshot, event: ProgressMade) -> RoomSnapshot:
    """A move: its counters, and an idle warning no longer stands."""
    return _update(
        room,
        event.seat,
        progress=event.progress,
        moves=event.moves,
        outcome=event.outcome,
        idle_timeout_at_ms=None,
    )


def _finished(room: RoomSnapshot, event: PlayerFinished) -> RoomSnapshot:
    return _update(
        room, event.seat, outcome=event.outcome, finished_at_ms=event.at_ms, idle_timeout_at_ms=None
    )


def _idle(room: RoomSnapshot, event: IdleWarning) -> RoomSnapshot:
    """The warning stands until the racer moves or finishes."""
    return _update(room, event.seat, idle_timeout_at_ms=event.timeout_at_ms)


def _over(room: RoomSnapshot, event: RaceOver) -> RoomSnapshot:
    for result in event.ranking:
        room = _update(
            room,
            result.seat,
            outcome=result.outcome,
            progress=result.progress,
            moves=result.moves,
            finished_at_ms=result.finished_at_ms,
            idle_timeout_at_ms=None,
        )
    update = {"phase": "finished", "seed": event.seed, "seed_commit": event.seed_commit}
    return room.model_copy(update=update)


def _rematch(room: RoomSnapshot, event: Rematch) -> RoomSnapshot:
    players = _every_player(
        room,
        ready=False,
        outcome="playing",
        progress=0,
        moves=0,
        finished_at_ms=None,
        idle_timeout_at_ms=None,
    )
    update = {
        "phase": "lobby",
        "race_no": event.race_no,
        "players": players,
        "start_at_ms": None,
        "seed_commit": None,
        "seed": None,
        "verdict": None,
        "last_race": event.last_race,
        "rating_changes": None,
        "ghosts": (),
    }
    return room.model_copy(update=update)


def _unchanged(room: RoomSnapshot, event: BoardShown) -> RoomSnapshot:
    """A player's board, for spectators: no room field changes."""
    return room


def _ghost(room: RoomSnapshot, event: GhostProgress) -> RoomSnapshot:
    """The ghost's entry, as the event shows it (an event of another race: nothing)."""
    if event.race_no != room.race_no:
        return room
    by_number = {ghost.ghost: ghost for ghost in room.ghosts}
    by_number[event.ghost] = GhostInfo(**event.model_dump(exclude={"type", "race_no"}))
    return room.model_copy(update={"ghosts": tuple(by_number[n] for n in sorted(by_number))})


def _analysed(room: RoomSnapshot, event: DealAnalysed) -> RoomSnapshot:
    return room.model_copy(update={"verdict": event.verdict})


def _rated(room: RoomSnapshot, event: RaceRated) -> RoomSnapshot:
    """Each account's new rating beside its seat; the changes, for this race's results."""
    for change in event.changes:
        room = _update(room, change.seat, rating=change.after, provisional=change.provisional)
    if event.race_no != room.race_no:
        return room
    return room.model_copy(update={"rating_changes": event.changes})


_CHANGES: dict[type[Any], Callable[[RoomSnapshot, Any], RoomSnapshot]] = {
    PlayerJoined: _joined,
    PlayerLeft: _left,
    PlayerBack: _back,
    HostChanged: _host,
    SpectatorCount: _spectators,
    SettingsChanged: _settings,
    ReadyChanged: _ready,
    Countdown: _countdown,
    RaceStarted: _started,
    ProgressMade: _progress,
    GhostProgress: _ghost,
    PlayerFinished: _finished,
    IdleWarning: _idle,
    BoardShown: _unchanged,
    RaceOver: _over,
    DealAnalysed: _analysed,
    RaceRated: _rated,
    Rematch: _rematch,
}
"""What each room event changes, for every type of `RoomEvent` (a test checks)."""
