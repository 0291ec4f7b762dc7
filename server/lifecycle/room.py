"""The race lifecycle of one room, as pure functions over an immutable `Room`.

Theory of operation: every function takes the room (and ``now_ms`` where time
matters) and returns a `Transition`, the new room plus the event bodies to
publish, in order. Nothing here reads a clock, draws randomness or does I/O:
the server supplies room codes, secrets and the time, then saves the new room
and publishes its events in one atomic step. A refused request raises
`RoomError` carrying the wire `ErrorCode` to answer with.

Phases: ``lobby`` -> ``countdown`` (every seated player ready) -> ``racing``
(`start` once ``start_at_ms`` is reached) -> ``finished`` (`finish_race` once
every player is done, or `expire` has timed the rest out) -> ``lobby`` again on
`rematch`. The seed stays in the room; events carry only its commit until
``race_over`` reveals it. This module holds the lobby half (the room itself
is `server.lifecycle.state`); `server.lifecycle.race` holds the race half
(start, moves allowed, finishes, ranking, rematch).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import engine
from protocol import (
    BotLevel,
    ErrorCode,
    RatingChange,
    RoomEvent,
    SeatRating,
    events,
)
from protocol.models import DealVerdict, RoomSnapshot, Settings
from server.lifecycle import ghosts
from server.lifecycle.ranking import PlayerStats, player_info
from server.lifecycle.rating import changes
from server.lifecycle.state import (
    Player,
    Room,
    RoomError,
    Transition,
    Watcher,
    from_bytes,
    put_player,
    require_host,
    require_phase,
    to_bytes,
)

__all__ = [
    "Player",
    "PlayerStats",
    "Room",
    "RoomError",
    "Transition",
    "Watcher",
    "come_back",
    "create",
    "from_bytes",
    "join",
    "leave",
    "needs_new_deal",
    "put_player",
    "require_host",
    "require_phase",
    "require_rule_option",
    "set_ready",
    "set_settings",
    "snapshot",
    "to_bytes",
]


def create(
    code: str,
    variant: str,
    settings: Settings,
    name: str,
    secret: bytes,
    *,
    process: str,
    token: str,
    account: str = "",
    bot: bool = False,
    level: BotLevel | None = None,
    house: bool = False,
    rating: int | None = None,
    provisional: bool = False,
) -> Transition:
    """A new room in the lobby with its creator (holding `token`, on `process`) in
    seat 0 as host; `account` and the rest as in `join`."""
    creator = Player(
        0,
        name,
        process=process,
        token=token,
        account=account,
        bot=bot,
        level=level,
        house=house,
        rating=rating,
        provisional=provisional,
    )
    require_rule_option(variant, settings)
    room = Room(code, variant, settings, secret, host=0, players=(creator,))
    return Transition(room, (_joined(creator),))


def join(
    room: Room,
    name: str,
    process: str,
    token: str,
    *,
    account: str = "",
    bot: bool = False,
    level: BotLevel | None = None,
    house: bool = False,
    rating: int | None = None,
    provisional: bool = False,
) -> tuple[int, Transition]:
    """Seat a player holding `token` on `process`: lobby only, lowest free seat
    (spectators: `server.lifecycle.presence`). `account` is the id of the account
    seated ('' for a guest), `bot` marks a program (`level` its level, `house` one the
    server's bot process plays), `rating` and `provisional` are the account's for the
    room's game, as the caller looked them up."""
    require_phase(room, "lobby")
    if any(player.name.casefold() == name.casefold() for player in room.players):
        raise RoomError(ErrorCode.ROOM_NAME_TAKEN, f"a player in this room is already named {name}")
    taken = {player.seat for player in room.players}
    free = [seat for seat in range(room.settings.max_players) if seat not in taken]
    if not free:
        raise RoomError(ErrorCode.ROOM_FULL, "every seat is taken")
    seated = Player(
        free[0],
        name,
        process=process,
        token=token,
        account=account,
        bot=bot,
        level=level,
        house=house,
        rating=rating,
        provisional=provisional,
    )
    players = tuple(sorted((*room.players, seated), key=lambda p: p.seat))
    room, host_events = _hand_over(replace(room, players=players))
    return free[0], Transition(room, (_joined(seated), *host_events))


def _joined(player: Player) -> events.PlayerJoined:
    return events.PlayerJoined(
        seat=player.seat,
        name=player.name,
        account=bool(player.account),
        bot=player.bot,
        rating=player.rating,
        provisional=player.provisional,
        level=player.level,
        house=player.house,
    )


def leave(room: Room, seat: int, now_ms: int) -> Transition:
    """In the lobby the seat is freed; later it is kept and the player marked away.
    The last person to leave a lobby takes its house bots with them."""
    player = room.player(seat)
    away = room.phase != "lobby"
    if not away:
        room = replace(room, players=tuple(p for p in room.players if p.seat != seat))
    elif player.away:
        return Transition(room)
    else:
        room = put_player(room, replace(player, away=True, process=""))
    left = [events.PlayerLeft(seat=seat, away=away)]
    if not away and all(p.house for p in room.players):
        left += [events.PlayerLeft(seat=p.seat, away=False) for p in room.players]
        room = replace(room, players=())
    room, host_events = _hand_over(room)
    room, countdown = _countdown_if_ready(room, now_ms)
    return Transition(room, (*left, *host_events, *countdown))


def come_back(room: Room, seat: int, process: str, token: str) -> Transition:
    """A player resumed with `token` on `process`; back from away, they take the host
    role if nobody holds it. `token` must be the one that holds the seat: a token of
    a seat since given up (the rematch after leaving, a lobby seat left) is refused,
    whoever sits there now."""
    player = next((player for player in room.players if player.seat == seat), None)
    if player is None or player.token not in {"", token}:
        raise RoomError(ErrorCode.AUTH_BAD_TOKEN, "that seat is no longer yours; join again")
    back = put_player(room, replace(player, away=False, process=process))
    if not player.away:
        return Transition(back)
    room, host_events = _hand_over(back)
    return Transition(room, (events.PlayerBack(seat=seat), *host_events))


def require_rule_option(variant: str, settings: Settings) -> None:
    """Refuse a rule option the game lacks (the protocol knows only that it exists)."""
    try:
        engine.find_variant(variant, settings.rule_option)
    except engine.UnknownVariant as error:
        raise RoomError(ErrorCode.ROOM_BAD_SETTINGS, str(error)) from None


def needs_new_deal(room: Room, variant: str, settings: Settings) -> bool:
    """Whether these settings need a new secret: a winnable-only deal is proven for
    one game, so turning winnable-only on, or changing the game while it is on, does."""
    if not settings.winnable_only:
        return False
    return variant != room.variant or not room.settings.winnable_only


def set_settings(
    room: Room,
    seat: int,
    variant: str,
    settings: Settings,
    secret: bytes | None = None,
    *,
    ratings: Mapping[str, tuple[int, bool]] | None = None,
) -> Transition:
    """Host only, lobby only. Clears every ready flag so players agree to the change.

    ``secret`` replaces the deal's secret; settings that need a new one
    (`needs_new_deal`) are refused without it. ``ratings`` maps account id to the
    account's shown rating for `variant` and whether it is provisional, as the caller
    looked them up: every seat takes its account's (none for an account left out).
    """
    require_host(room, seat)
    require_phase(room, "lobby")
    ghosts.require_ordinary(room)
    if any(player.seat >= settings.max_players for player in room.players):
        raise RoomError(ErrorCode.ROOM_BAD_SETTINGS, "a seated player has a seat beyond max")
    require_rule_option(variant, settings)
    if secret is None and needs_new_deal(room, variant, settings):
        raise RoomError(ErrorCode.SERVER_BUSY, "the room changed meanwhile; try again")
    players = tuple(_rated(replace(player, ready=False), ratings) for player in room.players)
    room = replace(room, variant=variant, settings=settings, players=players)
    if secret is not None:
        room = replace(room, secret=secret)
    shown = tuple(
        SeatRating(seat=p.seat, rating=p.rating, provisional=p.provisional)
        for p in players
        if p.rating is not None
    )
    changed = events.SettingsChanged(variant=variant, settings=settings, ratings=shown)
    return Transition(room, (changed,))


def _rated(player: Player, ratings: Mapping[str, tuple[int, bool]] | None) -> Player:
    """The player with their account's rating from `ratings` (None: as they were)."""
    if ratings is None:
        return player
    rating, provisional = ratings.get(player.account, (None, False))
    return replace(player, rating=rating, provisional=provisional)


def set_ready(room: Room, seat: int, ready: bool, now_ms: int) -> Transition:
    """Lobby only. When every seated player is ready the countdown starts."""
    require_phase(room, "lobby")
    player = room.player(seat)
    if player.ready == ready:
        return Transition(room)
    room, countdown = _countdown_if_ready(put_player(room, replace(player, ready=ready)), now_ms)
    return Transition(room, (events.ReadyChanged(seat=seat, ready=ready), *countdown))


def snapshot(
    room: Room, stats: Mapping[int, PlayerStats], warnings: Mapping[int, int] | None = None
) -> RoomSnapshot:
    """The room as clients see it; ``stats`` maps seat to game record (missing: none yet)
    and ``warnings`` seat to the timeout of an idle warning that stands."""
    started = room.phase != "lobby"
    warned = warnings or {}
    return RoomSnapshot(
        code=room.code,
        variant=room.variant,
        settings=room.settings,
        phase=room.phase,
        race_no=room.race_no,
        host=room.host,
        players=tuple(
            player_info(p, stats.get(p.seat, PlayerStats()), warned.get(p.seat))
            for p in room.players
        ),
        spectators=room.spectators,
        start_at_ms=room.start_at_ms,
        seed_commit=room.seed_commit if started else None,
        seed=room.seed.hex() if room.phase == "finished" else None,
        verdict=_race_verdict(room),
        last_race=room.last_race,
        rating_changes=_rating_changes(room),
        ghosts=ghosts.shown(room),
    )


def _rating_changes(room: Room) -> tuple[RatingChange, ...] | None:
    """The finished race's rating changes, once they are recorded; none if it was not rated."""
    plan = room.plan
    if room.phase != "finished" or room.records_due or plan is None or not plan.rated:
        return None
    return changes(plan) if plan.race_no == room.race_no else None


def _race_verdict(room: Room) -> DealVerdict | None:
    """The verdict on the race the room is at, once it is over; none for an earlier race."""
    if room.phase != "finished" or room.verdict is None:
        return None
    return room.verdict if room.verdict.race_no == room.race_no else None


def _hand_over(room: Room) -> tuple[Room, tuple[RoomEvent, ...]]:
    """Keep the host if present; else the lowest present seat (or nobody) takes over.
    A house bot is never host: it would never start a race or call a rematch."""
    present = [player.seat for player in room.players if not player.away and not player.house]
    if room.host in present:
        return room, ()
    host = present[0] if present else None
    if host == room.host:
        return room, ()
    return replace(room, host=host), (events.HostChanged(seat=host),)


def _countdown_if_ready(room: Room, now_ms: int) -> tuple[Room, tuple[RoomEvent, ...]]:
    """Every seat ready starts the countdown, but house bots alone never race."""
    if room.phase != "lobby" or all(p.house for p in room.players):
        return room, ()
    if not all(p.ready for p in room.players):
        return room, ()
    starts_in_ms = room.settings.countdown_s * 1000
    room = replace(room, phase="countdown", start_at_ms=now_ms + starts_in_ms)
    countdown = events.Countdown(
        race_no=room.race_no,
        starts_in_ms=starts_in_ms,
        start_at_ms=now_ms + starts_in_ms,
        seed_commit=room.seed_commit,
    )
    return room, (countdown,)
