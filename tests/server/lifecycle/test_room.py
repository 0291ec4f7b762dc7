"""The pure race lifecycle: lobby, countdown, race, end, ranking, rematch."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Literal

import msgpack
import pytest

import engine
import protocol as p
from protocol import ErrorCode
from server.lifecycle import presence, race
from server.lifecycle import room as r
from server.lifecycle.ranking import rank

SECRET = bytes(range(32))
FAST = p.Settings(max_players=8, countdown_s=2, time_limit_s=60)
T0 = 1_000_000


def _codes(transition: r.Transition) -> list[str]:
    return [event.type for event in transition.events]


def _lobby(*names: str, settings: p.Settings = FAST) -> r.Room:
    room = r.create(
        "ABC234", "little-forty", settings, names[0], SECRET, process="p1", token=f"t-{names[0]}"
    ).room
    for name in names[1:]:
        _, (room, _) = r.join(room, name, "p1", f"t-{name}")
    return room


def _all_ready(room: r.Room, now_ms: int = T0) -> r.Room:
    for player in room.players:
        room = r.set_ready(room, player.seat, True, now_ms).room
    return room


def _racing(*names: str) -> r.Room:
    room = _all_ready(_lobby(*names))
    assert room.start_at_ms is not None
    return race.start(room, room.start_at_ms).room


@contextmanager
def _refused(code: ErrorCode) -> Iterator[None]:
    with pytest.raises(r.RoomError) as caught:
        yield
    assert caught.value.code == code
    assert caught.value.message


# Lobby


def test_create_seats_the_creator_as_host() -> None:
    room, events = r.create(
        "ABC234", "little-billie", FAST, "Ann", SECRET, process="p1", token="t-Ann"
    )
    assert room.host == 0 and room.phase == "lobby" and room.race_no == 1
    assert room.players == (r.Player(0, "Ann", process="p1", token="t-Ann"),)
    assert events == (p.PlayerJoined(seat=0, name="Ann"),)


def test_players_take_the_lowest_free_seat() -> None:
    room = _lobby("Ann", "Bob", "Cy")
    room = r.leave(room, 1, T0).room
    seat, (room, events) = r.join(room, "Dee", "p1", "t-Dee")
    assert seat == 1
    assert events == (p.PlayerJoined(seat=1, name="Dee"),)
    assert [player.name for player in room.players] == ["Ann", "Dee", "Cy"]


def test_full_room_refuses_a_player() -> None:
    room = _lobby("Ann", "Bob", settings=p.Settings(max_players=2))
    with _refused(ErrorCode.ROOM_FULL):
        r.join(room, "Cy", "p1", "t-Cy")


def test_a_name_already_seated_is_refused_whatever_its_case() -> None:
    room = _lobby("Ann", "Bob")
    with _refused(ErrorCode.ROOM_NAME_TAKEN):
        r.join(room, "ann", "p1", "t-ann")


def test_players_join_only_in_the_lobby() -> None:
    room = _all_ready(_lobby("Ann"))
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        r.join(room, "Bob", "p1", "t-Bob")


def test_leaving_host_hands_over_to_the_lowest_seat() -> None:
    room = _lobby("Ann", "Bob", "Cy")
    room, events = r.leave(room, 0, T0)
    assert room.host == 1
    assert events == (p.PlayerLeft(seat=0, away=False), p.HostChanged(seat=1))
    room, events = r.leave(room, 2, T0)
    assert room.host == 1 and events == (p.PlayerLeft(seat=2, away=False),)


def test_empty_room_has_no_host_until_someone_joins() -> None:
    room, events = r.leave(_lobby("Ann"), 0, T0)
    assert room.host is None and room.players == ()
    assert events == (p.PlayerLeft(seat=0, away=False), p.HostChanged(seat=None))
    seat, (room, events) = r.join(room, "Bob", "p1", "t-Bob")
    assert seat == 0 and room.host == 0
    assert events == (p.PlayerJoined(seat=0, name="Bob"), p.HostChanged(seat=0))


def test_unknown_seat_is_not_a_member() -> None:
    with _refused(ErrorCode.ROOM_NOT_MEMBER):
        r.leave(_lobby("Ann"), 5, T0)
    with _refused(ErrorCode.ROOM_NOT_MEMBER):
        r.set_ready(_lobby("Ann"), 3, True, T0)


def test_settings_are_for_the_host_in_the_lobby_and_clear_ready() -> None:
    room = r.set_ready(_lobby("Ann", "Bob"), 1, True, T0).room
    new = p.Settings(max_players=3, deal_number=42)
    with _refused(ErrorCode.ROOM_NOT_HOST):
        r.set_settings(room, 1, "little-milligan", new)
    room, events = r.set_settings(room, 0, "little-milligan", new)
    assert (room.variant, room.settings) == ("little-milligan", new)
    assert not any(player.ready for player in room.players)
    assert events == (p.SettingsChanged(variant="little-milligan", settings=new),)
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        r.set_settings(_all_ready(room), 0, "little-forty", new)


def test_settings_cannot_drop_a_taken_seat() -> None:
    room = _lobby("Ann", "Bob", "Cy")
    with _refused(ErrorCode.ROOM_BAD_SETTINGS):
        r.set_settings(room, 0, "little-forty", p.Settings(max_players=2))
    room = r.leave(room, 2, T0).room
    two_seats = p.Settings(max_players=2)
    assert r.set_settings(room, 0, "little-forty", two_seats).room.settings == two_seats


# Countdown and start


def test_countdown_starts_when_every_seated_player_is_ready() -> None:
    room = _lobby("Ann", "Bob")
    room, events = r.set_ready(room, 0, True, T0)
    assert room.phase == "lobby" and events == (p.ReadyChanged(seat=0, ready=True),)
    room, events = r.set_ready(room, 1, True, T0 + 5)
    assert room.phase == "countdown" and room.start_at_ms == T0 + 5 + 2000
    commit = hashlib.sha256(SECRET).hexdigest()
    assert events == (
        p.ReadyChanged(seat=1, ready=True),
        p.Countdown(race_no=1, starts_in_ms=2000, start_at_ms=T0 + 2005, seed_commit=commit),
    )


def test_ready_without_change_publishes_nothing() -> None:
    room = _lobby("Ann", "Bob")
    assert r.set_ready(room, 1, False, T0) == r.Transition(room)
    room = r.set_ready(room, 1, True, T0).room
    room, events = r.set_ready(room, 1, False, T0)
    assert not room.players[1].ready and events == (p.ReadyChanged(seat=1, ready=False),)


def test_last_unready_player_leaving_starts_the_countdown() -> None:
    room = r.set_ready(_lobby("Ann", "Bob"), 0, True, T0).room
    room, events = r.leave(room, 1, T0)
    assert room.phase == "countdown"
    assert _codes(r.Transition(room, events)) == ["player_left", "countdown"]


def test_public_deal_number_fixes_the_seed() -> None:
    room = _lobby("Ann", settings=p.Settings(deal_number=77))
    assert room.seed == b"deal:77"
    countdown = r.set_ready(room, 0, True, T0).events[-1]
    assert isinstance(countdown, p.Countdown)
    assert countdown.seed_commit == hashlib.sha256(b"deal:77").hexdigest()


def test_start_waits_for_the_start_instant() -> None:
    room = _all_ready(_lobby("Ann", "Bob"))
    assert race.deadline(room) == T0 + 2000
    assert race.start(room, T0 + 1999) == r.Transition(room)
    assert race.start(_lobby("Ann"), T0 + 5000) == r.Transition(_lobby("Ann"))
    room, events = race.start(room, T0 + 2000)
    board = p.BoardView.from_engine(engine.view(engine.new_game("little-forty", SECRET)))
    assert room.phase == "racing"
    assert events == (
        p.RaceStarted(race_no=1, start_at_ms=T0 + 2000, ends_at_ms=T0 + 62_000, board=board),
    )
    assert race.deadline(room) == T0 + 62_000


def test_lobby_only_requests_are_refused_once_counting_down() -> None:
    room = _all_ready(_lobby("Ann"))
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        r.set_ready(room, 0, False, T0)


# Racing


def test_moves_are_checked_against_seat_phase_clock_and_outcome() -> None:
    room = _racing("Ann", "Bob")
    start = T0 + 2000
    assert race.check_move(room, 1, start) == room.players[1]
    with _refused(ErrorCode.MOVE_SPECTATOR):
        race.check_move(room, None, start)
    with _refused(ErrorCode.ROOM_NOT_MEMBER):
        race.check_move(room, 5, start)
    with _refused(ErrorCode.MOVE_NOT_RACING):
        race.check_move(room, 0, start + 60_000)
    with _refused(ErrorCode.MOVE_NOT_RACING):
        race.check_move(_lobby("Ann"), 0, start)
    room = race.player_finished(room, 0, "resigned", start + 10).room
    with _refused(ErrorCode.MOVE_FINISHED):
        race.check_move(room, 0, start + 20)


def test_finishing_records_outcome_and_time() -> None:
    room = _racing("Ann", "Bob")
    start = T0 + 2000
    room, events = race.player_finished(room, 1, "won", start + 45_000)
    assert room.players[1] == r.Player(
        1, "Bob", True, False, "won", start + 45_000, process="p1", token="t-Bob"
    )
    assert events == (
        p.PlayerFinished(seat=1, outcome="won", at_ms=start + 45_000, elapsed_ms=45_000),
    )
    assert not race.is_over(room)
    room = race.player_finished(room, 0, "stuck", start + 50_000).room
    assert race.is_over(room)


def test_leaving_a_race_keeps_the_seat_and_hands_over_host() -> None:
    room = _racing("Ann", "Bob")
    room, events = r.leave(room, 0, T0 + 3000)
    assert room.players[0].away and room.host == 1
    assert events == (p.PlayerLeft(seat=0, away=True), p.HostChanged(seat=1))
    assert r.leave(room, 0, T0 + 3001) == r.Transition(room)
    room, events = r.come_back(room, 0, "p2", "t-Ann")
    assert not room.players[0].away and room.players[0].process == "p2" and room.host == 1
    assert events == (p.PlayerBack(seat=0),)
    assert r.come_back(room, 0, "p2", "t-Ann") == r.Transition(room)


def test_a_present_player_resumed_on_another_process_is_held_there_without_news() -> None:
    room = _racing("Ann", "Bob")
    moved, events = r.come_back(room, 1, "p2", "t-Bob")
    assert events == () and moved.players[1] == replace(room.players[1], process="p2")
    assert r.leave(moved, 1, T0).room.players[1].process == ""


def test_only_the_token_holding_a_seat_can_take_it_back() -> None:
    room = _racing("Ann", "Bob")
    with _refused(ErrorCode.AUTH_BAD_TOKEN):
        r.come_back(room, 1, "p1", "t-Ann")
    with _refused(ErrorCode.AUTH_BAD_TOKEN):
        r.come_back(room, 5, "p1", "t-Ann")


def test_a_seat_given_up_and_taken_by_another_refuses_the_old_token() -> None:
    """Bob left the race; the rematch frees his seat and Cy takes it."""
    room = r.leave(_racing("Ann", "Bob"), 1, T0 + 2500).room
    room = race.finish_race(race.expire(room, T0 + 62_000).room, {}, T0 + 62_000).room
    room = race.rematch(room, 0, b"n" * 32, {}).room
    seat, (room, _) = r.join(room, "Cy", "p1", "t-Cy")
    assert seat == 1
    with _refused(ErrorCode.AUTH_BAD_TOKEN):
        r.come_back(room, 1, "p2", "t-Bob")
    assert r.come_back(room, 1, "p2", "t-Cy").room.player(1).process == "p2"


def test_when_everyone_is_away_the_first_to_return_hosts() -> None:
    room = _racing("Ann", "Bob")
    room = r.leave(room, 0, T0).room
    room, events = r.leave(room, 1, T0)
    assert room.host is None and events[-1] == p.HostChanged(seat=None)
    room, events = r.come_back(room, 1, "p1", "t-Bob")
    assert room.host == 1 and events == (p.PlayerBack(seat=1), p.HostChanged(seat=1))


def test_time_limit_times_out_everyone_still_playing() -> None:
    room = _racing("Ann", "Bob", "Cy")
    start, end = T0 + 2000, T0 + 62_000
    room = race.player_finished(room, 1, "won", start + 30_000).room
    assert race.expire(room, end - 1) == r.Transition(room)
    room, events = race.expire(room, end)
    assert [player.outcome for player in room.players] == ["timeout", "won", "timeout"]
    assert events == (
        p.PlayerFinished(seat=0, outcome="timeout", at_ms=end, elapsed_ms=60_000),
        p.PlayerFinished(seat=2, outcome="timeout", at_ms=end, elapsed_ms=60_000),
    )
    assert race.is_over(room)
    assert race.expire(_lobby("Ann"), end) == r.Transition(_lobby("Ann"))


def test_race_cannot_finish_while_someone_plays() -> None:
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        race.finish_race(_racing("Ann"), {}, T0 + 9000)
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        race.finish_race(_lobby("Ann"), {}, T0 + 9000)


# Ranking


Ending = Literal["won", "stuck", "resigned"]


def _ended(outcomes: dict[int, tuple[Ending, int]]) -> r.Room:
    room = _racing(*(f"P{seat}" for seat in outcomes))
    for seat, (outcome, at_ms) in outcomes.items():
        room = race.player_finished(room, seat, outcome, at_ms).room
    return room


def test_winners_rank_first_by_finish_time() -> None:
    start = T0 + 2000
    room = _ended({0: ("won", start + 900), 1: ("stuck", start + 100), 2: ("won", start + 500)})
    stats = {0: r.PlayerStats(104), 1: r.PlayerStats(103, start + 50), 2: r.PlayerStats(104)}
    assert [player.seat for player, _ in rank(room.players, stats)] == [2, 0, 1]


def test_others_rank_by_cards_then_by_when_the_count_was_reached() -> None:
    start = T0 + 2000
    room = _ended(dict.fromkeys(range(5), ("resigned", start + 5000)))
    stats = {
        0: r.PlayerStats(progress=10, progress_at_ms=start + 400),
        1: r.PlayerStats(progress=12, progress_at_ms=start + 900),
        2: r.PlayerStats(progress=10, progress_at_ms=start + 300),
        3: r.PlayerStats(progress=10, progress_at_ms=start + 300),
    }
    order = [player.seat for player, _ in rank(room.players, stats)]
    assert order == [1, 2, 3, 0, 4]  # seat 4 has no cards; 2 and 3 tie, lower seat first


def test_race_over_ranks_reveals_the_seed_and_carries_the_logs() -> None:
    start = T0 + 2000
    room = _ended({0: ("stuck", start + 7000), 1: ("won", start + 9000)})
    log = (p.LogEntry(move="draw", at_ms=start + 10, move_id="a"),)
    stats = {0: r.PlayerStats(20, start + 6000, 1, log), 1: r.PlayerStats(104, start + 9000, 90)}
    room, events = race.finish_race(room, stats, start + 9000)
    assert room.phase == "finished" and race.deadline(room) is None
    (over,) = events
    assert isinstance(over, p.RaceOver)
    assert (over.seed, over.seed_commit) == (SECRET.hex(), hashlib.sha256(SECRET).hexdigest())
    assert (over.start_at_ms, over.ended_at_ms, over.race_no) == (start, start + 9000, 1)
    assert over.ranking == (
        p.PlayerResult(
            rank=1, seat=1, name="P1", outcome="won", progress=104,
            progress_at_ms=start + 9000, moves=90, finished_at_ms=start + 9000,
            elapsed_ms=9000, log=(),
        ),
        p.PlayerResult(
            rank=2, seat=0, name="P0", outcome="stuck", progress=20,
            progress_at_ms=start + 6000, moves=1, finished_at_ms=start + 7000,
            elapsed_ms=7000, log=log, decided_by="outcome",
        ),
    )  # fmt: skip


# Rematch


def test_rematch_is_for_the_host_after_the_race() -> None:
    room = _ended({0: ("won", T0 + 3000), 1: ("stuck", T0 + 3000)})
    with _refused(ErrorCode.ROOM_WRONG_PHASE):
        race.rematch(room, 0, b"n" * 32, {})
    room = race.finish_race(room, {}, T0 + 3000).room
    with _refused(ErrorCode.ROOM_NOT_HOST):
        race.rematch(room, 1, b"n" * 32, {})


def test_rematch_frees_seats_of_players_who_left() -> None:
    room = _racing("Ann", "Bob", "Cy")
    room = r.leave(room, 1, T0 + 2500).room
    room = race.expire(room, T0 + 62_000).room
    room = race.finish_race(room, {}, T0 + 62_000).room
    room, events = race.rematch(room, 0, b"n" * 32, {})
    assert events == (
        p.Rematch(race_no=2, last_race=room.last_race),
        p.PlayerLeft(seat=1, away=False),
    )
    assert room.last_race is not None
    assert [line.name for line in room.last_race.ranking] == ["Ann", "Bob", "Cy"]
    assert room.players == (
        r.Player(0, "Ann", process="p1", token="t-Ann"),
        r.Player(2, "Cy", process="p1", token="t-Cy"),
    )
    assert (room.phase, room.race_no, room.start_at_ms, room.host) == ("lobby", 2, None, 0)


def _race_of(room: r.Room, stats: dict[int, r.PlayerStats], now_ms: int) -> r.Room:
    """The room once its race is over and a rematch has been called."""
    over = race.finish_race(room, stats, now_ms).room
    return race.rematch(over, 0, b"n" * 32, stats).room


def test_the_lobby_after_a_rematch_sums_up_the_race_before() -> None:
    start = T0 + 2000
    room = race.player_finished(_racing("Ann", "Bob", "Cy"), 1, "won", start + 32_345).room
    room = race.player_finished(room, 2, "resigned", start + 35_000).room
    room = race.end_race(room, 0, start + 40_000).room
    stats = {1: r.PlayerStats(104, start + 32_345, 300), 0: r.PlayerStats(40, start + 20_000)}
    room = _race_of(room, stats, start + 40_000)
    assert room.phase == "lobby"
    assert room.last_race == p.RaceSummary(
        race_no=1, variant="little-forty",
        ranking=(
            p.SummaryLine(rank=1, seat=1, name="Bob", outcome="won", progress=104,
                          elapsed_ms=32_345),
            p.SummaryLine(rank=2, seat=0, name="Ann", outcome="timeout", progress=40,
                          elapsed_ms=40_000),
            p.SummaryLine(rank=3, seat=2, name="Cy", outcome="resigned", progress=0,
                          elapsed_ms=35_000),
        ),
        ended_by_host=p.HostEnd(seat=0, elapsed_ms=40_000),
    )  # fmt: skip
    assert r.snapshot(room, {}).last_race == room.last_race
    assert r.from_bytes(r.to_bytes(room)) == room
    second = T0 + 300_000 + FAST.countdown_s * 1000
    room = race.start(_all_ready(room, T0 + 300_000), second).room
    room = race.expire(room, second + 60_000).room
    room = _race_of(room, {}, second + 60_000)
    assert room.last_race is not None and room.last_race.race_no == 2, "the next race replaces it"
    assert room.last_race.ended_by_host is None


def test_a_summary_of_eight_long_names_keeps_the_stored_room_small() -> None:
    """A race's summary stays with the room in Redis: a few hundred bytes at most."""
    names = [f"{seat} A rather long player name"[:24] for seat in range(8)]
    room = race.expire(_racing(*names), T0 + 62_000).room
    before = len(r.to_bytes(race.finish_race(room, {}, T0 + 62_000).room))
    after = len(r.to_bytes(_race_of(room, {}, T0 + 62_000)))
    assert after - before < 800


