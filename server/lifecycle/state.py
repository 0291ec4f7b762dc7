"""The room as stored: its seats, spectators, phase and race, and the errors it raises.

`server.lifecycle.room` (the lobby) and `server.lifecycle.race` (the race) are the
transitions over it; this module holds the data they share and its storage form
(`to_bytes` / `from_bytes`), plus the checks both halves make.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import NamedTuple

import msgpack
from pydantic import TypeAdapter

from protocol import BotLevel, ErrorCode, Phase, PlayerOutcome, RoomEvent
from protocol.models import DealVerdict, HostEnd, RaceSummary, Settings
from server.lifecycle.rating import RacePlan

__all__ = [
    "Ghost",
    "Player",
    "Room",
    "RoomError",
    "Transition",
    "Watcher",
    "from_bytes",
    "put_player",
    "require_host",
    "require_phase",
    "to_bytes",
]


class RoomError(Exception):
    """A request the room refuses; ``code`` is what the client is told."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    name: str
    ready: bool = False
    away: bool = False
    """Left during a race; the seat is kept until the rematch."""
    outcome: PlayerOutcome = "playing"
    finished_at_ms: int | None = None
    idle_timeout_ms: int | None = None
    """The timeout the player's last idle warning announced (see `server.lifecycle.race`)."""
    process: str = ""
    """The server process holding the player's socket ('' while away; `presence`)."""
    token: str = ""
    """The hash of the token that holds the seat: only it can resume the seat."""
    account: str = ""
    """The id of the account seated here ('' for a guest or a bot)."""
    bot: bool = False
    """Played by a program: never rated."""
    level: BotLevel | None = None
    """A bot's level, when it said one."""
    house: bool = False
    """A house bot: seated by the host, played by the server's bot process
    (`server.house`); it keeps its seat when its socket closes."""
    rating: int | None = None
    """The account's shown rating for the room's game, as the lobby last learnt it."""
    provisional: bool = False

    @property
    def seated_again(self) -> Player:
        """The same person in the same seat, for the next race: nothing of this race."""
        return Player(
            self.seat,
            self.name,
            process=self.process,
            token=self.token,
            account=self.account,
            bot=self.bot,
            level=self.level,
            house=self.house,
            rating=self.rating,
            provisional=self.provisional,
        )


@dataclass(frozen=True, slots=True)
class Ghost:
    """A recorded run of a challenge the server replays in the room
    (`server.lifecycle.ghosts`): progress only, at the race times recorded."""

    name: str
    guest: bool
    steps: tuple[tuple[int, int, int], ...]
    """Each step: race time (ms), cards home, moves made; the last is its finish."""
    outcome: str
    """How the run ended (shown with its last step)."""
    shown: int = 0
    """Steps already shown in this race."""


@dataclass(frozen=True, slots=True)
class Watcher:
    """A counted spectator: their token's hash and the server process holding their socket."""

    token: str
    process: str


@dataclass(frozen=True, slots=True)
class Room:
    code: str
    variant: str
    settings: Settings
    secret: bytes
    """Random bytes from the caller (in a winnable-only room, a seed from the pool of
    winnable deals, see `server.requests.deals`); the seed unless a public deal number is set."""
    host: int | None = None
    players: tuple[Player, ...] = ()
    """Sorted by seat; seat numbers may have gaps."""
    watchers: tuple[Watcher, ...] = ()
    """The spectators counted in the room (`server.lifecycle.presence`)."""
    phase: Phase = "lobby"
    race_no: int = 1
    start_at_ms: int | None = None
    ended_at_ms: int | None = None
    """When the last race ended (set once it is ``finished``)."""
    verdict: DealVerdict | None = None
    """The solver's verdict on a race's deal, once known (`server.race_flow.verdict`)."""
    ended_by_host: HostEnd | None = None
    """Set when the host ended the race early (`race.end_race`), until the rematch."""
    last_race: RaceSummary | None = None
    """The previous race in brief, kept at the rematch (`server.lifecycle.race.rematch`)."""
    records_due: bool = False
    """The finished race has accounts whose records are not all written yet
    (`server.lifecycle.recording`); its deadline stays due until they are."""
    plan: RacePlan | None = None
    """The finished race's records as first planned (`server.lifecycle.rating`)."""
    challenge: str = ""
    """The code of the challenge this room races ('' for an ordinary room); its game,
    deal and settings are the challenge's and stay so."""
    ghosts: tuple[Ghost, ...] = ()
    """The challenge's runs this room races against."""
    watched_by: tuple[str, ...] = ()
    """The accounts that have watched the room as spectators, ever (they may have seen
    its deals: `server.requests.challenges` keeps them out of its challenges' standings)."""
    runs_due: bool = False
    """The finished race's runs are not all added to its challenge yet
    (`server.race_flow.challenge_runs`); its deadline stays due until they are."""

    @property
    def spectators(self) -> int:
        return len(self.watchers)

    @property
    def seed(self) -> bytes:
        if self.settings.deal_number is not None:
            return b"deal:%d" % self.settings.deal_number
        return self.secret

    @property
    def seed_commit(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()

    def player(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise RoomError(ErrorCode.ROOM_NOT_MEMBER, f"no player in seat {seat}")


_RECORD = TypeAdapter(Room)


class Transition(NamedTuple):
    room: Room
    events: tuple[RoomEvent, ...] = ()


def to_bytes(room: Room) -> bytes:
    """Storage form (msgpack); `from_bytes` gives back an equal room."""
    data: bytes = msgpack.packb(_RECORD.dump_python(room))
    return data


def from_bytes(data: bytes) -> Room:
    """The room stored by `to_bytes`; `ValueError` for anything else."""
    try:
        return _RECORD.validate_python(msgpack.unpackb(data, use_list=False))
    except (ValueError, msgpack.UnpackException) as exc:
        raise ValueError(f"not a room record: {exc}") from exc


def require_phase(room: Room, phase: Phase) -> None:
    """`RoomError` unless the room is in `phase`."""
    if room.phase != phase:
        raise RoomError(ErrorCode.ROOM_WRONG_PHASE, f"not allowed in {room.phase}, only {phase}")


def require_host(room: Room, seat: int) -> None:
    """`RoomError` unless `seat` holds the host role."""
    if seat != room.host:
        raise RoomError(ErrorCode.ROOM_NOT_HOST, "only the host may do this")


def put_player(room: Room, player: Player) -> Room:
    """The room with `player` in place of the player in the same seat."""
    players = tuple(player if p.seat == player.seat else p for p in room.players)
    return replace(room, players=players)
