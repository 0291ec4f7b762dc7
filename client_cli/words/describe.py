"""One line of news per room event, as a player or spectator wants to read it.

Pure: the text depends on the event and the room as it was just before it
(names of players who are about to leave are still known there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client_cli.words.ratings import identity, rated_news
from client_cli.words.render import (
    FINISH_VERBS,
    deal_name,
    format_clock,
    format_duration,
    player_name,
)
from client_cli.words.solver_news import verdict_text
from engine import find_variant
from protocol import (
    BoardShown,
    ClientMessage,
    Countdown,
    DealAnalysed,
    Error,
    ErrorCode,
    GhostProgress,
    HostChanged,
    IdleWarning,
    MakeMove,
    PlayerBack,
    PlayerFinished,
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

Describe = Callable[[Any, RoomSnapshot, "int | None"], "str | None"]


def describe(event: RoomEvent, room: RoomSnapshot, you: int | None) -> str | None:
    """News about ``event``; ``None`` when there is nothing worth a line."""
    return _TEXTS[type(event)](event, room, you)


def describe_error(request: ClientMessage, error: Error) -> str:
    """A refused request, naming what was refused and why, as a sentence."""
    if error.code == ErrorCode.ROOM_NO_WINNABLE_DEAL:
        return sentence(f"{error.message} ({error.code.value})")
    if isinstance(request, MakeMove):
        what = f"The move {request.move}"
    else:
        what = f"Your {request.type} request"
    detail = f": {error.message}" if error.message else ""
    return sentence(f"{what} was refused ({error.code.value}){detail}")


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop, for screen readers."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _who(room: RoomSnapshot, seat: int, you: int | None) -> str:
    return "You" if seat == you else player_name(room, seat)


def _joined(event: PlayerJoined, room: RoomSnapshot, you: int | None) -> str:
    return f"{event.name} joined as #{event.seat + 1} ({identity(event)})."


def _left(event: PlayerLeft, room: RoomSnapshot, you: int | None) -> str:
    name = player_name(room, event.seat)
    return f"{name} is away (seat kept)." if event.away else f"{name} left."


def _back(event: PlayerBack, room: RoomSnapshot, you: int | None) -> str:
    return f"{player_name(room, event.seat)} is back."


def _host(event: HostChanged, room: RoomSnapshot, you: int | None) -> str:
    if event.seat is None:
        return "No host until a player comes back."
    if event.seat == you:
        return "You are the host now."
    return f"{player_name(room, event.seat)} is the host now."


def _spectators(event: SpectatorCount, room: RoomSnapshot, you: int | None) -> str:
    if event.count == 1:
        return "1 spectator is watching."
    return f"{event.count} spectators are watching."


def _settings(event: SettingsChanged, room: RoomSnapshot, you: int | None) -> str:
    settings = event.settings
    return (
        f"Settings changed: {find_variant(event.variant).name}, {settings.max_players} seats,"
        f" {format_clock(settings.time_limit_s * 1000)} limit, {deal_name(settings)}"
        + (", rated." if settings.rated else ".")
        + " Everyone must be ready again."
    )


def _ready(event: ReadyChanged, room: RoomSnapshot, you: int | None) -> str:
    who = _who(room, event.seat, you)
    verb = "are" if event.seat == you else "is"
    return f"{who} {verb} {'ready' if event.ready else 'not ready'}."


def _countdown(event: Countdown, room: RoomSnapshot, you: int | None) -> str:
    seconds = (event.starts_in_ms + 999) // 1000
    return (
        f"Everyone is ready: race {event.race_no} starts in {seconds} s."
        f" Seed commit {event.seed_commit}."
    )


def _started(event: RaceStarted, room: RoomSnapshot, you: int | None) -> str:
    limit = format_clock(event.ends_at_ms - event.start_at_ms)
    return f"Race {event.race_no}: GO! Time limit {limit}."


def _ghost(event: GhostProgress, room: RoomSnapshot, you: int | None) -> str | None:
    """A challenge's recorded run, shown at the race time it got there."""
    guest = " (guest)" if event.guest else ""
    who = f"Ghost {event.name}{guest}"
    if event.outcome != "playing":
        return f"{who} {_GHOST_ENDS[event.outcome]} with {event.progress} cards home."
    if event.progress == 0 and event.moves == 0:
        return f"{who} races along."
    total = find_variant(room.variant).total
    moves = "1 move" if event.moves == 1 else f"{event.moves} moves"
    return f"{who} has {event.progress} of {total} cards home after {moves}."


