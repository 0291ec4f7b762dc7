"""Whole client sessions against a real race server: typed lines in, printed text out."""

from __future__ import annotations

import asyncio
import functools
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

import engine
from client_cli.session import saved_seats
from client_cli.session.resume import pick_seat
from client_cli.session.session import Session
from protocol import CloseCode, CreateRoom, GoingAway, JoinRoom, Settings
from server import room_store as room_update
from server.app import RaceServer
from server.clock import ManualClock
from server.lifecycle import room as rooms
from server.liveness import reclaim
from server.store import Store
from tests.client_cli._driver import Terminal, ready_and_go

OpenTerminal = Callable[..., Awaitable[Terminal]]
QUICK = {"countdown_s": 1, "time_limit_s": 60}


@pytest.fixture
async def terminals(server_url: str) -> AsyncIterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        await terminal.close()


async def _host(
    terminals: list[Terminal], url: str, variant: str, state: Path | None = None, **settings: int
) -> Terminal:
    host = Terminal(url, state)
    terminals.append(host)
    chosen = Settings.model_validate({**QUICK, **settings})
    host.start(lambda id_: CreateRoom(id=id_, variant=variant, name="Ada", settings=chosen))
    await host.wait_for("Share the code")
    return host


async def _join(
    terminals: list[Terminal], url: str, code: str, role: str = "player", state: Path | None = None
) -> Terminal:
    guest = Terminal(url, state)
    terminals.append(guest)
    name = "Bob" if role == "player" else "Eve"
    guest.start(lambda id_: JoinRoom(id=id_, code=code, name=name, role=role))  # type: ignore[arg-type]
    await guest.wait_for("Type")
    return guest


async def _race_alone(
    terminals: list[Terminal], url: str, clock: ManualClock, state: Path | None = None
) -> Terminal:
    ada = await _host(terminals, url, "little-forty", state, deal_number=7)
    await ready_and_go(clock, ada)
    return ada


def _code(terminal: Terminal) -> str:
    code = terminal.session.tracker.code
    assert code is not None
    return code


