"""A finished race's records: each account's history entry and, when rated, its new rating.

Theory of operation. A race is rated when its room is rated and at least two
accounts raced in it; bots and guests are left out of the rating entirely, so an
account's change depends only on the accounts' order among themselves. The order
is the final ranking's (`server.lifecycle.ranking`); lines that only the seat
number told apart from the line above (``decided_by == "seat"``, an exact tie)
share a rank, with OpenSkill's Plackett-Luce model giving equal priors equal
changes. The outcome is a `RacePlan`, computed once from the accounts' priors and
stored in the room, so every later run records the same numbers however many
processes run it (`server.race_flow.records`).

The shown rating is the ordinal mu - 3 sigma mapped onto a familiar scale:
``round(1500 + 20 * (mu - 3 sigma))``, 1500 for a new account.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from protocol import HistoryEntry, PlayerResult, RatingChange, Settings
from server.lifecycle.ranking import Seated

__all__ = [
    "DEFAULT_SKILL",
    "RacePlan",
    "SeatPlan",
    "Skill",
    "changes",
    "has_account",
    "is_provisional",
    "plan_race",
    "race_key",
    "shown",
]

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    """An account's rating in one game: OpenSkill's mu and sigma, and its rated races."""

    mu: float
    sigma: float
    races: int = 0

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: what the leaderboard sorts by and the shown rating maps."""
        return self.mu - 3 * self.sigma


DEFAULT_SKILL = Skill(_MODEL.mu, _MODEL.sigma, 0)
"""An account's rating before its first rated race of a game."""


def shown(skill: Skill) -> int:
    """The integer players see."""
    return round(1500 + 20 * skill.ordinal)


def is_provisional(skill: Skill, provisional_races: int) -> bool:
    return skill.races < provisional_races


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """What one account seat records: its history entry and, in a rated race, its rating."""

    seat: int
    account: str
    name: str
    entry: HistoryEntry
    before: Skill | None = None
    after: Skill | None = None
    provisional: bool = False
    """Still provisional after this race (rated races only)."""


@dataclass(frozen=True, slots=True)
class RacePlan:
    """Everything a finished race records, for every account seat in ranking order."""

    race_no: int
    race_key: str
    """Names the race in the accounts' done markers (`race_key`)."""
    rated: bool
    seats: tuple[SeatPlan, ...]


def race_key(code: str, race_no: int, start_at_ms: int) -> str:
    """The race's name among every race ever run: a room code is reused once it expires."""
    return f"{code}:{race_no}:{start_at_ms}"


def plan_race(
    *,
    code: str,
    variant: str,
    settings: Settings,
    race_no: int,
    start_at_ms: int,
    ranking: Sequence[PlayerResult],
    players: Sequence[Seated],
    priors: Mapping[str, Skill],
    provisional_races: int,
) -> RacePlan:
    """The race's records from its final ranking (``race_over``) and each account's
    prior for the game (missing: `DEFAULT_SKILL`). `players` are the room's seats."""
    by_seat = {player.seat: player for player in players}
    places = _places(ranking)
    accounts = [line for line in ranking if _account_of(by_seat[line.seat])]
    rated = settings.rated and len(accounts) >= 2
    after: dict[int, Skill] = {}
    if rated:
        skills = [priors.get(_account_of(by_seat[line.seat]), DEFAULT_SKILL) for line in accounts]
        groups = [places[line.seat] for line in accounts]
        after = dict(zip((line.seat for line in accounts), _rate(skills, groups), strict=True))
    seats = []
    for line in accounts:
        player = by_seat[line.seat]
        account = _account_of(player)
        before = priors.get(account, DEFAULT_SKILL) if rated else None
        new = after.get(line.seat)
        entry = HistoryEntry(
            at_ms=start_at_ms,
            variant=variant,
            code=code,
            race_no=race_no,
            deal_number=settings.deal_number,
            rated=rated,
            practice=settings.practice,
            place=places[line.seat],
            racers=len(ranking),
            outcome=line.outcome,
            progress=line.progress,
            elapsed_ms=line.elapsed_ms,
            moves=line.moves,
            rating_before=None if before is None else shown(before),
            rating_after=None if new is None else shown(new),
        )
        provisional = new is not None and is_provisional(new, provisional_races)
        seats.append(SeatPlan(line.seat, account, player.name, entry, before, new, provisional))
    return RacePlan(race_no, race_key(code, race_no, start_at_ms), rated, tuple(seats))


def changes(plan: RacePlan) -> tuple[RatingChange, ...]:
    """Each rated account's change, as ``race_rated`` and snapshots give it."""
    return tuple(
        RatingChange(
            seat=seat.seat,
            name=seat.name,
            before=shown(seat.before),
            after=shown(seat.after),
            provisional=seat.provisional,
        )
        for seat in plan.seats
        if seat.before is not None and seat.after is not None
    )


def has_account(player: Seated) -> bool:
    """Whether the seat's race is recorded in an account (never a guest's or a bot's)."""
    return bool(_account_of(player))


def _account_of(player: Seated) -> str:
    """The account that counts for records: none for a guest or a bot."""
    return "" if player.bot else player.account


def _places(ranking: Sequence[PlayerResult]) -> dict[int, int]:
    """Each seat's place, an exact tie (told apart by seat alone) sharing the better one."""
    places: dict[int, int] = {}
    place = 0
    for line in ranking:
        if line.decided_by != "seat" or not place:
            place = line.rank
        places[line.seat] = place
    return places


def _rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The skills after a race in which each finished at its place (equal: a tie)."""
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        Skill(team[0].mu, team[0].sigma, skill.races + 1)
        for team, skill in zip(rated, skills, strict=True)
    ]