# The whole cycle, storage and snapshots


def test_full_cycle_lobby_countdown_racing_finished_rematch() -> None:
    published: list[p.RoomEvent] = []
    room, events = r.create(
        "XYZ789", "double-canfield-40", FAST, "Ann", SECRET, process="p1", token="t-Ann"
    )
    published += events
    steps: list[Callable[[r.Room], r.Transition]] = [
        lambda room: r.join(room, "Bob", "p1", "t-Bob")[1],
        lambda room: presence.watch(room, "eve", "p1"),
        lambda room: r.set_ready(room, 0, True, T0),
        lambda room: r.set_ready(room, 1, True, T0),
        lambda room: race.start(room, T0 + 2000),
        lambda room: race.player_finished(room, 1, "won", T0 + 40_000),
        lambda room: race.player_finished(room, 0, "resigned", T0 + 41_000),
        lambda room: race.finish_race(room, {1: r.PlayerStats(104, T0 + 40_000)}, T0 + 41_000),
        lambda room: race.rematch(room, 0, b"second race secret".ljust(32), {}),
        lambda room: r.set_ready(room, 1, True, T0 + 50_000),
        lambda room: r.set_ready(room, 0, True, T0 + 50_000),
    ]
    phases = []
    for step in steps:
        room, events = step(room)
        published += events
        phases.append(room.phase)
        assert r.from_bytes(r.to_bytes(room)) == room
    assert phases[3:] == ["countdown", "racing", "racing", "racing", "finished", "lobby",
                          "lobby", "countdown"]  # fmt: skip
    assert room.race_no == 2
    assert room.seed_commit != hashlib.sha256(SECRET).hexdigest()
    types = [event.type for event in published]
    assert types == [
        "player_joined", "player_joined", "spectator_count", "ready", "ready", "countdown",
        "race_started", "player_finished", "player_finished", "race_over", "rematch", "ready",
        "ready", "countdown",
    ]  # fmt: skip
    _seed_hidden_until_race_over(published)


