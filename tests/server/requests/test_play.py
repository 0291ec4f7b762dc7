"""Moves over the wire: idempotent resends, stale versions, refusals, the phase checks, the cap."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

import engine
from bench import greedy
from protocol import (
    BoardView,
    CreateRoom,
    ErrorCode,
    JoinRoom,
    MakeMove,
    MoveOk,
    Ping,
    ProgressMade,
    Ready,
    Resign,
    Resume,
    Settings,
    Sync,
    decode_server,
    encode,
)
from protocol.limits import MAX_MOVES
from server.requests import play
from server.store import MoveCommit, Store
from tests.server._client import Client, count_down, start_race

Connect = Callable[[], Awaitable[Client]]
DEAL = 7
VARIANT = "little-forty"
SETTINGS = Settings(countdown_s=1, deal_number=DEAL)


def _deal(variant: str = VARIANT, number: int = DEAL) -> engine.GameState:
    return engine.new_game(variant, b"deal:%d" % number)


def _tableau_move(state: engine.GameState) -> str:
    """A legal move that is not a stock move, so a second try of it would differ."""
    return next(m for m in engine.legal_moves(state) if m.action == "move").format()


def _illegal_move(state: engine.GameState) -> tuple[str, str]:
    """A readable move that is not legal now, with the engine's reason."""
    piles = len(state.tableau)
    for src in range(1, piles + 1):
        for dst in range(1, piles + 1):
            text = f"t{src} t{dst}"
            try:
                engine.apply(state, engine.Move.parse(text))
            except engine.IllegalMove as error:
                return text, str(error)
    raise AssertionError("every tableau move is legal in this deal")


async def _racing(connect: Connect, players: int = 1) -> tuple[list[Client], str]:
    clients = [await connect() for _ in range(players)]
    seated = await start_race(clients, VARIANT, SETTINGS)
    return clients, seated[0].code


async def _own_game(client: Client) -> tuple[int | None, BoardView | None]:
    """The caller's game version and board, as the server has them now."""
    snapshot = await client.call(Sync)
    assert snapshot.type == "snapshot"
    return snapshot.version, snapshot.board


async def test_a_move_is_acknowledged_with_the_new_board(connect: Connect, store: Store) -> None:
    (ann,), code = await _racing(connect)
    text = _tableau_move(_deal())
    reply = await ann.call(MakeMove, move=text, move_id="m1", expected_version=0)
    assert isinstance(reply, MoveOk)
    after = engine.apply(_deal(), engine.Move.parse(text))
    assert reply.version == 1 and reply.move_id == "m1" and reply.outcome == "playing"
    assert reply.board.tableau == engine.view(after).tableau
    assert reply.progress == engine.progress(after)
    log = await store.move_log(code, 0)
    assert [(entry.text, entry.move_id, entry.ms) for entry in log] == [(text, "m1", reply.at_ms)]
    progress = await ann.wait_event("progress")
    assert (progress.seat, progress.moves, progress.progress) == (0, 1, reply.progress)


async def test_a_resent_move_id_is_answered_and_not_applied_again(
    connect: Connect, store: Store
) -> None:
    (ann,), code = await _racing(connect)
    first = await ann.call(MakeMove, move="draw", move_id="d1", expected_version=0)
    assert isinstance(first, MoveOk) and first.version == 1
    again = await ann.call(MakeMove, move="draw", move_id="d1", expected_version=0)
    assert isinstance(again, MoveOk)
    assert (again.version, again.move_id, again.board) == (1, "d1", first.board)
    assert await _own_game(ann) == (1, first.board)
    assert [entry.move_id for entry in await store.move_log(code, 0)] == ["d1"]


async def test_a_move_id_resent_with_other_text_is_refused_and_nothing_applied(
    connect: Connect, store: Store
) -> None:
    (ann,), code = await _racing(connect)
    text = _tableau_move(_deal())
    first = await ann.call(MakeMove, move=text, move_id="m1", expected_version=0)
    assert isinstance(first, MoveOk)
    for expected in (0, 1):
        other = await ann.call(MakeMove, move="draw", move_id="m1", expected_version=expected)
        assert other.type == "error" and other.code == ErrorCode.MOVE_ID_REUSED, other
        assert other.version == 1 and text in other.message
    assert await _own_game(ann) == (1, first.board)
    assert [(e.text, e.move_id) for e in await store.move_log(code, 0)] == [(text, "m1")]
    same = await ann.call(MakeMove, move=text, move_id="m1", expected_version=0)
    assert isinstance(same, MoveOk) and same.board == first.board


