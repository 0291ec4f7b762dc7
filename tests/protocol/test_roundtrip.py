"""Every message survives encode -> decode unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

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
        assert area in {"proto", "room", "auth", "move", "server"}
        assert what and what == what.lower()


def test_close_codes_are_standard_or_application_range() -> None:
    for code in p.CloseCode:
        assert 1000 <= code < 1016 or 4000 <= code < 5000