async def test_two_players_race_resign_and_check_the_seed(
    terminals: list[Terminal], server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    ada = await _host(terminals, server_url, "little-forty", tmp_path, deal_number=7)
    assert "Room " in ada.text and "public deal 7" in ada.text and "not ready  (you)" in ada.text
    bob = await _join(terminals, server_url, _code(ada))
    await ada.wait_for("Bob joined as #2 (guest).")
    await ada.type("ready", expect="You are ready.")
    await bob.wait_for("Ada is ready.")
    await bob.type("ready", expect="Everyone is ready: race 1 starts in 1 s. Seed commit")
    clock.advance(1000)
    for player in (ada, bob):
        started = await player.wait_for("Race 1: GO!")
        assert "Little Forty: 0/104 cards home" in started
    [saved] = saved_seats.load_all(tmp_path)
    assert (saved.code, saved.seat, saved.token) == (_code(ada), 0, ada.session.tracker.token)

    first = engine.legal_moves(engine.new_game("little-forty", b"deal:7"))[0].format()
    assert first in await ada.type("moves", expect="moves: ")
    assert "Cannot read move 't99x'" in await ada.type("t99x", expect="Type help")
    await ada.type("w t3", expect="The move w t3 was refused (move/illegal)")
    await ada.type(first, expect="cards home")
    await bob.wait_for("Ada has 0 of 104 cards home after 1 move.")
    await bob.type("draw", expect="waste 3, top")
    await ada.wait_for("Bob has 0 of 104 cards home after 1 move.")

    await ada.type("resign", expect="You resigned after")
    await bob.wait_for("Ada resigned after")
    await bob.type("resign", expect="Race 1 results:")
    for player, other in ((ada, "Bob"), (bob, "Ada")):
        over = await player.wait_for(f"Replayed {other}'s 1 move: 0 cards home, agrees.")
        assert "matches the commit" in over and "The seed is public deal 7, as announced." in over
        assert "Replayed your 1 move: 0 cards home, agrees." in over
        assert "WARNING" not in player.text

    await ada.type("rematch", expect="Rematch: back to the lobby for race 2.")
    await bob.wait_for("Rematch: back to the lobby for race 2.")
    assert saved_seats.load_all(tmp_path) == []
    assert await ada.quit() == 0
    assert await bob.quit() == 0
    assert saved_seats.load_all(tmp_path) == []


def _pin_secret(server: RaceServer, name: str) -> None:
    """Secret deals of this server are all one deal the test chose (still secret to clients)."""
    secret = name.encode().ljust(32, b".")
    server.services.new_secret = lambda: secret


async def test_a_spectator_watches_boards_and_the_reveal(
    terminals: list[Terminal], server_url: str, race_server: RaceServer, clock: ManualClock
) -> None:
    _pin_secret(race_server, "a spectator watches")
    ada = await _host(terminals, server_url, "little-milligan", max_players=1)
    eve = await _join(terminals, server_url, _code(ada), role="spectator")
    assert "You are watching." in eve.text
    await ada.wait_for("1 spectator is watching.")
    await ready_and_go(clock, ada, eve)
    assert "Spectators cannot move." in await eve.type("deal", expect="cannot move")
    await ada.type("deal", expect="stock 36")
    await eve.wait_for("Ada has ")
    for _ in range(50):
        if "move 1:" in await eve.type("board", expect="Ada (#1)"):
            break
    assert "Ada (#1), move 1:\nLittle Milligan: " in eve.text
    await ada.type("resign", expect="Race 1 results:")
    over = await eve.wait_for("Replayed Ada's 1 move")
    assert "matches the commit" in over and "public deal" not in over


async def test_a_stale_version_is_followed_by_a_sync(
    terminals: list[Terminal], server_url: str, clock: ManualClock
) -> None:
    ada = await _race_alone(terminals, server_url, clock)
    ada.session.tracker.version = 3
    await ada.type("draw", expect="refused (move/stale-version)")
    await ada.wait_for("- racing")
    assert ada.session.tracker.version == 0
    await ada.type("draw", expect="waste 3, top")
    assert ada.session.tracker.version == 1


async def test_going_away_reconnects_and_resumes(
    terminals: list[Terminal], server_url: str, race_server: RaceServer, clock: ManualClock
) -> None:
    ada = await _race_alone(terminals, server_url, clock)
    await ada.type("draw", expect="waste 3, top")
    for server_side in list(race_server.sessions):
        await server_side.send(GoingAway(reconnect_in_ms=50, message="restarting"))
        await server_side.conn.close(CloseCode.GOING_AWAY, "restarting")
    await ada.wait_for("Back in room")
    assert "The server is going away (restarting)." in ada.text
    await ada.type("draw", expect="waste 6, top")
    assert ada.session.tracker.version == 2


async def test_a_lobby_seat_lost_with_the_connection_is_taken_again(
    terminals: list[Terminal], server_url: str, race_server: RaceServer, clock: ManualClock
) -> None:
    """The server frees a lobby seat when its socket closes. If the client's
    resume is handled first it keeps the seat; if the seat was freed first, the
    resume is refused and the client takes a seat again. Either way it plays."""
    _pin_secret(race_server, "a lobby seat lost")
    ada = await _host(terminals, server_url, "little-billie")
    mark = len(ada.output)
    for server_side in list(race_server.sessions):
        await server_side.conn.close(CloseCode.INTERNAL, "failure")
    async with asyncio.timeout(10):
        while not any(done in "\n".join(ada.output[mark:]) for done in _SEATED_AGAIN):
            await asyncio.sleep(0.01)
    after = "\n".join(ada.output[mark:])
    if "resume request was refused (auth/bad-token)" in after:
        assert "Taking a seat in the room again." in after
        await ada.wait_for("Share the code", mark=mark)
    await ready_and_go(clock, ada)


_SEATED_AGAIN = ("Back in room", "Taking a seat in the room again.")


async def test_a_lobby_seat_the_room_let_go_is_told_then_taken_again(
    terminals: list[Terminal], server_url: str, race_server: RaceServer, clock: ManualClock
) -> None:
    """The room freed the seat of a socket still open, as the other processes do with
    the people of one cut off from Redis; the socket's process then closes it (4004)."""
    ada = await _host(terminals, server_url, "little-forty", deal_number=7)
    bob = await _join(terminals, server_url, _code(ada))
    marks = len(ada.output), len(bob.output)
    leave = functools.partial(rooms.leave, seat=1, now_ms=clock.now_ms())
    await room_update.update(race_server.store, _code(ada), leave)
    await reclaim.reclaim(race_server.services, _code(ada))
    told = await bob.wait_for("Taking a seat in the room again.", mark=marks[1])
    assert "The room let you go while your server could not reach it." in told
    await ada.wait_for("Bob joined as #2 (guest).", mark=marks[0])
    await ada.type("ready", expect="You are ready.")
    await ready_and_go(clock, bob, ada)


async def test_resume_from_the_saved_file_in_a_new_session(
    terminals: list[Terminal], server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    ada = await _race_alone(terminals, server_url, clock, tmp_path)
    await ada.type("draw", expect="waste 3, top")
    assert await ada.quit() == 0
    code = _code(ada)
    assert ada.output[-1] == f"Your seat is kept until the race is over: solrace resume {code}"
    [saved] = saved_seats.load_all(tmp_path)
    again = Terminal(server_url, tmp_path)
    terminals.append(again)
    again.start(again.session.resume_from(saved))
    shown = await again.wait_for("- racing")
    assert "Back in room" in shown and "stock 61   waste 3" in shown
    await again.type("draw", expect="waste 6, top")
    assert again.session.tracker.version == 2


async def test_resuming_after_the_race_ended_shows_its_results(
    terminals: list[Terminal], server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    ada = await _host(terminals, server_url, "little-forty", deal_number=7)
    bob = await _join(terminals, server_url, _code(ada), state=tmp_path)
    await ada.type("ready", expect="You are ready.")
    await ready_and_go(clock, bob, ada)
    await bob.type("draw", expect="waste 3, top")
    assert await bob.quit() == 0
    await ada.type("end", expect="Race 1 results:")
    [saved] = saved_seats.load_all(tmp_path)
    again = Terminal(server_url, tmp_path)
    terminals.append(again)
    again.start(again.session.resume_from(saved))
    shown = await again.wait_for("Race 1 results:")
    assert "Replayed your 1 move: 0 cards home, agrees." in shown
    assert "The host, Ada, ended the race early at 0:00.000" in shown
    assert again.session.tracker.results is not None


async def test_a_race_the_host_ends_is_told_as_such_and_its_replays_agree(
    terminals: list[Terminal], server_url: str, clock: ManualClock
) -> None:
    ada = await _host(terminals, server_url, "little-forty", deal_number=7)
    bob = await _join(terminals, server_url, _code(ada))
    eve = await _join(terminals, server_url, _code(ada), role="spectator")
    await ada.type("ready", expect="You are ready.")
    await ready_and_go(clock, bob, ada, eve)
    await bob.type("draw", expect="waste 3, top")
    clock.advance(7000)
    await ada.type("end", expect="Race 1 results:")
    stopped = "stopped after 0:07.000"
    told = {
        ada: f"You were {stopped}: you ended the race early.",
        bob: f"You were {stopped}: the host, Ada, ended the race early.",
        eve: f"Bob was {stopped}: the host, Ada, ended the race early.",
    }
    for terminal, news in told.items():
        shown = await terminal.wait_for("1 move: 0 cards home, agrees.")
        assert news in terminal.text
        assert "The host, Ada, ended the race early at 0:07.000: those still racing" in shown
        assert "WARNING" not in terminal.text
    await ada.type("rematch", expect="Rematch: back to the lobby for race 2.")
    heading = "Last race (race 1), ended early by the host, Ada, at 0:07.000:"
    places = "  1. Ada was stopped by the host after 0:07.000 with 0/104 cards home"
    late = await _join(terminals, server_url, _code(ada), role="spectator")
    assert f"{heading}\n{places}" in late.text
    assert heading in await bob.type("room", expect="Last race")


async def test_two_players_on_one_machine_each_keep_their_own_seat(
    terminals: list[Terminal], server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    ada = await _host(terminals, server_url, "little-forty", tmp_path, deal_number=7)
    bob = await _join(terminals, server_url, _code(ada), state=tmp_path)
    await ada.type("ready", expect="You are ready.")
    await ready_and_go(clock, bob, ada)
    assert await ada.quit() == 0
    assert await bob.quit() == 0
    saved = saved_seats.load_all(tmp_path)
    assert [(record.seat, record.token) for record in saved] == [
        (0, ada.session.tracker.token),
        (1, bob.session.tracker.token),
    ]
    picked = pick_seat(tmp_path, _code(ada), None, print, lambda _: "1")  # the latest
    assert picked == saved[1]
    again = Terminal(server_url, tmp_path)
    terminals.append(again)
    again.start(again.session.resume_from(saved[1]))
    await again.wait_for("- racing")
    assert again.session.tracker.seat == 1


async def test_a_token_that_is_no_longer_valid_is_forgotten(
    server_url: str, tmp_path: Path
) -> None:
    saved = saved_seats.SavedSeat(server_url, "ABCDEF", "x" * 24, 0)
    saved_seats.save(tmp_path, saved)
    output: list[str] = []
    session = Session(server_url, output.append, tmp_path)
    assert await session.run(session.resume_from(saved), _no_lines()) == 1
    assert "auth/bad-token" in "\n".join(output)
    assert saved_seats.load_all(tmp_path) == []


async def test_an_unreachable_server_is_reported() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    output: list[str] = []
    session = Session(f"ws://127.0.0.1:{port}", output.append)
    entry = lambda id_: JoinRoom(id=id_, code="ABCDEF", name="Ada")  # noqa: E731
    assert await session.run(entry, _no_lines()) == 1
    assert output[0].startswith(f"Cannot connect to ws://127.0.0.1:{port}")


async def _no_lines() -> AsyncIterator[str]:
    for line in list[str]():
        yield line


async def test_a_winnable_only_room_says_so_or_says_why_it_cannot_open(
    terminals: list[Terminal], server_url: str, store: Store
) -> None:
    refused = Terminal(server_url)
    terminals.append(refused)
    winnable = Settings(winnable_only=True)
    refused.start(
        lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ada", settings=winnable)
    )
    text = await refused.wait_for("(room/no-winnable-deal)")
    assert "solrace-server fill-pool --game little-forty" in text
    assert "turn winnable-only off" in text
    assert refused.task is not None and await refused.task != 0
    await store.add_winnable("little-forty", [b"a winnable deal".ljust(32, b".")])
    ada = await _host(terminals, server_url, "little-forty", winnable_only=True)
    assert "Deal: winnable deal" in ada.text