def _seed_hidden_until_race_over(published: list[p.RoomEvent]) -> None:
    over = [event.type for event in published].index("race_over")
    for seq, event in enumerate(published[:over], start=1):
        frame = p.encode_event_frame(seq, p.encode(event))
        assert SECRET not in frame and SECRET.hex().encode() not in frame
        assert p.decode_server(frame) == p.EventFrame(seq=seq, event=event)
    assert SECRET.hex().encode() in p.encode(published[over])


def test_snapshot_shows_the_seed_only_after_the_race() -> None:
    lobby = _lobby("Ann", "Bob")
    snap = r.snapshot(lobby, {})
    assert (snap.seed_commit, snap.seed, snap.host, snap.phase) == (None, None, 0, "lobby")
    room = _racing("Ann", "Bob")
    snap = r.snapshot(room, {1: r.PlayerStats(progress=7, moves=12)})
    assert snap.seed is None and snap.seed_commit == hashlib.sha256(SECRET).hexdigest()
    assert snap.players[1] == p.PlayerInfo(
        seat=1, name="Bob", ready=True, away=False, outcome="playing", progress=7, moves=12,
        finished_at_ms=None,
    )  # fmt: skip
    room = race.expire(room, T0 + 62_000).room
    snap = r.snapshot(race.finish_race(room, {}, T0 + 62_000).room, {})
    assert snap.seed == SECRET.hex()
    message = p.Snapshot(id=None, code="ABC234", seat=0, room=snap, board=None, version=None, seq=9)
    assert p.decode_server(p.encode(message)) == message


