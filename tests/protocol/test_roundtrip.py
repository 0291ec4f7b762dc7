"""Every message survives encode -> decode unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

import engine
import protocol as p
from tests.protocol import _strategies as s


def _members(union: Any) -> set[type[BaseModel]]:
    return set(get_args(get_args(union)[0]))


def test_strategies_cover_every_message_and_event() -> None:
    assert set(s.CLIENT) == _members(p.ClientMessage)
    assert set(s.SERVER) == _members(p.ServerMessage)
    assert set(s.EVENTS) == _members(p.RoomEvent)


@pytest.mark.parametrize("model", list(s.CLIENT), ids=lambda m: m.__name__)
@settings(max_examples=40)
@given(data=st.data())
def test_client_message_round_trip(model: type[BaseModel], data: st.DataObject) -> None:
    message = data.draw(s.CLIENT[model])
    assert p.decode_client(p.encode(message)) == message


@pytest.mark.parametrize("model", list(s.SERVER), ids=lambda m: m.__name__)
@settings(max_examples=40)
@given(data=st.data())
def test_server_message_round_trip(model: type[BaseModel], data: st.DataObject) -> None:
    message = data.draw(s.SERVER[model])
    assert p.decode_server(p.encode(message)) == message


@pytest.mark.parametrize("model", list(s.EVENTS), ids=lambda m: m.__name__)
@settings(max_examples=40)
@given(data=st.data(), seq=s.seqs)
def test_event_frame_wraps_a_stored_body(
    model: type[BaseModel], data: st.DataObject, seq: int
) -> None:
    event = data.draw(s.EVENTS[model])
    frame = p.encode_event_frame(seq, p.encode(event))
    assert p.decode_server(frame) == p.EventFrame(seq=seq, event=event)
    assert frame == p.encode(p.EventFrame(seq=seq, event=event))


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_board_view_mirrors_the_engine_view(variant: str) -> None:
    view = engine.view(engine.new_game(variant, b"board view"))
    board = p.BoardView.from_engine(view)
    assert board.model_dump() == {
        "variant": view.variant,
        "tableau": view.tableau,
        "foundations": view.foundations,
        "stock": view.stock,
        "waste": view.waste,
        "reserve": view.reserve,
        "reserve_hidden": view.reserve_hidden,
        "passes_left": view.passes_left,
        "base_rank": view.base_rank,
        "outcome": view.outcome,
        "progress": view.progress,
        "total": view.total,
    }
    assert list(p.BoardView.model_fields) == [f.name for f in dataclasses.fields(engine.View)]


AHEAD = {
    "little-forty": ["draw"],
    "little-milligan": ["deal"],
    "double-canfield-40": ["r f2"],
    "little-billie": ["t3 f2", "t11 f7", "t13 f4", "t15 f3", "t18 f2", "t1 f2", "t25 f1", "redeal"],
}
"""Moves on public deal 1 that turn up something of the deal's secret orders."""


def spectators_board(variant: str) -> engine.View:
    """A racer's board after those moves, seen while another racer has made none."""
    game = engine.TrackedGame.start(variant, b"deal:1")
    for text in AHEAD[variant]:
        game = game.apply(engine.Move.parse(text))
    other = engine.new_game(variant, b"deal:1")
    return engine.spectator_view(game, engine.seen_by_all([game.state, other]))


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_a_spectators_board_with_hidden_cards_round_trips(variant: str) -> None:
    view = spectators_board(variant)
    board = p.BoardView.from_engine(view)
    texts: list[str | None] = [*(card for pile in board.tableau for card in pile), *board.waste]
    texts += [*board.foundations, board.reserve]
    assert p.HIDDEN_CARD in texts
    shown = p.BoardShown(seat=1, board=board, version=2, at_ms=5)
    frame = p.encode_event_frame(7, p.encode(shown))
    assert p.decode_server(frame) == p.EventFrame(seq=7, event=shown)


@pytest.mark.parametrize("text", ["?", "???", "?c", "A?", "xx", "", "10h"])
def test_only_the_one_placeholder_stands_for_a_card(text: str) -> None:
    board = p.BoardView.from_engine(engine.view(engine.new_game("little-forty", b"deal:1")))
    data = board.model_dump()
    for field, value in (("waste", (text,)), ("reserve", text), ("tableau", ((text,),))):
        with pytest.raises(ValidationError):
            p.BoardView.model_validate({**data, field: value})


def test_the_placeholder_is_the_engines() -> None:
    assert p.HIDDEN_CARD == engine.HIDDEN_CARD == "??"


def test_defaults_match_the_shared_design() -> None:
    defaults = p.Settings()
    assert (defaults.max_players, defaults.time_limit_s) == (4, 900)
    assert (defaults.spectator_delay_s, defaults.countdown_s, defaults.deal_number) == (0, 3, None)
    assert p.PROTOCOL_VERSION == 1


def test_error_codes_are_area_slash_what_and_unique() -> None:
    values = [code.value for code in p.ErrorCode]
    assert len(values) == len(set(values))
    for value in values:
        area, _, what = value.partition("/")
        assert area in {"proto", "room", "auth", "account", "challenge", "move", "server"}
        assert what and what == what.lower()


def test_close_codes_are_standard_or_application_range() -> None:
    for code in p.CloseCode:
        assert 1000 <= code < 1016 or 4000 <= code < 5000
