"""Bad frames give the right error code, keeping the request id when it is readable."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
import protocol as p
from protocol import ErrorCode, ProtocolError, limits

MOVE = {"type": "move", "id": 7, "move": "t3 t7", "move_id": "m-1", "expected_version": 4}
JOIN = {"type": "join_room", "id": 8, "code": "ABC234", "name": "Ann", "role": "player"}


def _client_error(frame: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        p.decode_client(frame)
    return caught.value


def _check(obj: Any, code: ErrorCode, request_id: int | None) -> ProtocolError:
    error = _client_error(msgpack.packb(obj))
    assert (error.code, error.request_id) == (code, request_id)
    assert error.message
    return error


def test_valid_frames_decode_to_their_models() -> None:
    assert p.decode_client(msgpack.packb(MOVE)) == p.MakeMove(
        id=7, move="t3 t7", move_id="m-1", expected_version=4
    )
    assert p.decode_client(msgpack.packb(JOIN)) == p.JoinRoom(id=8, code="ABC234", name="Ann")


@pytest.mark.parametrize(
    "frame",
    [
        b"",
        b"\xc1",  # a byte msgpack never uses
        b"\x82\xa4type",  # cut short
        msgpack.packb({"type": "ping", "id": 1}) + b"\x00",  # two objects
        msgpack.packb([1, 2, 3]),
        msgpack.packb("ping"),
        msgpack.packb({1: "ping"}),  # map keys must be strings
        b"\x81\xa4type\xa3\xff\xfe\xfd",  # not UTF-8
    ],
)
def test_malformed_frames(frame: bytes) -> None:
    error = _client_error(frame)
    assert (error.code, error.request_id) == (ErrorCode.PROTO_MALFORMED, None)


def test_unknown_or_missing_type_keeps_the_request_id() -> None:
    _check({"type": "teleport", "id": 3}, ErrorCode.PROTO_UNKNOWN_TYPE, 3)
    _check({"id": 4}, ErrorCode.PROTO_UNKNOWN_TYPE, 4)
    _check({"type": 5, "id": 5}, ErrorCode.PROTO_UNKNOWN_TYPE, 5)


def test_server_messages_are_unknown_to_the_client_decoder() -> None:
    error = _client_error(p.encode(p.Pong(id=9, server_ms=1)))
    assert (error.code, error.request_id) == (ErrorCode.PROTO_UNKNOWN_TYPE, 9)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("expected_version", "4"),  # no coercion from text
        ("expected_version", 4.0),
        ("expected_version", True),
        ("expected_version", -1),
        ("expected_version", limits.MAX_MOVES + 1),
        ("move", 37),
        ("move", ""),
        ("move_id", "a\x00b"),  # not printable
        ("move_id", "   "),  # blank
    ],
)
def test_wrong_types_and_ranges_are_invalid(field: str, value: Any) -> None:
    error = _check({**MOVE, field: value}, ErrorCode.PROTO_INVALID, 7)
    assert field in error.message


def test_missing_and_extra_fields_are_invalid() -> None:
    _check({k: v for k, v in MOVE.items() if k != "move_id"}, ErrorCode.PROTO_INVALID, 7)
    _check({**MOVE, "cheat": True}, ErrorCode.PROTO_INVALID, 7)


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        ({**JOIN, "name": "n" * (limits.MAX_NAME_CHARS + 1)}, "name"),
        ({**JOIN, "code": "ABC2345"}, "code"),
        ({**MOVE, "id": 8, "move": "t" * (limits.MAX_MOVE_CHARS + 1)}, "move"),
        ({**MOVE, "id": 8, "move_id": "x" * (limits.MAX_MOVE_ID_CHARS + 1)}, "move_id"),
        ({"type": "resume", "id": 8, "token": "t" * 65, "last_seq": 0}, "token"),
    ],
)
def test_oversized_strings_are_too_long(obj: dict[str, Any], field: str) -> None:
    error = _check(obj, ErrorCode.PROTO_TOO_LONG, 8)
    assert field in error.message


def test_bad_values_inside_nested_settings() -> None:
    create = {"type": "create_room", "id": 2, "variant": "little-forty", "name": "Bo"}
    _check({**create, "settings": {"max_players": 9}}, ErrorCode.PROTO_INVALID, 2)
    _check({**create, "settings": {"deal_number": 0}}, ErrorCode.PROTO_INVALID, 2)
    _check({**create, "variant": "freecell"}, ErrorCode.PROTO_INVALID, 2)
    settings = {"time_limit_s": 60, "countdown_s": 5, "deal_number": 2**31}
    message = p.decode_client(msgpack.packb({**create, "settings": settings}))
    assert isinstance(message, p.CreateRoom)
    assert message.settings == p.Settings(time_limit_s=60, countdown_s=5, deal_number=2**31)


def test_request_id_is_dropped_when_it_is_itself_bad() -> None:
    _check({"type": "ping", "id": -1}, ErrorCode.PROTO_INVALID, None)
    _check({"type": "ping", "id": True}, ErrorCode.PROTO_INVALID, None)
    _check({"type": "ping", "id": limits.MAX_REQUEST_ID + 1}, ErrorCode.PROTO_INVALID, None)
    _check({"type": "ping"}, ErrorCode.PROTO_INVALID, None)


def test_oversized_frame_is_too_large() -> None:
    frame = msgpack.packb({"type": "ping", "id": 1, "pad": "x" * limits.MAX_CLIENT_FRAME})
    error = _client_error(frame)
    assert (error.code, error.request_id) == (ErrorCode.PROTO_TOO_LARGE, None)


def test_oversized_lists_from_a_server_are_too_long() -> None:
    board = p.BoardView.from_engine(
        engine.view(engine.new_game("little-forty", b"lists"))
    ).model_dump()
    too_many_piles = {**board, "tableau": ((),) * (limits.MAX_PILES + 1)}
    frame = msgpack.packb(
        {
            "type": "event",
            "seq": 3,
            "event": {
                "type": "board",
                "seat": 0,
                "board": too_many_piles,
                "version": 0,
                "at_ms": 0,
            },
        }
    )
    with pytest.raises(ProtocolError) as caught:
        p.decode_server(frame)
    assert caught.value.code == ErrorCode.PROTO_TOO_LONG
    assert "tableau" in caught.value.message


def test_error_reply_names_the_code_and_the_request_id() -> None:
    error = _check({"type": "teleport", "id": 12}, ErrorCode.PROTO_UNKNOWN_TYPE, 12)
    reply = p.error_reply(error)
    assert (reply.id, reply.code, reply.message) == (
        12,
        ErrorCode.PROTO_UNKNOWN_TYPE,
        error.message,
    )
    assert p.decode_server(p.encode(reply)) == reply


def test_long_error_messages_are_cut_to_the_limit() -> None:
    error = ProtocolError(ErrorCode.PROTO_INVALID, "x" * 10_000, 1)
    assert len(error.message) == limits.MAX_MESSAGE_CHARS
    assert p.decode_server(p.encode(p.error_reply(error))).type == "error"


@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_escape_as_other_errors(frame: bytes) -> None:
    try:
        p.decode_client(frame)
    except ProtocolError as error:
        assert error.code in ErrorCode


def test_a_ranking_line_without_decided_by_reads_as_none() -> None:
    """``decided_by`` came later than the rest of ``race_over``: a frame from a server
    that leaves it out still decodes, and a server that sends it round-trips."""
    line = p.PlayerResult(
        rank=2, seat=1, name="Bob", outcome="timeout", progress=61, progress_at_ms=5000,
        moves=180, finished_at_ms=9000, elapsed_ms=8000, log=(), decided_by="progress_time",
    )  # fmt: skip
    over = p.RaceOver(
        race_no=1, start_at_ms=1000, ended_at_ms=9000, seed="ab", seed_commit="cd" * 32,
        ranking=(line,),
    )  # fmt: skip
    frame = p.EventFrame(seq=9, event=over)
    assert p.decode_server(p.encode(frame)) == frame
    older = frame.model_dump()
    del older["event"]["ranking"][0]["decided_by"]
    decoded = p.decode_server(msgpack.packb(older))
    assert isinstance(decoded, p.EventFrame) and isinstance(decoded.event, p.RaceOver)
    (read,) = decoded.event.ranking
    assert read.decided_by is None
    assert read == line.model_copy(update={"decided_by": None})


def test_frames_without_the_hosts_early_end_read_as_not_ended_by_the_host() -> None:
    """``ended_by`` and ``ended_by_host`` came later: frames that leave them out still
    decode, as a race that ended otherwise, and frames that carry them round-trip."""
    over = p.RaceOver(
        race_no=1, start_at_ms=1000, ended_at_ms=9000, seed="ab", seed_commit="cd" * 32,
        ranking=(), ended_by_host=p.HostEnd(seat=0, elapsed_ms=8000),
    )  # fmt: skip
    stopped = p.PlayerFinished(seat=1, outcome="timeout", at_ms=9000, elapsed_ms=8000, ended_by=0)
    for event, field in ((over, "ended_by_host"), (stopped, "ended_by")):
        frame = p.EventFrame(seq=9, event=event)
        assert p.decode_server(p.encode(frame)) == frame
        older = frame.model_dump()
        del older["event"][field]
        decoded = p.decode_server(msgpack.packb(older))
        assert isinstance(decoded, p.EventFrame)
        assert decoded.event == event.model_copy(update={field: None})


def test_a_rematch_without_the_last_race_reads_as_none() -> None:
    """``last_race`` came later than the rest of ``rematch``: a frame that leaves it
    out still decodes, and one that carries it round-trips."""
    line = p.SummaryLine(rank=1, seat=0, name="Ann", outcome="won", progress=52, elapsed_ms=9)
    summary = p.RaceSummary(race_no=1, variant="little-milligan", ranking=(line,))
    frame = p.EventFrame(seq=9, event=p.Rematch(race_no=2, last_race=summary))
    assert p.decode_server(p.encode(frame)) == frame
    older = frame.model_dump()
    del older["event"]["last_race"]
    assert p.decode_server(msgpack.packb(older)) == p.EventFrame(seq=9, event=p.Rematch(race_no=2))


def test_decided_by_takes_only_the_named_comparisons() -> None:
    line = {
        "rank": 1, "seat": 0, "name": "Ann", "outcome": "won", "progress": 52,
        "progress_at_ms": 1, "moves": 1, "finished_at_ms": 1, "elapsed_ms": 1, "log": [],
        "decided_by": "luck",
    }  # fmt: skip
    over = {
        "type": "race_over", "race_no": 1, "start_at_ms": 0, "ended_at_ms": 1, "seed": "ab",
        "seed_commit": "cd" * 32, "ranking": [line],
    }  # fmt: skip
    with pytest.raises(ProtocolError) as caught:
        p.decode_server(msgpack.packb({"type": "event", "seq": 1, "event": over}))
    assert caught.value.code == ErrorCode.PROTO_INVALID


@pytest.mark.parametrize(
    ("data", "request_id"),
    [
        (msgpack.packb({"type": "ping", "id": 7}), 7),
        (msgpack.packb({"type": "nonsense", "id": 9, "extra": True}), 9),
        (msgpack.packb({"type": "ping", "id": -1}), None),
        (msgpack.packb({"type": "ping", "id": "7"}), None),
        (msgpack.packb([1, 2]), None),
        (b"\xc1", None),
        (msgpack.packb({"id": 3, "pad": "x" * limits.MAX_CLIENT_FRAME}), None),
    ],
)
def test_peek_request_id_reads_only_the_id(data: bytes, request_id: int | None) -> None:
    assert p.peek_request_id(data) == request_id