def test_storage_form_round_trips_every_field() -> None:
    room = r.leave(_racing("Ann", "Bob"), 1, T0 + 2100).room
    room = presence.watch(room, "eve", "p1").room
    room = race.player_finished(room, 0, "won", T0 + 5000).room
    assert r.from_bytes(r.to_bytes(room)) == room
    public = _lobby("Ann", settings=p.Settings(deal_number=9, max_players=8))
    assert r.from_bytes(r.to_bytes(public)) == public


def test_a_room_stored_before_its_newest_fields_reads_with_their_defaults() -> None:
    room = _racing("Ann", "Bob")
    older = msgpack.unpackb(r.to_bytes(room))
    del older["ended_by_host"], older["last_race"]
    assert r.from_bytes(msgpack.packb(older)) == room


@pytest.mark.parametrize("data", [b"", b"\x01", b"\x92\x02\x01", b"\x91\x01", b"\xc1"])
def test_bad_storage_bytes_raise_value_error(data: bytes) -> None:
    with pytest.raises(ValueError, match="room record"):
        r.from_bytes(data)


def test_a_winnable_only_deal_is_renewed_when_turned_on_or_its_game_changes() -> None:
    room = _lobby("Ann")
    on = FAST.model_copy(update={"winnable_only": True})
    assert not r.needs_new_deal(room, "little-forty", FAST)
    assert r.needs_new_deal(room, "little-forty", on)
    with _refused(ErrorCode.SERVER_BUSY):
        r.set_settings(room, 0, "little-forty", on)
    room = r.set_settings(room, 0, "little-forty", on, b"pool seed").room
    assert room.secret == b"pool seed" and room.seed == b"pool seed"
    assert not r.needs_new_deal(room, "little-forty", on.model_copy(update={"max_players": 3}))
    assert r.needs_new_deal(room, "little-billie", on)
    assert not r.needs_new_deal(room, "little-billie", FAST)
    assert r.set_settings(room, 0, "little-billie", FAST).room.secret == b"pool seed"
