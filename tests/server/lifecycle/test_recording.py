"""A finished race's records as room transitions: due, planned once, closed once."""

from __future__ import annotations

from dataclasses import replace

import pytest

import protocol as p
from protocol import ErrorCode
from server.lifecycle import race, recording
from server.lifecycle import room as r
from server.lifecycle.ranking import PlayerStats
from server.lifecycle.rating import DEFAULT_SKILL, RacePlan, Skill, shown

SECRET = bytes(range(32))
T0 = 1_000_000
START = T0 + 1_000
STATS = {0: PlayerStats(progress=20, progress_at_ms=START + 10), 1: PlayerStats(progress=5)}


def _finished(accounts: tuple[str, str] = ("ann", "bob"), *, rated: bool = True) -> r.Room:
    """Ann and Bob raced (Ann ahead), seated with `accounts` ('' for a guest)."""
    settings = p.Settings(countdown_s=1, rated=rated)
    room = r.create("ABC234", "little-forty", settings, "Ann", SECRET, process="p", token="t0").room
    _, (room, _) = r.join(room, "Bob", "p", "t1")
    for player, account in zip(room.players, accounts, strict=True):
        room = r.put_player(room, replace(player, account=account))
    for player in room.players:
        room = r.set_ready(room, player.seat, True, T0).room
    room = race.start(room, START).room
    room = race.player_finished(room, 0, "resigned", START + 50).room
    room = race.player_finished(room, 1, "resigned", START + 60).room
    return race.finish_race(room, STATS, START + 60).room


def _plan(room: r.Room, priors: dict[str, Skill] | None = None) -> RacePlan:
    plan = recording.plan_for(room, STATS, priors or {}, provisional_races=5)
    assert plan is not None
    return plan


def test_a_race_with_an_account_has_records_due_and_its_deadline_stays_due() -> None:
    room = _finished(("ann", ""))
    assert room.records_due and room.plan is None
    assert race.deadline(room) == race.next_deadline(room, {}) == START + 60


def test_a_race_of_guests_and_bots_has_no_records() -> None:
    room = _finished(("", ""))
    assert not room.records_due and race.deadline(room) is None
    assert recording.plan_for(room, STATS, {}, provisional_races=5) is None
    botted = r.put_player(_finished(("", "")), replace(room.player(1), account="bob", bot=True))
    assert recording.accounts(botted) == []


def test_the_first_plan_saved_wins() -> None:
    room = _finished()
    first = _plan(room)
    other = _plan(room, {"ann": Skill(40.0, 2.0, 30)})
    assert first != other
    saved = recording.save_plan(room, first).room
    assert recording.current_plan(saved) == first
    assert recording.save_plan(saved, other) == r.Transition(saved)
    assert r.from_bytes(r.to_bytes(saved)) == saved


def test_closing_shows_the_new_ratings_and_tells_everyone_once() -> None:
    room = _finished()
    plan = _plan(room)
    planned = recording.save_plan(room, plan).room
    assert r.snapshot(planned, STATS).rating_changes is None
    closed, sent = recording.close_records(planned, room.race_no)
    assert not closed.records_due and race.deadline(closed) is None
    ann_after = plan.seats[0].after
    assert ann_after is not None
    assert closed.player(0).rating == shown(ann_after) > shown(DEFAULT_SKILL)
    assert closed.player(0).provisional and closed.player(1).provisional
    (rated,) = sent
    assert isinstance(rated, p.RaceRated) and rated.race_no == room.race_no
    assert [(c.seat, c.name, c.before) for c in rated.changes] == [
        (0, "Ann", 1500),
        (1, "Bob", 1500),
    ]
    assert r.snapshot(closed, STATS).rating_changes == rated.changes
    assert recording.close_records(closed, room.race_no) == r.Transition(closed)


def test_an_unrated_race_closes_without_news() -> None:
    room = _finished(rated=False)
    planned = recording.save_plan(room, _plan(room)).room
    closed, sent = recording.close_records(planned, room.race_no)
    assert sent == () and not closed.records_due
    assert closed.player(0).rating is None
    assert r.snapshot(closed, STATS).rating_changes is None


def test_closing_without_a_plan_or_for_another_race_changes_nothing() -> None:
    room = _finished()
    assert recording.close_records(room, room.race_no) == r.Transition(room)
    planned = recording.save_plan(room, _plan(room)).room
    assert recording.close_records(planned, room.race_no - 1) == r.Transition(planned)


def test_the_rematch_waits_for_the_records_and_forgets_the_plan() -> None:
    room = _finished()
    with pytest.raises(r.RoomError) as refused:
        race.rematch(room, 0, SECRET, STATS)
    assert refused.value.code is ErrorCode.SERVER_BUSY
    planned = recording.save_plan(room, _plan(room)).room
    closed = recording.close_records(planned, room.race_no).room
    lobby = race.rematch(closed, 0, SECRET, STATS).room
    assert lobby.plan is None and not lobby.records_due
    assert lobby.player(0).rating == closed.player(0).rating
    assert recording.save_plan(lobby, _plan(room)) == r.Transition(lobby)
