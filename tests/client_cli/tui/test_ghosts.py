"""A challenge's ghosts in the live panel: their progress drawn under the racers (pure),
kept per race, and in a challenge raced on the full screen against a real server, each
step shown when the server plays it."""

from __future__ import annotations

from client_cli.tui import UNICODE, RaceApp
from client_cli.tui.panel import panel_lines
from protocol import (
    GhostProgress,
    JoinChallenge,
    PlayerOutcome,
    RoomSnapshot,
)
from protocol.changes import apply_event
from server.app import RaceServer
from server.clock import ManualClock
from tests.client_cli._samples import player, room
from tests.client_cli.tui._screen import join, screen_text, start_race, wait_for_text, wait_until
from tests.server.requests._challenges import STEP_MS, made_challenge


def ghost(
    index: int,
    name: str,
    counts: tuple[int, int],
    outcome: PlayerOutcome = "playing",
    race_no: int = 1,
) -> GhostProgress:
    """Ghost `index`'s step with `counts` (cards home, moves); ghost 1 is a guest."""
    progress, moves = counts
    return GhostProgress(
        race_no=race_no,
        ghost=index,
        name=name,
        guest=index == 1,
        progress=progress,
        moves=moves,
        outcome=outcome,
        at_ms=1_000,
    )


def racing(*events: GhostProgress) -> RoomSnapshot:
    """A race with Cid, and each ghost as ``events`` showed it (as the client keeps it)."""
    snapshot = room(phase="racing", start_at_ms=0, players=(player(0, "Cid", progress=5, moves=7),))
    for event in events:
        snapshot = apply_event(snapshot, event)
    return snapshot


def test_ghosts_follow_the_racers_with_their_cards_home_moves_and_state() -> None:
    shown = racing(ghost(0, "Ann", (52, 80)), ghost(1, "Bob", (104, 1234), "won"))
    lines = [line.plain for line in panel_lines(shown, 0, 0, UNICODE, 24)]
    assert lines[2].startswith("Cid (you)") and lines[3].endswith("  5/104    7m")
    assert lines[4].startswith("ghosts ─")
    assert lines[5].startswith("Ann") and lines[5].endswith("racing")
    assert lines[6].endswith(" 52/104   80m") and "█" in lines[6]
    assert lines[7].startswith("Bob (guest)") and lines[7].endswith("won")
    assert lines[8].endswith("104/104 1234m")
    assert all(len(line) <= 24 for line in lines)
    alone = [line.plain for line in panel_lines(racing(), 0, 0, UNICODE, 24)]
    assert len(alone) == 4 and not any("ghosts" in line for line in alone)


def test_each_ghost_shows_its_latest_step_in_ghost_order() -> None:
    shown = racing(ghost(1, "Bob", (0, 0)), ghost(0, "Ann", (0, 0)), ghost(0, "Ann", (2, 3)))
    lines = [line.plain for line in panel_lines(shown, 0, 0, UNICODE, 24)]
    assert lines[5].startswith("Ann") and lines[6].endswith("2/104 3m")
    assert lines[7].startswith("Bob (guest)") and lines[8].endswith("0/104 0m")
    other_race = racing(ghost(0, "Ann", (9, 9), race_no=2))
    assert not any("Ann" in line.plain for line in panel_lines(other_race, 0, 0, UNICODE, 24))


def panel_text(app: RaceApp) -> str:
    """The live panel's columns of the screen (80 wide: the last 25)."""
    return "\n".join(line[55:].rstrip() for line in screen_text(app).splitlines())


async def test_a_challenge_on_the_full_screen_shows_its_ghosts_as_the_server_plays_them(
    race_server: RaceServer, server_url: str, clock: ManualClock
) -> None:
    made, over = await made_challenge(race_server, clock)

    def entry(id_: int) -> JoinChallenge:
        return JoinChallenge(id=id_, code=made.challenge.code, name="Cid")

    app = RaceApp(server_url, entry, UNICODE)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await wait_for_text(pilot, "Ann (guest)")
        start = app.session.tracker.room.start_at_ms  # type: ignore[union-attr]
        assert start is not None
        panel = panel_text(app)
        assert "ghosts" in panel and "Bob (guest)" in panel
        clock.advance_to(start + 3 * STEP_MS)
        await wait_until(pilot, lambda: "  2/104 3m" in panel_text(app), "Ann's third move")
        assert "Ghost" not in str(app.state.message)  # progress stays in the panel
        code = app.session.tracker.code
        assert code is not None
        late = join(server_url, code, "Dee", role="spectator")
        async with late.run_test(size=(80, 24)) as watching:
            await wait_until(watching, lambda: "  2/104 3m" in panel_text(late), "Ann, at once")
            assert "Bob (guest)" in panel_text(late), "a late watcher sees every ghost shown"
        ann = next(result for result in over.ranking if result.name == "Ann")
        clock.advance_to(start + ann.elapsed_ms)
        await wait_until(pilot, lambda: "resigned" in panel_text(app), "Ann's end")
        assert "Ghost Ann (guest) resigned with 2 cards home." in app.notes
