"""A finished race's plan: history entries for every account, ratings only when rated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from protocol import Settings
from server.lifecycle.ranking import PlayerStats, race_results
from server.lifecycle.rating import (
    DEFAULT_SKILL,
    RacePlan,
    Skill,
    changes,
    plan_race,
    race_key,
    shown,
)
from server.lifecycle.room import Player

START = 1_000_000
RATED = Settings(rated=True)


def _player(
    seat: int, account: str = "", *, bot: bool = False, won_at: int | None = None
) -> Player:
    name = account.capitalize() or f"Guest{seat}"
    if won_at is not None:
        return Player(seat, name, outcome="won", finished_at_ms=won_at, account=account, bot=bot)
    return Player(
        seat, name, outcome="stuck", finished_at_ms=START + 90_000, account=account, bot=bot
    )


def _plan(
    players: Sequence[Player],
    stats: Mapping[int, PlayerStats],
    *,
    settings: Settings = RATED,
    priors: Mapping[str, Skill] | None = None,
    provisional_races: int = 5,
) -> RacePlan:
    return plan_race(
        code="ABC234",
        variant="little-forty",
        settings=settings,
        race_no=3,
        start_at_ms=START,
        ranking=race_results(players, stats, START),
        players=players,
        priors=priors or {},
        provisional_races=provisional_races,
    )


def _stuck(progress: int, at_ms: int = START + 50_000) -> PlayerStats:
    return PlayerStats(progress=progress, progress_at_ms=at_ms, moves=progress * 2)


def _afters(plan: RacePlan) -> dict[str, Skill]:
    return {seat.account: seat.after for seat in plan.seats if seat.after is not None}


def test_winners_gain_and_losers_lose_from_equal_priors() -> None:
    players = [_player(0, "ann"), _player(1, "bob", won_at=START + 60_000), _player(2, "cyd")]
    plan = _plan(players, {0: _stuck(30), 1: _stuck(52), 2: _stuck(10)})
    assert plan.rated and plan.race_key == race_key("ABC234", 3, START) == "ABC234:3:1000000"
    assert [seat.account for seat in plan.seats] == ["bob", "ann", "cyd"]
    after = _afters(plan)
    assert after["bob"].mu > after["ann"].mu > DEFAULT_SKILL.mu > after["cyd"].mu
    assert all(skill.races == 1 for skill in after.values())
    bob, ann, cy = plan.seats
    assert bob.entry.place == 1 and ann.entry.place == 2 and cy.entry.place == 3
    assert {seat.entry.racers for seat in plan.seats} == {3}
    assert bob.entry.rating_before == shown(DEFAULT_SKILL) == 1500
    assert bob.entry.rating_after is not None and bob.entry.rating_after > 1500
    assert cy.entry.rating_after is not None and cy.entry.rating_after < 1500
    assert bob.entry.outcome == "won" and bob.entry.elapsed_ms == 60_000
    assert ann.entry.progress == 30 and ann.entry.moves == 60 and ann.entry.at_ms == START


def test_an_exact_tie_gives_equal_priors_equal_changes_and_one_place() -> None:
    players = [_player(0, "ann", won_at=START + 1), _player(1, "bob"), _player(2, "cyd")]
    tied = _plan(players, {1: _stuck(20), 2: _stuck(20)})
    after = _afters(tied)
    assert after["bob"] == after["cyd"]
    assert after["ann"].mu > after["bob"].mu
    assert [seat.entry.place for seat in tied.seats] == [1, 2, 2]
    change = {c.name: c.after - c.before for c in changes(tied)}
    assert change["Bob"] == change["Cyd"] < 0 < change["Ann"]
    apart = _afters(_plan(players, {1: _stuck(20), 2: _stuck(20, START + 50_001)}))
    assert apart["bob"].mu > apart["cyd"].mu


def test_a_tie_draws_unequal_priors_together() -> None:
    """A tie is a draw: the stronger account loses a little to the weaker one."""
    players = [_player(0, "ann"), _player(1, "bob")]
    priors = {"ann": Skill(30.0, 5.0, 8)}
    after = _afters(_plan(players, {0: _stuck(20), 1: _stuck(20)}, priors=priors))
    assert after["ann"].mu < 30.0
    assert after["bob"].mu > DEFAULT_SKILL.mu
    assert after["ann"].races == 9 and after["bob"].races == 1


@pytest.mark.parametrize("other", [_player(1, "bot", bot=True), _player(1)], ids=["bot", "guest"])
def test_a_bot_or_a_guest_changes_nobody_s_rating(other: Player) -> None:
    ann, cy = _player(0, "ann"), _player(2, "cyd")
    stats = {0: _stuck(30), 1: _stuck(40), 2: _stuck(10)}
    plan = _plan([ann, other, cy], stats)
    without = _plan([ann, cy], stats)
    assert _afters(plan) == _afters(without)
    assert [seat.account for seat in plan.seats] == ["ann", "cyd"]
    assert [(seat.entry.place, seat.entry.racers) for seat in plan.seats] == [(2, 3), (3, 3)]


def test_a_bot_is_never_an_account_even_with_an_account_id() -> None:
    players = [_player(0, "ann"), _player(1, "bob", bot=True)]
    plan = _plan(players, {0: _stuck(30), 1: _stuck(40)})
    assert not plan.rated
    assert [seat.account for seat in plan.seats] == ["ann"]


def test_an_unrated_room_gives_history_but_no_ratings() -> None:
    settings = Settings(deal_number=7, practice=True)
    players = [_player(0, "ann", won_at=START + 5_000), _player(1, "bob")]
    plan = _plan(players, {1: _stuck(3)}, settings=settings)
    assert not plan.rated and changes(plan) == ()
    for seat in plan.seats:
        assert seat.before is None and seat.after is None
        assert seat.entry.rating_before is None and seat.entry.rating_after is None
        assert not seat.entry.rated and seat.entry.practice and seat.entry.deal_number == 7


def test_one_account_alone_in_a_rated_room_is_not_rated() -> None:
    plan = _plan([_player(0, "ann"), _player(1)], {0: _stuck(30), 1: _stuck(40)})
    assert not plan.rated
    (ann,) = plan.seats
    assert ann.after is None and not ann.entry.rated and ann.entry.place == 2


def test_a_rating_is_provisional_until_enough_rated_races() -> None:
    players = [_player(0, "ann"), _player(1, "bob")]
    priors = {"ann": Skill(25.0, 6.0, 4), "bob": Skill(25.0, 6.0, 3)}
    plan = _plan(players, {0: _stuck(30), 1: _stuck(10)}, priors=priors, provisional_races=5)
    provisional = {seat.account: seat.provisional for seat in plan.seats}
    assert provisional == {"ann": False, "bob": True}


def test_the_shown_rating_maps_the_ordinal() -> None:
    assert shown(Skill(25.0, 25.0 / 3.0)) == 1500
    assert shown(Skill(30.0, 4.0)) == round(1500 + 20 * (30.0 - 12.0)) == 1860