async def test_a_resend_after_resume_is_answered_and_not_applied_again(
    connect: Connect, store: Store
) -> None:
    ann = await connect()
    (joined,) = await start_race([ann], VARIANT, SETTINGS)
    text = _tableau_move(_deal())
    first = await ann.call(MakeMove, move=text, move_id="lost-1", expected_version=0)
    assert isinstance(first, MoveOk)
    await ann.close()
    back = await connect()
    resumed = await back.call(Resume, token=joined.token, last_seq=joined.seq)
    assert resumed.type == "resumed" and resumed.version == 1
    again = await back.call(MakeMove, move=text, move_id="lost-1", expected_version=0)
    assert isinstance(again, MoveOk)
    assert (again.version, again.board) == (1, first.board)
    log = await store.move_log(joined.code, 0)
    assert [(entry.text, entry.move_id) for entry in log] == [(text, "lost-1")]
    nxt = await back.call(MakeMove, move="draw", move_id="next", expected_version=1)
    assert isinstance(nxt, MoveOk) and nxt.version == 2


async def test_a_wrong_expected_version_is_stale_with_the_real_one(connect: Connect) -> None:
    (ann,), _ = await _racing(connect)
    assert (await ann.call(MakeMove, move="draw", move_id="a", expected_version=0)).version == 1
    for wrong in (0, 2, 40):
        reply = await ann.call(MakeMove, move="draw", move_id=f"w{wrong}", expected_version=wrong)
        assert reply.type == "error" and reply.code == ErrorCode.MOVE_STALE_VERSION
        assert reply.version == 1 and reply.id is not None
    assert (await _own_game(ann))[0] == 1


async def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(
    connect: Connect, store: Store
) -> None:
    (ann,), code = await _racing(connect)
    before = await _own_game(ann)
    text, reason = _illegal_move(_deal())
    reply = await ann.call(MakeMove, move=text, move_id="bad", expected_version=0)
    assert reply.type == "error" and reply.code == ErrorCode.MOVE_ILLEGAL
    assert (reply.message, reply.version) == (reason, 0)
    assert before[0] == 0 and await _own_game(ann) == before
    assert await store.move_log(code, 0) == []
    retry = await ann.call(MakeMove, move="draw", move_id="bad", expected_version=0)
    assert isinstance(retry, MoveOk) and retry.version == 1


NO_EFFECT_DEAL = 118
EMPTIES_PILE_5 = ("t5:1 t4", "t5:1 f1", "t5:2 t4", "t7:1 t10")
"""In Little Forty deal 118 these leave pile 5 empty and pile 7 one run: 7h 6c 5d."""


async def test_a_move_that_changes_nothing_is_refused_not_stored_and_not_counted(
    connect: Connect, store: Store
) -> None:
    ann = await connect()
    (seated,) = await start_race(
        [ann], VARIANT, Settings(countdown_s=1, deal_number=NO_EFFECT_DEAL)
    )
    for version, text in enumerate(EMPTIES_PILE_5):
        reply = await ann.call(MakeMove, move=text, move_id=f"m{version}", expected_version=version)
        assert isinstance(reply, MoveOk), reply
    before = await _own_game(ann)
    assert before[1] is not None and before[1].tableau[4:7:2] == ((), ("7h", "6c", "5d"))
    refused = await ann.call(MakeMove, move="t7 t5", move_id="whole", expected_version=4)
    assert refused.type == "error" and refused.code == ErrorCode.MOVE_NO_EFFECT
    assert refused.version == 4
    assert refused.message == (
        "moving all 3 cards of pile 7 onto empty pile 5 changes nothing;"
        " to move part of it give a count, e.g. t7:2 t5"
    )
    assert await _own_game(ann) == before
    assert len(await store.move_log(seated.code, 0)) == 4
    assert await store.find_move(seated.code, 0, "whole") is None
    part = await ann.call(MakeMove, move="t7:2 t5", move_id="part", expected_version=4)
    assert isinstance(part, MoveOk) and part.version == 5
    assert part.board.tableau[4:7:2] == (("6c", "5d"), ("7h",))
    await ann.wait_event("progress", lambda e: e.moves == 5)
    assert [event.moves for event in ann.events("progress")] == [1, 2, 3, 4, 5]


