"""A finished race's records as room transitions: plan once, then close.

`server.lifecycle.race.finish_race` marks a race whose seats hold an account as
having records due (`Room.records_due`), which keeps the room's deadline due
(`server.lifecycle.race.deadline`) until `close_records` clears it, so whichever
process is alive finishes the job (`server.race_flow.records`). `save_plan` keeps
the first plan saved: every later run, in any process, records the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from protocol import events
from server.lifecycle import race as races
from server.lifecycle.ranking import PlayerStats
from server.lifecycle.rating import RacePlan, Skill, changes, has_account, plan_race, shown
from server.lifecycle.room import Room, Transition, put_player

__all__ = ["accounts", "close_records", "current_plan", "plan_for", "save_plan"]


def accounts(room: Room) -> list[str]:
    """The ids of the accounts whose races are recorded, in seat order."""
    return [player.account for player in room.players if has_account(player)]


def current_plan(room: Room) -> RacePlan | None:
    """The saved plan of the race the room is at (None: not planned yet, or no records due)."""
    plan = room.plan
    if room.phase != "finished" or not room.records_due or plan is None:
        return None
    return plan if plan.race_no == room.race_no else None


def plan_for(
    room: Room,
    stats: Mapping[int, PlayerStats],
    priors: Mapping[str, Skill],
    provisional_races: int,
) -> RacePlan | None:
    """The finished race's plan from its results; None when it has no records due."""
    over = races.results(room, stats)
    if over is None or not room.records_due:
        return None
    return plan_race(
        code=room.code,
        variant=room.variant,
        settings=room.settings,
        race_no=room.race_no,
        start_at_ms=over.start_at_ms,
        ranking=over.ranking,
        players=room.players,
        priors=priors,
        provisional_races=provisional_races,
    )


def save_plan(room: Room, plan: RacePlan) -> Transition:
    """Keep `plan` for the room's race, unless a plan is kept already (the first wins)
    or the race's records are no longer due."""
    if room.phase != "finished" or not room.records_due or room.race_no != plan.race_no:
        return Transition(room)
    if current_plan(room) is not None:
        return Transition(room)
    return Transition(replace(room, plan=plan))


def close_records(room: Room, race_no: int) -> Transition:
    """The race's records are written: nothing is due any more; in a rated race the
    seats show their new ratings and ``race_rated`` tells everyone the changes."""
    plan = current_plan(room)
    if plan is None or race_no != room.race_no:
        return Transition(room)
    room = replace(room, records_due=False)
    if not plan.rated:
        return Transition(room)
    for seat in plan.seats:
        if seat.after is not None:
            player = room.player(seat.seat)
            rating, provisional = shown(seat.after), seat.provisional
            room = put_player(room, replace(player, rating=rating, provisional=provisional))
    rated = events.RaceRated(race_no=race_no, changes=changes(plan))
    return Transition(room, (rated,))
