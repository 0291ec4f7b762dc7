"""Settling a room's race in the store: start it, record finishes, close it.

Shared by the move path (`server.requests.play`) and the deadline handler
(`server.race_flow.deadlines`). Each step is a pure `server.lifecycle.race` transition applied under
the room's version guard, so any number of processes may run it at once and
exactly one change lands.
"""

from __future__ import annotations

import engine
from server import room_store
from server.lifecycle import race as races
from server.lifecycle.room import Room, Transition
from server.race_flow import challenge_runs, records, verdict
from server.services import Services

__all__ = ["close_race", "reconcile", "record_finish", "start"]


async def start(services: Services, code: str, now: int) -> Room:
    """Start the race; a deal with no useful move at all ends it for everyone at once."""
    saved = await room_store.update(services.store, code, lambda r: races.start(r, now))
    room = saved.room
    if room.phase != "racing" or room.start_at_ms is None:
        return room
    dealt = engine.new_game(room.variant, room.seed, room.settings.rule_option)
    if engine.outcome(dealt) is not engine.Outcome.STUCK:
        return room
    for player in room.players:
        await services.store.finish_player(code, player.seat, "stuck", room.start_at_ms)
        await record_finish(services, code, player.seat, "stuck", room.start_at_ms)
    await close_race(services, code, now)
    return room


async def record_finish(services: Services, code: str, seat: int, outcome: str, at_ms: int) -> None:
    """Record in the room that the player is done (nothing if the room knows already)."""

    def change(room: Room) -> Transition:
        if room.player(seat).outcome != "playing":
            return Transition(room)
        return races.player_finished(room, seat, outcome, at_ms)  # type: ignore[arg-type]

    await room_store.update(services.store, code, change)


async def close_race(services: Services, code: str, now: int) -> None:
    """Rank and close the race if nobody is racing any more; the room then expires.

    The process that closes it starts the solver's verdict on the deal, which
    arrives later as ``deal_analysed`` (`server.race_flow.verdict`), and the
    race's records, in the background too (`server.race_flow.records`).
    """
    saved = await room_store.finish_if_over(services.store, code, now)
    if saved is not None:
        await services.store.expire_room(code, services.config.finished_room_ttl_s)
        verdict.after_race(services, code, saved.room)
        records.after_race(services, code, saved.room)
        challenge_runs.after_race(services, code, saved.room)


async def reconcile(services: Services, code: str, room: Room) -> None:
    """Bring into the room any finish its game records know of but it does not.

    A process can die between committing a winning move and recording the finish
    in the room; the game record is the truth. Timeouts at the time limit are
    left to `race.expire`, which gives them the same instant.
    """
    for player in room.players:
        if player.outcome != "playing":
            continue
        record = await services.store.load_player(code, player.seat)
        if record is None or record.outcome == "playing" or record.finished_at_ms is None:
            continue
        if room.phase == "racing" and record.finished_at_ms >= races.time_limit(room):
            continue
        await record_finish(services, code, player.seat, record.outcome, record.finished_at_ms)