async def test_unreadable_move_text_is_invalid(connect: Connect, store: Store) -> None:
    (ann,), code = await _racing(connect)
    for text in ("zz", "t99 t1", "t1 t2 t3", "f f"):
        reply = await ann.call(MakeMove, move=text, move_id="x", expected_version=0)
        assert reply.type == "error" and reply.code == ErrorCode.MOVE_INVALID, text
        assert reply.version == 0 and reply.message
    assert await store.move_log(code, 0) == []


async def test_move_text_outside_the_ascii_notation_is_invalid(
    connect: Connect, store: Store
) -> None:
    """A superscript two, an Arabic-Indic three, a full-width five: never read as digits."""
    (ann,), code = await _racing(connect)
    for text in ("t\u00b2 t1", "t1 t\u0663", "w t\uff15", "t1:\u0662 t2"):
        reply = await ann.call(MakeMove, move=text, move_id="x", expected_version=0)
        assert reply.type == "error" and reply.code == ErrorCode.MOVE_INVALID, text
        assert reply.version == 0 and "ASCII" in reply.message
    assert await store.move_log(code, 0) == []


async def test_moves_before_the_start_are_not_racing(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    settings = Settings(countdown_s=5, deal_number=DEAL)
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=settings)
    lobby = await ann.call(MakeMove, move="draw", move_id="early", expected_version=0)
    assert lobby.type == "error" and lobby.code == ErrorCode.MOVE_NOT_RACING
    assert (await bob.call(JoinRoom, code=created.code, name="Bob")).type == "joined"
    await ann.call(Ready, ready=True)
    await bob.call(Ready, ready=True)
    await ann.wait_event("countdown")
    counting = await ann.call(MakeMove, move="draw", move_id="early", expected_version=0)
    assert counting.type == "error" and counting.code == ErrorCode.MOVE_NOT_RACING
    assert not ann.events("race_started")


async def test_a_move_after_resigning_is_refused_as_finished(connect: Connect) -> None:
    (ann, bob), _ = await _racing(connect, players=2)
    assert (await ann.call(Resign)).type == "ok"
    await bob.wait_event("player_finished", lambda event: event.seat == 0)
    reply = await ann.call(MakeMove, move="draw", move_id="late", expected_version=0)
    assert reply.type == "error" and reply.code == ErrorCode.MOVE_FINISHED
    still = await bob.call(MakeMove, move="draw", move_id="b1", expected_version=0)
    assert isinstance(still, MoveOk)


async def test_resigning_twice_is_refused_as_finished_even_sent_back_to_back(
    connect: Connect,
) -> None:
    """The second ``resign`` goes out before the first one's events reach the server's cache."""
    (ann, bob), _ = await _racing(connect, players=2)
    for request_id in (900, 901):
        await ann.send_raw(encode(Resign(id=request_id)))
    await bob.wait_event("player_finished", lambda event: event.seat == 0)
    pong = await ann.call(Ping)
    answers = [decode_server(frame) for frame in ann.frames]
    first, second = (next(m for m in answers if getattr(m, "id", None) == n) for n in (900, 901))
    assert first.type == "ok", first
    assert second.type == "error" and second.code == ErrorCode.MOVE_FINISHED, second
    assert len([m for m in answers if getattr(m, "id", None) in (900, 901)]) == 2
    assert pong.type == "pong"
    assert len(bob.events("player_finished")) == 1
    again = await ann.call(Resign)
    assert again.type == "error" and again.code == ErrorCode.MOVE_FINISHED


async def test_a_spectator_cannot_move(connect: Connect) -> None:
    ann, watcher = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    await watcher.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    in_lobby = await watcher.call(MakeMove, move="draw", move_id="s", expected_version=0)
    assert in_lobby.type == "error" and in_lobby.code == ErrorCode.MOVE_SPECTATOR
    await ann.call(Ready, ready=True)
    await count_down(watcher)
    racing = await watcher.call(MakeMove, move="draw", move_id="s", expected_version=0)
    assert racing.type == "error" and racing.code == ErrorCode.MOVE_SPECTATOR
    assert (await _own_game(ann))[0] == 0


def _stock_moves(state: engine.GameState, count: int) -> list[tuple[str, engine.GameState]]:
    """`count` stock moves (draw, recycle) in a row, each with the state after it."""
    played = []
    for _ in range(count):
        move = next(m for m in engine.legal_moves(state) if m.action != "move")
        state = engine.apply(state, move)
        played.append((move.format(), state))
    return played


