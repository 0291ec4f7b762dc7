"""How each player stands: their line in a room snapshot and in the final ranking.

Ranking: winners first, by finish time. Everyone else follows by cards on the
foundations (more is better), then by the server time that count was first
reached (earlier is better). The seat number breaks exact ties, so the order is
total and every process computes the same one. Each line of the final ranking
names the comparison that put it below the line above (``decided_by``), so a
client can say why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Protocol, TypeVar

from protocol import (
    BotLevel,
    LogEntry,
    PlayerInfo,
    PlayerOutcome,
    PlayerResult,
    RaceOver,
    RaceSummary,
    RankReason,
    SummaryLine,
)


class Seated(Protocol):
    """What ranking reads of a seated player (`server.lifecycle.room.Player`)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def ready(self) -> bool: ...
    @property
    def away(self) -> bool: ...
    @property
    def outcome(self) -> PlayerOutcome: ...
    @property
    def finished_at_ms(self) -> int | None: ...
    @property
    def account(self) -> str: ...
    @property
    def bot(self) -> bool: ...
    @property
    def level(self) -> BotLevel | None: ...
    @property
    def house(self) -> bool: ...
    @property
    def rating(self) -> int | None: ...
    @property
    def provisional(self) -> bool: ...


PlayerT = TypeVar("PlayerT", bound=Seated)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What a player's game record says (it is stored apart from the room)."""

    progress: int = 0
    """Cards on the foundations."""
    progress_at_ms: int = 0
    """Server time the current ``progress`` count was first reached."""
    moves: int = 0
    log: tuple[LogEntry, ...] = ()


SortKey = tuple[tuple[RankReason, int], ...]
"""What is compared, in order, each value named by the reason it stands for; the
names agree wherever two keys are compared, since winners and others part at the
first pair."""


def _order(entry: tuple[Seated, PlayerStats]) -> SortKey:
    player, stats = entry
    if player.outcome == "won":
        return (("outcome", 0), ("finish_time", player.finished_at_ms or 0), ("seat", player.seat))
    return (
        ("outcome", 1),
        ("progress", -stats.progress),
        ("progress_time", stats.progress_at_ms),
        ("seat", player.seat),
    )


def _decided_by(above: SortKey, below: SortKey) -> RankReason:
    """The first comparison that tells the two apart (seats always do)."""
    return next(mine[0] for theirs, mine in zip(above, below, strict=False) if theirs != mine)


def rank(
    players: Iterable[PlayerT], stats: Mapping[int, PlayerStats]
) -> list[tuple[PlayerT, PlayerStats]]:
    """Best first; a player without stats has none yet."""
    return sorted(((p, stats.get(p.seat, PlayerStats())) for p in players), key=_order)


def race_results(
    players: Iterable[Seated], stats: Mapping[int, PlayerStats], start_at_ms: int
) -> tuple[PlayerResult, ...]:
    """The final ranking as it goes on the wire, with every move log and what
    decided each place."""
    ranked = rank(players, stats)
    keys = [_order(entry) for entry in ranked]
    reasons: list[RankReason | None] = [None]
    reasons += [_decided_by(above, below) for above, below in pairwise(keys)]
    return tuple(
        _result(place, player, player_stats, start_at_ms, reasons[place - 1])
        for place, (player, player_stats) in enumerate(ranked, start=1)
    )


def summary(over: RaceOver, variant: str) -> RaceSummary:
    """The race's results in brief, for the lobby of the next race: each line's place,
    name, outcome, cards home and race time, without the move logs."""
    lines = tuple(
        SummaryLine(
            rank=result.rank,
            seat=result.seat,
            name=result.name,
            outcome=result.outcome,
            progress=result.progress,
            elapsed_ms=result.elapsed_ms,
        )
        for result in over.ranking
    )
    return RaceSummary(
        race_no=over.race_no, variant=variant, ranking=lines, ended_by_host=over.ended_by_host
    )


def player_info(player: Seated, stats: PlayerStats, idle_timeout_at_ms: int | None) -> PlayerInfo:
    """One seat's line in a room snapshot, with its standing idle warning if any."""
    return PlayerInfo(
        seat=player.seat,
        name=player.name,
        ready=player.ready,
        away=player.away,
        outcome=player.outcome,
        progress=stats.progress,
        moves=stats.moves,
        finished_at_ms=player.finished_at_ms,
        idle_timeout_at_ms=idle_timeout_at_ms,
        account=bool(player.account),
        bot=player.bot,
        level=player.level,
        house=player.house,
        rating=player.rating,
        provisional=player.provisional,
    )


def _result(
    place: int,
    player: Seated,
    stats: PlayerStats,
    start_at_ms: int,
    decided_by: RankReason | None,
) -> PlayerResult:
    if player.outcome == "playing" or player.finished_at_ms is None:
        raise ValueError(f"seat {player.seat} is still racing")
    return PlayerResult(
        rank=place,
        seat=player.seat,
        name=player.name,
        outcome=player.outcome,
        progress=stats.progress,
        progress_at_ms=stats.progress_at_ms,
        moves=stats.moves,
        finished_at_ms=player.finished_at_ms,
        elapsed_ms=player.finished_at_ms - start_at_ms,
        log=stats.log,
        decided_by=decided_by,
    )
