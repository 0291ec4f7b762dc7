"""docs/protocol.md names every message, event, field and error code on the wire,
so a client can be written from it alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

import protocol as p

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


def _rows(title: str) -> dict[str, str]:
    """The first cell of each table row of a section, to the whole row."""
    rows = re.finditer(r"^\| `([a-z_]+)` \|.*$", _section(title), re.M)
    return {match.group(1): match.group(0) for match in rows}


def _members(union: Any) -> list[type[BaseModel]]:
    return list(get_args(get_args(union)[0]))


def _type_name(model: type[BaseModel]) -> str:
    default = model.model_fields["type"].default
    assert isinstance(default, str)
    return default


MESSAGES = [
    (section, model)
    for section, union in (
        ("Client messages", p.ClientMessage),
        ("Server messages", p.ServerMessage),
        ("Room events", p.RoomEvent),
    )
    for model in _members(union)
]


@pytest.mark.parametrize(("section", "model"), MESSAGES, ids=lambda v: getattr(v, "__name__", v))
def test_every_message_has_a_table_row_naming_its_fields(
    section: str, model: type[BaseModel]
) -> None:
    name = _type_name(model)
    row = _rows(section).get(name)
    assert row is not None, f"docs/protocol.md has no table row for `{name}`"
    missing = [f for f in model.model_fields if f != "type" and f"`{f}`" not in row]
    assert not missing, f"the row for `{name}` does not name {missing}"


@pytest.mark.parametrize("code", list(p.ErrorCode), ids=str)
def test_every_error_code_is_explained(code: p.ErrorCode) -> None:
    assert f"| `{code.value}` |" in DOC


VALUES = [p.Settings, p.PlayerInfo, p.RoomSnapshot]


@pytest.mark.parametrize("model", VALUES, ids=lambda m: m.__name__)
def test_every_field_of_a_shared_value_is_in_its_table(model: type[BaseModel]) -> None:
    missing = [f for f in model.model_fields if f"| `{f}` |" not in DOC]
    assert not missing, f"{model.__name__}: {missing}"


RECORDS = [
    p.GameRating,
    p.AccountInfo,
    p.HistoryEntry,
    p.BestTime,
    p.Profile,
    p.LeaderboardRow,
    p.RatingChange,
    p.SeatRating,
    p.ChallengeRun,
    p.ChallengeInfo,
]


@pytest.mark.parametrize("model", RECORDS, ids=lambda m: m.__name__)
def test_every_account_value_names_its_fields(model: type[BaseModel]) -> None:
    start = DOC.index(f"**{model.__name__}**")
    paragraph = DOC[start : DOC.index("\n\n", start)]
    missing = [f for f in model.model_fields if f"`{f}`" not in paragraph]
    assert not missing, f"{model.__name__}: {missing}"