async def test_the_move_cap_is_enforced(connect: Connect, store: Store) -> None:
    """The allowance runs out after MAX_MOVES moves, however they were played.

    Sending five thousand moves over the wire takes seconds, so all but the
    last few are committed the way the server commits them (store, one
    ``progress`` event each); the last ones and the refused one go over the wire.
    """
    ann = await connect()
    variant = "double-canfield-40"
    (joined,) = await start_race([ann], variant, Settings(countdown_s=1, deal_number=DEAL))
    played = _stock_moves(_deal(variant), MAX_MOVES)
    wire = 3
    commits = []
    for version, (text, state) in enumerate(played[:-wire]):
        event = ProgressMade(seat=0, progress=0, moves=version + 1, outcome="playing")
        commits.append(
            store.commit_move(
                MoveCommit(
                    joined.code,
                    0,
                    version,
                    engine.to_bytes(state),
                    move_text=text,
                    move_id=f"c{version}",
                    now_ms=ann.clock.now_ms(),
                    progress=engine.progress(state),
                    outcome="playing",
                    event=encode(event),
                )
            )
        )
    await asyncio.gather(*commits)
    for version in range(MAX_MOVES - wire, MAX_MOVES):
        text = played[version][0]
        reply = await ann.call(MakeMove, move=text, move_id=f"w{version}", expected_version=version)
        assert isinstance(reply, MoveOk) and reply.version == version + 1
    refused = await ann.call(MakeMove, move="draw", move_id="over", expected_version=MAX_MOVES)
    assert refused.type == "error" and refused.code == ErrorCode.MOVE_LIMIT
    assert refused.version == MAX_MOVES
    assert len(await store.move_log(joined.code, 0)) == MAX_MOVES


STUCK_VARIANT, STUCK_DEAL = "little-billie", 134
"""The greedy player gets stuck on this deal after a dozen moves."""


async def test_a_resent_finishing_move_is_answered_after_resume(
    connect: Connect, store: Store
) -> None:
    ann, bob = await connect(), await connect()
    settings = Settings(countdown_s=1, deal_number=STUCK_DEAL)
    joined, _ = await start_race([ann, bob], STUCK_VARIANT, settings)
    moves = [m.format() for m in greedy.play(STUCK_VARIANT, b"deal:%d" % STUCK_DEAL).moves]
    for version, text in enumerate(moves):
        reply = await ann.call(MakeMove, move=text, move_id=f"g{version}", expected_version=version)
        assert isinstance(reply, MoveOk), reply
    assert reply.outcome == "stuck"
    await ann.close()
    back = await connect()
    assert (await back.call(Resume, token=joined.token, last_seq=0)).type == "resumed"
    again = await back.call(
        MakeMove, move=moves[-1], move_id=f"g{len(moves) - 1}", expected_version=len(moves) - 1
    )
    assert isinstance(again, MoveOk), again
    assert (again.version, again.outcome, again.board) == (len(moves), "stuck", reply.board)
    assert len(await store.move_log(joined.code, 0)) == len(moves)


async def test_the_ack_of_a_finishing_move_comes_before_the_events_it_causes(
    connect: Connect,
) -> None:
    ann = await connect()
    settings = Settings(countdown_s=1, deal_number=STUCK_DEAL)
    await start_race([ann], STUCK_VARIANT, settings)
    moves = [m.format() for m in greedy.play(STUCK_VARIANT, b"deal:%d" % STUCK_DEAL).moves]
    for version, text in enumerate(moves):
        reply = await ann.call(MakeMove, move=text, move_id=f"g{version}", expected_version=version)
        assert isinstance(reply, MoveOk), reply
    await ann.wait_event("race_over")
    kinds = [
        message.event.type if message.type == "event" else message.type
        for message in map(decode_server, ann.frames)
    ]
    last_ack = len(kinds) - 1 - kinds[::-1].index("move_ok")
    assert kinds[last_ack:] == ["move_ok", "progress", "player_finished", "race_over"]


async def test_a_finishing_move_is_acknowledged_even_if_recording_the_finish_fails(
    connect: Connect, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("the room could not be saved")

    monkeypatch.setattr(play, "_finish", broken)
    ann = await connect()
    settings = Settings(countdown_s=1, deal_number=STUCK_DEAL)
    await start_race([ann], STUCK_VARIANT, settings)
    moves = [m.format() for m in greedy.play(STUCK_VARIANT, b"deal:%d" % STUCK_DEAL).moves]
    for version, text in enumerate(moves):
        reply = await ann.call(MakeMove, move=text, move_id=f"g{version}", expected_version=version)
        assert isinstance(reply, MoveOk), reply
    assert reply.outcome == "stuck"
    assert "recording the finish of seat 0" in caplog.text