_GHOST_ENDS = {
    "won": "won",
    "stuck": "got stuck",
    "resigned": "resigned",
    "timeout": "ran out of time",
}


def _progress(event: ProgressMade, room: RoomSnapshot, you: int | None) -> str | None:
    if event.seat == you:
        return None
    total = find_variant(room.variant).total
    name = player_name(room, event.seat)
    moves = "1 move" if event.moves == 1 else f"{event.moves} moves"
    return f"{name} has {event.progress} of {total} cards home after {moves}."


def _finished(event: PlayerFinished, room: RoomSnapshot, you: int | None) -> str:
    who, elapsed = _who(room, event.seat, you), format_duration(event.elapsed_ms)
    if event.ended_by is not None:
        was = "were" if event.seat == you else "was"
        host = "you" if event.ended_by == you else f"the host, {player_name(room, event.ended_by)},"
        return f"{who} {was} stopped after {elapsed}: {host} ended the race early."
    verb = FINISH_VERBS[event.outcome]
    idle = any(p.seat == event.seat and p.idle_timeout_at_ms is not None for p in room.players)
    if event.outcome == "timeout" and event.elapsed_ms >= room.settings.time_limit_s * 1000:
        verb = "ran out of time after"
    elif event.outcome == "timeout" and idle:
        verb = "timed out for idling after"
    return f"{who} {verb} {elapsed}."


def idle_news(seat: int, room: RoomSnapshot, you: int | None) -> str:
    """A racer's idle warning in words."""
    if seat == you:
        return "You have been idle too long: move now or your race ends (timeout)."
    return f"{player_name(room, seat)} has been idle too long and times out unless they move."


def _idle(event: IdleWarning, room: RoomSnapshot, you: int | None) -> str:
    return idle_news(event.seat, room, you)


def standing_idle(room: RoomSnapshot, you: int | None) -> list[str]:
    """The idle warnings a whole room shows still standing, told as when they came."""
    if room.phase != "racing":
        return []
    return [
        idle_news(player.seat, room, you)
        for player in room.players
        if player.idle_timeout_at_ms is not None
    ]


def _analysed(event: DealAnalysed, room: RoomSnapshot, you: int | None) -> str:
    return verdict_text(event.verdict)


def _rated(event: RaceRated, room: RoomSnapshot, you: int | None) -> str:
    return rated_news(event.race_no, event.changes)


def _untold(event: BoardShown | RaceOver, room: RoomSnapshot, you: int | None) -> None:
    """Told elsewhere: a board is drawn, not told; the results come as a table."""
    return


def rematch_news(race_no: int, ready_hint: str | None) -> str:
    """The rematch in words; for a player, `ready_hint` says how to say ready."""
    back = f"Rematch: back to the lobby for race {race_no}."
    return back if ready_hint is None else f"{back} {ready_hint}"


def _rematch(event: Rematch, room: RoomSnapshot, you: int | None) -> str:
    return rematch_news(event.race_no, None if you is None else "Type ready when you are.")


_TEXTS: dict[type[Any], Describe] = {
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
    BoardShown: _untold,
    RaceOver: _untold,
    DealAnalysed: _analysed,
    RaceRated: _rated,
    Rematch: _rematch,
}
"""The news of each room event, for every type of `RoomEvent` (a test checks)."""
