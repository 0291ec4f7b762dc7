"""Room events applied to a copy of the room, as the server applies them."""

from __future__ import annotations

from protocol import (
    BoardShown,
    Countdown,
    GhostProgress,
    HostChanged,
    IdleWarning,
    PlayerBack,
    PlayerFinished,
    PlayerJoined,
    PlayerLeft,
    ProgressMade,
    RaceStarted,
    ReadyChanged,
    Rematch,
    Settings,
    SettingsChanged,
    SpectatorCount,
    changes,
)
from protocol.changes import apply_event
from tests.client_cli._samples import board, last_race, race_over, result, room, room_event_types

COMMIT = "cd" * 32


def _seats(snapshot: object) -> list[tuple[int, str]]:
    return [(p.seat, p.name) for p in snapshot.players]  # type: ignore[attr-defined]


def test_players_join_in_seat_order_and_leave() -> None:
    lobby = apply_event(room(), PlayerJoined(seat=3, name="Dee"))
    lobby = apply_event(lobby, PlayerJoined(seat=2, name="Cy"))
    assert _seats(lobby) == [(0, "Ada"), (1, "Bob"), (2, "Cy"), (3, "Dee")]
    assert not lobby.players[2].ready
    assert _seats(apply_event(lobby, PlayerLeft(seat=1, away=False))) == [
        (0, "Ada"),
        (2, "Cy"),
        (3, "Dee"),
    ]


def test_away_players_keep_their_seat_and_come_back() -> None:
    away = apply_event(room(phase="racing"), PlayerLeft(seat=1, away=True))
    assert _seats(away) == [(0, "Ada"), (1, "Bob")] and away.players[1].away
    assert not apply_event(away, PlayerBack(seat=1)).players[1].away


def test_host_spectators_and_ready_flags() -> None:
    changed = apply_event(room(), HostChanged(seat=1))
    changed = apply_event(changed, SpectatorCount(count=5))
    changed = apply_event(changed, ReadyChanged(seat=1, ready=True))
    assert (changed.host, changed.spectators) == (1, 5)
    assert [p.ready for p in changed.players] == [True, True]
    assert apply_event(changed, HostChanged(seat=None)).host is None


def test_new_settings_clear_every_ready_flag() -> None:
    settings = Settings(max_players=2, deal_number=9)
    changed = apply_event(room(), SettingsChanged(variant="little-billie", settings=settings))
    assert (changed.variant, changed.settings) == ("little-billie", settings)
    assert not any(p.ready for p in changed.players)


def test_a_race_from_countdown_to_ranking_and_rematch() -> None:
    start = board("little-forty")
    counting = apply_event(
        room(), Countdown(race_no=1, starts_in_ms=3000, start_at_ms=5000, seed_commit=COMMIT)
    )
    assert (counting.phase, counting.start_at_ms, counting.seed_commit) == (
        "countdown",
        5000,
        COMMIT,
    )
    racing = apply_event(
        counting, RaceStarted(race_no=1, start_at_ms=5000, ends_at_ms=65000, board=start)
    )
    racing = apply_event(racing, ProgressMade(seat=1, progress=4, moves=7, outcome="playing"))
    racing = apply_event(racing, BoardShown(seat=1, board=start, version=7, at_ms=6000))
    bob = racing.players[1]
    assert (racing.phase, bob.progress, bob.moves) == ("racing", 4, 7)
    done = apply_event(
        racing, PlayerFinished(seat=1, outcome="resigned", at_ms=9000, elapsed_ms=4000)
    )
    assert (done.players[1].outcome, done.players[1].finished_at_ms) == ("resigned", 9000)
    ranking = (result(1, 0, "Ada", outcome="stuck", progress=9, moves=12), result(2, 1, "Bob"))
    over = apply_event(done, race_over(ranking, seed_commit=COMMIT))
    assert (over.phase, over.seed, over.players[0].progress) == ("finished", b"deal:1".hex(), 9)
    lobby = apply_event(over, Rematch(race_no=2, last_race=last_race()))
    assert (lobby.phase, lobby.race_no, lobby.seed, lobby.seed_commit) == ("lobby", 2, None, None)
    assert all(p.outcome == "playing" and not p.ready and p.moves == 0 for p in lobby.players)
    assert lobby.last_race == last_race(), "the lobby tells the race just over"


def _warned(snapshot: object) -> list[int | None]:
    return [p.idle_timeout_at_ms for p in snapshot.players]  # type: ignore[attr-defined]


def test_an_idle_warning_stands_until_the_racer_moves_or_finishes() -> None:
    racing = room(phase="racing")
    warned = apply_event(racing, IdleWarning(seat=1, timeout_at_ms=70_000))
    warned = apply_event(warned, IdleWarning(seat=0, timeout_at_ms=71_000))
    assert _warned(warned) == [71_000, 70_000]
    moved = apply_event(warned, ProgressMade(seat=1, progress=4, moves=7, outcome="playing"))
    assert _warned(moved) == [71_000, None]
    done = apply_event(
        moved, PlayerFinished(seat=0, outcome="resigned", at_ms=9000, elapsed_ms=4000)
    )
    assert _warned(done) == [None, None]


def _ghost(ghost: int, progress: int, at_ms: int, race_no: int = 1) -> GhostProgress:
    return GhostProgress(
        race_no=race_no,
        ghost=ghost,
        name=f"G{ghost}",
        guest=True,
        progress=progress,
        moves=2 * progress,
        outcome="playing",
        at_ms=at_ms,
    )


def test_each_ghost_is_kept_as_its_last_step_showed_it_until_the_rematch() -> None:
    racing = room(phase="racing")
    shown = racing
    for event in (_ghost(1, 0, 1000), _ghost(0, 0, 1000), _ghost(1, 3, 4000)):
        shown = apply_event(shown, event)
    assert [(g.ghost, g.progress, g.moves, g.at_ms) for g in shown.ghosts] == [
        (0, 0, 0, 1000),
        (1, 3, 6, 4000),
    ]
    assert apply_event(shown, _ghost(0, 5, 9000, race_no=2)) == shown
    again = apply_event(shown, Rematch(race_no=2, last_race=last_race()))
    assert again.ghosts == ()


def test_a_race_starts_with_every_player_at_the_cards_the_deal_puts_home() -> None:
    start = board("double-canfield-40")  # its deal puts a base card home
    assert start.progress == 1
    played = apply_event(room(phase="finished"), Rematch(race_no=2))
    racing = apply_event(
        played, RaceStarted(race_no=2, start_at_ms=5000, ends_at_ms=65000, board=start)
    )
    assert [(p.progress, p.moves) for p in racing.players] == [(1, 0), (1, 0)]


def test_every_room_event_type_has_its_change_and_no_other_type_does() -> None:
    assert set(changes._CHANGES) == room_event_types()
